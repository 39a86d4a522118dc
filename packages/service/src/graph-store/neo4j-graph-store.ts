// The self-hosted graph store on Neo4j (`GRAPH_DB_HOST`, neo4j-driver over Bolt): (:File) and
// (:Symbol) nodes per repository, (:File)-[:IMPORTS {kind, names, aliases}]->(:File) edges (kind
// `re-export`/`re-export-all` are the export edges), (:File)-[:CALLS {caller, name}]->(:File) call
// edges, (:File)-[:DECLARES]->(:Symbol), and one (:GraphSnapshot) per repository naming its commit. A snapshot replaces the
// repository's subgraph in one transaction; rows go in batches with UNWIND; every value is a query
// parameter (never spliced into Cypher). Indexes are created idempotently on first use.
// neo4j-driver is loaded when a store is constructed (a dynamic import): a host whose graph lives in
// the relational store never loads it.
import type { Driver, ManagedTransaction } from 'neo4j-driver';
import { UnavailableError } from '../services/errors.js';
import type { ImportKind } from '@codehealth/engine/internal';
import {
  MAX_DEPENDENT_DEPTH,
  type Dependent,
  type GraphStore,
  type ImpactEdge,
  type ImportPair,
  type LayerEdge,
  type StoredCall,
  type StoredGraph,
} from '../ports/graph-store.js';
import { aggregateLayers } from './embedded-graph-store.js';

const BATCH = 2_000;
const SCHEMA = [
  'CREATE INDEX codehealth_file IF NOT EXISTS FOR (f:File) ON (f.repositoryId, f.path)',
  'CREATE INDEX codehealth_symbol IF NOT EXISTS FOR (s:Symbol) ON (s.repositoryId, s.file)',
  'CREATE INDEX codehealth_snapshot IF NOT EXISTS FOR (g:GraphSnapshot) ON (g.repositoryId)',
];

export interface Neo4jGraphStoreOptions {
  /** `host:port` of the Bolt connector (`GRAPH_DB_HOST`). */
  address: string;
  /** `GRAPH_DB_USER` / `GRAPH_DB_PASSWORD`; without them no authentication is sent. */
  user?: string;
  password?: string;
  database?: string;
}

/** One label at a time, so that each delete uses its label's index. */
async function deleteSubgraph(tx: ManagedTransaction, repositoryId: string): Promise<void> {
  for (const label of ['Symbol', 'File', 'GraphSnapshot']) await tx.run(`MATCH (n:${label} {repositoryId: $repositoryId}) DETACH DELETE n`, { repositoryId });
}

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) out.push(items.slice(i, i + BATCH));
  return out;
}

export class Neo4jGraphStore implements GraphStore {
  /** The driver, once neo4j-driver is loaded (it connects on first use). */
  private readonly driver: Promise<Driver>;
  private schema: Promise<void> | undefined;

  constructor(private readonly options: Neo4jGraphStoreOptions) {
    this.driver = import('neo4j-driver').then(({ default: neo4j }) =>
      neo4j.driver(`bolt://${options.address}`, options.user ? neo4j.auth.basic(options.user, options.password ?? '') : undefined, {
        connectionTimeout: 5_000,
        maxTransactionRetryTime: 15_000,
        disableLosslessIntegers: true,
        logging: { level: 'error', logger: () => {} },
      }),
    );
    // Not loadable: every call fails with the loader's error; never an unhandled rejection meanwhile.
    this.driver.catch(() => {});
  }

  private async session() {
    return (await this.driver).session({ database: this.options.database ?? 'neo4j' });
  }

  private ensureSchema(): Promise<void> {
    this.schema ??= (async () => {
      const session = await this.session();
      try {
        for (const statement of SCHEMA) await session.run(statement);
      } finally {
        await session.close();
      }
    })().catch((error: unknown) => {
      this.schema = undefined;
      throw error;
    });
    return this.schema;
  }

