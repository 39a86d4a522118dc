// The syntax banned-api reads: module specifiers of imports, the bindings they create, and the
// dotted path a call's callee names (`_.get`, `child_process.exec`).
import type { SyntaxNode } from '@codehealth/engine/kit';

export interface Binding {
  module: string;
  /** `default`, `*` (namespace or whole CommonJS module) or the imported name. */
  imported: string;
}

/** The text of a plain string literal (no template substitutions). */
export function stringValue(node: SyntaxNode | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'string') return node.text.slice(1, -1);
  if (node.type === 'template_string' && !node.namedChildren.some((c) => c.type === 'template_substitution')) return node.text.slice(1, -1);
  return undefined;
}

/** The local names an `import` statement binds, and to what. */
export function importBindings(statement: SyntaxNode, module: string): Array<[local: string, Binding]> {
  const out: Array<[string, Binding]> = [];
  for (const child of statement.namedChildren) {
    if (child.type === 'import_require_clause') {
      const local = child.namedChildren.find((c) => c.type === 'identifier');
      if (local) out.push([local.text, { module, imported: '*' }]);
    }
    if (child.type !== 'import_clause') continue;
    for (const part of child.namedChildren) {
      if (part.type === 'identifier') out.push([part.text, { module, imported: 'default' }]);
      else if (part.type === 'namespace_import') {
        const local = part.namedChildren.find((c) => c.type === 'identifier');
        if (local) out.push([local.text, { module, imported: '*' }]);
      } else if (part.type === 'named_imports') {
        for (const spec of part.namedChildren) {
          if (spec.type !== 'import_specifier') continue;
          const name = spec.childForFieldName('name');
          const alias = spec.childForFieldName('alias');
          if (name) out.push([(alias ?? name).text, { module, imported: stringValue(name) ?? name.text }]);
        }
      }
    }
  }
  return out;
}

/** `const x = require('m')` and `const { a, b: c } = require('m')`. */
export function requireBindings(call: SyntaxNode, module: string): Array<[local: string, Binding]> {
  const declarator = call.parent;
  if (declarator?.type !== 'variable_declarator') return [];
  const pattern = declarator.childForFieldName('name');
  if (pattern?.type === 'identifier') return [[pattern.text, { module, imported: '*' }]];
  if (pattern?.type !== 'object_pattern') return [];
  const out: Array<[string, Binding]> = [];
  for (const part of pattern.namedChildren) {
    if (part.type === 'shorthand_property_identifier_pattern') out.push([part.text, { module, imported: part.text }]);
    else if (part.type === 'pair_pattern') {
      const key = part.childForFieldName('key');
      const value = part.childForFieldName('value');
      if (key && value?.type === 'identifier') out.push([value.text, { module, imported: stringValue(key) ?? key.text }]);
    }
  }
  return out;
}

/** `a.b.c` for identifiers, member accesses and literal subscripts; undefined for anything computed. */
export function calleePath(node: SyntaxNode | null): string[] | undefined {
  if (!node) return undefined;
  if (node.type === 'identifier') return [node.text];
  if (node.type === 'parenthesized_expression') return calleePath(node.firstNamedChild);
  if (node.type === 'member_expression') {
    const object = calleePath(node.childForFieldName('object'));
    const property = node.childForFieldName('property');
    return object && property ? [...object, property.text] : undefined;
  }
  if (node.type === 'subscript_expression') {
    const object = calleePath(node.childForFieldName('object'));
    const index = stringValue(node.childForFieldName('index'));
    return object && index !== undefined ? [...object, index] : undefined;
  }
  return undefined;
}
