// What @codehealth/service may import (issue 19: dependencies point one way, hosts → service →
// engine). The engine only through its package exports (the root, /kit, /testing, and the unstable
// /internal the service builds on), never its files; no host package (http, worker, cli, web); no
// other package's files. A new edge that points the wrong way fails here.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('.', import.meta.url));
const packageDir = resolve(src, '..');
const packagesDir = resolve(packageDir, '..');

const isTest = (path: string) => path.endsWith('.test.ts') || path.split('/').includes('fixtures');
const sources = (readdirSync(src, { recursive: true }) as string[]).filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts')).sort();

/** Module specifiers a file imports or re-exports, statically or with a literal import(). */
function specifiersOf(path: string): string[] {
  const text = readFileSync(join(src, path), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\s[^;]*?\bfrom\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm)) {
    found.push((match[1] ?? match[2] ?? match[3])!);
  }
  return found;
}

/** The names of an export or import list (`a, type B, c as d` → a, B, c). */
const namesOf = (list: string): string[] =>
  list
    .split(',')
    .map(
      (item) =>
        item
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!,
    )
    .filter(Boolean);

/** The engine's package exports (package.json `exports`): the only doors into it. */
const engineExports = Object.keys(JSON.parse(readFileSync(resolve(packagesDir, 'engine/package.json'), 'utf8')).exports as Record<string, unknown>).map(
  (key) => (key === '.' ? '@codehealth/engine' : `@codehealth/engine/${key.slice(2)}`),
);

describe('@codehealth/service boundaries', () => {
  it('reads the imports it judges (the scan sees the package)', () => {
    expect(sources.filter((p) => !isTest(p)).length).toBeGreaterThan(80);
    expect(specifiersOf('index.ts')).toContain('@codehealth/engine/internal');
  });

  it('imports the engine only through its package exports', () => {
    const offenders = sources.flatMap((path) =>
      specifiersOf(path)
        .filter((spec) => /^@codehealth\/engine(\/|$)/.test(spec) && !engineExports.includes(spec))
        .map((spec) => `${path} -> ${spec}`),
    );
    expect(engineExports).toEqual(expect.arrayContaining(['@codehealth/engine', '@codehealth/engine/internal']));
    expect(offenders).toEqual([]);
  });

  it('imports no host package (http, worker, cli, web) and no analyzers', () => {
    const offenders = sources.flatMap((path) =>
      specifiersOf(path)
        .filter((spec) => /^@codehealth\/(http|worker|cli|web)(\/|$)/.test(spec) || (!isTest(path) && /^@codehealth\/analyzers(\/|$)/.test(spec)))
        .map((spec) => `${path} -> ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('loads the adapters’ clients (openai, @octokit/rest, neo4j-driver, ioredis, postgres, PGlite) only with import() or `import type`', () => {
    // A value import would load the client with the package's entry; lazy-adapters.test.ts checks the built entry at run time.
    const clients = ['openai', '@octokit/rest', 'neo4j-driver', 'ioredis', 'postgres', '@electric-sql/pglite'];
    const offenders = sources
      .filter((path) => !isTest(path))
      .flatMap((path) =>
        [...readFileSync(join(src, path), 'utf8').matchAll(/^\s*(?:import|export)\s+(?!type\s)[^;]*?\bfrom\s+'([^']+)'|^\s*import\s+'([^']+)'/gm)]
          .map((match) => (match[1] ?? match[2])!)
          .filter((spec) => clients.some((client) => spec === client || spec.startsWith(`${client}/`)))
          .map((spec) => `${path} -> ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it('uses every name of @codehealth/engine/internal, and takes from the root what the root exports', async () => {
    // The unstable subpath holds only what the service builds on: a name nobody imports goes (issue 19).
    const internalText = readFileSync(resolve(packagesDir, 'engine/src/internal.ts'), 'utf8');
    const offered = [...internalText.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}\s*from/gm)].flatMap((match) => namesOf(match[1]!));
    const imported = new Set<string>();
    for (const path of sources) {
      const text = readFileSync(join(src, path), 'utf8');
      for (const match of text.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'@codehealth\/engine\/internal'/gm))
        namesOf(match[1]!).forEach((name) => imported.add(name));
      // `import type * as domain from '…/internal'`: the names used as domain.X.
      const namespace = /^\s*import\s+(?:type\s+)?\*\s+as\s+(\w+)\s+from\s+'@codehealth\/engine\/internal'/m.exec(text)?.[1];
      if (namespace) for (const match of text.matchAll(new RegExp(`\\b${namespace}\\.(\\w+)`, 'g'))) imported.add(match[1]!);
    }
    expect(offered.length).toBeGreaterThan(50);
    expect(offered.filter((name) => !imported.has(name))).toEqual([]);
    const [root, internal] = await Promise.all([import('@codehealth/engine'), import('@codehealth/engine/internal')]);
    expect(Object.keys(internal).filter((name) => name in root)).toEqual([]);
  });

  it('never reaches into another package’s files', () => {
    const offenders: string[] = [];
    for (const path of sources) {
      for (const spec of specifiersOf(path)) {
        if (!spec.startsWith('.')) continue;
        // The repository's shared test helpers (test/helpers, test/infra) are no package; another package's folder is.
        const target = resolve(dirname(join(src, path)), spec);
        if (target.startsWith(packagesDir + '/') && !target.startsWith(packageDir + '/')) offenders.push(`${path} -> ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
