// One contract for every graph store — the embedded tables (PGlite, and Postgres when
// TEST_DATABASE_URL is set) and Neo4j (TEST_NEO4J_ADDRESS, test/infra/neo4j.sh) — on a small graph
// and on the real code graph of this repository's engine, checked against the in-memory graph.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '@codehealth/engine';
import type { CodeGraph } from '@codehealth/engine';
import { storedGraphOf, type GraphStore, type StoredGraph } from '../ports/graph-store.js';
import { createTestDatabase, testPostgresUrl, type TestDatabase } from '../store/test-database.js';
import { EmbeddedGraphStore } from './embedded-graph-store.js';
import { importCycles, runGraphRules } from './graph-rules.js';
import { Neo4jGraphStore } from './neo4j-graph-store.js';
import { both, changed } from '../pr/fixtures/graph.js';
import { computeGraphImpact, storedImporters } from '@codehealth/engine/internal';

const neo4jAddress = process.env.TEST_NEO4J_ADDRESS;
if (!neo4jAddress) console.warn('Neo4j graph store suite skipped: TEST_NEO4J_ADDRESS is not set (start a server with test/infra/neo4j.sh)');

const SMALL: StoredGraph = {
  files: ['src/a.ts', 'src/b.ts', 'src/c.ts', 'src/d.ts', 'lib/x.ts', 'lib/y.ts'],
  symbols: [
    { file: 'src/a.ts', name: 'a', kind: 'function', exported: true, lineStart: 3, lineEnd: 5 },
    { file: 'src/b.ts', name: 'B.run', kind: 'method', exported: false, lineStart: 2, lineEnd: 9 },
  ],
  imports: [
    { from: 'src/b.ts', to: 'src/a.ts', kind: 'static', names: ['a'], aliases: [], typeOnly: false, line: 1 },
    { from: 'src/c.ts', to: 'src/b.ts', kind: 'static', names: ['B'], aliases: [], typeOnly: false, line: 2 },
    { from: 'src/d.ts', to: 'src/c.ts', kind: 'type', names: ['c'], aliases: [], typeOnly: true, line: 1 },
    { from: 'src/a.ts', to: 'src/c.ts', kind: 'static', names: ['c'], aliases: [], typeOnly: false, line: 4 },
    { from: 'lib/x.ts', to: 'src/a.ts', kind: 're-export', names: ['a'], aliases: [['a', 'alpha']], typeOnly: false, line: 1 },
    { from: 'lib/x.ts', to: 'src/a.ts', kind: 'static', names: ['default'], aliases: [], typeOnly: false, line: 7 },
    { from: 'src/d.ts', to: 'lib/y.ts', kind: 'static', names: ['y'], aliases: [], typeOnly: false, line: 3 },
  ],
  calls: [
    { from: 'src/b.ts', caller: 'B.run', to: 'src/a.ts', name: 'a', line: 4, count: 2 },
    { from: 'src/b.ts', caller: '', to: 'src/a.ts', name: 'a', line: 11, count: 1 },
    { from: 'src/d.ts', caller: 'main', to: 'lib/y.ts', name: 'y', line: 5, count: 1 },
  ],
};

let engineGraph: Promise<CodeGraph> | undefined;
/** The engine's own code graph, analysed once per test process. */
function realGraph(): Promise<CodeGraph> {
  engineGraph ??= createEngine({ cacheDir: false, workers: 0 }).then(
    async (engine) => (await engine.analyze(fileURLToPath(new URL('..', import.meta.url)), { allowCodeConfig: false })).graph,
  );
  return engineGraph;
}

