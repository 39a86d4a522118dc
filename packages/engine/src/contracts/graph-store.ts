// The graph store port: the code graph of each repository's latest assessed commit (files, their
// symbols, internal import/re-export edges and call edges), kept between runs and queried for
// dependents, graph impact (importers and callers), import cycles and directory layering.
// Embedded: tables in the relational store; self-hosted: Neo4j (`GRAPH_DB_HOST`). Derived data:
// Postgres and the repositories rebuild it.
import type { CallEdge, CodeGraph, ImportEdge, ImportKind, ModuleNode, SymbolRecord } from '../graph/types.js';

export interface StoredSymbol {
  file: string;
  name: string;
  kind: SymbolRecord['kind'];
  exported: boolean;
  lineStart: number;
  lineEnd: number;
}

export interface StoredImport {
  from: string;
  to: string;
  /** `static`, `type`, `dynamic`, `require`, `side-effect`, or an export edge: `re-export`, `re-export-all`. */
  kind: ImportKind;
  names: string[];
  /** For `re-export` edges: [name in `to`, name `from` exports it under] when they differ or are listed. */
  aliases: Array<[string, string]>;
  typeOnly: boolean;
  line: number;
}

/** A call from a symbol of `from` (`caller`, '' at module level) to the export `name` of `to`. */
export type StoredCall = CallEdge;

/** What the store keeps of a code graph: modules, their symbols, internal import/export edges, calls. */
export interface StoredGraph {
  files: string[];
  symbols: StoredSymbol[];
  imports: StoredImport[];
  calls: StoredCall[];
}

/** An edge into a module, as the graph-impact walk follows it. */
export type ImpactEdge = Pick<StoredImport, 'from' | 'kind' | 'names' | 'aliases'>;
/** A call into an export, as graph impact counts callers. */
export type ImpactCall = StoredCall;

export interface ImportPair {
  from: string;
  to: string;
  line: number;
}

export interface Dependent {
  path: string;
  /** 1 = imports one of the given files directly. */
  depth: number;
}

export interface LayerEdge {
  /** Top-level directory (first two path segments for `packages/*`-style layouts) of the importer. */
  from: string;
  to: string;
  imports: number;
}

export interface GraphStore {
  /** Replaces the repository's graph with this commit's, atomically. */
  writeSnapshot(input: { repositoryId: string; commitSha: string; graph: StoredGraph }): Promise<void>;
  /** The commit whose graph is stored, if any. */
  commitOf(repositoryId: string): Promise<string | undefined>;
  /** Files that import any of `files`, transitively up to `maxDepth`, each at its smallest depth. */
  dependents(input: { repositoryId: string; files: readonly string[]; maxDepth: number }): Promise<Dependent[]>;
  /** Every pair of files with an internal import, with the first import's line (cycle detection). */
  importPairs(repositoryId: string): Promise<ImportPair[]>;
  /** Import counts between layers (directories), largest first. */
  layering(repositoryId: string): Promise<LayerEdge[]>;
  /** The import and re-export edges into each of `paths` (graph impact walks them hop by hop). */
  importersOf(input: { repositoryId: string; paths: readonly string[] }): Promise<Map<string, ImpactEdge[]>>;
  /** Calls into the given exports (file + exported name). */
  callsInto(input: { repositoryId: string; targets: ReadonlyArray<{ file: string; name: string }> }): Promise<StoredCall[]>;
  /** Removes the repository's graph (unlinked repositories). */
  deleteRepository(repositoryId: string): Promise<void>;
  check(): Promise<void>;
  close(): Promise<void>;
}

/** The stored part of an engine code graph: internal edges only (external packages are not nodes). */
export function storedGraphOf(graph: CodeGraph): StoredGraph {
  const files = [...graph.modules.keys()].sort();
  const symbols: StoredSymbol[] = [];
  for (const module of graph.modules.values()) {
    for (const s of module.symbols) {
      symbols.push({
        file: module.path,
        name: s.container ? `${s.container}.${s.name}` : s.name,
        kind: s.kind,
        exported: s.exported,
        lineStart: s.lineStart,
        lineEnd: s.lineEnd,
      });
    }
  }
  const imports = graph.edges
    .filter((e) => e.resolution === 'internal' && e.to !== undefined && graph.modules.has(e.to))
    .map((e) => ({
      from: e.from,
      to: e.to!,
      kind: e.kind,
      names: e.names,
      aliases: reExportAliases(e, graph.modules.get(e.from)),
      typeOnly: e.typeOnly === true,
      line: e.line,
    }));
  const calls = graph.calls.filter((c) => graph.modules.has(c.to));
  return { files, symbols, imports, calls };
}

/** The names a `re-export` edge passes on under another name: `export { a as b } from './x'` → [['a', 'b']]. */
export function reExportAliases(edge: Pick<ImportEdge, 'kind' | 'specifier'>, importer: Pick<ModuleNode, 'exports'> | undefined): Array<[string, string]> {
  if (edge.kind !== 're-export' || !importer) return [];
  return importer.exports.filter((e) => e.from === edge.specifier && e.importedName !== undefined).map((e) => [e.importedName!, e.name]);
}

/** The layer of a path: `packages/engine/src/x.ts` → `packages/engine`, `src/x.ts` → `src`, `x.ts` → `.`. */
export function layerOf(path: string): string {
  const parts = path.split('/');
  if (parts.length === 1) return '.';
  if (['packages', 'apps', 'libs', 'services', 'modules'].includes(parts[0]!) && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  return parts[0]!;
}

export const MAX_DEPENDENT_DEPTH = 20;
