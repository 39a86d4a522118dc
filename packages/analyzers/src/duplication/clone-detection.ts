// Clone detection over token sequences: every maximal repeated run of at least `minTokens`
// tokens, with all its occurrences (a clone class), found in O(n log n) for real code.
//
// Karp–Rabin fingerprints of every `minTokens` window are radix-sorted, so equal windows meet.
// Inside a group of equal windows the occurrences are ordered by the tokens that follow (a local
// suffix array), and the groups of that order that share the longest continuation are the clone
// classes: the textbook maximal repeats (right-maximal by construction, left-maximal by the
// "left-diverse" test), computed only where a repeat starts.

export interface CloneOccurrence {
  /** Index of the sequence (file). */
  sequence: number;
  /** First token of the occurrence in that sequence. */
  start: number;
}

export interface CloneClass {
  /** Tokens in each occurrence. */
  length: number;
  /** At least two, ordered by sequence then start. Copies in one sequence may overlap (a block followed by itself). */
  occurrences: CloneOccurrence[];
}

import { KeySet } from './key-set.js';

const BASE = 0x01000193;

/** Below this many keys, radix sorting takes 8 bits per pass rather than 16. */
const FEW_KEYS = 1 << 14;

/** One stable counting-sort pass on `bits` bits of the keys, from `keys`/`values` into `toKeys`/`toValues`. */
function radixPass(keys: Int32Array, values: Uint32Array, toKeys: Int32Array, toValues: Uint32Array, shift: number, bits: number, counts: Uint32Array): void {
  const n = keys.length;
  const mask = (1 << bits) - 1;
  counts.fill(0);
  for (let i = 0; i < n; i++) counts[((keys[i] >>> shift) & mask) + 1]++;
  for (let b = 1; b <= mask + 1; b++) counts[b] += counts[b - 1];
  for (let i = 0; i < n; i++) {
    const key = keys[i];
    const at = counts[(key >>> shift) & mask]++;
    toKeys[at] = key;
    toValues[at] = values[i];
  }
}

/**
 * Sorts `values` by `keys` (as unsigned bit patterns) in place: in two 16-bit passes, or for few
 * keys (a derived run's changed groups) in four 8-bit ones, whose counts are not 65,536 to clear and add up.
 */
function radixSortByKey(keys: Int32Array, values: Uint32Array): void {
  const bits = keys.length < FEW_KEYS ? 8 : 16;
  const counts = new Uint32Array((1 << bits) + 1);
  const scratchKeys = new Int32Array(keys.length);
  const scratchValues = new Uint32Array(keys.length);
  for (let shift = 0; shift < 32; shift += 2 * bits) {
    radixPass(keys, values, scratchKeys, scratchValues, shift, bits, counts);
    radixPass(scratchKeys, scratchValues, keys, values, shift + bits, bits, counts);
  }
}

/**
 * Karp–Rabin fingerprints of every window of one sequence, appended at `count`. The mixing is
 * written out in the loop: the analysis runs V8 without inlining (runtime/v8-tuning.ts), and a call per
 * window made this loop about twice as slow.
 */
function fingerprintWindows(tokens: Int32Array, from: number, to: number, window: number, keys: Int32Array, starts: Uint32Array, count: number): number {
  if (to - from < window) return count;
  let power = 1;
  for (let k = 1; k < window; k++) power = Math.imul(power, BASE);
  let h = 0;
  for (let k = from; k < from + window; k++) h = (Math.imul(h, BASE) + tokens[k]) | 0;
  for (let start = from; ; start++) {
    // murmur3's finaliser spreads the polynomial hash over all 32 bits for the radix sort. Signed,
    // like every hash here: an int32 is a small integer to V8, an uint32 above 2^31 a heap number.
    let m = h ^ (h >>> 16);
    m = Math.imul(m, 0x85ebca6b);
    m ^= m >>> 13;
    m = Math.imul(m, 0xc2b2ae35);
    keys[count] = m ^ (m >>> 16);
    starts[count++] = start;
    if (start + window >= to) return count;
    h = (Math.imul(h - Math.imul(tokens[start], power), BASE) + tokens[start + window]) | 0;
  }
}

