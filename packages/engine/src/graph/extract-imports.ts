// Import-like syntax: `import` statements, literal dynamic `import()` and CommonJS `require()`.
import type { SyntaxNode, TreeCursor } from 'tree-sitter';
import type { ModuleFactsBuilder } from './module-facts-builder.js';
import { destructuredKeys, lineOf, literalText } from './syntax.js';

interface ImportedBinding {
  local: string;
  imported: string;
  typeOnly: boolean;
}

/**
 * Reads the import statement under the cursor and leaves the cursor there. Imports are the most
 * frequent module-level syntax, so this reads types, fields and text off the cursor instead of
 * materialising a node object for every part of the statement.
 */
export function readImportStatement(cursor: TreeCursor, builder: ModuleFactsBuilder): void {
  const line = cursor.startPosition.row + 1;
  const start = cursor.startIndex;
  const end = cursor.endIndex;
  let typeOnlyStatement = false;
  let isRequire = false;
  let specifier: string | undefined;
  const bindings: ImportedBinding[] = [];
  cursor.gotoFirstChild();
  while (cursor.gotoNextSibling()) {
    const type = cursor.nodeType;
    if (type === 'type') typeOnlyStatement = true;
    else if (type === 'import_clause') readImportClause(cursor, bindings);
    else if (type === 'import_require_clause') {
      // `import x = require('y')`: the whole module object is bound.
      isRequire = true;
      cursor.gotoFirstChild();
      do {
        if (cursor.nodeType === 'identifier') bindings.push({ local: cursor.nodeText, imported: '*', typeOnly: false });
        else if (cursor.currentFieldName === 'source') specifier = stringValue(cursor.nodeText);
      } while (cursor.gotoNextSibling());
      cursor.gotoParent();
    } else if (cursor.currentFieldName === 'source') specifier = stringValue(cursor.nodeText);
  }
  cursor.gotoParent();
  if (specifier === undefined) return;
  const valueNames: string[] = [];
  const valueLocals: string[] = [];
  const typeNames: string[] = [];
  for (const b of bindings) {
    const typeOnly = typeOnlyStatement || b.typeOnly;
    builder.bindings.set(b.local, { specifier, importedName: b.imported, typeOnly });
    if (typeOnly) typeNames.push(b.imported);
    else {
      valueNames.push(b.imported);
      valueLocals.push(b.local);
    }
  }
  if (isRequire) {
    if (typeOnlyStatement) builder.addImport({ specifier, kind: 'type', names: ['*'], line, typeOnly: true });
    else builder.addImport({ specifier, kind: 'require', names: ['*'], line }, { locals: valueLocals, start, end });
    return;
  }
  if (valueNames.length > 0) builder.addImport({ specifier, kind: 'static', names: valueNames, line }, { locals: valueLocals, start, end });
  if (typeNames.length > 0) builder.addImport({ specifier, kind: 'type', names: typeNames, line, typeOnly: true });
  // A bare `import 'x'`, and `import {} from 'x'`, still load the module.
  if (valueNames.length === 0 && typeNames.length === 0) builder.addImport({ specifier, kind: 'side-effect', names: [], line });
}

