// The code graph: modules, their exported and imported symbols, and resolved import edges.

export type ImportKind = 'static' | 'type' | 'side-effect' | 'dynamic' | 'require' | 're-export' | 're-export-all';

/** One import-like statement of a module, as written (before resolution). */
export interface ImportRecord {
  specifier: string;
  kind: ImportKind;
  /** Imported names (`default`, `*` for a namespace, or the exported name); empty for side-effect imports. */
  names: string[];
  line: number;
}

export type ExportKind = 'function' | 'class' | 'variable' | 'type' | 'interface' | 'enum' | 'namespace' | 'default' | 're-export';

export interface ExportRecord {
  /** Exported name; `default` for the default export. */
  name: string;
  kind: ExportKind;
  line: number;
  /** For re-exports: the specifier it comes from and the name there. */
  from?: string;
  importedName?: string;
  typeOnly: boolean;
}

export interface SymbolRecord {
  name: string;
  kind: 'function' | 'method' | 'class' | 'interface' | 'type' | 'enum' | 'variable';
  lineStart: number;
  lineEnd: number;
  exported: boolean;
  /** Enclosing class for methods. */
  container?: string;
}

/** The graph-relevant part of a file summary. */
export interface ModuleFacts {
  imports: ImportRecord[];
  exports: ExportRecord[];
  symbols: SymbolRecord[];
  /** `module.exports` / `exports.x` assignments were seen (CommonJS). */
  commonJs: boolean;
}

export interface ImportEdge {
  from: string;
  /** Resolved repository-relative path; undefined when the target is external or unresolved. */
  to?: string;
  specifier: string;
  kind: ImportKind;
  names: string[];
  line: number;
  /** `external` = a package dependency or node builtin; `unresolved` = relative/alias that matched no file. */
  resolution: 'internal' | 'external' | 'unresolved';
  /** Package name for external imports. */
  packageName?: string;
}

export interface ModuleNode {
  path: string;
  exports: ExportRecord[];
  symbols: SymbolRecord[];
  imports: ImportEdge[];
  /** Modules that import this one. */
  importedBy: string[];
}

export interface CodeGraph {
  modules: Map<string, ModuleNode>;
  edges: ImportEdge[];
  /** Strongly connected components of internal import edges with more than one module, or a self-import. */
  cycles: string[][];
  /** Names of exports of `path` that some other module imports (resolving re-exports and `export *`). */
  usedExports(path: string): Set<string>;
  /** Modules reachable from the given modules by following imports. */
  reachableFrom(paths: Iterable<string>): Set<string>;
  /** Modules that (transitively, up to depth) import the given module. */
  dependentsOf(path: string, depth?: number): Set<string>;
}
