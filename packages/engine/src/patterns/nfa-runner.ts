// Runs an NFA (nfa.ts) over a subject without backtracking: the set of live states advances one
// code unit at a time (Thompson's simulation), so a test costs at most O(states × subject length)
// whatever the pattern. State sets met before are kept as DFA states, built lazily as RE2 does:
// once warm, a subject character costs one map lookup. The cache is bounded and starts over when
// full. Assertions are decided at most once per position: `^`, `$`, `\b` from the neighbouring
// characters, a short lookahead by running its body from there, a long lookahead or a lookbehind
// for all positions at once by one pass of its body over the subject (backwards for a lookahead).
import { ASSERT, CHAR, MATCH, SPLIT, type Nfa } from './nfa.js';

/** States reached by reading a character, before following the empty moves. */
interface Kernel {
  states: Int32Array;
  generation: number;
  /** Assertions the empty moves from here may consult; their answers key `actives`. */
  needs?: Int32Array;
  /** The one closure of a kernel that consults no assertion. */
  only?: Active;
  /** Closures by the answers of `needs` (bit i: needs[i] holds). */
  actives: Array<Active | undefined>;
}

/** The character-reading states live at a position, and whether the pattern has matched there. */
interface Active {
  chars: Int32Array;
  accept: boolean;
  /** Transitions on ASCII code units (allocated with the first), then on the rest. */
  ascii?: Array<Kernel | undefined>;
  next: Map<number, Kernel>;
}

/** Cached state ids and transitions per entry before the cache starts over. */
const CACHE_LIMIT = 250_000;
/** A kernel consulting more assertions than this is not cached (one closure per combination of answers). */
const MAX_KEY_BITS = 8;

/** FNV-1a over the state ids: the kernels' lookup key (equal arrays are then compared). */
function hashStates(states: ArrayLike<number>): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < states.length; i++) hash = Math.imul(hash ^ states[i], 0x01000193);
  return hash;
}