/** `a`, `* as ns`, `{ b as c, type d }` of an import clause under the cursor. */
function readImportClause(cursor: TreeCursor, out: ImportedBinding[]): void {
  cursor.gotoFirstChild();
  do {
    const type = cursor.nodeType;
    if (type === 'identifier') out.push({ local: cursor.nodeText, imported: 'default', typeOnly: false });
    else if (type === 'namespace_import') {
      cursor.gotoFirstChild();
      do if (cursor.nodeType === 'identifier') out.push({ local: cursor.nodeText, imported: '*', typeOnly: false });
      while (cursor.gotoNextSibling());
      cursor.gotoParent();
    } else if (type === 'named_imports') {
      cursor.gotoFirstChild();
      do if (cursor.nodeType === 'import_specifier') readImportSpecifier(cursor, out);
      while (cursor.gotoNextSibling());
      cursor.gotoParent();
    }
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
}

function readImportSpecifier(cursor: TreeCursor, out: ImportedBinding[]): void {
  let imported: string | undefined;
  let local: string | undefined;
  let typeOnly = false;
  cursor.gotoFirstChild();
  do {
    const field = cursor.currentFieldName;
    if (field === 'name') imported = cursor.nodeType === 'string' ? stringValue(cursor.nodeText) : cursor.nodeText;
    else if (field === 'alias') local = cursor.nodeText;
    // Only the inline modifier is a `type` token; a specifier named `type` is an identifier.
    else if (cursor.nodeType === 'type') typeOnly = true;
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  if (imported !== undefined) out.push({ local: local ?? imported, imported, typeOnly });
}

function stringValue(quoted: string): string {
  return quoted.slice(1, -1);
}

// Ancestors that make an `import('x')` a type reference (`let a: import('x').T`).
const TYPE_CONTEXTS = new Set([
  'type_annotation',
  'type_query',
  'type_alias_declaration',
  'type_arguments',
  'type_parameter',
  'extends_type_clause',
  'implements_clause',
  'interface_declaration',
  'constraint',
  'default_type',
  'opting_type_annotation',
  'omitting_type_annotation',
  'asserts_annotation',
]);
// A type context never spans a statement block, so the upward search can stop there.
const TYPE_SEARCH_STOPS = new Set(['statement_block', 'class_body', 'program', 'expression_statement']);

function inTypeContext(node: SyntaxNode): boolean {
  for (let up = node.parent; up; up = up.parent) {
    if (TYPE_CONTEXTS.has(up.type)) return true;
    if (TYPE_SEARCH_STOPS.has(up.type)) return false;
  }
  return false;
}

/** The `import` node of `import('x')` (the walk also yields the `import` keyword of statements). */
export function readDynamicImport(importNode: SyntaxNode, builder: ModuleFactsBuilder): void {
  if (!importNode.isNamed) return;
  const call = importNode.parent;
  if (!call || call.type !== 'call_expression') return;
  const specifier = literalText(call.childForFieldName('arguments')?.firstNamedChild);
  if (specifier === undefined) return;
  const line = lineOf(call);
  if (inTypeContext(call)) {
    const parent = call.parent;
    const member = parent?.type === 'member_expression' ? parent.childForFieldName('property')?.text : undefined;
    builder.addImport({ specifier, kind: 'type', names: [member ?? '*'], line, typeOnly: true });
    return;
  }
  builder.addImport({ specifier, kind: 'dynamic', names: usedNames(call, true), line });
}

/** A call to the global `require` with one literal argument. */
export function readRequireCall(call: SyntaxNode, builder: ModuleFactsBuilder): void {
  const fn = call.firstChild;
  if (!fn || fn.type !== 'identifier' || fn.text !== 'require') return;
  const args = call.childForFieldName('arguments');
  if (!args || args.namedChildCount !== 1) return;
  const specifier = literalText(args.firstNamedChild);
  if (specifier === undefined || builder.requireShadowed || requireIsParameter(call)) return;
  builder.addImport({ specifier, kind: 'require', names: usedNames(call, false), line: lineOf(call) });
}

const FUNCTION_TYPES = new Set([
  'function_declaration',
  'function_expression',
  'arrow_function',
  'method_definition',
  'generator_function',
  'generator_function_declaration',
]);

/** AMD-style `define(function (require) {...})` and similar make `require` a parameter, not the global. */
function requireIsParameter(call: SyntaxNode): boolean {
  for (let up = call.parent; up; up = up.parent) {
    if (!FUNCTION_TYPES.has(up.type)) continue;
    const params = up.childForFieldName('parameters') ?? up.childForFieldName('parameter');
    if (params && /\brequire\b/.test(params.text)) return true;
  }
  return false;
}

/** Which names of the loaded module the surrounding code reads; `*` when it keeps the whole module. */
function usedNames(call: SyntaxNode, awaited: boolean): string[] {
  let user = call.parent;
  if (awaited && user?.type === 'await_expression') user = user.parent;
  if (!user) return ['*'];
  if (user.type === 'variable_declarator') {
    const pattern = user.childForFieldName('name');
    return pattern?.type === 'object_pattern' ? destructuredKeys(pattern) : ['*'];
  }
  if (!awaited && user.type === 'member_expression') {
    const property = user.childForFieldName('property');
    return property ? [property.text] : ['*'];
  }
  // A bare `require('x');` statement is run for its side effects.
  if (!awaited && user.type === 'expression_statement') return [];
  return ['*'];
}
