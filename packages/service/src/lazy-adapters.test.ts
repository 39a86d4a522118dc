// The adapters' clients load only when configured (issue 19): importing the built
// @codehealth/service entry must load none of openai, @octokit/rest, neo4j-driver, ioredis, postgres
// and PGlite — each is imported dynamically by its adapter when the adapter is built, first used or
// (the stores) opened. A plain Node
// process imports the entry with a resolve hook that writes down every module it resolves (ESM),
// and lists the CommonJS modules in require's cache; then it imports the four packages itself, so
// the test also shows that the probe sees each of them when one is loaded.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithoutBuild } from '../../../test/helpers/built-packages.js';

const CLIENTS = ['openai', '@octokit/rest', 'neo4j-driver', 'ioredis', 'postgres', '@electric-sql/pglite'];
const repoRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const builtEntry = new URL('../dist/index.js', import.meta.url);
const work = mkdtempSync(join(tmpdir(), 'codehealth-lazy-adapters-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs in the loader's thread: appends each resolved module's URL to the file named at registration. */
const HOOKS = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, JSON.stringify({ specifier, url: result.url }) + '\\n');
  return result;
}`;

/** The child: the entry by its package name (the default condition, so dist), what loaded; then the clients themselves, what loaded. */
const PROBE = `
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [log, clients] = [process.argv[1], JSON.parse(process.argv[2])];
function loadedClients() {
  const resolved = readFileSync(log, 'utf8').split('\\n').filter(Boolean).map((line) => JSON.parse(line));
  const cjs = Object.keys(createRequire(import.meta.url).cache).map((path) => pathToFileURL(path).href);
  return clients.filter((name) =>
    resolved.some(({ specifier }) => specifier === name || specifier.startsWith(name + '/')) ||
    [...resolved.map(({ url }) => url), ...cjs].some((url) => url.includes('/node_modules/' + name + '/')),
  );
}
const service = await import('@codehealth/service');
const afterEntry = loadedClients();
const entry = import.meta.resolve('@codehealth/service');
for (const name of clients) await import(name);
console.log(JSON.stringify({ entry, exports: Object.keys(service).length, afterEntry, afterImports: loadedClients() }));`;

function probe(): { entry: string; exports: number; afterEntry: string[]; afterImports: string[] } {
  const log = join(work, 'resolved.jsonl');
  writeFileSync(log, '');
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(HOOKS)}`)}, { data: { log: ${JSON.stringify(log)} } });`;
  const out = execFileSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', PROBE, log, JSON.stringify(CLIENTS)],
    // The repository root: @codehealth/service resolves through the workspace link, as an installed package does.
    { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
  );
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

describe.skipIf(skipWithoutBuild('the lazy-adapter probe', [builtEntry]))('@codehealth/service loads adapter clients only when configured', () => {
  // In beforeAll: a skipped suite's body still runs at collection, its hooks do not.
  let result: ReturnType<typeof probe>;
  beforeAll(() => {
    result = probe();
  });

  it('imports the built entry (not the sources) and sees its exports', () => {
    expect(result.entry).toBe(builtEntry.href);
    expect(result.exports).toBeGreaterThan(100);
  });

  it('loads none of openai, @octokit/rest, neo4j-driver, ioredis, postgres and PGlite when the entry is imported', () => {
    expect(result.afterEntry).toEqual([]);
  });

  it('sees each client once it is loaded (the probe can fail)', () => {
    expect(result.afterImports).toEqual(CLIENTS);
  });
});
