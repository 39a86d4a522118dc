import { describe, expect, it } from 'vitest';
import { findCloneClasses, findCloneClassesOfWindows, windowKeys, windowKeysInto, type CloneClass } from './clone-detection.js';
import { random } from './fixtures/random.js';
import { KeySet } from './key-set.js';

/** A sequence of distinct tokens `from, from + 1, …` (no accidental repeats). */
function run(from: number, length: number): number[] {
  return Array.from({ length }, (_, i) => from + i);
}
const seq = (...parts: number[][]): Int32Array => Int32Array.from(parts.flat());
const summary = (classes: CloneClass[]) =>
  classes
    .map((c) => ({ length: c.length, at: c.occurrences.map((o) => `${o.sequence}:${o.start}`) }))
    .sort((a, b) => b.length - a.length || a.at[0].localeCompare(b.at[0]));

describe('findCloneClasses', () => {
  it('finds a shared run, extended to its full length in both directions', () => {
    const shared = run(1000, 30);
    const classes = findCloneClasses([seq(run(0, 7), shared, run(100, 5)), seq(run(200, 3), shared, run(300, 9))], 20);
    expect(summary(classes)).toEqual([{ length: 30, at: ['0:7', '1:3'] }]);
  });

  it('finds nothing shorter than the window, and never a clone across the end of a sequence', () => {
    expect(findCloneClasses([seq(run(0, 19)), seq(run(0, 19))], 20)).toEqual([]);
    // The tail of one sequence and the head of the next make 20 tokens only when glued together.
    expect(findCloneClasses([seq(run(100, 5), run(0, 10)), seq(run(10, 10), run(200, 5)), seq(run(0, 20))], 20)).toEqual([]);
  });

  it('reports one class with every copy, and the longer part two copies share as its own class', () => {
    const common = run(1000, 25);
    const longer = run(2000, 15);
    const classes = findCloneClasses(
      [seq(run(0, 3), common, longer, run(10, 3)), seq(run(20, 3), common, longer, run(30, 3)), seq(run(40, 3), common, run(50, 3))],
      20,
    );
    expect(summary(classes)).toEqual([
      { length: 40, at: ['0:3', '1:3'] },
      { length: 25, at: ['0:3', '1:3', '2:3'] },
    ]);
  });

  it('finds repeats inside one sequence', () => {
    const block = run(1000, 22);
    expect(summary(findCloneClasses([seq(block, run(0, 4), block, run(10, 4), block)], 20))).toEqual([{ length: 22, at: ['0:0', '0:26', '0:52'] }]);
  });

  it('starts no clone inside a run that repeats itself with a short period (token tables)', () => {
    const zeros = Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? 7 : 8));
    expect(findCloneClasses([seq(zeros), seq(run(0, 5), zeros)], 20)).toEqual([]);
    // So does a longer period, as long as it is shorter than the window: rows of one record shape.
    const row = run(1000, 12);
    expect(findCloneClasses([seq(row, row, row, row, run(0, 3)), seq(run(50, 4), row, row, row)], 20)).toEqual([]);
    // A block repeated further apart than a window is code that was copied: it is a clone.
    const block = run(2000, 21);
    expect(summary(findCloneClasses([seq(block, block, run(0, 3))], 20))).toEqual([{ length: 21, at: ['0:0', '0:21'] }]);
  });

  it('finds no clone in huge repetitive runs, and finishes', () => {
    const table = Int32Array.from({ length: 400_000 }, (_, i) => (i % 2 === 0 ? 7 : 8));
    const records = Int32Array.from({ length: 300_000 }, (_, i) => 100 + (i % 30));
    // Quadratic work on this input would take minutes (past the test's timeout); how fast linear work is,
    // and that doubling the input doubles the time, is a benchmark figure (test/bench/micro.mjs).
    expect(findCloneClasses([table, table.slice(0, 200_000), records, records.slice(0, 90_000)], 50)).toEqual([]);
  });

  it('scales to a corpus with many equal windows without losing copies', () => {
    const block = run(5000, 60);
    const sequences = Array.from({ length: 40 }, (_, i) => seq(run(i * 100, 10), block, run(i * 100 + 50, 10)));
    const classes = findCloneClasses(sequences, 50);
    expect(classes).toHaveLength(1);
    expect(classes[0].length).toBe(60);
    expect(classes[0].occurrences).toHaveLength(40);
  });

  it('keeps the windows a KeySet holds exactly as the same filter given as a function (the set is probed inline)', () => {
    const next = random(5);
    for (let round = 0; round < 40; round++) {
      // Few token values: many repeated windows, so classes exist in most groups.
      const sequences = Array.from({ length: 2 + Math.floor(next() * 5) }, () =>
        Int32Array.from({ length: Math.floor(next() * 400) }, () => Math.floor(next() * 3)),
      );
      const all = sequences.flatMap((tokens) => [...windowKeys(tokens, 20)]);
      const set = new KeySet(all.length);
      for (const key of all) if (next() < 0.3) set.add(key);
      expect(findCloneClasses(sequences, 20, set)).toEqual(findCloneClasses(sequences, 20, (key) => set.has(key)));
    }
  });
});

