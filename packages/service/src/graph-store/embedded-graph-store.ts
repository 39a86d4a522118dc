// The embedded graph store: the code graph in tables of the relational store (migrations 0002, 0003),
// replaced per repository in one transaction, queried level by level with SQL. Rows go in chunks
// with a turn of the event loop between them: one statement of a large repository's 10,000s of
// symbols held PGlite (and so the main thread) for over half a second.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Database, Sql } from '../store/database.js';
import type { ImportKind } from '@codehealth/engine/internal';
import {
  layerOf,
  MAX_DEPENDENT_DEPTH,
  type Dependent,
  type GraphStore,
  type ImpactEdge,
  type ImportPair,
  type LayerEdge,
  type StoredCall,
  type StoredGraph,
} from '../ports/graph-store.js';

/** Graph rows per statement: ~20–50 ms of the embedded store's time each. */
export const GRAPH_CHUNK_ROWS = 2_000;

async function inChunks(tx: Sql, statement: string, repositoryId: string, rows: readonly unknown[]): Promise<void> {
  for (let start = 0; start < rows.length; start += GRAPH_CHUNK_ROWS) {
    await tx.query(statement, [repositoryId, rows.slice(start, start + GRAPH_CHUNK_ROWS)]);
    await yieldToEventLoop();
  }
}

export class EmbeddedGraphStore implements GraphStore {
  constructor(private readonly db: Database) {}