  async writeSnapshot({ repositoryId, commitSha, graph }: { repositoryId: string; commitSha: string; graph: StoredGraph }): Promise<void> {
    await this.ensureSchema();
    const session = await this.session();
    try {
      await session.executeWrite(async (tx) => {
        await deleteSubgraph(tx, repositoryId);
        await tx.run('CREATE (:GraphSnapshot {repositoryId: $repositoryId, commitSha: $commitSha, files: $files, imports: $imports, calls: $calls})', {
          repositoryId,
          commitSha,
          files: graph.files.length,
          imports: graph.imports.length,
          calls: graph.calls.length,
        });
        for (const paths of chunks(graph.files))
          await tx.run('UNWIND $paths AS path CREATE (:File {repositoryId: $repositoryId, path: path})', { repositoryId, paths });
        for (const symbols of chunks(graph.symbols)) {
          await tx.run(
            `UNWIND $symbols AS s
             MATCH (f:File {repositoryId: $repositoryId, path: s.file})
             CREATE (f)-[:DECLARES]->(:Symbol {repositoryId: $repositoryId, file: s.file, name: s.name, kind: s.kind, exported: s.exported, lineStart: s.lineStart, lineEnd: s.lineEnd})`,
            { repositoryId, symbols },
          );
        }
        // Relationship properties hold no nested lists: an alias pair travels as `imported exported`.
        for (const batch of chunks(graph.imports)) {
          const imports = batch.map((i) => ({ ...i, aliases: i.aliases.map(([imported, exported]) => `${imported} ${exported}`) }));
          await tx.run(
            `UNWIND $imports AS i
             MATCH (a:File {repositoryId: $repositoryId, path: i.from}), (b:File {repositoryId: $repositoryId, path: i.to})
             CREATE (a)-[:IMPORTS {kind: i.kind, names: i.names, aliases: i.aliases, typeOnly: i.typeOnly, line: i.line}]->(b)`,
            { repositoryId, imports },
          );
        }
        for (const calls of chunks(graph.calls)) {
          await tx.run(
            `UNWIND $calls AS c
             MATCH (a:File {repositoryId: $repositoryId, path: c.from}), (b:File {repositoryId: $repositoryId, path: c.to})
             CREATE (a)-[:CALLS {caller: c.caller, name: c.name, line: c.line, count: c.count}]->(b)`,
            { repositoryId, calls },
          );
        }
      });
    } finally {
      await session.close();
    }
  }

  private async read<T>(cypher: string, params: Record<string, unknown>, map: (record: { get(key: string): unknown }) => T): Promise<T[]> {
    await this.ensureSchema();
    const session = await this.session();
    try {
      const result = await session.executeRead((tx) => tx.run(cypher, params));
      return result.records.map(map);
    } finally {
      await session.close();
    }
  }

  async commitOf(repositoryId: string): Promise<string | undefined> {
    const [sha] = await this.read(
      'MATCH (g:GraphSnapshot {repositoryId: $repositoryId}) RETURN g.commitSha AS sha',
      { repositoryId },
      (r) => r.get('sha') as string,
    );
    return sha;
  }

  async dependents({ repositoryId, files, maxDepth }: { repositoryId: string; files: readonly string[]; maxDepth: number }): Promise<Dependent[]> {
    const depthOf = new Map<string, number>(files.map((f) => [f, 0]));
    let frontier = [...new Set(files)];
    for (let depth = 1; depth <= Math.min(maxDepth, MAX_DEPENDENT_DEPTH) && frontier.length > 0; depth++) {
      const importers = await this.read(
        `MATCH (d:File {repositoryId: $repositoryId})-[:IMPORTS]->(t:File {repositoryId: $repositoryId})
          WHERE t.path IN $frontier RETURN DISTINCT d.path AS path`,
        { repositoryId, frontier },
        (r) => r.get('path') as string,
      );
      frontier = importers.filter((p) => !depthOf.has(p));
      for (const path of frontier) depthOf.set(path, depth);
    }
    return [...depthOf]
      .filter(([, d]) => d > 0)
      .map(([path, depth]) => ({ path, depth }))
      .sort((a, b) => a.depth - b.depth || a.path.localeCompare(b.path));
  }