function sameStates(a: Int32Array, b: Int32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

class EntryCache {
  kernels = new Map<number, Kernel[]>();
  stored = 0;
  generation = 0;
  start?: Kernel;

  constructor(
    readonly entry: number,
    /** A search: the pattern may start matching at any position (no leading `^`). */
    readonly floating: boolean,
  ) {}
}

const isLineTerminator = (code: number) => code === 10 || code === 13 || code === 0x2028 || code === 0x2029;

function isWordAt(subject: string, index: number): boolean {
  if (index < 0 || index >= subject.length) return false;
  const code = subject.charCodeAt(index);
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

export class NfaRunner {
  /** Work done so far: states visited and characters read. A measure of time independent of the machine. */
  steps = 0;
  /** The main pattern's cache first, then one per assertion (lookaround bodies). */
  private readonly caches: EntryCache[];
  private readonly marks: Int32Array;
  private mark = 0;
  private subject = '';
  /** Lookaround answers by assertion and position (0 unknown, 1 false, 2 true), for the test `memoOf[id]`. */
  private readonly memo: Array<Uint8Array | undefined> = [];
  private readonly memoOf: number[] = [];
  private tests = 0;

  constructor(private readonly nfa: Nfa) {
    this.marks = new Int32Array(nfa.op.length);
    this.caches = [new EntryCache(nfa.start, !nfa.anchored), ...nfa.assertions.map((assertion) => new EntryCache(assertion.entry, assertion.mode !== 'probe'))];
  }

  /** Whether the pattern matches somewhere in `subject` (RegExp.prototype.test without `g`). */
  test(subject: string): boolean {
    this.subject = subject;
    this.tests++;
    const matched = this.run(this.caches[0], 0);
    this.subject = '';
    return matched;
  }

  /** Whether the entry matches a stretch of the subject starting at `from` (or later, if floating). */
  private run(cache: EntryCache, from: number): boolean {
    const subject = this.subject;
    const length = subject.length;
    if (cache.start?.generation !== cache.generation) cache.start = this.intern(cache, Int32Array.of(cache.entry));
    let kernel = cache.start;
    let position = from;
    for (;;) {
      if (kernel.generation !== cache.generation) kernel = this.intern(cache, kernel.states);
      const active = kernel.only ?? this.activeAt(cache, kernel, position);
      if (active.accept || position === length || (active.chars.length === 0 && !cache.floating)) {
        this.steps += position - from + 1;
        return active.accept;
      }
      const code = subject.charCodeAt(position++);
      kernel = (code < 128 ? active.ascii?.[code] : active.next.get(code)) ?? this.advance(cache, active, code);
    }
  }

  private nextMark(): number {
    if (this.mark >= 0x3fffffff) {
      this.marks.fill(0);
      this.mark = 0;
    }
    return ++this.mark;
  }

  private activeAt(cache: EntryCache, kernel: Kernel, position: number): Active {
    kernel.needs ??= this.assertionsReachable(kernel.states);
    if (kernel.needs.length === 0) {
      kernel.only = this.closure(kernel.states, position);
      this.account(cache, kernel.only.chars.length + 1);
      return kernel.only;
    }
    if (kernel.needs.length > MAX_KEY_BITS) return this.closure(kernel.states, position);
    let key = 0;
    for (const id of kernel.needs) key = key * 2 + (this.holds(id, position) ? 1 : 0);
    let active = kernel.actives[key];
    if (!active) {
      active = this.closure(kernel.states, position);
      kernel.actives[key] = active;
      this.account(cache, active.chars.length + 1);
    }
    return active;
  }

  /** Follows the empty moves from `states` at `position`. */
  private closure(states: Int32Array, position: number): Active {
    const { op, out, out2, arg } = this.nfa;
    const mark = this.nextMark();
    const stack = Array.from(states);
    const chars: number[] = [];
    let accept = false;
    while (stack.length > 0) {
      const state = stack.pop()!;
      if (this.marks[state] === mark) continue;
      this.marks[state] = mark;
      this.steps++;
      switch (op[state]) {
        case CHAR:
          chars.push(state);
          break;
        case MATCH:
          accept = true;
          break;
        case SPLIT:
          stack.push(out2[state], out[state]);
          break;
        case ASSERT:
          if (this.holds(arg[state], position)) stack.push(out[state]);
          break;
      }
    }
    return { chars: Int32Array.from(chars), accept, next: new Map() };
  }

  /** The assertions the empty moves from `states` may consult, in id order. */
  private assertionsReachable(states: Int32Array): Int32Array {
    const masks = this.nfa.assertionMask;
    let union = 0;
    for (const state of states) {
      if (masks[state] === -1) return this.assertionsSearched(states);
      union |= masks[state];
    }
    const ids: number[] = [];
    for (let id = 0; union !== 0; id++, union >>>= 1) if (union & 1) ids.push(id);
    return Int32Array.from(ids);
  }

  /** assertionsReachable by a search, for patterns with more assertions than a mask holds. */
  private assertionsSearched(states: Int32Array): Int32Array {
    const { op, out, out2, arg } = this.nfa;
    const mark = this.nextMark();
    const stack = Array.from(states);
    const found = new Set<number>();
    while (stack.length > 0) {
      const state = stack.pop()!;
      if (this.marks[state] === mark) continue;
      this.marks[state] = mark;
      this.steps++;
      if (op[state] === SPLIT) stack.push(out2[state], out[state]);
      else if (op[state] === ASSERT) {
        found.add(arg[state]);
        stack.push(out[state]);
      }
    }
    return Int32Array.from([...found].sort((a, b) => a - b));
  }

  /** The kernel after reading `code` from `active`. */
  private advance(cache: EntryCache, active: Active, code: number): Kernel {
    const { out, arg, tests } = this.nfa;
    const mark = this.nextMark();
    const next: number[] = [];
    for (const state of active.chars) {
      this.steps++;
      if (!tests[arg[state]](code)) continue;
      const target = out[state];
      if (this.marks[target] !== mark) {
        this.marks[target] = mark;
        next.push(target);
      }
    }
    if (cache.floating && this.marks[cache.entry] !== mark) next.push(cache.entry);
    const kernel = this.intern(cache, Int32Array.from(next).sort());
    if (code < 128) (active.ascii ??= new Array<Kernel | undefined>(128))[code] = kernel;
    else active.next.set(code, kernel);
    this.account(cache, 1);
    return kernel;
  }

  /** The cached kernel of these (sorted) states, or a new one. */
  private intern(cache: EntryCache, states: Int32Array): Kernel {
    const hash = hashStates(states);
    const bucket = cache.kernels.get(hash);
    const found = bucket?.find((kernel) => sameStates(kernel.states, states));
    if (found) return found;
    const kernel: Kernel = { states, generation: cache.generation, actives: [] };
    if (bucket) bucket.push(kernel);
    else cache.kernels.set(hash, [kernel]);
    this.account(cache, states.length + 1);
    return kernel;
  }

  private account(cache: EntryCache, amount: number): void {
    cache.stored += amount;
    if (cache.stored <= CACHE_LIMIT) return;
    cache.kernels = new Map();
    cache.stored = 0;
    cache.generation++;
  }

  /**
   * Answers a lookaround for every position in one pass (recorded in `answers` as 1 false, 2 true):
   * the body, started afresh at every position, has matched at a position when its match state is
   * live there. A lookbehind's body is read forwards; a lookahead's body, reversed, backwards.
   */
  private scan(cache: EntryCache, backward: boolean, negate: boolean, answers: Uint8Array): void {
    const subject = this.subject;
    const length = subject.length;
    if (cache.start?.generation !== cache.generation) cache.start = this.intern(cache, Int32Array.of(cache.entry));
    let kernel = cache.start;
    let position = backward ? length : 0;
    for (;;) {
      if (kernel.generation !== cache.generation) kernel = this.intern(cache, kernel.states);
      const active = kernel.only ?? this.activeAt(cache, kernel, position);
      answers[position] = active.accept !== negate ? 2 : 1;
      if (position === (backward ? 0 : length)) break;
      const code = subject.charCodeAt(backward ? --position : position++);
      kernel = (code < 128 ? active.ascii?.[code] : active.next.get(code)) ?? this.advance(cache, active, code);
    }
    this.steps += length + 1;
  }

  /** The lookaround answers of assertion `id` for the current test, cleared when it began. */
  private memoFor(id: number, size: number): Uint8Array {
    let memo = this.memo[id];
    if (this.memoOf[id] === this.tests && memo) return memo;
    if (memo && memo.length >= size) memo.fill(0, 0, size);
    else memo = this.memo[id] = new Uint8Array(Math.max(size, 64));
    this.memoOf[id] = this.tests;
    return memo;
  }

  private holds(id: number, position: number): boolean {
    const assertion = this.nfa.assertions[id];
    const subject = this.subject;
    switch (assertion.kind) {
      case 'start':
        return position === 0;
      case 'end':
        return position === subject.length;
      case 'line-start':
        return position === 0 || isLineTerminator(subject.charCodeAt(position - 1));
      case 'line-end':
        return position === subject.length || isLineTerminator(subject.charCodeAt(position));
      case 'word':
        return isWordAt(subject, position - 1) !== isWordAt(subject, position);
      case 'not-word':
        return isWordAt(subject, position - 1) === isWordAt(subject, position);
      case 'look': {
        const memo = this.memoFor(id, subject.length + 1);
        if (assertion.mode !== 'probe') {
          if (memo[subject.length] === 0) this.scan(this.caches[id + 1], assertion.mode === 'scan-back', assertion.negate, memo);
        } else if (memo[position] === 0) memo[position] = this.run(this.caches[id + 1], position) !== assertion.negate ? 2 : 1;
        return memo[position] === 2;
      }
    }
  }
}
