// Small readers of tree-sitter nodes shared by the module-facts extractors.
import type { SyntaxNode } from 'tree-sitter';

export function lineOf(node: SyntaxNode): number {
  return node.startPosition.row + 1;
}

/** The value of a string literal, or of a template literal without substitutions; else undefined. */
export function literalText(node: SyntaxNode | null | undefined): string | undefined {
  if (!node) return undefined;
  if (node.type === 'string') return node.text.slice(1, -1);
  if (node.type === 'template_string') {
    for (const child of node.namedChildren) if (child.type === 'template_substitution') return undefined;
    return node.text.slice(1, -1);
  }
  return undefined;
}

/**
 * The child after the `export` keyword (past decorators): the `default`, `type`, `=` or `*`
 * token, or a named node. Tokens are told by their type alone (no named node type is a keyword),
 * so reading single children is enough and cheaper than materialising all of them.
 */
export function afterExportKeyword(node: SyntaxNode): SyntaxNode | null {
  for (let i = 0, child = node.firstChild; child; child = node.child(++i)) {
    if (child.type === 'export') return node.child(i + 1);
  }
  return null;
}

/** Identifiers bound by a declarator name: an identifier or a (nested) destructuring pattern. */
export function boundNames(pattern: SyntaxNode | null, out: SyntaxNode[] = []): SyntaxNode[] {
  if (!pattern) return out;
  switch (pattern.type) {
    case 'identifier':
    case 'shorthand_property_identifier_pattern':
      out.push(pattern);
      break;
    case 'pair_pattern':
      boundNames(pattern.childForFieldName('value'), out);
      break;
    case 'assignment_pattern':
    case 'object_assignment_pattern':
      boundNames(pattern.childForFieldName('left'), out);
      break;
    case 'object_pattern':
    case 'array_pattern':
    case 'rest_pattern':
      for (const child of pattern.namedChildren) boundNames(child, out);
      break;
    default:
      break;
  }
  return out;
}

/**
 * Names read from a destructuring of a module object (`const { a, b: c } = await import('x')`);
 * a rest element means every name may be used, so it yields `*`.
 */
export function destructuredKeys(pattern: SyntaxNode): string[] {
  const keys: string[] = [];
  for (const child of pattern.namedChildren) {
    if (child.type === 'shorthand_property_identifier_pattern') keys.push(child.text);
    else if (child.type === 'pair_pattern') {
      const key = child.childForFieldName('key');
      const name = key?.type === 'string' ? key.text.slice(1, -1) : key?.text;
      if (name !== undefined) keys.push(name);
    } else if (child.type === 'object_assignment_pattern') {
      const left = child.childForFieldName('left');
      if (left) keys.push(left.text);
    } else if (child.type === 'rest_pattern') keys.push('*');
  }
  return keys;
}
