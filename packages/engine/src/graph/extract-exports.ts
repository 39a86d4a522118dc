// ESM `export` statements: declarations, lists, defaults, re-exports and TS `export =`.
import type { SyntaxNode, TreeCursor } from 'tree-sitter';
import { readDeclaration } from './extract-declarations.js';
import type { ModuleFactsBuilder } from './module-facts-builder.js';

// Anonymous functions and classes after `export default` are symbols named `default`.
const DEFAULT_DECLARATION_VALUES = new Set(['class', 'function_expression', 'arrow_function', 'generator_function']);

interface ExportSpecifier {
  name: string;
  alias?: string;
  typeOnly: boolean;
  line: number;
}

/** The parts of an export statement, read off the cursor; nodes only where declarations follow. */
interface ExportShape {
  line: number;
  isDefault: boolean;
  isAssignment: boolean;
  typeOnly: boolean;
  source?: string;
  specifiers?: ExportSpecifier[];
  namespace?: string;
  declaration?: SyntaxNode;
  value?: SyntaxNode;
  /** `export *` or `export * as ns`. */
  star?: boolean;
}

/** Reads the export statement under the cursor and leaves the cursor there. */
export function readExportStatement(cursor: TreeCursor, builder: ModuleFactsBuilder): void {
  const shape = readShape(cursor);
  if (shape.source !== undefined) readReExport(shape, shape.source, builder);
  else if (shape.isDefault) readDefault(shape, builder);
  else if (shape.declaration) {
    for (const d of readDeclaration(shape.declaration, statementOf(shape.declaration), true, builder)) {
      builder.addExport({ name: d.name, kind: d.kind, line: d.line, typeOnly: d.typeOnly });
    }
  } else if (shape.specifiers) {
    for (const s of shape.specifiers) builder.addLocalExport(s.name, s.alias ?? s.name, s.line, shape.typeOnly || s.typeOnly);
  } else if (shape.isAssignment) {
    // TS `export = value` is `module.exports = value` once compiled.
    builder.commonJs = true;
    if (shape.value?.type === 'identifier') builder.addDefaultOfLocal(shape.value.text, shape.line);
    else builder.addExport({ name: 'default', kind: 'default', line: shape.line, typeOnly: false });
  }
  // `export as namespace X` (UMD globals in declaration files) exports nothing importable.
}

function readShape(cursor: TreeCursor): ExportShape {
  const shape: ExportShape = { line: cursor.startPosition.row + 1, isDefault: false, isAssignment: false, typeOnly: false };
  cursor.gotoFirstChild();
  do {
    const type = cursor.nodeType;
    const field = cursor.currentFieldName;
    if (field === 'source') shape.source = cursor.nodeText.slice(1, -1);
    else if (field === 'declaration') shape.declaration = cursor.currentNode;
    else if (field === 'value') shape.value = cursor.currentNode;
    else if (type === 'default') shape.isDefault = true;
    else if (type === 'type') shape.typeOnly = true;
    // tree-sitter-typescript 0.23 parses `export type * from` with the `type` in an ERROR node
    // (when the parse repair blanked it, the statement's text still has it: see below).
    else if (type === 'ERROR' && cursor.nodeText === 'type') shape.typeOnly = true;
    else if (type === '*') shape.star = true;
    else if (type === '=') shape.isAssignment = true;
    else if (type === 'export_clause') shape.specifiers = readSpecifiers(cursor);
    else if (type === 'namespace_export') {
      shape.namespace = cursor.nodeText.replace(/^\*\s*as\s+/, '').replace(/^["']|["']$/g, '');
      shape.star = true;
    } else if (shape.isAssignment && cursor.nodeIsNamed && !shape.value) shape.value = cursor.currentNode;
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  // A repaired tree (parsing/parse-repair.ts) has no node for the `type` of `export type *`; node
  // texts are the original's, and such a statement is one short line.
  if (shape.star && !shape.typeOnly && /^export\s+type\b/.test(cursor.nodeText)) shape.typeOnly = true;
  return shape;
}

function readSpecifiers(cursor: TreeCursor): ExportSpecifier[] {
  const out: ExportSpecifier[] = [];
  cursor.gotoFirstChild();
  do {
    if (!atSpecifier(cursor)) continue;
    const line = cursor.startPosition.row + 1;
    let name: string | undefined;
    let alias: string | undefined;
    let typeOnly = false;
    cursor.gotoFirstChild();
    do {
      const field = cursor.currentFieldName;
      if (field === 'name') name = unquote(cursor.nodeType, cursor.nodeText);
      else if (field === 'alias') alias = unquote(cursor.nodeType, cursor.nodeText);
      else if (cursor.nodeType === 'type') typeOnly = true;
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
    if (name !== undefined) out.push({ name, alias, typeOnly, line });
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  return out;
}

// A function, so that TypeScript does not narrow `cursor.nodeType` across cursor moves.
function atSpecifier(cursor: TreeCursor): boolean {
  return cursor.nodeType === 'export_specifier';
}

function unquote(type: string, text: string): string {
  return type === 'string' ? text.slice(1, -1) : text;
}

/** Declarations start their symbol at the export statement (decorators, `export`). */
function statementOf(declaration: SyntaxNode): SyntaxNode {
  return declaration.parent ?? declaration;
}

function readDefault(shape: ExportShape, builder: ModuleFactsBuilder): void {
  const { line, declaration, value } = shape;
  if (declaration) {
    const declared = readDeclaration(declaration, statementOf(declaration), true, builder, 'default');
    const typeOnly = declared.length > 0 && declared.every((d) => d.typeOnly);
    builder.addExport({ name: 'default', kind: 'default', line, typeOnly });
  } else if (value?.type === 'identifier') builder.addDefaultOfLocal(value.text, line);
  else {
    if (value && DEFAULT_DECLARATION_VALUES.has(value.type)) readDeclaration(value, statementOf(value), true, builder, 'default');
    builder.addExport({ name: 'default', kind: 'default', line, typeOnly: false });
  }
}

function readReExport(shape: ExportShape, specifier: string, builder: ModuleFactsBuilder): void {
  const { line, typeOnly: typeOnlyStatement, specifiers, namespace } = shape;
  const typeFlag = typeOnlyStatement ? { typeOnly: true } : {};
  if (specifiers) {
    const names: string[] = [];
    let allTypes = true;
    for (const s of specifiers) {
      const typeOnly = typeOnlyStatement || s.typeOnly;
      allTypes &&= typeOnly;
      names.push(s.name);
      builder.addExport({ name: s.alias ?? s.name, kind: 're-export', line: s.line, from: specifier, importedName: s.name, typeOnly });
    }
    const allTypeFlag = names.length > 0 && allTypes ? { typeOnly: true } : {};
    builder.addImport({ specifier, kind: 're-export', names, line, ...allTypeFlag });
  } else if (namespace !== undefined) {
    builder.addExport({ name: namespace, kind: 're-export', line, from: specifier, importedName: '*', typeOnly: typeOnlyStatement });
    builder.addImport({ specifier, kind: 're-export', names: ['*'], line, ...typeFlag });
  } else {
    builder.addImport({ specifier, kind: 're-export-all', names: ['*'], line, ...typeFlag });
  }
}