  async writeSnapshot({ repositoryId, commitSha, graph }: { repositoryId: string; commitSha: string; graph: StoredGraph }): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM graph_snapshots WHERE repository_id = $1', [repositoryId]);
      await tx.query('INSERT INTO graph_snapshots (repository_id, commit_sha, files, imports, calls) VALUES ($1, $2, $3, $4, $5)', [
        repositoryId,
        commitSha,
        graph.files.length,
        graph.imports.length,
        graph.calls.length,
      ]);
      // One statement per chunk: the rows travel as one jsonb parameter.
      await inChunks(
        tx,
        'INSERT INTO graph_files (repository_id, path) SELECT $1, p FROM jsonb_array_elements_text($2::jsonb) AS p',
        repositoryId,
        graph.files,
      );
      await inChunks(
        tx,
        `INSERT INTO graph_symbols (repository_id, file_path, name, kind, exported, line_start, line_end)
         SELECT $1, s.file, s.name, s.kind, s.exported, s."lineStart", s."lineEnd"
           FROM jsonb_to_recordset($2::jsonb) AS s(file text, name text, kind text, exported boolean, "lineStart" int, "lineEnd" int)`,
        repositoryId,
        graph.symbols,
      );
      await inChunks(
        tx,
        `INSERT INTO graph_imports (repository_id, from_path, to_path, kind, names, aliases, type_only, line)
         SELECT $1, i."from", i."to", i.kind, i.names, i.aliases, i."typeOnly", i.line
           FROM jsonb_to_recordset($2::jsonb) AS i("from" text, "to" text, kind text, names jsonb, aliases jsonb, "typeOnly" boolean, line int)`,
        repositoryId,
        graph.imports,
      );
      await inChunks(
        tx,
        `INSERT INTO graph_calls (repository_id, from_path, caller, to_path, name, line, count)
         SELECT $1, c."from", c.caller, c."to", c.name, c.line, c.count
           FROM jsonb_to_recordset($2::jsonb) AS c("from" text, caller text, "to" text, name text, line int, count int)`,
        repositoryId,
        graph.calls,
      );
    });
  }

  async commitOf(repositoryId: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ commit_sha: string }>('SELECT commit_sha FROM graph_snapshots WHERE repository_id = $1', [repositoryId]);
    return row?.commit_sha;
  }

  async dependents({ repositoryId, files, maxDepth }: { repositoryId: string; files: readonly string[]; maxDepth: number }): Promise<Dependent[]> {
    const depthOf = new Map<string, number>(files.map((f) => [f, 0]));
    let frontier = [...new Set(files)];
    for (let depth = 1; depth <= Math.min(maxDepth, MAX_DEPENDENT_DEPTH) && frontier.length > 0; depth++) {
      const rows = await this.db.query<{ from_path: string }>(
        'SELECT DISTINCT from_path FROM graph_imports WHERE repository_id = $1 AND to_path IN (SELECT jsonb_array_elements_text($2::jsonb))',
        [repositoryId, frontier],
      );
      frontier = rows.map((r) => r.from_path).filter((p) => !depthOf.has(p));
      for (const path of frontier) depthOf.set(path, depth);
    }
    return [...depthOf]
      .filter(([, d]) => d > 0)
      .map(([path, depth]) => ({ path, depth }))
      .sort((a, b) => a.depth - b.depth || a.path.localeCompare(b.path));
  }

  async importPairs(repositoryId: string): Promise<ImportPair[]> {
    const rows = await this.db.query<{ from_path: string; to_path: string; line: number }>(
      'SELECT from_path, to_path, min(line)::int AS line FROM graph_imports WHERE repository_id = $1 GROUP BY from_path, to_path ORDER BY from_path, to_path',
      [repositoryId],
    );
    return rows.map((r) => ({ from: r.from_path, to: r.to_path, line: r.line }));
  }

  async layering(repositoryId: string): Promise<LayerEdge[]> {
    const pairs = await this.db.query<{ from_path: string; to_path: string; n: number }>(
      'SELECT from_path, to_path, count(*)::int AS n FROM graph_imports WHERE repository_id = $1 GROUP BY from_path, to_path',
      [repositoryId],
    );
    return aggregateLayers(pairs.map((p) => ({ from: p.from_path, to: p.to_path, n: p.n })));
  }

  async importersOf({ repositoryId, paths }: { repositoryId: string; paths: readonly string[] }): Promise<Map<string, ImpactEdge[]>> {
    const rows = await this.db.query<{ from_path: string; to_path: string; kind: ImportKind; names: string[]; aliases: Array<[string, string]> }>(
      `SELECT from_path, to_path, kind, names, aliases FROM graph_imports
        WHERE repository_id = $1 AND to_path IN (SELECT jsonb_array_elements_text($2::jsonb)) AND from_path <> to_path
        ORDER BY to_path, from_path, line`,
      [repositoryId, [...new Set(paths)]],
    );
    const out = new Map<string, ImpactEdge[]>(paths.map((p) => [p, []]));
    for (const r of rows) out.get(r.to_path)?.push({ from: r.from_path, kind: r.kind, names: r.names, aliases: r.aliases });
    return out;
  }

  async callsInto({ repositoryId, targets }: { repositoryId: string; targets: ReadonlyArray<{ file: string; name: string }> }): Promise<StoredCall[]> {
    if (targets.length === 0) return [];
    const rows = await this.db.query<{ from_path: string; caller: string; to_path: string; name: string; line: number; count: number }>(
      `SELECT c.from_path, c.caller, c.to_path, c.name, c.line, c.count FROM graph_calls c
         JOIN jsonb_to_recordset($2::jsonb) AS t(file text, name text) ON c.to_path = t.file AND c.name = t.name
        WHERE c.repository_id = $1 ORDER BY c.to_path, c.name, c.from_path, c.line`,
      [repositoryId, targets.map(({ file, name }) => ({ file, name }))],
    );
    return rows.map((r) => ({ from: r.from_path, caller: r.caller, to: r.to_path, name: r.name, line: r.line, count: r.count }));
  }

  async deleteRepository(repositoryId: string): Promise<void> {
    await this.db.query('DELETE FROM graph_snapshots WHERE repository_id = $1', [repositoryId]);
  }

  async check(): Promise<void> {
    await this.db.query('SELECT 1 FROM graph_snapshots LIMIT 1');
  }

  async close(): Promise<void> {}
}

/** Import counts between different layers, largest first (ties by name). */
export function aggregateLayers(pairs: ReadonlyArray<{ from: string; to: string; n: number }>): LayerEdge[] {
  const counts = new Map<string, LayerEdge>();
  for (const { from, to, n } of pairs) {
    const [a, b] = [layerOf(from), layerOf(to)];
    if (a === b) continue;
    const key = `${a}\0${b}`;
    const edge = counts.get(key) ?? { from: a, to: b, imports: 0 };
    edge.imports += n;
    counts.set(key, edge);
  }
  return [...counts.values()].sort((x, y) => y.imports - x.imports || x.from.localeCompare(y.from) || x.to.localeCompare(y.to));
}
