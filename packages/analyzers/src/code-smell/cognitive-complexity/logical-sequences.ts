// Increments for sequences of binary logical operators (`a && b && c || d`).
//
// A sequence is what ESTree calls a tree of LogicalExpressions: logical operators joined directly
// or through parentheses. tree-sitter-typescript 0.23 mis-parses a postfix `!`, `as` or
// `satisfies` after a logical operand: `a && b!.c` comes out as `(a && b)!.c`. Such "hoisting"
// wrappers are looked through here, so that sequences are the ones TypeScript (and sonarjs) see.
import { parenthesizedExpression } from '@codehealth/engine/kit';
import type { SyntaxNode } from '@codehealth/engine/kit';

export type LogicalVariant = 'sonarjs' | 'specification';

const LOGICAL_OPERATORS: ReadonlySet<string> = new Set(['&&', '||', '??']);
/**
 * Node types whose first child a mis-parse can make a logical expression: the postfix `!`, `as`
 * and `satisfies` themselves, then member accesses, calls, subscripts and tighter binary
 * operators that follow them (`a && b!.c === d` comes out as `((a && b)!.c) === d`).
 */
const HOISTING_TYPES: ReadonlySet<string> = new Set([
  'non_null_expression',
  'as_expression',
  'satisfies_expression',
  'member_expression',
  'subscript_expression',
  'call_expression',
  'binary_expression',
]);

function operatorOf(node: SyntaxNode): string | undefined {
  return node.childForFieldName('operator')?.type;
}

export function isLogicalExpression(node: SyntaxNode): boolean {
  return node.type === 'binary_expression' && LOGICAL_OPERATORS.has(operatorOf(node) ?? '');
}

/**
 * True when `wrapper` holds `child` (a logical expression or another hoisting wrapper, never
 * parenthesized) as its leading operand: valid TypeScript needs parentheses there, so it is the
 * grammar's mis-parse and the wrapper really applies to the last operand of the logical expression.
 * A child that starts where its parent starts is the parent's first child.
 */
function isHoistingWrapper(wrapper: SyntaxNode, child: SyntaxNode): boolean {
  return (
    HOISTING_TYPES.has(wrapper.type) && child.type !== 'parenthesized_expression' && wrapper.startIndex === child.startIndex && !isLogicalExpression(wrapper)
  );
}

/** The logical expression a hoisting wrapper chain starts with, if any. */
function hoistedLogical(node: SyntaxNode): SyntaxNode | undefined {
  let current = node;
  while (HOISTING_TYPES.has(current.type)) {
    if (isLogicalExpression(current)) return current;
    const inner = current.firstChild;
    if (!inner || inner.type === 'parenthesized_expression') return undefined;
    current = inner;
  }
  return undefined;
}

interface RegionVisitor {
  operator(expression: SyntaxNode): void;
  /** `opaque`: the operand is wrapped by a hoisted `!`/`as`/member access in the real syntax tree. */
  operand(node: SyntaxNode, opaque: boolean): void;
}

/** Walks a sequence in source order: operands and the logical expressions between them. */
function walkSequence(node: SyntaxNode, visitor: RegionVisitor, opaqueTail = false): void {
  const inner = parenthesizedExpression(node);
  if (inner) {
    // Parentheses are transparent, unless a hoisted wrapper really applies to them.
    if (opaqueTail) visitor.operand(node, true);
    else walkSequence(inner, visitor, false);
    return;
  }
  const logical = isLogicalExpression(node) ? node : hoistedLogical(node);
  if (!logical) {
    visitor.operand(node, opaqueTail);
    return;
  }
  const hoisted = logical.id !== node.id;
  walkSequence(logical.childForFieldName('left')!, visitor, false);
  visitor.operator(logical);
  walkSequence(logical.childForFieldName('right')!, visitor, opaqueTail || hoisted);
}

function operatorsOf(root: SyntaxNode): SyntaxNode[] {
  const operators: SyntaxNode[] = [];
  walkSequence(root, { operator: (expression) => operators.push(expression), operand: () => undefined });
  return operators;
}

/**
 * Climbs from a logical expression past parentheses and hoisting wrappers: `top` is the outermost
 * node that still stands for the same expression, `parent` the node holding it.
 */
function climb(logical: SyntaxNode): { top: SyntaxNode; parent: SyntaxNode | null } {
  let top = logical;
  let sawParentheses = false;
  for (let parent = logical.parent; parent; parent = parent.parent) {
    if (parent.type === 'parenthesized_expression') sawParentheses = true;
    else if (sawParentheses || !isHoistingWrapper(parent, top)) return { top, parent };
    top = parent;
  }
  return { top, parent: null };
}

/**
 * sonarjs does not score `{cond && <A/>}` and `attr={a || b}` in JSX: a chain of one operator
 * directly inside a JSX expression container, with no ternary as an operand.
 */
function isJsxShortCircuit(top: SyntaxNode, operator: string | undefined): boolean {
  let uniform = true;
  walkSequence(top, {
    operator: (expression) => {
      if (operatorOf(expression) !== operator) uniform = false;
    },
    operand: (node, opaque) => {
      if (!opaque && node.type === 'ternary_expression') uniform = false;
    },
  });
  return uniform;
}

/**
 * Returns a function giving, for each logical operator token of one file in walk order, the
 * operator tokens that add +1: one per run of like operators. A sequence is scored once, from its
 * outermost expression, as sonarjs does; the walk meets an inner operator token first (`a && b`
 * comes before the second `&&` of `a && b && c`), so the enclosing sequences are scored first.
 * sonarjs 4 only scores `&&` runs (SonarJS PR #4862 made `||` and `??` free as short-circuit
 * defaults); the specification scores runs of every operator.
 */
export function createLogicalSequenceScorer(variant: LogicalVariant): (operatorToken: SyntaxNode) => SyntaxNode[] {
  const scored = new Set<number>();

  function score(node: SyntaxNode, increments: SyntaxNode[]): void {
    if (scored.has(node.id)) return;
    const { top, parent } = climb(node);
    const expressions = operatorsOf(top);
    for (const expression of expressions) scored.add(expression.id);
    if (variant === 'sonarjs' && parent?.type === 'jsx_expression' && isJsxShortCircuit(top, operatorOf(node))) return;
    let previous: string | undefined;
    for (const expression of expressions) {
      const operator = operatorOf(expression)!;
      const counted = variant === 'specification' || operator === '&&';
      if (counted && operator !== previous) increments.push(expression.childForFieldName('operator')!);
      previous = operator;
    }
  }

  return (operatorToken) => {
    const expression = operatorToken.parent;
    if (expression?.type !== 'binary_expression' || scored.has(expression.id)) return [];
    const enclosing = [expression];
    for (let parent = climb(expression).parent; parent && isLogicalExpression(parent); parent = climb(parent).parent) {
      enclosing.push(parent);
    }
    const increments: SyntaxNode[] = [];
    for (let i = enclosing.length - 1; i >= 0; i--) score(enclosing[i], increments);
    return increments;
  };
}
