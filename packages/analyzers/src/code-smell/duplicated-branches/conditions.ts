// SonarJS's no-identical-conditions (S1862) for if/else-if chains: a condition is covered when,
// for each of its `||` alternatives, an earlier condition of the chain has an alternative whose
// `&&` operands all appear in it. Then whenever it is true an earlier branch was taken.
import type { SyntaxNode } from '@codehealth/engine/kit';
import { estreeType, tokensOf, unwrap } from './equivalence.js';

type Operator = '&&' | '||';

function operatorOf(node: SyntaxNode): string | undefined {
  return node.type === 'binary_expression' ? node.childForFieldName('operator')?.type : undefined;
}

function splitBy(operator: Operator, node: SyntaxNode): SyntaxNode[] {
  const expression = unwrap(node);
  if (operatorOf(expression) !== operator) return [expression];
  return [...splitBy(operator, expression.childForFieldName('left')!), ...splitBy(operator, expression.childForFieldName('right')!)];
}

function equivalent(a: SyntaxNode, b: SyntaxNode, source: string): boolean {
  return tokensOf(a, source).key === tokensOf(b, source).key;
}

function isSubsetOf(a: SyntaxNode, b: SyntaxNode, source: string): boolean {
  const first = unwrap(a);
  const second = unwrap(b);
  if (estreeType(first) !== estreeType(second)) return false;
  const operator = operatorOf(first);
  if ((operator === '||' || operator === '&&') && operator === operatorOf(second)) {
    const [l1, r1, l2, r2] = [first, first, second, second].map((n, i) => n.childForFieldName(i % 2 === 0 ? 'left' : 'right')!);
    return (isSubsetOf(l1, l2, source) && isSubsetOf(r1, r2, source)) || (isSubsetOf(l1, r2, source) && isSubsetOf(r1, l2, source));
  }
  return equivalent(first, second, source);
}

function isSubset(first: readonly SyntaxNode[], second: readonly SyntaxNode[], source: string): boolean {
  return first.every((f) => second.some((s) => isSubsetOf(f, s, source)));
}

export interface CoveredCondition {
  condition: SyntaxNode;
  /** The earlier condition that covers it. */
  by: SyntaxNode;
  /** The two conditions are the same, token for token. */
  exact: boolean;
}

/** For an `else if`, the earlier condition of its chain that covers its own, if any. */
export function findCoveredCondition(node: SyntaxNode, source: string): CoveredCondition | undefined {
  if (node.parent?.type !== 'else_clause') return undefined;
  const conditionNode = node.childForFieldName('condition');
  if (!conditionNode) return undefined;
  const test = unwrap(conditionNode);
  // A conjunct alone can be covered too: `else if ((a || b) && c)` after `if (a)` and `else if (b)`.
  const conditions = operatorOf(test) === '&&' ? [test, ...splitBy('&&', test)] : [test];
  let operands = conditions.map((condition) => splitBy('||', condition).map((alternative) => splitBy('&&', alternative)));
  let current = node;
  while (current.parent?.type === 'else_clause' && current.parent.parent?.type === 'if_statement') {
    current = current.parent.parent;
    const earlierNode = current.childForFieldName('condition');
    if (!earlierNode) return undefined;
    const earlier = unwrap(earlierNode);
    const earlierAlternatives = splitBy('||', earlier).map((alternative) => splitBy('&&', alternative));
    operands = operands.map((alternatives) => alternatives.filter((alternative) => !earlierAlternatives.some((e) => isSubset(e, alternative, source))));
    if (operands.some((alternatives) => alternatives.length === 0)) {
      return { condition: test, by: earlier, exact: equivalent(test, earlier, source) };
    }
  }
  return undefined;
}
