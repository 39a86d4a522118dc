// Small syntax helpers the security rules share: call shapes, literal strings, object properties.
import type { SyntaxNode } from '@codehealth/engine/kit';

/** Wrappers that do not change the value at run time: parentheses, TS assertions, `!`. */
const TRANSPARENT = new Set(['parenthesized_expression', 'as_expression', 'satisfies_expression', 'non_null_expression', 'type_assertion']);

export function unwrap(node: SyntaxNode): SyntaxNode {
  let current = node;
  while (TRANSPARENT.has(current.type)) {
    const inner = current.type === 'type_assertion' ? current.lastNamedChild : current.namedChildren.find((c) => c.type !== 'comment');
    if (!inner) break;
    current = inner;
  }
  return current;
}

/** The argument expressions of a call or `new`; empty for tagged templates (`sql\`…\``). */
export function argumentsOf(call: SyntaxNode): SyntaxNode[] {
  const args = call.childForFieldName('arguments');
  if (!args || args.type !== 'arguments') return [];
  return args.namedChildren.filter((child) => child.type !== 'comment');
}

/** True for `tag\`…\``: a template tag receives the parts and the values apart, so it can escape them. */
export function isTaggedTemplate(call: SyntaxNode): boolean {
  return call.childForFieldName('arguments')?.type === 'template_string';
}

export interface Callee {
  /** `exec` in `exec()`, `cp.exec()` and `require('x').exec()`. */
  name: string;
  /** The receiver of a method call (`cp` in `cp.exec()`), unwrapped. */
  object?: SyntaxNode;
}

/** The called name of a call or `new` expression: an identifier or the last property of a member. */
export function calleeOf(call: SyntaxNode): Callee | undefined {
  const fn = call.childForFieldName(call.type === 'new_expression' ? 'constructor' : 'function');
  if (!fn) return undefined;
  const callee = unwrap(fn);
  if (callee.type === 'identifier') return { name: callee.text };
  if (callee.type === 'member_expression') {
    const property = callee.childForFieldName('property');
    const object = callee.childForFieldName('object');
    if (!property || !object) return undefined;
    return { name: property.text, object: unwrap(object) };
  }
  return undefined;
}

/** The text of a string literal or of a template without substitutions; undefined otherwise. */
export function literalString(node: SyntaxNode): string | undefined {
  const value = unwrap(node);
  if (value.type === 'string') return value.text.slice(1, -1);
  if (value.type === 'template_string' && !value.namedChildren.some((c) => c.type === 'template_substitution')) {
    return value.text.slice(1, -1);
  }
  return undefined;
}

/** The key of an object pair or class field as written, without quotes; undefined for computed keys. */
export function propertyKey(node: SyntaxNode | null): string | undefined {
  if (!node) return undefined;
  if (node.type === 'string') return node.text.slice(1, -1);
  if (node.type === 'computed_property_name') {
    const inner = node.namedChildren[0];
    return inner ? literalString(inner) : undefined;
  }
  return node.text;
}

/** The value of `key: value` in an object literal (the last one wins, as at run time). */
export function objectProperty(object: SyntaxNode, key: string): SyntaxNode | undefined {
  let found: SyntaxNode | undefined;
  for (const child of object.namedChildren) {
    if (child.type === 'pair' && propertyKey(child.childForFieldName('key')) === key) {
      found = child.childForFieldName('value') ?? undefined;
    } else if (child.type === 'shorthand_property_identifier' && child.text === key) {
      found = child;
    }
  }
  return found;
}

/** The name written on the left of an assignment: `x` for `x = …`, `b` for `a.b = …` and `a['b'] = …`. */
export function assignedName(left: SyntaxNode): string | undefined {
  const target = unwrap(left);
  if (target.type === 'identifier') return target.text;
  if (target.type === 'member_expression') return target.childForFieldName('property')?.text;
  if (target.type === 'subscript_expression') {
    const index = target.childForFieldName('index');
    return index ? literalString(index) : undefined;
  }
  return undefined;
}

/** `true`, or an expression that is always truthy when written literally (`1`, `'yes'`). */
export function isLiteralBoolean(node: SyntaxNode, value: boolean): boolean {
  const n = unwrap(node);
  if (value) return n.type === 'true' || (n.type === 'number' && Number(n.text) !== 0) || (n.type === 'string' && n.text.length > 2);
  if (n.type === 'false') return true;
  if (n.type === 'number') return Number(n.text) === 0;
  // `!1` is how minifiers and some authors write false.
  return n.type === 'unary_expression' && n.text.replace(/\s+/g, '') === '!1';
}