  async importPairs(repositoryId: string): Promise<ImportPair[]> {
    return this.read(
      `MATCH (a:File {repositoryId: $repositoryId})-[i:IMPORTS]->(b:File {repositoryId: $repositoryId})
        RETURN a.path AS from, b.path AS to, min(i.line) AS line ORDER BY from, to`,
      { repositoryId },
      (r) => ({ from: r.get('from') as string, to: r.get('to') as string, line: r.get('line') as number }),
    );
  }

  async layering(repositoryId: string): Promise<LayerEdge[]> {
    const pairs = await this.read(
      `MATCH (a:File {repositoryId: $repositoryId})-[i:IMPORTS]->(b:File {repositoryId: $repositoryId})
        RETURN a.path AS from, b.path AS to, count(i) AS n`,
      { repositoryId },
      (r) => ({ from: r.get('from') as string, to: r.get('to') as string, n: r.get('n') as number }),
    );
    return aggregateLayers(pairs);
  }

  async importersOf({ repositoryId, paths }: { repositoryId: string; paths: readonly string[] }): Promise<Map<string, ImpactEdge[]>> {
    const rows = await this.read(
      `MATCH (a:File {repositoryId: $repositoryId})-[i:IMPORTS]->(b:File {repositoryId: $repositoryId})
        WHERE b.path IN $paths AND a.path <> b.path
        RETURN a.path AS from, b.path AS to, i.kind AS kind, i.names AS names, i.aliases AS aliases ORDER BY to, from, i.line`,
      { repositoryId, paths: [...new Set(paths)] },
      (r) => ({
        to: r.get('to') as string,
        edge: {
          from: r.get('from') as string,
          kind: ((r.get('kind') as string | null) ?? 'static') as ImportKind,
          names: (r.get('names') as string[] | null) ?? [],
          aliases: ((r.get('aliases') as string[] | null) ?? []).map((pair) => pair.split(' ') as [string, string]),
        },
      }),
    );
    const out = new Map<string, ImpactEdge[]>(paths.map((p) => [p, []]));
    for (const { to, edge } of rows) out.get(to)?.push(edge);
    return out;
  }

  async callsInto({ repositoryId, targets }: { repositoryId: string; targets: ReadonlyArray<{ file: string; name: string }> }): Promise<StoredCall[]> {
    if (targets.length === 0) return [];
    return this.read(
      `UNWIND $targets AS t
       MATCH (a:File {repositoryId: $repositoryId})-[c:CALLS {name: t.name}]->(b:File {repositoryId: $repositoryId, path: t.file})
       RETURN a.path AS from, c.caller AS caller, b.path AS to, c.name AS name, c.line AS line, c.count AS count ORDER BY to, name, from, line`,
      { repositoryId, targets: targets.map(({ file, name }) => ({ file, name })) },
      (r) => ({
        from: r.get('from') as string,
        caller: r.get('caller') as string,
        to: r.get('to') as string,
        name: r.get('name') as string,
        line: r.get('line') as number,
        count: r.get('count') as number,
      }),
    );
  }

  async deleteRepository(repositoryId: string): Promise<void> {
    const session = await this.session();
    try {
      await session.executeWrite((tx) => deleteSubgraph(tx, repositoryId));
    } finally {
      await session.close();
    }
  }

  async check(): Promise<void> {
    const driver = await this.driver;
    try {
      await driver.verifyConnectivity({ database: this.options.database ?? 'neo4j' });
    } catch (error) {
      throw new UnavailableError(`Neo4j at GRAPH_DB_HOST does not answer: ${(error as Error).message.split('\n')[0]}`);
    }
  }

  async close(): Promise<void> {
    await (await this.driver.catch(() => undefined))?.close();
  }
}