/** `count` sequences of about `length` random tokens, with blocks of 20 to 60 tokens copied among them (and short periodic runs). */
function planted(next: () => number, count: number, length: number): Int32Array[] {
  const blocks = Array.from({ length: 12 }, () => Array.from({ length: 20 + Math.floor(next() * 40) }, () => Math.floor(next() * 50)));
  return Array.from({ length: count }, () => {
    const tokens: number[] = [];
    while (tokens.length < length) {
      const roll = next();
      if (roll < 0.1) tokens.push(...blocks[Math.floor(next() * blocks.length)]);
      else if (roll < 0.12) tokens.push(...run(0, 30).map((i) => 90 + (i % 3)));
      else tokens.push(Math.floor(next() * 50));
    }
    return Int32Array.from(tokens);
  });
}

describe('findCloneClassesOfWindows', () => {
  it('finds, from the windows of some fingerprints without those held once, the classes a filter keeping them finds', () => {
    const next = random(11);
    for (let round = 0; round < 40; round++) {
      const sequences = planted(next, 2 + Math.floor(next() * 5), Math.floor(next() * 400));
      const chosen = new Set(sequences.flatMap((tokens) => [...windowKeys(tokens, 20)]).filter(() => next() < 0.3));
      const held = new Map<number, number>();
      for (const tokens of sequences) for (const key of windowKeys(tokens, 20)) held.set(key, (held.get(key) ?? 0) + 1);
      const windowsOf = sequences.map((tokens) => {
        const keys = new Int32Array(tokens.length);
        const starts = new Uint32Array(tokens.length);
        const found = windowKeysInto(tokens, 20, keys, starts);
        let count = 0;
        for (let i = 0; i < found; i++) {
          if (!chosen.has(keys[i]) || held.get(keys[i])! < 2) continue;
          keys[count] = keys[i];
          starts[count++] = starts[i];
        }
        // Some sequences are given no windows at all.
        return count === 0 && next() < 0.5 ? undefined : { keys, starts, count };
      });
      expect(findCloneClassesOfWindows(sequences, 20, windowsOf)).toEqual(findCloneClasses(sequences, 20, (key) => chosen.has(key)));
    }
  });

  it('orders few windows (sorted 8 bits at a time) as detection orders many (16 bits at a time)', () => {
    const next = random(12);
    const sequences = planted(next, 8, 6000);
    const keyOf = (c: CloneClass) => windowKeys(sequences[c.occurrences[0].sequence].subarray(c.occurrences[0].start, c.occurrences[0].start + 20), 20)[0];
    const all = findCloneClasses(sequences, 20);
    const chosen = new Set(all.filter(() => next() < 0.2).map(keyOf));
    const few = findCloneClasses(sequences, 20, (key) => chosen.has(key));
    expect(few.length).toBeGreaterThan(20);
    expect(few).toEqual(all.filter((c) => chosen.has(keyOf(c))));
  });
});

describe('windowKeys', () => {
  it('is the Karp–Rabin hash of each window through murmur3’s finaliser (the fingerprints saved with a run state)', () => {
    const tokens = Int32Array.from({ length: 300 }, (_, i) => (i * 7919) % 257);
    const window = 25;
    const expected = Array.from({ length: tokens.length - window + 1 }, (_, start) => {
      let h = 0;
      for (let k = start; k < start + window; k++) h = (Math.imul(h, 0x01000193) + tokens[k]) | 0;
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      h = Math.imul(h, 0xc2b2ae35);
      return h ^ (h >>> 16);
    });
    expect([...windowKeys(tokens, window)]).toEqual(expected);
  });
});