function graphStoreContract(
  name: string,
  open: () => Promise<{ store: GraphStore; repository(): Promise<string>; dispose(): Promise<void> }>,
  skip = false,
): void {
  describe.skipIf(skip)(`graph store contract: ${name}`, () => {
    let store: GraphStore;
    let repository: () => Promise<string>;
    let dispose: () => Promise<void>;
    beforeAll(async () => {
      ({ store, repository, dispose } = await open());
    }, 60_000);
    afterAll(async () => {
      await store?.close();
      await dispose?.();
    });

    it('stores a snapshot per repository and answers dependents, import pairs and layering', async () => {
      const repo = await repository();
      expect(await store.commitOf(repo)).toBeUndefined();
      await store.writeSnapshot({ repositoryId: repo, commitSha: 'c1', graph: SMALL });
      expect(await store.commitOf(repo)).toBe('c1');
      expect(await store.dependents({ repositoryId: repo, files: ['src/a.ts'], maxDepth: 1 })).toEqual([
        { path: 'lib/x.ts', depth: 1 },
        { path: 'src/b.ts', depth: 1 },
      ]);
      expect(await store.dependents({ repositoryId: repo, files: ['src/a.ts'], maxDepth: 5 })).toEqual([
        { path: 'lib/x.ts', depth: 1 },
        { path: 'src/b.ts', depth: 1 },
        { path: 'src/c.ts', depth: 2 },
        { path: 'src/d.ts', depth: 3 },
      ]);
      expect(await store.importPairs(repo)).toContainEqual({ from: 'lib/x.ts', to: 'src/a.ts', line: 1 });
      expect(importCycles(await store.importPairs(repo))).toEqual([
        { members: ['src/a.ts', 'src/c.ts', 'src/b.ts'], chain: ['src/a.ts', 'src/c.ts', 'src/b.ts'] },
      ]);
      expect(await store.layering(repo)).toEqual([
        { from: 'lib', to: 'src', imports: 2 },
        { from: 'src', to: 'lib', imports: 1 },
      ]);
    });

    it('answers the import, export and call edges into files and exports, with kinds and aliases', async () => {
      const repo = await repository();
      await store.writeSnapshot({ repositoryId: repo, commitSha: 'c1', graph: SMALL });
      const importers = await store.importersOf({ repositoryId: repo, paths: ['src/a.ts', 'lib/y.ts', 'lib/x.ts'] });
      expect(importers.get('src/a.ts')).toEqual([
        { from: 'lib/x.ts', kind: 're-export', names: ['a'], aliases: [['a', 'alpha']] },
        { from: 'lib/x.ts', kind: 'static', names: ['default'], aliases: [] },
        { from: 'src/b.ts', kind: 'static', names: ['a'], aliases: [] },
      ]);
      expect(importers.get('lib/y.ts')).toEqual([{ from: 'src/d.ts', kind: 'static', names: ['y'], aliases: [] }]);
      expect(importers.get('lib/x.ts')).toEqual([]);
      expect(
        await store.callsInto({
          repositoryId: repo,
          targets: [
            { file: 'src/a.ts', name: 'a' },
            { file: 'lib/y.ts', name: 'nope' },
          ],
        }),
      ).toEqual([
        { from: 'src/b.ts', caller: 'B.run', to: 'src/a.ts', name: 'a', line: 4, count: 2 },
        { from: 'src/b.ts', caller: '', to: 'src/a.ts', name: 'a', line: 11, count: 1 },
      ]);
    });

    it('replaces a repository snapshot atomically and keeps repositories apart', async () => {
      const [one, two] = [await repository(), await repository()];
      await store.writeSnapshot({ repositoryId: one, commitSha: 'c1', graph: SMALL });
      await store.writeSnapshot({
        repositoryId: two,
        commitSha: 'other',
        graph: {
          files: ['src/a.ts', 'src/z.ts'],
          symbols: [],
          imports: [{ from: 'src/z.ts', to: 'src/a.ts', kind: 'side-effect', names: [], aliases: [], typeOnly: false, line: 1 }],
          calls: [],
        },
      });
      await store.writeSnapshot({
        repositoryId: one,
        commitSha: 'c2',
        graph: {
          files: ['src/a.ts', 'src/b.ts'],
          symbols: [],
          imports: [{ from: 'src/b.ts', to: 'src/a.ts', kind: 'static', names: ['a'], aliases: [], typeOnly: false, line: 1 }],
          calls: [],
        },
      });
      expect(await store.commitOf(one)).toBe('c2');
      expect(await store.dependents({ repositoryId: one, files: ['src/a.ts'], maxDepth: 3 })).toEqual([{ path: 'src/b.ts', depth: 1 }]);
      expect(await store.dependents({ repositoryId: two, files: ['src/a.ts'], maxDepth: 3 })).toEqual([{ path: 'src/z.ts', depth: 1 }]);
      expect(await store.callsInto({ repositoryId: one, targets: [{ file: 'src/a.ts', name: 'a' }] })).toEqual([]);
      await store.deleteRepository(one);
      expect(await store.commitOf(one)).toBeUndefined();
      expect(await store.importPairs(one)).toEqual([]);
      expect(await store.commitOf(two)).toBe('other');
    });

    it('turns cycles into graph_rule issues anchored on the real import line', async () => {
      const repo = await repository();
      await store.writeSnapshot({ repositoryId: repo, commitSha: 'c1', graph: SMALL });
      const files: Record<string, string> = {
        'src/a.ts': "import x from 'y';\n// two\n// three\nimport { c } from './c.js';\n",
        'src/d.ts': "a\nb\nimport { y } from '../lib/y.js';\n",
      };
      const findings = await runGraphRules(store, { repositoryId: repo, readFile: async (path) => files[path] });
      expect(findings.map((f) => [f.ruleId, f.source, f.filePath, f.anchor.lineStart, f.anchor.validated, f.anchor.codeSnippet])).toEqual([
        ['graph/import-cycle', 'graph_rule', 'src/a.ts', 4, true, "import { c } from './c.js';"],
        ['graph/layer-cycle', 'graph_rule', 'src/d.ts', 3, true, "import { y } from '../lib/y.js';"],
      ]);
      expect(findings[0]!.description).toBe('These modules import each other in a cycle: src/a.ts → src/c.ts → src/b.ts → src/a.ts.');
      expect(findings[1]!.title).toBe('src and lib depend on each other');
      expect(findings[1]!.description).toBe('src imports lib 1 time(s) and lib imports src 2 time(s); for example src/d.ts imports lib/y.ts.');
    });

    it('holds the real code graph of the engine: dependents and cycles as the in-memory graph has them', async () => {
      const graph = await realGraph();
      const repo = await repository();
      await store.writeSnapshot({ repositoryId: repo, commitSha: 'engine', graph: storedGraphOf(graph) });
      for (const target of ['services/errors.ts', 'ports/graph-store.ts', 'store/database.ts']) {
        const stored = await store.dependents({ repositoryId: repo, files: [target], maxDepth: 2 });
        expect(stored.map((d) => d.path).sort()).toEqual([...graph.dependentsOf(target, 2)].sort());
      }
      const cycles = importCycles(await store.importPairs(repo)).map((c) => [...c.members].sort());
      expect(cycles.sort()).toEqual(
        graph.cycles
          .map((c) => [...c].sort())
          .filter((c) => c.length > 1)
          .sort(),
      );
      // Graph impact walked with the store's queries equals the walk over the graph in memory.
      const files = [
        changed('services/errors.ts', { symbols: both('NotFoundError', 31, 36, true, 'class') }),
        changed('ports/graph-store.ts', { symbols: both('storedGraphOf', 90, 100) }),
      ];
      const inMemory = await computeGraphImpact({ files, graph });
      const source = storedImporters(store, repo);
      const fromStore = await computeGraphImpact({ files, graph, sources: { head: source, base: source } });
      expect(fromStore).toEqual(inMemory);
      expect(inMemory.dependents_count).toBeGreaterThan(5);
      expect(inMemory.summary).toMatch(/storedGraphOf \(ports\/graph-store\.ts, changed\): \d+ dependents?, up to \d hops?, called by \d+ functions?/);
    }, 120_000);

    it('answers its health check', async () => {
      await expect(store.check()).resolves.toBeUndefined();
    });
  });
}

