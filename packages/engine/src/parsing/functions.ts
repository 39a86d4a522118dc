// Function-like syntax nodes and how to name them, shared by the summary and by rules.
import type { SyntaxNode } from 'tree-sitter';

export const FUNCTION_NODE_TYPES = [
  'function_declaration',
  'generator_function_declaration',
  'function_expression',
  'function',
  'generator_function',
  'arrow_function',
  'method_definition',
] as const;

const FUNCTION_TYPES: ReadonlySet<string> = new Set(FUNCTION_NODE_TYPES);

export function isFunctionNode(node: SyntaxNode): boolean {
  return FUNCTION_TYPES.has(node.type);
}

/**
 * The name a reader would use for a function: its own name, else the variable, property, field or
 * assignment target it is bound to, else `<anonymous>`. Methods are prefixed with their class.
 */
export function functionNameOf(node: SyntaxNode): string {
  const own = node.childForFieldName('name');
  if (own && node.type !== 'method_definition') return own.text;
  if (node.type === 'method_definition') {
    const cls = enclosingClassName(node);
    return cls ? `${cls}.${own?.text ?? '<method>'}` : (own?.text ?? '<method>');
  }
  const parent = node.parent;
  if (!parent) return '<anonymous>';
  switch (parent.type) {
    case 'variable_declarator':
    case 'public_field_definition':
    case 'field_definition': {
      const name = parent.childForFieldName('name') ?? parent.childForFieldName('property');
      const cls = parent.type === 'variable_declarator' ? undefined : enclosingClassName(parent);
      if (name) return cls ? `${cls}.${name.text}` : name.text;
      break;
    }
    case 'pair': {
      const key = parent.childForFieldName('key');
      if (key) return key.text.replace(/^['"]|['"]$/g, '');
      break;
    }
    case 'assignment_expression': {
      const left = parent.childForFieldName('left');
      if (left) return left.text;
      break;
    }
  }
  return '<anonymous>';
}

function enclosingClassName(node: SyntaxNode): string | undefined {
  for (let p = node.parent; p; p = p.parent) {
    if (p.type === 'class_declaration' || p.type === 'class' || p.type === 'abstract_class_declaration') {
      return p.childForFieldName('name')?.text;
    }
  }
  return undefined;
}
