// What the engine may import (issue 19: dependencies point one way, hosts → service → engine).
// The application layer (api, services, store, adapters, ports) lives in @codehealth/service
// (packages/service); the engine — contracts, parsing, graph, pipeline, scoring, drift, reports,
// the PR analysis — must not bring it back, nor load a database, cache, graph, model or code-host
// client, nor import the service or a host package.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('.', import.meta.url));
const packagesDir = resolve(src, '../..');

/** Top-level folders of src that are the application layer: none (they moved to @codehealth/service). */
const APPLICATION_LAYER = new Set<string>([]);
/** The folders the application layer had here: a new file there brings it back. */
const MOVED_OUT = ['api', 'services', 'server', 'store', 'cache-adapters', 'graph-store', 'llm', 'code-hosts', 'ports'];
/** Client libraries of the adapters: only the application layer may load them. */
const ADAPTER_CLIENTS = /^(@electric-sql\/pglite|postgres|ioredis|neo4j-driver|openai|@octokit\/)/;

/** Wrong-way edges known today (issue 19): none — a new one fails this test. */
const KNOWN_WRONG_WAY: string[] = [];

const isTest = (path: string) => path.endsWith('.test.ts') || path.split('/').includes('fixtures');
const sources = (readdirSync(src, { recursive: true }) as string[]).filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts')).sort();
const topOf = (path: string) => (path.includes('/') ? path.split('/')[0]! : path);

/** Module specifiers a file imports or re-exports, statically or with a literal import(). */
function specifiersOf(path: string): string[] {
  const text = readFileSync(join(src, path), 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\s[^;]*?\bfrom\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm)) {
    found.push((match[1] ?? match[2] ?? match[3])!);
  }
  return found;
}

describe('@codehealth/engine boundaries', () => {
  it('reads the imports it judges (the scan sees the package)', () => {
    expect(sources.filter((p) => !isTest(p)).length).toBeGreaterThan(150);
    expect(specifiersOf('pr/stacking.ts')).toContain('./diff-git.js');
  });

  it('holds no application layer (it is @codehealth/service)', () => {
    expect(sources.filter((p) => MOVED_OUT.includes(topOf(p)))).toEqual([]);
  });

  it('the analysis core imports the application layer only through the known edges', () => {
    const edges: string[] = [];
    for (const path of sources.filter((p) => !isTest(p) && !APPLICATION_LAYER.has(topOf(p)))) {
      for (const spec of specifiersOf(path)) {
        if (!spec.startsWith('.')) continue;
        const target = relative(src, resolve(dirname(join(src, path)), spec));
        if (APPLICATION_LAYER.has(topOf(target))) edges.push(`${path} -> ${target}`);
      }
    }
    expect(edges.sort()).toEqual([...KNOWN_WRONG_WAY].sort());
  });

  it('the analysis core loads no database, cache, graph, model or code-host client', () => {
    const offenders = sources
      .filter((p) => !isTest(p) && !APPLICATION_LAYER.has(topOf(p)))
      .flatMap((path) =>
        specifiersOf(path)
          .filter((spec) => ADAPTER_CLIENTS.test(spec))
          .map((spec) => `${path} -> ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it('never reaches into another package’s files, and depends on no host package', () => {
    const offenders: string[] = [];
    for (const path of sources) {
      for (const spec of specifiersOf(path)) {
        // The repository's shared test helpers (test/helpers) are no package; another package's folder is.
        const target = spec.startsWith('.') ? resolve(dirname(join(src, path)), spec) : '';
        const escapes = target.startsWith(packagesDir + '/') && !target.startsWith(resolve(src, '..') + '/');
        const host = /^@codehealth\/(http|worker|cli|web|service)(\/|$)/.test(spec);
        // The default analyzers are a plugin loaded by name at run time, never imported.
        const analyzers = !isTest(path) && /^@codehealth\/analyzers(\/|$)/.test(spec);
        if (escapes || host || analyzers) offenders.push(`${path} -> ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
