// The code graph: modules, their exported and imported symbols, and resolved import edges.

export type ImportKind = 'static' | 'type' | 'side-effect' | 'dynamic' | 'require' | 're-export' | 're-export-all';

/** One import-like statement of a module, as written (before resolution). */
export interface ImportRecord {
  specifier: string;
  kind: ImportKind;
  /** Imported names (`default`, `*` for a namespace, or the exported name); empty for side-effect imports. */
  names: string[];
  line: number;
  /** Erased at run time: `import type`, inline `type` specifiers only, `export type ... from`, `import('x')` in a type. */
  typeOnly?: boolean;
  /**
   * A TypeScript value import none of whose bindings is used as a value (only in types, or not
   * at all): the compiler drops it from the emitted JavaScript unless `verbatimModuleSyntax` is on.
   */
  elidable?: boolean;
}

export type ExportKind = 'function' | 'class' | 'variable' | 'type' | 'interface' | 'enum' | 'namespace' | 'default' | 're-export';

/**
 * `export * from` has no export record (it names nothing itself); it is an import record of kind
 * `re-export-all`. A local binding that was imported and then exported (`import { a } from './x';
 * export { a }`) is recorded like a re-export, with `from` and `importedName`.
 */
export interface ExportRecord {
  /** Exported name; `default` for the default export, `module.exports =` and TS `export =`. */
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
  kind: 'function' | 'method' | 'class' | 'interface' | 'type' | 'enum' | 'variable' | 'namespace';
  lineStart: number;
  lineEnd: number;
  exported: boolean;
  /** Enclosing class for methods. */
  container?: string;
}

/**
 * Calls of an imported binding (see graph/extract-calls.ts), one record per calling symbol,
 * module and export, with the first call's line and the number of calls.
 */
export interface CallRecord {
  specifier: string;
  /** The export called: the imported name, or for a namespace import the member called. */
  name: string;
  /** The calling symbol: `fn`, `Class.method`, or '' at module level. */
  caller: string;
  line: number;
  count: number;
}

/** The graph-relevant part of a file summary. */
export interface ModuleFacts {
  imports: ImportRecord[];
  exports: ExportRecord[];
  symbols: SymbolRecord[];
  /** Calls of imported bindings; absent in facts built by hand (tests). */
  calls?: CallRecord[];
  /** `module.exports` / `exports.x` assignments or a TS `export =` were seen (CommonJS). */
  commonJs: boolean;
  /**
   * The file has parse errors (ERROR or MISSING nodes): imports, exports and symbols the parser
   * could not place are missing, so rules must not read the lists as complete.
   */
  partial?: true;
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
  /** Package name for external imports; Node builtins as `node:<name>`. */
  packageName?: string;
  /** As on the import record. */
  typeOnly?: boolean;
  elidable?: boolean;
}

export interface ModuleNode {
  path: string;
  exports: ExportRecord[];
  symbols: SymbolRecord[];
  imports: ImportEdge[];
  /** Modules that import this one. */
  importedBy: string[];
  /** As on the module's facts: its lists are incomplete (parse errors). */
  partial?: true;
}

/** A call from one module's symbol to an export of another module of the repository. */
export interface CallEdge {
  from: string;
  /** The calling symbol (`fn`, `Class.method`, '' at module level). */
  caller: string;
  to: string;
  /** The export of `to` called (as `to` exports it, or as a re-exporting module passes it on). */
  name: string;
  line: number;
  count: number;
}

export interface CodeGraph {
  modules: Map<string, ModuleNode>;
  edges: ImportEdge[];
  /** Calls between modules of the repository (resolved through the importing edge, not through re-exports). */
  calls: CallEdge[];
  /**
   * Strongly connected components of internal import edges with more than one module, or a
   * self-import. Type-only edges count (as in dependency-cruiser's default): they still couple the
   * modules. Members start with a shortest cycle through the smallest path, in import order
   * (`shortestCycle` gives that chain alone), then the other members sorted.
   */
  cycles: string[][];
  /**
   * The same over edges that exist at run time: type-only and elidable imports and type-only
   * re-exports left out, dynamic `import()` kept (it still loads the module, if later).
   */
  runtimeCycles: string[][];
  /**
   * Names of exports of `path` that some other module imports (resolving re-exports and
   * `export *`), plus, with the `entries` option, every export an entry point passes on.
   */
  usedExports(path: string): Set<string>;
  /** Modules reachable from the given modules (included) by following internal imports of any kind. */
  reachableFrom(paths: Iterable<string>): Set<string>;
  /** Modules that (transitively, up to depth; default unlimited) import the given module; never itself. */
  dependentsOf(path: string, depth?: number): Set<string>;
}
