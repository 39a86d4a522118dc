// Top-level declarations of a module as symbols, and the names they export when under `export`.
import type { SyntaxNode } from 'tree-sitter';
import type { ModuleFactsBuilder } from './module-facts-builder.js';
import { boundNames, lineOf } from './syntax.js';
import type { ExportKind } from './types.js';

/** A name a declaration binds, as it would be exported. */
export interface DeclaredName {
  name: string;
  kind: ExportKind;
  line: number;
  typeOnly: boolean;
}

const SIMPLE_KINDS: Record<string, 'function' | 'interface' | 'type' | 'enum'> = {
  function_declaration: 'function',
  generator_function_declaration: 'function',
  function_signature: 'function',
  // Anonymous values of `export default`.
  function_expression: 'function',
  arrow_function: 'function',
  generator_function: 'function',
  interface_declaration: 'interface',
  type_alias_declaration: 'type',
  enum_declaration: 'enum',
};

const CLASS_TYPES = new Set(['class_declaration', 'abstract_class_declaration', 'class']);
const VARIABLE_TYPES = new Set(['lexical_declaration', 'variable_declaration']);
const NAMESPACE_TYPES = new Set(['internal_module', 'module']);
const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'generator_function']);

/**
 * Records the symbols of a top-level declaration and returns the names it binds. `outer` is the
 * statement that carries it (an `export` statement or the declaration itself), whose first line
 * (decorators, `export`) starts the symbol. `defaultName` names an anonymous `export default`.
 */
export function readDeclaration(decl: SyntaxNode, outer: SyntaxNode, exported: boolean, builder: ModuleFactsBuilder, defaultName?: string): DeclaredName[] {
  const type = decl.type;
  if (type === 'ambient_declaration') {
    // `declare module 'x' {}` and `declare global {}` describe other modules, not this one.
    const inner = decl.firstNamedChild;
    if (!inner || (inner.type === 'module' && inner.childForFieldName('name')?.type === 'string')) return [];
    if (inner.type === 'statement_block') return [];
    return readDeclaration(inner, outer, exported, builder, defaultName);
  }
  const lineStart = lineOf(outer);
  const lineEnd = outer.endPosition.row + 1;
  const simple = SIMPLE_KINDS[type];
  if (simple) {
    const nameNode = decl.childForFieldName('name');
    const name = nameNode?.text ?? defaultName;
    if (name === undefined) return [];
    builder.addSymbol({ name, kind: simple, lineStart, lineEnd, exported });
    const typeOnly = simple === 'interface' || simple === 'type';
    return [{ name, kind: simple, line: nameNode ? lineOf(nameNode) : lineStart, typeOnly }];
  }
  if (CLASS_TYPES.has(type)) {
    const nameNode = decl.childForFieldName('name');
    const name = nameNode?.text ?? defaultName;
    if (name === undefined) return [];
    builder.addSymbol({ name, kind: 'class', lineStart, lineEnd, exported });
    readMethods(decl.childForFieldName('body'), name, exported, builder);
    return [{ name, kind: 'class', line: nameNode ? lineOf(nameNode) : lineStart, typeOnly: false }];
  }
  if (VARIABLE_TYPES.has(type)) return readVariables(decl, outer, exported, builder);
  if (NAMESPACE_TYPES.has(type)) {
    const nameNode = decl.childForFieldName('name');
    if (!nameNode || nameNode.type === 'string') return [];
    // `namespace A.B.C {}` binds `A`.
    const name = nameNode.type === 'nested_identifier' ? nameNode.text.split('.')[0] : nameNode.text;
    builder.addSymbol({ name, kind: 'namespace', lineStart, lineEnd, exported });
    return [{ name, kind: 'namespace', line: lineOf(nameNode), typeOnly: false }];
  }
  if (type === 'import_alias') {
    // `export import A = N.B` re-binds a namespace member.
    const nameNode = decl.firstNamedChild;
    if (!nameNode) return [];
    builder.addSymbol({ name: nameNode.text, kind: 'variable', lineStart, lineEnd, exported });
    return [{ name: nameNode.text, kind: 'variable', line: lineOf(nameNode), typeOnly: false }];
  }
  return [];
}

function readVariables(decl: SyntaxNode, outer: SyntaxNode, exported: boolean, builder: ModuleFactsBuilder): DeclaredName[] {
  const out: DeclaredName[] = [];
  let first = true;
  for (const declarator of decl.namedChildren) {
    if (declarator.type !== 'variable_declarator') continue;
    const lineStart = first ? lineOf(outer) : lineOf(declarator);
    const lineEnd = declarator.endPosition.row + 1;
    first = false;
    for (const id of boundNames(declarator.childForFieldName('name'))) {
      builder.addSymbol({ name: id.text, kind: 'variable', lineStart, lineEnd, exported });
      out.push({ name: id.text, kind: 'variable', line: lineOf(id), typeOnly: false });
    }
  }
  return out;
}

function readMethods(body: SyntaxNode | null, container: string, exported: boolean, builder: ModuleFactsBuilder): void {
  if (!body) return;
  for (const member of body.namedChildren) {
    const type = member.type;
    let isMethod = type === 'method_definition' || type === 'abstract_method_signature';
    // Arrow-function fields are methods in all but syntax (`handle = () => {...}`).
    if (!isMethod && type === 'public_field_definition') {
      const value = member.childForFieldName('value');
      isMethod = value !== null && FUNCTION_VALUES.has(value.type);
    }
    if (!isMethod) continue;
    const name = member.childForFieldName('name')?.text;
    if (name === undefined) continue;
    builder.symbols.push({
      name,
      kind: 'method',
      lineStart: lineOf(member),
      lineEnd: member.endPosition.row + 1,
      exported,
      container,
    });
  }
}

/** Whether a top-level statement declares its own `require` (other than through `createRequire`). */
export function declaresRequire(statement: SyntaxNode): boolean {
  const type = statement.type;
  if (type === 'function_declaration') return statement.childForFieldName('name')?.text === 'require';
  if (!VARIABLE_TYPES.has(type)) return false;
  for (const declarator of statement.namedChildren) {
    if (declarator.type !== 'variable_declarator') continue;
    if (declarator.childForFieldName('name')?.text !== 'require') continue;
    const value = declarator.childForFieldName('value');
    if (!value || !value.text.includes('createRequire')) return true;
  }
  return false;
}
