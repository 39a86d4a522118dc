// Compiles a regular-expression syntax tree (regex-syntax.ts) into a Thompson NFA: one state per
// character test, split or assertion, so its size is linear in the pattern (a counted repetition
// copies its body, within MAX_STATES). Lookarounds become assertions whose bodies are entries of
// the same state table; nfa-runner.ts simulates it without ever backtracking.
import { maxLength, reversed, UnsupportedPatternError, type AssertKind, type CharSet, type RegexNode } from './regex-syntax.js';

export const CHAR = 0;
export const SPLIT = 1;
export const ASSERT = 2;
export const MATCH = 3;

/** More states than this is refused: every subject character may visit each of them once. */
const MAX_STATES = 50_000;

/**
 * How a lookaround is decided (nfa-runner.ts):
 * - `probe`: a short lookahead, run forward from each position asked about;
 * - `scan-back`: any other lookahead: its body read backwards in one pass from the end of the
 *   subject answers for every position at once;
 * - `scan`: a lookbehind: its body read forwards in one pass from the start.
 */
type LookMode = 'probe' | 'scan-back' | 'scan';

/** Lookaheads that read at most this far are probed position by position; longer ones are scanned. */
const PROBE_LENGTH = 64;

export interface Assertion {
  kind: AssertKind | 'look';
  negate: boolean;
  mode: LookMode;
  /** The first state of the lookaround's body as `mode` runs it (kind `look`). */
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
  /**
   * Per state, the assertions its empty moves may consult, as bits (bit i: assertion i), or -1 when
   * an assertion beyond the 31st is among them.
   */
  assertionMask: Int32Array;
}

/** The upper-case form JavaScript's non-unicode `i` flag compares (ECMA-262 Canonicalize). */
function canonicalOf(code: number): number {
  const upper = String.fromCharCode(code).toUpperCase();
  const result = upper.length === 1 ? upper.charCodeAt(0) : code;
  return code >= 128 && result < 128 ? code : result;
}

/**
 * Code units that the `i` flag takes for one another, by canonical form: only the classes of more
 * than one (`k`, `K`; `µ`, `Μ`, `μ`). Built on first use, over all 65,536 code units (~10 ms).
 */
let caseClasses: { canonical: Uint16Array; members: Map<number, number[]> } | undefined;

function caseClassesOf(): { canonical: Uint16Array; members: Map<number, number[]> } {
  if (caseClasses) return caseClasses;
  const canonical = new Uint16Array(0x10000);
  const members = new Map<number, number[]>();
  for (let code = 0; code < 0x10000; code++) {
    const key = (canonical[code] = canonicalOf(code));
    if (key === code) continue;
    const group = members.get(key);
    if (group) group.push(code);
    else members.set(key, [key, code]);
  }
  caseClasses = { canonical, members };
  return caseClasses;
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
  let test = (code: number) => inRanges(ranges, code) !== negate;
  if (ignoreCase) {
    const { canonical, members } = caseClassesOf();
    // A member of the set that the `i` flag takes for `code` is as good as `code` itself.
    test = (code) => {
      const key = canonical[code];
      const found = members.get(key)?.some((member) => inRanges(ranges, member)) ?? inRanges(ranges, code);
      return found !== negate;
    };
  }
  // ASCII answers kept (0 unknown, 1 no, 2 yes): subjects are mostly ASCII.
  const ascii = new Uint8Array(128);
  return (code) => {
    if (code >= 128) return test(code);
    if (ascii[code] === 0) ascii[code] = test(code) ? 2 : 1;
    return ascii[code] === 2;
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
        return this.add(
          ASSERT,
          next,
          -1,
          this.assertionId(kind, () => ({ kind, negate: false, mode: 'probe', entry: -1 })),
        );
      }
      case 'look': {
        const mode: LookMode = node.behind ? 'scan' : maxLength(node.body) <= PROBE_LENGTH ? 'probe' : 'scan-back';
        const key = `look:${mode}:${node.negate}:${JSON.stringify(node.body)}`;
        const id = this.assertionId(key, () => ({ kind: 'look', negate: node.negate, mode, entry: -1 }));
        if (this.assertions[id].entry === -1) {
          this.assertions[id].entry = this.build(mode === 'scan-back' ? reversed(node.body) : node.body, this.add(MATCH));
        }
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

/** The assertion bits reachable by empty moves from each state: a fixpoint over the empty edges. */
function assertionMasks(op: readonly number[], out: readonly number[], out2: readonly number[], arg: readonly number[]): Int32Array {
  const masks = new Int32Array(op.length);
  for (let state = 0; state < op.length; state++) if (op[state] === ASSERT) masks[state] = arg[state] < 31 ? 1 << arg[state] : -1;
  const merge = (into: number, from: number) => {
    if (from < 0) return false;
    const merged = masks[into] === -1 || masks[from] === -1 ? -1 : masks[into] | masks[from];
    if (merged === masks[into]) return false;
    masks[into] = merged;
    return true;
  };
  // States are built back to front, so a state's successors mostly come first: one ascending pass
  // settles all but the loops, and a further pass per level of loop nesting settles those.
  for (let changed = true; changed;) {
    changed = false;
    for (let state = 0; state < op.length; state++) {
      if (op[state] === SPLIT) {
        if (merge(state, out[state])) changed = true;
        if (merge(state, out2[state])) changed = true;
      } else if (op[state] === ASSERT && merge(state, out[state])) changed = true;
    }
  }
  return masks;
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
    assertionMask: assertionMasks(builder.op, builder.out, builder.out2, builder.arg),
  };
}