/**
 * The fingerprint (sort key) of every `window`-token window of one sequence, as detection computes
 * it: the clone classes found from a window's group all start with a window of that fingerprint.
 */
export function windowKeys(tokens: Int32Array, window: number): Int32Array {
  const size = Math.max(1, Math.floor(window));
  const count = Math.max(0, tokens.length - size + 1);
  const keys = new Int32Array(count);
  fingerprintWindows(tokens, 0, tokens.length, size, keys, new Uint32Array(count), 0);
  return keys;
}

/** `windowKeys` written into `keys` (with the windows' starts into `starts`), both at least as long as `tokens`; returns how many. */
export function windowKeysInto(tokens: Int32Array, window: number, keys: Int32Array, starts: Uint32Array): number {
  return fingerprintWindows(tokens, 0, tokens.length, Math.max(1, Math.floor(window)), keys, starts, 0);
}

/** The fingerprint of the window at `start` (see `windowKeys`). */
export function windowKeyAt(tokens: Int32Array, start: number, window: number): number {
  return windowKeys(tokens.subarray(start, start + Math.max(1, Math.floor(window))), window)[0];
}

interface Windows {
  keys: Int32Array;
  starts: Uint32Array;
  count: number;
}

function allWindows(tokens: Int32Array, offsets: Uint32Array, window: number): Windows {
  const keys = new Int32Array(tokens.length);
  const starts = new Uint32Array(tokens.length);
  let count = 0;
  for (let s = 0; s + 1 < offsets.length; s++) count = fingerprintWindows(tokens, offsets[s], offsets[s + 1], window, keys, starts, count);
  return { keys, starts, count };
}

/**
 * The windows whose fingerprint `keep` accepts: when it accepts few, each sequence's fingerprints
 * go through one scratch buffer instead of arrays the size of all sequences.
 */
function keptWindows(tokens: Int32Array, offsets: Uint32Array, window: number, keep: KeySet | ((key: number) => boolean)): Windows {
  // A KeySet is probed here, not through a call per window (see fingerprintWindows).
  const set = keep instanceof KeySet ? keep : undefined;
  const table = set?.table;
  const used = set?.used;
  const mask = set?.mask ?? 0;
  let longest = 0;
  for (let s = 0; s + 1 < offsets.length; s++) longest = Math.max(longest, offsets[s + 1] - offsets[s]);
  const scratchKeys = new Int32Array(longest);
  const scratchStarts = new Uint32Array(longest);
  let keys = new Int32Array(1024);
  let starts = new Uint32Array(1024);
  let count = 0;
  for (let s = 0; s + 1 < offsets.length; s++) {
    const found = fingerprintWindows(tokens, offsets[s], offsets[s + 1], window, scratchKeys, scratchStarts, 0);
    for (let i = 0; i < found; i++) {
      const key = scratchKeys[i];
      if (table && used) {
        let at = key & mask;
        while (used[at] && table[at] !== key) at = (at + 1) & mask;
        if (!used[at]) continue;
      } else if (!(keep as (key: number) => boolean)(key)) continue;
      if (count === keys.length) {
        const grownKeys = new Int32Array(count * 2);
        grownKeys.set(keys);
        keys = grownKeys;
        const grownStarts = new Uint32Array(count * 2);
        grownStarts.set(starts);
        starts = grownStarts;
      }
      keys[count] = key;
      starts[count++] = scratchStarts[i];
    }
  }
  return { keys, starts, count };
}

/**
 * Every clone class of the sequences; with `keep`, only those of the windows whose fingerprint it
 * accepts (each class comes from the group of its first window's fingerprint, computed from that
 * group alone, so these are exactly the classes a full run finds for them, in the same order).
 */
