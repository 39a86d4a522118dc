// Small syntactic questions the runtime rules ask of tree-sitter nodes (no type information).
import { unwrapParentheses } from '@codehealth/engine/kit';
import type { SyntaxNode } from '@codehealth/engine/kit';

/** Named children without comments (tree-sitter gives comments as named children anywhere). */
export function codeChildren(node: SyntaxNode): SyntaxNode[] {
  return node.namedChildren.filter((child) => child.type !== 'comment');
}

export function hasCommentChild(node: SyntaxNode): boolean {
  return node.namedChildren.some((child) => child.type === 'comment');
}

/** `a.b` → `b`; `a?.['b']` → `b` for string subscripts; anything else → undefined. */
export function propertyName(member: SyntaxNode): string | undefined {
  if (member.type === 'member_expression') return member.childForFieldName('property')?.text;
  if (member.type === 'subscript_expression') {
    const index = member.childForFieldName('index');
    if (index?.type === 'string') return stringLiteralValue(index);
  }
  return undefined;
}

export function memberObject(member: SyntaxNode): SyntaxNode | undefined {
  if (member.type !== 'member_expression' && member.type !== 'subscript_expression') return undefined;
  return member.childForFieldName('object') ?? undefined;
}

/** The callee of a call, parentheses removed. */
export function calleeOf(call: SyntaxNode): SyntaxNode | undefined {
  const callee = call.childForFieldName('function');
  return callee ? unwrapParentheses(callee) : undefined;
}

/** For `recv.method(...)`: the method name; undefined for other calls. */
export function calledMethod(call: SyntaxNode): string | undefined {
  if (call.type !== 'call_expression') return undefined;
  const callee = calleeOf(call);
  return callee && callee.type === 'member_expression' ? propertyName(callee) : undefined;
}

export function callArguments(call: SyntaxNode): SyntaxNode[] {
  const args = call.childForFieldName('arguments');
  return args && args.type === 'arguments' ? codeChildren(args) : [];
}

/** The text of a string literal's contents, or undefined when it is not a plain string literal. */
export function stringLiteralValue(node: SyntaxNode): string | undefined {
  if (node.type !== 'string') return undefined;
  return node.text.slice(1, -1);
}

/** A template literal without `${}`: as static as a string literal. */
export function isStaticTemplate(node: SyntaxNode): boolean {
  return node.type === 'template_string' && !node.namedChildren.some((child) => child.type === 'template_substitution');
}

export { enclosingFunction } from '@codehealth/engine/kit';

/** An `async` function or method, excluding async generators (they return iterators, not promises). */
export function isAsyncFunction(fn: SyntaxNode): boolean {
  let async = false;
  for (const child of fn.children) {
    if (child.type === 'async') async = true;
    else if (child.type === '*') return false;
    else if (child.type === 'formal_parameters' || child.type === 'statement_block') break;
  }
  return async;
}

/** True when `node` is `ancestor` or lies inside it. */
export function contains(ancestor: SyntaxNode, node: SyntaxNode): boolean {
  return node.startIndex >= ancestor.startIndex && node.endIndex <= ancestor.endIndex;
}

/** `x` is `value`'s text when short, else its first line cut down: for titles. */
export function shortText(node: SyntaxNode, max = 40): string {
  const flat = node.text.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The file name of a repository path, for titles. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The outermost function of a qualified symbol (`save > then callback` → `save`): short enough for a title. */
export function titleSymbol(symbol: string): string {
  const cut = symbol.indexOf(' > ');
  return cut < 0 ? symbol : symbol.slice(0, cut);
}
