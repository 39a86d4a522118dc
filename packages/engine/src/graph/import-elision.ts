// TypeScript removes an import from the emitted JavaScript when none of its bindings is used as
// a value (only in types, or not at all). Such imports create no run-time dependency, so cycles
// through them cannot break module initialisation.
//
// Rather than visiting every identifier of the walk (the most frequent node type), each imported
// name is searched in the source text and only its occurrences are looked up in the tree, until
// one is a value use; most names are settled by their first use. Conservative where it cannot
// know: a shadowing local of the same name, or `export { X }` of a type, count as value uses.
import type { SyntaxNode } from 'tree-sitter';
import type { ImportRecord } from './types.js';
import { afterExportKeyword } from './syntax.js';

// The identifier in these parents is the binding being declared, not a use.
const DECLARATION_SITES = new Set(['import_specifier', 'import_clause', 'namespace_import', 'import_require_clause']);
// `typeof X.y` and `ns.Type` name values and namespaces in type positions.
const TYPE_POSITIONS = new Set(['type_query', 'nested_type_identifier']);
// JSX in classic mode compiles to `React.createElement` without naming the import in the source.
const IMPLICIT_VALUES = new Set(['React']);

export class ImportElision {
  /** Names not (yet) seen used as values, with the text range of the statement declaring them. */
  private readonly candidates = new Map<string, { start: number; end: number }>();
  private readonly locals = new Map<ImportRecord, string[]>();

  /** Registers the value bindings an import record introduces; `start`/`end` span its statement. */
  track(record: ImportRecord, locals: string[], start: number, end: number): void {
    if (locals.length === 0) return;
    this.locals.set(record, locals);
    for (const local of locals) if (!IMPLICIT_VALUES.has(local)) this.candidates.set(local, { start, end });
  }

  /** Flags the records none of whose bindings is used as a value in the tree of `source`. */
  apply(root: SyntaxNode, source: string): void {
    for (const [name, declared] of this.candidates) if (hasValueUse(root, source, name, declared)) this.candidates.delete(name);
    for (const [record, locals] of this.locals) {
      if (locals.every((local) => this.candidates.has(local))) record.elidable = true;
    }
  }
}

const IDENTIFIER_CHAR = /[\p{ID_Continue}$\u200c\u200d]/u;
const REFERENCE_TYPES = new Set(['identifier', 'shorthand_property_identifier']);

function hasValueUse(root: SyntaxNode, source: string, name: string, declared: { start: number; end: number }): boolean {
  for (let at = source.indexOf(name); at >= 0; at = source.indexOf(name, at + name.length)) {
    const end = at + name.length;
    if (at >= declared.start && at < declared.end) continue;
    const before = at > 0 ? source[at - 1] : '';
    if (IDENTIFIER_CHAR.test(before) || (end < source.length && IDENTIFIER_CHAR.test(source[end]))) continue;
    // `x.name` is a property, but `...name` a spread of the binding.
    if (before === '.' && source[at - 2] !== '.') continue;
    // The Node binding indexes the text in UTF-16 units, like JavaScript strings.
    const node = root.descendantForIndex(at, end);
    if (REFERENCE_TYPES.has(node.type) && isValueReference(node)) return true;
  }
  return false;
}

function isValueReference(node: SyntaxNode): boolean {
  let up = node.parent;
  if (!up) return true;
  if (DECLARATION_SITES.has(up.type)) return false;
  if (up.type === 'export_specifier') return !isTypeExport(up);
  while (up && (up.type === 'member_expression' || up.type === 'nested_identifier')) up = up.parent;
  return !(up && TYPE_POSITIONS.has(up.type));
}

function isTypeExport(specifier: SyntaxNode): boolean {
  if (specifier.firstChild?.type === 'type') return true;
  const statement = specifier.parent?.parent;
  return statement?.type === 'export_statement' && afterExportKeyword(statement)?.type === 'type';
}
