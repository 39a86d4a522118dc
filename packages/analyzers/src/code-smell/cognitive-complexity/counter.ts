// Cognitive Complexity (G. Ann Campbell, SonarSource, v1.7) computed during the engine's single walk.
//
// Two variants. `sonarjs` (the default) reproduces eslint-plugin-sonarjs 4.x's S3776 number for
// number: every function is scored on its own, only `&&` sequences count, JSX short-circuits are
// free, recursion is not counted. `specification` follows the white paper: `||` and `??` sequences
// and direct recursion count, and nested functions and lambdas add to their outermost function
// with one more level of nesting instead of being scored separately.
import { FUNCTION_NODE_TYPES, parentSkippingParentheses, qualifiedFunctionName, unwrapParentheses } from '@codehealth/engine/kit';
import type { NodeVisitor, SyntaxNode } from '@codehealth/engine/kit';
import { createLogicalSequenceScorer } from './logical-sequences.js';

export type CognitiveVariant = 'sonarjs' | 'specification';

export interface Increment {
  /** 1-based line and 0-based column of the token that caused it. */
  line: number;
  column: number;
  value: number;
  nesting: number;
  construct: string;
}

export interface FunctionComplexity {
  node: SyntaxNode;
  /** Qualified name (`outer > inner`); worked out on first read, as most functions never need it. */
  readonly name: string;
  complexity: number;
  increments: Increment[];
}

interface Frame {
  node: SyntaxNode;
  enclosing: Frame | undefined;
  name?: string;
  /** Index into `ranges` where this function's own nesting ranges start. */
  rangeBase: number;
  /** See `onEnterFunction`: nesting sonarjs keeps after a function written as a ternary branch. */
  leakedNesting: number;
  increments: Increment[];
}

/** A child of a control structure whose contents sit one nesting level deeper. */
interface NestingRange {
  owner: number;
  start: number;
  end: number;
}

const LOOP_TYPES = ['for_statement', 'for_in_statement', 'while_statement', 'do_statement'] as const;
const LOGICAL_OPERATOR_TOKENS = ['&&', '||', '??'] as const;

function nameOf(frame: Frame): string {
  frame.name ??= qualifiedFunctionName(frame.node, frame.enclosing && nameOf(frame.enclosing));
  return frame.name;
}

type Handler = (node: SyntaxNode) => void;

/** Builds the visitor; one counter per file, results handed over as each function is left. */
export function createCognitiveComplexityVisitor(variant: CognitiveVariant, onFunction: (result: FunctionComplexity) => void): NodeVisitor {
  return new CognitiveComplexityCounter(variant, onFunction).visitor();
}

class CognitiveComplexityCounter {
  private readonly frames: Frame[] = [];
  private readonly ranges: NestingRange[] = [];
  /** Every function entered and not left, including those folded into an outer frame. */
  private readonly functions: SyntaxNode[] = [];
  private readonly scoreLogicalSequence: (operatorToken: SyntaxNode) => SyntaxNode[];

  constructor(
    private readonly variant: CognitiveVariant,
    private readonly onFunction: (result: FunctionComplexity) => void,
  ) {
    this.scoreLogicalSequence = createLogicalSequenceScorer(variant);
  }

  visitor(): NodeVisitor {
    const visitor: NodeVisitor = {};
    const on = (types: readonly string[], enter: Handler, exit?: Handler): void => {
      for (const type of types) {
        visitor[type] = enter;
        if (exit) visitor[`${type}:exit`] = exit;
      }
    };
    const leave: Handler = (node) => this.leaveStructure(node);
    on(
      FUNCTION_NODE_TYPES,
      (node) => this.enterFunction(node),
      (node) => this.leaveFunction(node),
    );
    on(['if_statement'], (node) => this.enterIf(node), leave);
    on(LOOP_TYPES, (node) => this.enterStructure(node, 'loop', [node.childForFieldName('body')]), leave);
    on(['switch_statement'], (node) => this.enterStructure(node, 'switch', [node.childForFieldName('body')]), leave);
    on(['catch_clause'], (node) => this.enterStructure(node, 'catch', [node.childForFieldName('body')]), leave);
    on(['ternary_expression'], (node) => this.enterTernary(node), leave);
    on(['break_statement', 'continue_statement'], (node) => this.labelledJump(node));
    // Operator tokens, not binary expressions: the walk then materialises no arithmetic or comparison.
    on(LOGICAL_OPERATOR_TOKENS, (token) => {
      for (const operator of this.scoreLogicalSequence(token)) this.add(operator, 'logical operator', false);
    });
    if (this.variant === 'specification') on(['call_expression'], (node) => this.call(node));
    return visitor;
  }

  private current(): Frame | undefined {
    return this.frames[this.frames.length - 1];
  }

