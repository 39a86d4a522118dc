// Function-like syntax nodes of the TypeScript/TSX grammars and the names findings give them.
import type { SyntaxNode } from '@codehealth/engine/kit';

/**
 * Node types that have a body and run as a function. Overload and interface signatures
 * (`function_signature`, `method_signature`, `abstract_method_signature`) have no body and are
 * left out, as ESLint's `:function` leaves out their ESTree counterparts.
 */
export const FUNCTION_TYPES = [
  'function_declaration',
  'generator_function_declaration',
  'function_expression',
  'generator_function',
  'arrow_function',
  'method_definition',
] as const;

const functionTypes: ReadonlySet<string> = new Set(FUNCTION_TYPES);

export function isFunctionNode(node: SyntaxNode): boolean {
  return functionTypes.has(node.type);
}

const CLASS_TYPES: ReadonlySet<string> = new Set(['class_declaration', 'abstract_class_declaration', 'class']);

/** The expression inside parentheses; comments inside them are named children too. */
export function parenthesizedExpression(node: SyntaxNode): SyntaxNode | undefined {
  if (node.type !== 'parenthesized_expression') return undefined;
  return node.namedChildren.find((child) => child.type !== 'comment');
}

/** Parentheses are transparent in ESTree; skipping them keeps our shapes comparable to ESLint's. */
export function unwrapParentheses(node: SyntaxNode): SyntaxNode {
  let current = node;
  for (let inner = parenthesizedExpression(current); inner; inner = parenthesizedExpression(current)) current = inner;
  return current;
}

/** The nearest ancestor that is not a parenthesized expression. */
export function parentSkippingParentheses(node: SyntaxNode): SyntaxNode | null {
  let parent = node.parent;
  while (parent?.type === 'parenthesized_expression') parent = parent.parent;
  return parent;
}

function propertyKeyText(key: SyntaxNode | null): string | undefined {
  if (!key) return undefined;
  return key.type === 'computed_property_name' ? key.text : key.text.replace(/^['"]|['"]$/g, '');
}

function classNameOf(classBody: SyntaxNode | null): string | undefined {
  const owner = classBody?.parent;
  if (!owner || !CLASS_TYPES.has(owner.type)) return undefined;
  return owner.childForFieldName('name')?.text ?? bindingName(owner);
}

/** The name a value gets from where it is stored: `const x = …`, `x: …`, `this.x = …`, a class field. */
function bindingName(value: SyntaxNode): string | undefined {
  const parent = parentSkippingParentheses(value);
  if (!parent) return undefined;
  switch (parent.type) {
    case 'variable_declarator':
      return parent.childForFieldName('name')?.text;
    case 'pair':
      return propertyKeyText(parent.childForFieldName('key'));
    case 'assignment_expression':
      return parent.childForFieldName('left')?.text;
    case 'public_field_definition': {
      const field = propertyKeyText(parent.childForFieldName('name'));
      const className = classNameOf(parent.parent);
      return className && field ? `${className}.${field}` : field;
    }
    case 'export_statement':
      // Only `export default function () {}` reaches here without a name of its own.
      return 'default';
    default:
      return undefined;
  }
}

/** `items.map(x => …)` gives `map callback`: enough to tell sibling callbacks apart in a report. */
function callbackName(fn: SyntaxNode): string | undefined {
  const args = parentSkippingParentheses(fn);
  if (args?.type !== 'arguments') return undefined;
  const callee = args.parent?.childForFieldName('function');
  if (!callee) return undefined;
  const last = callee.type === 'member_expression' ? callee.childForFieldName('property') : callee;
  // `(function (f) { … })(factory)`: a callee that is not a name would put its whole text in the symbol.
  const name = last?.text ?? '';
  return /^#?[\w$]+$/.test(name) ? `${name} callback` : 'callback';
}

/** The name of a function as written, or inferred from its binding, without enclosing scopes. */
export function localFunctionName(fn: SyntaxNode): string {
  if (fn.type === 'method_definition') {
    const method = propertyKeyText(fn.childForFieldName('name')) ?? '(anonymous)';
    const className = classNameOf(fn.parent);
    return className ? `${className}.${method}` : method;
  }
  const ownName = fn.childForFieldName('name')?.text;
  // A declaration is known by its own name; an expression by the binding it is stored in.
  if (ownName && (fn.type === 'function_declaration' || fn.type === 'generator_function_declaration')) return ownName;
  return bindingName(fn) ?? ownName ?? callbackName(fn) ?? '(anonymous)';
}

/** Qualified name for the finding's `symbol`: nested functions carry their enclosing function's name. */
export function qualifiedFunctionName(fn: SyntaxNode, enclosing: string | undefined): string {
  const local = localFunctionName(fn);
  return enclosing ? `${enclosing} > ${local}` : local;
}
