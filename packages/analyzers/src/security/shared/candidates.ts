// Finding candidate nodes by scanning the source text instead of subscribing to frequent node
// types. A regular expression over the text runs natively and fast; the tree is consulted only at
// its matches, so a rule costs next to nothing on files without its sinks (performance budget).
import type { SyntaxNode } from '@codehealth/engine/kit';

/**
 * For each match of `pattern` (global), the nearest node at or above the token at `match.index`,
 * at most `climb` levels up, that `accept` returns; matches inside one accepted node are reported once.
 */
export function nodesAtMatches(
  root: SyntaxNode,
  source: string,
  pattern: RegExp,
  accept: (node: SyntaxNode) => SyntaxNode | undefined,
  climb = 1,
): SyntaxNode[] {
  const found: SyntaxNode[] = [];
  const seen = new Set<number>();
  pattern.lastIndex = 0;
  for (let match = pattern.exec(source); match; match = pattern.exec(source)) {
    if (match[0].length === 0) pattern.lastIndex++;
    let node: SyntaxNode | null = root.descendantForIndex(match.index);
    for (let depth = 0; node && depth < climb; depth++, node = node.parent) {
      const accepted = accept(node);
      if (!accepted) continue;
      if (!seen.has(accepted.startIndex * 31 + accepted.endIndex)) {
        seen.add(accepted.startIndex * 31 + accepted.endIndex);
        found.push(accepted);
      }
      break;
    }
  }
  return found;
}

/** The call or `new` expression whose callee is, or ends with, the identifier `name` at `node`. */
export function callOfCallee(node: SyntaxNode): SyntaxNode | undefined {
  if (node.type !== 'identifier' && node.type !== 'property_identifier') return undefined;
  let callee = node;
  if (node.type === 'property_identifier' && node.parent?.type === 'member_expression') callee = node.parent;
  let parent = callee.parent;
  while (parent?.type === 'parenthesized_expression') {
    callee = parent;
    parent = parent.parent;
  }
  if (parent?.type !== 'call_expression' && parent?.type !== 'new_expression') return undefined;
  const field = parent.childForFieldName(parent.type === 'call_expression' ? 'function' : 'constructor');
  return field && field.startIndex === callee.startIndex && field.endIndex === callee.endIndex ? parent : undefined;
}