export function findCloneClasses(sequences: readonly Int32Array[], minTokens: number, keep?: KeySet | ((key: number) => boolean)): CloneClass[] {
  const window = Math.max(1, Math.floor(minTokens));
  const { tokens, offsets } = endToEnd(sequences);
  // Fingerprints of every window (with `keep`, of the kept ones).
  const windows = keep ? keptWindows(tokens, offsets, window, keep) : allWindows(tokens, offsets, window);
  return classesOfWindows(tokens, offsets, window, windows);
}

/** Windows of one sequence chosen by a caller: their fingerprints (`windowKeys`) and starts, in increasing order, in `[0, count)`. */
export interface SequenceWindows {
  keys: Int32Array;
  starts: Uint32Array;
  count: number;
}

/**
 * The clone classes of the groups of the windows given per sequence (undefined: none). When they
 * are all the windows of some fingerprints, except fingerprints held by one window alone (a group
 * of one member has no class), these are the classes `findCloneClasses` finds with a filter that
 * keeps those fingerprints, in the same order: a derived run lists the windows of its changed
 * groups itself, without fingerprinting the changed files again or sorting their unique windows.
 */
export function findCloneClassesOfWindows(
  sequences: readonly Int32Array[],
  minTokens: number,
  windowsOf: ReadonlyArray<SequenceWindows | undefined>,
): CloneClass[] {
  const { tokens, offsets } = endToEnd(sequences);
  let total = 0;
  for (const windows of windowsOf) total += windows?.count ?? 0;
  const keys = new Int32Array(total);
  const starts = new Uint32Array(total);
  let count = 0;
  for (let s = 0; s < sequences.length; s++) {
    const windows = windowsOf[s];
    if (!windows) continue;
    for (let i = 0; i < windows.count; i++) {
      keys[count] = windows.keys[i];
      starts[count++] = offsets[s] + windows.starts[i];
    }
  }
  return classesOfWindows(tokens, offsets, Math.max(1, Math.floor(minTokens)), { keys, starts, count });
}

/** The sequences laid end to end, and where each starts (with the total length last). */
function endToEnd(sequences: readonly Int32Array[]): { tokens: Int32Array; offsets: Uint32Array } {
  const offsets = new Uint32Array(sequences.length + 1);
  for (let s = 0; s < sequences.length; s++) offsets[s + 1] = offsets[s] + sequences[s].length;
  const tokens = new Int32Array(offsets[sequences.length]);
  sequences.forEach((sequence, s) => tokens.set(sequence, offsets[s]));
  return { tokens, offsets };
}