  private enterFunction(node: SyntaxNode): void {
    this.functions.push(node);
    const frame = this.current();
    if (this.variant === 'sonarjs' && frame && isTernaryBranch(node)) {
      // sonarjs raises nesting when it enters a ternary branch and lowers it when it leaves; for a
      // function branch the raise lands on the enclosing function and the lowering on the branch's
      // own counter, so the enclosing function stays one level deeper from here on.
      frame.leakedNesting++;
    }
    if (this.variant === 'specification' && frame) return;
    this.frames.push({ node, enclosing: frame, rangeBase: this.ranges.length, leakedNesting: 0, increments: [] });
  }

  private leaveFunction(node: SyntaxNode): void {
    this.functions.pop();
    const frame = this.current();
    if (frame?.node.id !== node.id) return;
    this.frames.pop();
    const complexity = frame.increments.reduce((sum, increment) => sum + increment.value, 0);
    this.onFunction({
      node,
      get name() {
        return nameOf(frame);
      },
      complexity,
      increments: frame.increments,
    });
  }

  private enterIf(node: SyntaxNode): void {
    if (node.parent?.type === 'else_clause') this.add(node, 'else if', false);
    else this.add(node, 'if', true);
    const alternative = node.childForFieldName('alternative');
    const elseBody = alternative?.namedChildren.find((child) => child.type !== 'comment');
    const plainElse = alternative && elseBody?.type !== 'if_statement' ? alternative : null;
    this.nestChildren(node, [node.childForFieldName('consequence'), plainElse]);
    if (plainElse) this.add(plainElse, 'else', false);
  }

  private enterStructure(node: SyntaxNode, construct: string, nested: Array<SyntaxNode | null>): void {
    this.add(node, construct, true);
    this.nestChildren(node, nested);
  }

  private enterTernary(node: SyntaxNode): void {
    const question = node.children.find((child) => child.type === '?') ?? node;
    this.add(question, 'ternary', true, node);
    this.nestChildren(node, [node.childForFieldName('consequence'), node.childForFieldName('alternative')]);
  }

  private labelledJump(node: SyntaxNode): void {
    if (!node.childForFieldName('label')) return;
    this.add(node, `${node.type === 'break_statement' ? 'break' : 'continue'} to label`, false);
  }

  private call(node: SyntaxNode): void {
    const innermost = this.functions[this.functions.length - 1];
    if (innermost && isRecursiveCall(node, innermost)) this.add(node, 'recursion', false);
  }

  private add(token: SyntaxNode, construct: string, structural: boolean, at: SyntaxNode = token): void {
    const frame = this.current();
    // Code outside any function (module level, class field initialisers) is not reported.
    if (!frame) return;
    const nesting = structural ? this.nestingAt(at, frame) : 0;
    frame.increments.push({
      line: token.startPosition.row + 1,
      column: token.startPosition.column,
      value: 1 + nesting,
      nesting,
      construct,
    });
  }

  private nestingAt(node: SyntaxNode, frame: Frame): number {
    let nesting = frame.leakedNesting;
    for (let i = frame.rangeBase; i < this.ranges.length; i++) {
      const range = this.ranges[i];
      if (node.startIndex >= range.start && node.startIndex < range.end) nesting++;
    }
    // In the specification each function nested in the scored one is one more level of nesting.
    return nesting + (this.variant === 'specification' ? this.functions.length - 1 : 0);
  }

  private nestChildren(owner: SyntaxNode, children: Array<SyntaxNode | null>): void {
    for (const child of children) {
      if (child) this.ranges.push({ owner: owner.id, start: child.startIndex, end: child.endIndex });
    }
  }

  private leaveStructure(owner: SyntaxNode): void {
    const { ranges } = this;
    while (ranges.length > 0 && ranges[ranges.length - 1].owner === owner.id) ranges.pop();
  }
}

function isTernaryBranch(fn: SyntaxNode): boolean {
  const parent = parentSkippingParentheses(fn);
  if (parent?.type !== 'ternary_expression') return false;
  const condition = parent.childForFieldName('condition');
  return !condition || unwrapParentheses(condition).id !== fn.id;
}

/** Direct recursion only: a call of the scored function by its own name, or `this.name()` in a method. */
function isRecursiveCall(call: SyntaxNode, fn: SyntaxNode): boolean {
  const callee = call.childForFieldName('function');
  if (!callee) return false;
  if (fn.type === 'method_definition') {
    const method = fn.childForFieldName('name')?.text;
    return callee.type === 'member_expression' && callee.childForFieldName('object')?.type === 'this' && callee.childForFieldName('property')?.text === method;
  }
  const ownName = fn.childForFieldName('name')?.text ?? boundName(fn);
  return callee.type === 'identifier' && callee.text === ownName;
}

function boundName(fn: SyntaxNode): string | undefined {
  const parent = parentSkippingParentheses(fn);
  return parent?.type === 'variable_declarator' ? parent.childForFieldName('name')?.text : undefined;
}
