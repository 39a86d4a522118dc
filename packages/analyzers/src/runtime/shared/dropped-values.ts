// Which parts of a statement's expression are evaluated and then thrown away: where a promise
// that nobody awaits or handles can hide (`f();`, `ok && f();`, `c ? f() : g();`, `(a(), b());`).
import { unwrapParentheses } from '@codehealth/engine/kit';
import type { SyntaxNode } from '@codehealth/engine/kit';

const LOGICAL = new Set(['&&', '||', '??']);

/** The parts of a statement's expression whose value is thrown away. */
export function droppedParts(expression: SyntaxNode): SyntaxNode[] {
  const node = unwrapParentheses(expression);
  switch (node.type) {
    case 'binary_expression':
      if (!LOGICAL.has(node.childForFieldName('operator')?.type ?? '')) return [];
      return [...droppedParts(node.childForFieldName('left')!), ...droppedParts(node.childForFieldName('right')!)];
    case 'ternary_expression':
      return [...droppedParts(node.childForFieldName('consequence')!), ...droppedParts(node.childForFieldName('alternative')!)];
    case 'sequence_expression':
      return node.namedChildren.filter((child) => child.type !== 'comment').flatMap(droppedParts);
    case 'call_expression':
    case 'new_expression':
      return [node];
    default:
      // `void p`, `await p`, assignments and the rest keep or deliberately discard the value.
      return [];
  }
}