function embedded(kind: 'pglite' | 'postgres') {
  return async () => {
    const db: TestDatabase = await createTestDatabase(kind);
    return {
      store: new EmbeddedGraphStore(db.db),
      async repository() {
        const id = randomUUID();
        await db.db.query("INSERT INTO repositories (id, provider, owner, name, full_name, url, clone_url) VALUES ($1, 'local', 'acme', $2, $3, $4, $4)", [
          id,
          `r-${id.slice(0, 8)}`,
          `acme/r-${id.slice(0, 8)}`,
          `file:///tmp/${id}`,
        ]);
        return id;
      },
      dispose: () => db.dispose(),
    };
  };
}

graphStoreContract('embedded [pglite]', embedded('pglite'));
graphStoreContract('embedded [postgres]', embedded('postgres'), !testPostgresUrl());
graphStoreContract(
  'Neo4j',
  async () => ({ store: new Neo4jGraphStore({ address: neo4jAddress! }), repository: async () => randomUUID(), dispose: async () => {} }),
  !neo4jAddress,
);

describe('Neo4j unreachable', () => {
  it('fails its health check with a clear message', async () => {
    const store = new Neo4jGraphStore({ address: '127.0.0.1:9' });
    try {
      await expect(store.check()).rejects.toThrow(/^Neo4j at GRAPH_DB_HOST does not answer/);
    } finally {
      await store.close();
    }
  }, 20_000);
});
