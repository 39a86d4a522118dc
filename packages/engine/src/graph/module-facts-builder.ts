// Accumulates the facts of one module during the walk and settles what can only be known at the
// end (an `export { a }` list may precede the declaration of `a`).
import type { SyntaxNode } from 'tree-sitter';
import { settleCalls, type RawCall } from './extract-calls.js';
import type { ImportElision } from './import-elision.js';
import { narrowNamespaceImports } from './namespace-uses.js';
import type { ExportKind, ExportRecord, ImportRecord, ModuleFacts, SymbolRecord } from './types.js';

/** A local name bound by an import statement. */
export interface ImportBinding {
  specifier: string;
  importedName: string;
  typeOnly: boolean;
}

interface PendingLocalExport {
  local: string;
  exported: string;
  line: number;
  typeOnly: boolean;
}

const EXPORT_KIND_OF_SYMBOL: Record<SymbolRecord['kind'], ExportKind> = {
  function: 'function',
  method: 'function',
  class: 'class',
  interface: 'interface',
  type: 'type',
  enum: 'enum',
  variable: 'variable',
  namespace: 'namespace',
};

export class ModuleFactsBuilder {
  readonly imports: ImportRecord[] = [];
  readonly symbols: SymbolRecord[] = [];
  readonly bindings = new Map<string, ImportBinding>();
  /** Calls of imported bindings met by the walk, grouped by caller in `finish`. */
  readonly calls: RawCall[] = [];
  commonJs = false;
  /** The tree has parse errors: the facts may be incomplete. */
  partial = false;
  /** `require()` calls are read; then a top-level `require` the module declares itself (not a `createRequire` result) turns them off. */
  watchRequire = false;
  requireShadowed = false;
  /** Set for TypeScript sources, where imports used only as types are removed on emit. */
  elision: ImportElision | undefined;
  /** The program node and its text, for the lookups that can wait until the walk is over. */
  root: SyntaxNode | undefined;
  source: string | undefined;
  private readonly exports: ExportRecord[] = [];
  private readonly pending: PendingLocalExport[] = [];
  /** Local names exported by a list or `export default name`, to flag their symbols. */
  private readonly exportedLocals = new Set<string>();

  /**
   * `values`: the local names a static import binds as values, and the text range of the
   * statement, for import elision.
   */
  addImport(record: ImportRecord, values?: { locals: string[]; start: number; end: number }): void {
    this.imports.push(record);
    if (values) this.elision?.track(record, values.locals, values.start, values.end);
  }

  addExport(record: ExportRecord): void {
    this.exports.push(record);
  }

  /** `export { local as exported }` without a source, resolved against declarations in `finish`. */
  addLocalExport(local: string, exported: string, line: number, typeOnly: boolean): void {
    this.pending.push({ local, exported, line, typeOnly });
    this.exportedLocals.add(local);
  }

  /** `export default name`: the default export is the binding `name`. */
  addDefaultOfLocal(local: string, line: number): void {
    this.exportedLocals.add(local);
    const binding = this.bindings.get(local);
    this.exports.push(
      binding
        ? { name: 'default', kind: 'default', line, from: binding.specifier, importedName: binding.importedName, typeOnly: binding.typeOnly }
        : { name: 'default', kind: 'default', line, typeOnly: false },
    );
  }

  /** Adds a symbol; overload signatures of a function merge into one symbol spanning them all. */
  addSymbol(symbol: SymbolRecord): void {
    const last = this.symbols[this.symbols.length - 1];
    if (last && symbol.kind === 'function' && last.kind === 'function' && last.name === symbol.name && !last.container) {
      last.lineEnd = Math.max(last.lineEnd, symbol.lineEnd);
      last.exported ||= symbol.exported;
      return;
    }
    this.symbols.push(symbol);
  }

  finish(): ModuleFacts {
    if (this.elision && this.root) this.elision.apply(this.root, this.source ?? this.root.text);
    if (this.root) narrowNamespaceImports(this.imports, this.bindings, this.root, this.source ?? this.root.text);
    const declared = new Map<string, SymbolRecord>();
    for (const symbol of this.symbols) if (!symbol.container && !declared.has(symbol.name)) declared.set(symbol.name, symbol);
    for (const p of this.pending) {
      const binding = this.bindings.get(p.local);
      const symbol = declared.get(p.local);
      if (binding && !symbol) {
        this.exports.push({
          name: p.exported,
          kind: 're-export',
          line: p.line,
          from: binding.specifier,
          importedName: binding.importedName,
          typeOnly: p.typeOnly || binding.typeOnly,
        });
      } else {
        const kind = symbol ? EXPORT_KIND_OF_SYMBOL[symbol.kind] : 'variable';
        const typeOnly = p.typeOnly || kind === 'type' || kind === 'interface';
        this.exports.push({ name: p.exported, kind, line: p.line, typeOnly });
      }
    }
    for (const symbol of this.symbols) {
      const owner = symbol.container ?? symbol.name;
      if (this.exportedLocals.has(owner)) symbol.exported = true;
    }
    const calls = settleCalls(this.calls, this.symbols);
    const facts: ModuleFacts = { imports: this.imports, exports: dedupeExports(this.exports), symbols: this.symbols, calls, commonJs: this.commonJs };
    if (this.partial) facts.partial = true;
    return facts;
  }
}

/** Overloads and repeated `exports.x =` assignments export one name; declaration merging keeps one per kind. */
function dedupeExports(records: ExportRecord[]): ExportRecord[] {
  const seen = new Set<string>();
  const out: ExportRecord[] = [];
  for (const record of records) {
    const key = `${record.name}\0${record.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(record);
  }
  return out;
}
