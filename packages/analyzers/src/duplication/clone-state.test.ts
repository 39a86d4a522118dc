// Saved clone classes updated for changed files give exactly what detection finds from scratch:
// the same classes, occurrences and order, on random repositories with planted copies; and so do
// the located clones and each file's duplicated lines restored from the saved ones.
import type { FileSummary } from '@codehealth/engine';
import { describe, expect, it } from 'vitest';
import { random } from './fixtures/random.js';
import { findCloneClasses, windowKeys } from './clone-detection.js';
import type { LocatedClone } from './clone-fragments.js';
import { duplicatedRowsByFile, encodeLocated, locateEach, restoreLocated, updateDuplicatedRows } from './clone-results.js';
import { readSavedClones, savePass, updateCloneClasses } from './clone-state.js';
import type { FileTokens } from './token-streams.js';

const WINDOW = 12;

/**
 * Files of random tokens (by default a small alphabet, so short accidental repeats and periodic
 * runs occur) with blocks copied between them.
 */
function repository(next: () => number, files: number, blocks: number[][], { alphabet = 12, copies = 0.08, periodic = 0.02 } = {}): Map<string, number[]> {
  const repo = new Map<string, number[]>();
  for (let f = 0; f < files; f++) {
    const tokens: number[] = [];
    const length = 20 + Math.floor(next() * 200);
    while (tokens.length < length) {
      const roll = next();
      if (roll < copies) tokens.push(...blocks[Math.floor(next() * blocks.length)]);
      else if (roll < copies + periodic) tokens.push(...Array.from({ length: 30 }, (_, i) => 500 + (i % 3)));
      else tokens.push(Math.floor(next() * alphabet));
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

const detect = (repo: Map<string, number[]>) =>
  findCloneClasses(
    [...repo.values()].map((t) => Int32Array.from(t)),
    WINDOW,
  );

const POLICY = { minTokens: WINDOW, minLines: 3, ignoreOverloads: true };

/** A file of the sequence's tokens, three to a line (a token's class is its low bits: some are comments, some edges). */
function fileOf(path: string, tokens: readonly number[]): FileTokens {
  const hashes = Int32Array.from(tokens);
  const rows = Uint32Array.from(tokens, (_, i) => Math.floor(i / 3));
  const summary = { path, kind: 'source' } as FileSummary;
  const stream = { hashes, rows, endRows: rows, imports: [], ignored: [], overloads: [] };
  return { summary, tokenCount: hashes.length, stream, hashes, exact: hashes, original: Uint32Array.from(tokens, (_, i) => i) };
}

/** `sequence` and `bound` of a pass change over these sequences, noting which files the update reads. */
function reader(sequences: readonly Int32Array[]) {
  const read = new Set<number>();
  return {
    read,
    sequence: (i: number) => {
      read.add(i);
      return sequences[i];
    },
    bound: (i: number) => sequences[i].length,
  };
}

const describeLocated = (located: ReadonlyArray<LocatedClone | undefined>) =>
  located.map((c) => c && { tokens: c.tokens, fragments: c.fragments.map((f) => [f.file.summary.path, f.start, f.end, f.lineStart, f.lineEnd, f.codeLines]) });
const rowsByPath = (rows: Map<FileTokens, number>) => Object.fromEntries([...rows].filter(([, n]) => n > 0).map(([f, n]) => [f.summary.path, n]));
const present = (located: ReadonlyArray<LocatedClone | undefined>) => located.filter((c): c is LocatedClone => c !== undefined);

describe('updateCloneClasses', () => {
  it('gives what detection from scratch gives, in the same order, on 60 random changes', () => {
    let compared = 0;
    let reads = 0;
    let files = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(seed);
      const blocks = Array.from({ length: 6 }, () => Array.from({ length: WINDOW + Math.floor(next() * 30) }, () => 100 + Math.floor(next() * 300)));
      const base = repository(next, 40, blocks);
      const baseSequences = [...base.values()].map((t) => Int32Array.from(t));
      const saved = savePass([...base.keys()], baseSequences, findCloneClasses(baseSequences, WINDOW), WINDOW);
      const { head, changed } = change(next, base, blocks);
      const paths = [...head.keys()];
      const sequences = [...head.values()].map((t) => Int32Array.from(t));
      const { read, sequence, bound } = reader(sequences);
      const updated = updateCloneClasses(JSON.parse(JSON.stringify(saved)), { paths, sequence, bound, changed, minTokens: WINDOW });
      expect(updated, `seed ${seed}`).toBeDefined();
      expect(updated!.classes, `seed ${seed}`).toEqual(detect(head));
      expect(updated!.compared).toBeLessThanOrEqual(paths.length);
      expect(updated!.read).toBe(read.size);
      compared += updated!.classes.length;
      reads += read.size;
      files += paths.length;
    }
    expect(compared).toBeGreaterThan(500);
    // The planted blocks and periodic runs are in most files here: most are read.
    expect(reads).toBeGreaterThan(files / 2);
  });

  it('reads only the files that can share a window with a change, and still gives what detection from scratch gives', () => {
    let reads = 0;
    let files = 0;
    let redone = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(seed);
      // Mostly distinct code: a large alphabet, blocks copied into few files, rare periodic runs.
      const blocks = Array.from({ length: 6 }, () => Array.from({ length: WINDOW + Math.floor(next() * 30) }, () => 100 + Math.floor(next() * 300)));
      const base = repository(next, 40, blocks, { alphabet: 5000, copies: 0.004, periodic: 0.001 });
      const baseSequences = [...base.values()].map((t) => Int32Array.from(t));
      const saved = JSON.parse(JSON.stringify(savePass([...base.keys()], baseSequences, findCloneClasses(baseSequences, WINDOW), WINDOW)));
      const { head, changed } = change(next, base, blocks);
      const sequences = [...head.values()].map((t) => Int32Array.from(t));
      const { read, sequence, bound } = reader(sequences);
      const updated = updateCloneClasses(saved, { paths: [...head.keys()], sequence, bound, changed, minTokens: WINDOW });
      expect(updated?.classes, `seed ${seed}`).toEqual(detect(head));
      reads += read.size;
      files += head.size;
      redone += updated!.origins.filter((o) => o < 0).length;
    }
    expect(redone).toBeGreaterThan(60);
    expect(reads).toBeLessThan(files / 2);
  });

  it('reads the files of a saved class whose fingerprint a changed window has without its tokens', () => {
    const next = random(7);
    const window = (n: number) => Array.from({ length: n }, () => 1000 + Math.floor(next() * 100000));
    // A block copied in x.ts and y.ts, and a changed window of other tokens with the same fingerprint:
    // its last token solves the polynomial (windowKeyAt mixes a bijection of it) for the block's.
    const block = window(WINDOW);
    const other = window(WINDOW - 1);
    let target = 0;
    for (const t of block) target = (Math.imul(target, 0x01000193) + t) | 0;
    let prefix = 0;
    for (const t of other) prefix = (Math.imul(prefix, 0x01000193) + t) | 0;
    other.push((target - Math.imul(prefix, 0x01000193)) | 0);
    const key = (tokens: number[]) => windowKeys(Int32Array.from(tokens), WINDOW)[0];
    expect(key(other)).toBe(key(block));
    expect(other).not.toEqual(block);

    const base = new Map([
      ['c.ts', window(30)],
      ['x.ts', [...window(20), ...block, ...window(20)]],
      ['y.ts', [...window(10), ...block, ...window(25)]],
      ['z.ts', window(60)],
    ]);
    const baseSequences = [...base.values()].map((t) => Int32Array.from(t));
    const saved = savePass([...base.keys()], baseSequences, findCloneClasses(baseSequences, WINDOW), WINDOW);
    const head = new Map([...base, ['c.ts', [...window(5), ...other, ...window(5)]]]);
    const sequences = [...head.values()].map((t) => Int32Array.from(t));
    const { read, sequence, bound } = reader(sequences);
    const updated = updateCloneClasses(saved, { paths: [...head.keys()], sequence, bound, changed: new Set(['c.ts']), minTokens: WINDOW });
    expect(updated?.classes).toEqual(detect(head));
    expect(updated?.classes).toHaveLength(1);
    expect([...read].sort()).toEqual([0, 1, 2]);
  });

  it("restores located clones and per-file duplicated lines equal to a full run's, on 60 random changes", () => {
    let reused = 0;
    let recounted = 0;
    let files = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(seed);
      const blocks = Array.from({ length: 6 }, () => Array.from({ length: WINDOW + Math.floor(next() * 30) }, () => 100 + Math.floor(next() * 300)));
      const base = repository(next, 40, blocks);
      const baseFiles = [...base].map(([path, tokens]) => fileOf(path, tokens));
      const baseSequences = baseFiles.map((f) => f.hashes);
      const baseClasses = findCloneClasses(baseSequences, WINDOW);
      const baseLocated = locateEach(baseClasses, baseFiles, POLICY);
      const baseRows = duplicatedRowsByFile(present(baseLocated));
      const saved = JSON.parse(
        JSON.stringify(savePass([...base.keys()], baseSequences, baseClasses, WINDOW, encodeLocated(baseLocated, new Map(baseFiles.map((f, i) => [f, i]))))),
      );
      const savedRows = baseFiles.map((f) => baseRows.get(f) ?? 0);

      const { head, changed } = change(next, base, blocks);
      const headFiles = [...head].map(([path, tokens]) => fileOf(path, tokens));
      const sequences = headFiles.map((f) => f.hashes);
      const updated = updateCloneClasses(saved, { paths: [...head.keys()], ...reader(sequences), changed, minTokens: WINDOW })!;
      const restored = restoreLocated(saved, updated, headFiles, POLICY);
      expect(restored, `seed ${seed}`).toBeDefined();
      const fullLocated = locateEach(findCloneClasses(sequences, WINDOW), headFiles, POLICY);
      expect(describeLocated(restored!.located), `seed ${seed}`).toEqual(describeLocated(fullLocated));

      const touched = new Set([...changed, ...restored!.touched]);
      const rows = updateDuplicatedRows({ files: saved.files, duplicatedRows: savedRows }, present(restored!.located), headFiles, touched);
      expect(rows && rowsByPath(rows), `seed ${seed}`).toEqual(rowsByPath(duplicatedRowsByFile(present(fullLocated))));
      reused += updated.origins.filter((o) => o >= 0 && restored!.located[updated.origins.indexOf(o)]).length;
      recounted += headFiles.filter((f) => touched.has(f.summary.path)).length;
      files += headFiles.length;
    }
    // Located clones came from the saved run, and some files' counts (copies of the planted blocks are everywhere here).
    expect(reused).toBeGreaterThan(300);
    expect(recounted).toBeLessThan(files);
  });

  it('declines saved located clones or counts that do not fit', () => {
    const tokens = Array.from({ length: 40 }, (_, i) => 100 + i);
    const files = [fileOf('a.ts', tokens), fileOf('b.ts', tokens)];
    const classes = findCloneClasses(
      files.map((f) => f.hashes),
      WINDOW,
    );
    const located = locateEach(classes, files, POLICY);
    expect(present(located)).toHaveLength(1);
    const saved = savePass(
      ['a.ts', 'b.ts'],
      files.map((f) => f.hashes),
      classes,
      WINDOW,
      encodeLocated(located, new Map(files.map((f, i) => [f, i]))),
    );
    const kept = { classes, origins: [0], compared: 0 };
    expect(describeLocated(restoreLocated(saved, kept, files, POLICY)!.located)).toEqual(describeLocated(located));
    const beyond = saved.located.map((n, i) => (i === 4 ? 99 : n));
    expect(restoreLocated({ ...saved, located: beyond }, kept, files, POLICY)).toBeUndefined();
    expect(restoreLocated({ ...saved, located: [] }, kept, files, POLICY)).toBeUndefined();
    expect(updateDuplicatedRows({ files: ['a.ts', 'b.ts'], duplicatedRows: [13] }, present(located), files, new Set())).toBeUndefined();
    expect(updateDuplicatedRows({ files: ['a.ts', 'b.ts'], duplicatedRows: [13, -1] }, present(located), files, new Set())).toBeUndefined();
    expect(rowsByPath(updateDuplicatedRows({ files: ['a.ts', 'b.ts'], duplicatedRows: [7, 7] }, present(located), files, new Set())!)).toEqual({
      'a.ts': 7,
      'b.ts': 7,
    });
  });

  it('declines a saved pass that does not describe the unchanged files', () => {
    const base = new Map([
      ['a.ts', Array.from({ length: 40 }, (_, i) => i)],
      ['b.ts', Array.from({ length: 40 }, (_, i) => i)],
    ]);
    const sequences = [...base.values()].map((t) => Int32Array.from(t));
    const saved = savePass([...base.keys()], sequences, findCloneClasses(sequences, WINDOW), WINDOW);
    const now = [...sequences, Int32Array.from([1, 2])];
    const change = { paths: ['a.ts', 'b.ts', 'c.ts'], ...reader(now), changed: new Set<string>(), minTokens: WINDOW };
    expect(updateCloneClasses(saved, change)).toBeUndefined();
    expect(updateCloneClasses(saved, { ...change, changed: new Set(['c.ts']) })?.classes).toEqual(findCloneClasses(now, WINDOW));
    expect(updateCloneClasses({ ...saved, anchors: { counts: [1], keys: '' } }, { ...change, changed: new Set(['c.ts']) })).toBeUndefined();
  });

  it('reads back only a state of the same format and options', () => {
    const options = { minTokens: 50, mode: 'mild', ignoreImports: true, ignoreTests: true };
    const pass = { files: ['a.ts'], classes: [], located: [], anchors: { counts: [0], keys: '' } };
    const state = { format: 3, options: JSON.stringify([50, 'mild', true, true]), passes: [pass], duplicatedRows: [0] };
    expect(readSavedClones(state, options, 1)).toEqual(state);
    expect(readSavedClones(state, { ...options, minTokens: 40 }, 1)).toBeUndefined();
    expect(readSavedClones(state, options, 2)).toBeUndefined();
    expect(readSavedClones({ ...state, format: 2 }, options, 1)).toBeUndefined();
    expect(readSavedClones({ ...state, passes: [{ ...pass, anchors: undefined }] }, options, 1)).toBeUndefined();
    expect(readSavedClones({ ...state, duplicatedRows: undefined }, options, 1)).toBeUndefined();
    expect(readSavedClones({ ...state, passes: [{ files: ['a.ts'], classes: [] }] }, options, 1)).toBeUndefined();
    expect(readSavedClones('{}', options, 1)).toBeUndefined();
  });
});