/** The classes of the groups of `windows` (starts increasing, in `tokens`, the sequences end to end at `offsets`). */
function classesOfWindows(tokens: Int32Array, offsets: Uint32Array, window: number, windows: Windows): CloneClass[] {
  const sequenceCount = offsets.length - 1;
  const candidates = windows.count;
  // Sorted so that equal windows meet.
  const keys = windows.keys.subarray(0, candidates);
  const starts = windows.starts.subarray(0, candidates);
  radixSortByKey(keys, starts);

  const sequenceOf = (position: number): number => {
    let lo = 0;
    let hi = sequenceCount - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (offsets[mid] <= position) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  /**
   * Compares the runs of tokens starting at `a` and `b`, neither crossing its sequence's end:
   * how many tokens they share, and which sorts first (a run that ends sorts before one that goes on).
   */
  const compareRuns = (a: number, b: number): { common: number; order: number } => {
    const roomA = offsets[sequenceOf(a) + 1] - a;
    const roomB = offsets[sequenceOf(b) + 1] - b;
    const room = Math.min(roomA, roomB);
    let k = 0;
    while (k < room && tokens[a + k] === tokens[b + k]) k++;
    if (k < room) return { common: k, order: tokens[a + k] < tokens[b + k] ? -1 : 1 };
    return { common: k, order: roomA - roomB || a - b };
  };
  /** True when the windows at `a` and `b` (of one fingerprint, both inside their sequence) are equal. */
  const sameWindow = (a: number, b: number): boolean => {
    for (let k = 0; k < window; k++) if (tokens[a + k] !== tokens[b + k]) return false;
    return true;
  };
  /** The token before a position, or a value no token has at the start of a sequence. */
  const leftOf = (position: number): number | undefined => (offsets[sequenceOf(position)] === position ? undefined : tokens[position - 1]);
  const leftDiverse = (members: ArrayLike<number>, from = 0, to = members.length): boolean => {
    const first = leftOf(members[from]);
    if (first === undefined) return true;
    for (let m = from + 1; m < to; m++) {
      const left = leftOf(members[m]);
      if (left === undefined || left !== first) return true;
    }
    return false;
  };
  const leftDiverseRange = (from: number, to: number): boolean => leftDiverse(starts, from, to);

  const classes: CloneClass[] = [];
  const report = (members: readonly number[], length: number): void => {
    if (members.length < 2 || length < window || !leftDiverse(members)) return;
    const occurrences = members
      .map((position) => {
        const sequence = sequenceOf(position);
        return { sequence, start: position - offsets[sequence] };
      })
      .sort((a, b) => a.sequence - b.sequence || a.start - b.start);
    classes.push({ length, occurrences });
  };

  /**
   * Members whose window starts again less than a window further in the same sequence sit in a
   * run that repeats itself with a period shorter than a clone: a token table (`0, 0, 0, …`) or,
   * once names are normalised, a list of similar statements or records. They match everything
   * like them and say nothing about copied logic, so they never start a clone; this also keeps
   * the groups of such runs, and the sorting of their members, small.
   */
  const withoutPeriodic = (members: number[]): number[] => {
    const periodic = new Uint8Array(members.length);
    for (let m = 1; m < members.length; m++) {
      const [a, b] = [members[m - 1], members[m]];
      if (b - a < window && sequenceOf(a) === sequenceOf(b) && sameWindow(a, b)) periodic[m - 1] = periodic[m] = 1;
    }
    return members.filter((_, m) => !periodic[m]);
  };

  for (let lo = 0; lo < candidates;) {
    let hi = lo + 1;
    while (hi < candidates && keys[hi] === keys[lo]) hi++;
    // Inside a longer repeat every member has the same left neighbour: nothing starts here.
    if (hi - lo >= 2 && leftDiverseRange(lo, hi)) {
      // The radix sort is stable: members come in increasing position.
      const members = withoutPeriodic(Array.from(starts.subarray(lo, hi)));
      if (members.length >= 2 && leftDiverse(members)) enumerateRepeats(members, compareRuns, report);
    }
    lo = hi;
  }
  return classes;
}

/**
 * Orders the members of one fingerprint group by what follows them, then reports every group of
 * consecutive members sharing a longest common continuation (the LCP intervals of a suffix array).
 */
function enumerateRepeats(
  members: number[],
  compareRuns: (a: number, b: number) => { common: number; order: number },
  report: (members: readonly number[], length: number) => void,
): void {
  members.sort((a, b) => compareRuns(a, b).order);
  const lcp = new Array<number>(members.length).fill(0);
  for (let m = 1; m < members.length; m++) lcp[m] = compareRuns(members[m - 1], members[m]).common;
  // A stack of open intervals: where each starts in `members`, and the length its members share.
  const stack: Array<{ length: number; lb: number }> = [{ length: 0, lb: 0 }];
  for (let m = 1; m <= members.length; m++) {
    const current = m < members.length ? lcp[m] : 0;
    let lb = m - 1;
    while (current < stack[stack.length - 1].length) {
      const top = stack.pop()!;
      report(members.slice(top.lb, m), top.length);
      lb = top.lb;
    }
    if (current > stack[stack.length - 1].length) stack.push({ length: current, lb });
  }
}
