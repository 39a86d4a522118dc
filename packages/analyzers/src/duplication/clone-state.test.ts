// Saved clone classes updated for changed files give exactly what detection finds from scratch:
// the same classes, occurrences and order, on random repositories with planted copies.
import { describe, expect, it } from 'vitest';
import { findCloneClasses } from './clone-detection.js';
import { readSavedClones, savePass, updateCloneClasses } from './clone-state.js';

const WINDOW = 12;

/** A small deterministic generator (mulberry32), so a failure can be replayed by its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Files of random tokens (a small alphabet, so short accidental repeats and periodic runs occur) with blocks copied between them. */
function repository(next: () => number, files: number, blocks: number[][]): Map<string, number[]> {
  const repo = new Map<string, number[]>();
  for (let f = 0; f < files; f++) {
    const tokens: number[] = [];
    const length = 20 + Math.floor(next() * 200);
    while (tokens.length < length) {
      const roll = next();
      if (roll < 0.08) tokens.push(...blocks[Math.floor(next() * blocks.length)]);
      else if (roll < 0.1) tokens.push(...Array.from({ length: 30 }, (_, i) => 500 + (i % 3)));
      else tokens.push(Math.floor(next() * 12));
    }
    repo.set(`src/f${String(f).padStart(3, '0')}.ts`, tokens);
  }
  return repo;
}

/** Edits, copies a block into, deletes, adds and renames a few files. */
function change(next: () => number, repo: Map<string, number[]>, blocks: number[][]): { head: Map<string, number[]>; changed: Set<string> } {
  const head = new Map(repo);
  const changed = new Set<string>();
  const paths = [...repo.keys()];
  const pick = () => paths[Math.floor(next() * paths.length)];
  for (let n = 0; n < 4; n++) {
    const path = pick();
    const tokens = [...head.get(path)!];
    const at = Math.floor(next() * tokens.length);
    const kind = next();
    if (kind < 0.3) tokens.splice(at, 1 + Math.floor(next() * 5), Math.floor(next() * 12));
    else if (kind < 0.6) tokens.splice(at, 0, ...blocks[Math.floor(next() * blocks.length)]);
    else tokens.splice(at, Math.floor(next() * 40));
    head.set(path, tokens);
    changed.add(path);
  }
  const gone = pick();
  if (head.delete(gone)) changed.add(gone);
  const moved = pick();
  if (head.has(moved)) {
    head.set(`${moved}.moved.ts`, head.get(moved)!);
    head.delete(moved);
    changed.add(moved).add(`${moved}.moved.ts`);
  }
  const added = `src/new-${Math.floor(next() * 1e6)}.ts`;
  head.set(added, [...blocks[0], ...head.get([...head.keys()][0])!.slice(0, 40)]);
  changed.add(added);
  return { head: new Map([...head].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), changed };
}

const detect = (repo: Map<string, number[]>) => findCloneClasses([...repo.values()].map((t) => Int32Array.from(t)), WINDOW);

describe('updateCloneClasses', () => {
  it('gives what detection from scratch gives, in the same order, on 60 random changes', () => {
    let compared = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(seed);
      const blocks = Array.from({ length: 6 }, () => Array.from({ length: WINDOW + Math.floor(next() * 30) }, () => 100 + Math.floor(next() * 300)));
      const base = repository(next, 40, blocks);
      const baseSequences = [...base.values()].map((t) => Int32Array.from(t));
      const saved = savePass([...base.keys()], baseSequences, findCloneClasses(baseSequences, WINDOW), WINDOW);
      const { head, changed } = change(next, base, blocks);
      const paths = [...head.keys()];
      const sequences = [...head.values()].map((t) => Int32Array.from(t));
      const before = [...base].filter(([path]) => changed.has(path)).map(([, t]) => Int32Array.from(t));
      const updated = updateCloneClasses(JSON.parse(JSON.stringify(saved)), { paths, sequences, changed, before, minTokens: WINDOW });
      expect(updated, `seed ${seed}`).toBeDefined();
      expect(updated!.classes, `seed ${seed}`).toEqual(detect(head));
      expect(updated!.compared).toBeLessThanOrEqual(paths.length);
      compared += updated!.classes.length;
    }
    expect(compared).toBeGreaterThan(500);
  });

  it('declines a saved pass that does not describe the unchanged files', () => {
    const base = new Map([
      ['a.ts', Array.from({ length: 40 }, (_, i) => i)],
      ['b.ts', Array.from({ length: 40 }, (_, i) => i)],
    ]);
    const sequences = [...base.values()].map((t) => Int32Array.from(t));
    const saved = savePass([...base.keys()], sequences, findCloneClasses(sequences, WINDOW), WINDOW);
    const change = { paths: ['a.ts', 'b.ts', 'c.ts'], sequences: [...sequences, Int32Array.from([1, 2])], changed: new Set<string>(), before: [], minTokens: WINDOW };
    expect(updateCloneClasses(saved, change)).toBeUndefined();
    expect(updateCloneClasses(saved, { ...change, changed: new Set(['c.ts']) })?.classes).toEqual(findCloneClasses(change.sequences, WINDOW));
  });

  it('reads back only a state of the same format and options', () => {
    const options = { minTokens: 50, mode: 'mild', ignoreImports: true, ignoreTests: true };
    const state = { format: 1, options: JSON.stringify([50, 'mild', true, true]), passes: [{ files: ['a.ts'], classes: [] }] };
    expect(readSavedClones(state, options, 1)).toEqual(state);
    expect(readSavedClones(state, { ...options, minTokens: 40 }, 1)).toBeUndefined();
    expect(readSavedClones(state, options, 2)).toBeUndefined();
    expect(readSavedClones({ ...state, format: 2 }, options, 1)).toBeUndefined();
    expect(readSavedClones('{}', options, 1)).toBeUndefined();
  });
});
