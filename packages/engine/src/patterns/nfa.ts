// Compiles a regular-expression syntax tree (regex-syntax.ts) into a Thompson NFA: one state per
// character test, split or assertion, so its size is linear in the pattern (a counted repetition
// copies its body, within MAX_STATES). Lookaheads become assertions whose bodies are entries of the
// same state table; nfa-runner.ts simulates it without ever backtracking.
import { UnsupportedPatternError, type AssertKind, type CharSet, type RegexNode } from './regex-syntax.js';

export const CHAR = 0;
export const SPLIT = 1;
export const ASSERT = 2;
export const MATCH = 3;

/** More states than this is refused: every subject character may visit each of them once. */
export const MAX_STATES = 50_000;

export interface Assertion {
  kind: AssertKind | 'look';
  negate: boolean;
  /** The lookahead body's first state (kind `look`). */
  entry: number;
}

export interface Nfa {
  op: Uint8Array;
  out: Int32Array;
  out2: Int32Array;
  /** Index into `tests` (CHAR) or `assertions` (ASSERT). */
  arg: Int32Array;
  tests: Array<(code: number) => boolean>;
  assertions: Assertion[];
  start: number;
  /** Every match starts at position 0 (the pattern begins with `^`): no restart at later positions. */
  anchored: boolean;
}

/** The upper-case form JavaScript's non-unicode `i` flag compares (ECMA-262 Canonicalize). */
function canonical(code: number): number {
  const upper = String.fromCharCode(code).toUpperCase();
  if (upper.length !== 1) return code;
  const result = upper.charCodeAt(0);
  return code >= 128 && result < 128 ? code : result;
}

function lower(code: number): number {
  const text = String.fromCharCode(code).toLowerCase();
  return text.length === 1 ? text.charCodeAt(0) : code;
}

function inRanges(ranges: readonly number[], code: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) {
    if (code < ranges[i]) return false;
    if (code <= ranges[i + 1]) return true;
  }
  return false;
}

function characterTest(set: CharSet, ignoreCase: boolean): (code: number) => boolean {
  const { ranges, negate } = set;
  if (!ignoreCase) return (code) => inRanges(ranges, code) !== negate;
  return (code) => {
    const key = canonical(code);
    // The code units that canonicalise like `code`: itself, its canonical form and their lower cases.
    const found = [code, key, lower(code), lower(key)].some((candidate) => canonical(candidate) === key && inRanges(ranges, candidate));
    return found !== negate;
  };
}

class Builder {
  readonly op: number[] = [];
  readonly out: number[] = [];
  readonly out2: number[] = [];
  readonly arg: number[] = [];
  readonly tests: Array<(code: number) => boolean> = [];
  readonly assertions: Assertion[] = [];
  private readonly testIds = new Map<string, number>();
  private readonly assertionIds = new Map<string, number>();

  constructor(private readonly ignoreCase: boolean) {}

  add(op: number, out = -1, out2 = -1, arg = -1): number {
    if (this.op.length >= MAX_STATES) throw new UnsupportedPatternError(`a pattern this large (over ${MAX_STATES} matcher states)`);
    this.op.push(op);
    this.out.push(out);
    this.out2.push(out2);
    this.arg.push(arg);
    return this.op.length - 1;
  }

  private testId(set: CharSet): number {
    const key = `${set.negate ? '^' : ''}${set.ranges.join(',')}`;
    let id = this.testIds.get(key);
    if (id === undefined) {
      id = this.tests.push(characterTest(set, this.ignoreCase)) - 1;
      this.testIds.set(key, id);
    }
    return id;
  }

  private assertionId(key: string, make: () => Assertion): number {
    let id = this.assertionIds.get(key);
    if (id === undefined) {
      id = this.assertions.push(make()) - 1;
      this.assertionIds.set(key, id);
    }
    return id;
  }

  /** The first state of `node`, which continues at `next`. Built back to front. */
  build(node: RegexNode, next: number): number {
    switch (node.type) {
      case 'empty':
        return next;
      case 'char':
        return this.add(CHAR, next, -1, this.testId(node.set));
      case 'seq':
        return node.items.reduceRight((after, item) => this.build(item, after), next);
      case 'alt': {
        const starts = node.branches.map((branch) => this.build(branch, next));
        return starts.reduceRight((rest, first) => this.add(SPLIT, first, rest));
      }
      case 'repeat':
        return this.repeat(node.body, node.min, node.max, next);
      case 'assert': {
        const kind = node.kind;
        return this.add(ASSERT, next, -1, this.assertionId(kind, () => ({ kind, negate: false, entry: -1 })));
      }
      case 'look': {
        const key = `look:${node.negate}:${JSON.stringify(node.body)}`;
        const id = this.assertionId(key, () => ({ kind: 'look', negate: node.negate, entry: -1 }));
        if (this.assertions[id].entry === -1) this.assertions[id].entry = this.build(node.body, this.add(MATCH));
        return this.add(ASSERT, next, -1, id);
      }
    }
  }

  private repeat(body: RegexNode, min: number, max: number, next: number): number {
    let start: number;
    let copies = min;
    if (max === Infinity) {
      // One loop; with min >= 1 it is entered at the body, which is one of the required copies.
      const loop = this.add(SPLIT, -1, next);
      const bodyStart = this.build(body, loop);
      this.out[loop] = bodyStart;
      start = min > 0 ? bodyStart : loop;
      if (min > 0) copies--;
    } else {
      start = next;
      for (let optional = max - min; optional > 0; optional--) start = this.add(SPLIT, this.build(body, start), next);
    }
    for (; copies > 0; copies--) start = this.build(body, start);
    return start;
  }
}

function startsAnchored(node: RegexNode): boolean {
  if (node.type === 'assert') return node.kind === 'start';
  if (node.type === 'seq') return node.items.length > 0 && startsAnchored(node.items[0]);
  if (node.type === 'alt') return node.branches.every(startsAnchored);
  return false;
}

export function compileNfa(node: RegexNode, ignoreCase: boolean): Nfa {
  const builder = new Builder(ignoreCase);
  const start = builder.build(node, builder.add(MATCH));
  return {
    op: Uint8Array.from(builder.op),
    out: Int32Array.from(builder.out),
    out2: Int32Array.from(builder.out2),
    arg: Int32Array.from(builder.arg),
    tests: builder.tests,
    assertions: builder.assertions,
    start,
    anchored: startsAnchored(node),
  };
}
