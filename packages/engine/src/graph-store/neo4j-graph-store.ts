// The self-hosted graph store on Neo4j (`GRAPH_DB_HOST`, neo4j-driver over Bolt): (:File) and
// (:Symbol) nodes per repository, (:File)-[:IMPORTS]->(:File) and (:File)-[:DECLARES]->(:Symbol)
// edges, and one (:GraphSnapshot) per repository naming its commit. A snapshot replaces the
// repository's subgraph in one transaction; rows go in batches with UNWIND; every value is a query
// parameter (never spliced into Cypher). Indexes are created idempotently on first use.
import neo4j, { type Driver, type ManagedTransaction } from 'neo4j-driver';
import { UnavailableError } from '../services/errors.js';
import { MAX_DEPENDENT_DEPTH, type Dependent, type GraphStore, type ImportPair, type LayerEdge, type StoredGraph } from '../ports/graph-store.js';
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
  private readonly driver: Driver;
  private schema: Promise<void> | undefined;

  constructor(private readonly options: Neo4jGraphStoreOptions) {
    this.driver = neo4j.driver(
      `bolt://${options.address}`,
      options.user ? neo4j.auth.basic(options.user, options.password ?? '') : undefined,
      { connectionTimeout: 5_000, maxTransactionRetryTime: 15_000, disableLosslessIntegers: true, logging: { level: 'error', logger: () => {} } },
    );
  }

  private session() {
    return this.driver.session({ database: this.options.database ?? 'neo4j' });
  }

  private ensureSchema(): Promise<void> {
    this.schema ??= (async () => {
      const session = this.session();
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
    const session = this.session();
    try {
      await session.executeWrite(async (tx) => {
        await deleteSubgraph(tx, repositoryId);
        await tx.run('CREATE (:GraphSnapshot {repositoryId: $repositoryId, commitSha: $commitSha, files: $files, imports: $imports})', {
          repositoryId,
          commitSha,
          files: graph.files.length,
          imports: graph.imports.length,
        });
        for (const paths of chunks(graph.files)) await tx.run('UNWIND $paths AS path CREATE (:File {repositoryId: $repositoryId, path: path})', { repositoryId, paths });
        for (const symbols of chunks(graph.symbols)) {
          await tx.run(
            `UNWIND $symbols AS s
             MATCH (f:File {repositoryId: $repositoryId, path: s.file})
             CREATE (f)-[:DECLARES]->(:Symbol {repositoryId: $repositoryId, file: s.file, name: s.name, kind: s.kind, exported: s.exported, lineStart: s.lineStart, lineEnd: s.lineEnd})`,
            { repositoryId, symbols },
          );
        }
        for (const imports of chunks(graph.imports)) {
          await tx.run(
            `UNWIND $imports AS i
             MATCH (a:File {repositoryId: $repositoryId, path: i.from}), (b:File {repositoryId: $repositoryId, path: i.to})
             CREATE (a)-[:IMPORTS {names: i.names, typeOnly: i.typeOnly, line: i.line}]->(b)`,
            { repositoryId, imports },
          );
        }
      });
    } finally {
      await session.close();
    }
  }

  private async read<T>(cypher: string, params: Record<string, unknown>, map: (record: { get(key: string): unknown }) => T): Promise<T[]> {
    await this.ensureSchema();
    const session = this.session();
    try {
      const result = await session.executeRead((tx) => tx.run(cypher, params));
      return result.records.map(map);
    } finally {
      await session.close();
    }
  }

  async commitOf(repositoryId: string): Promise<string | undefined> {
    const [sha] = await this.read('MATCH (g:GraphSnapshot {repositoryId: $repositoryId}) RETURN g.commitSha AS sha', { repositoryId }, (r) => r.get('sha') as string);
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
    return [...depthOf].filter(([, d]) => d > 0).map(([path, depth]) => ({ path, depth })).sort((a, b) => a.depth - b.depth || a.path.localeCompare(b.path));
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

  async deleteRepository(repositoryId: string): Promise<void> {
    const session = this.session();
    try {
      await session.executeWrite((tx) => deleteSubgraph(tx, repositoryId));
    } finally {
      await session.close();
    }
  }

  async check(): Promise<void> {
    try {
      await this.driver.verifyConnectivity({ database: this.options.database ?? 'neo4j' });
    } catch (error) {
      throw new UnavailableError(`Neo4j at GRAPH_DB_HOST does not answer: ${(error as Error).message.split('\n')[0]}`);
    }
  }

  async close(): Promise<void> {
    await this.driver.close();
  }
}
