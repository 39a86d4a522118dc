// Anchors tell which files can hold a window of another sequence: a file holding one of its
// windows always shares an anchor with it, and files of other code rarely do.
import { describe, expect, it } from 'vitest';
import { random } from './fixtures/random.js';
import { anchorsOf, filesSharingAnchors, saveAnchors } from './clone-anchors.js';
import { windowKeys } from './clone-detection.js';

const tokens = (next: () => number, length: number, alphabet: number) => Int32Array.from({ length }, () => Math.floor(next() * alphabet));
const shares = (a: Int32Array, b: Int32Array) => {
  const set = new Set(a);
  return b.some((x) => set.has(x));
};

describe('anchorsOf', () => {
  it('gives two sequences that share a window a common anchor, wherever the window lies (2000 random pairs)', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const next = random(seed);
      const window = 10 + Math.floor(next() * 50);
      const alphabet = next() < 0.5 ? 4 : 10_000;
      const shared = tokens(next, window, alphabet);
      const a = Int32Array.from([...tokens(next, Math.floor(next() * 80), alphabet), ...shared, ...tokens(next, Math.floor(next() * 80), alphabet)]);
      const b = Int32Array.from([...tokens(next, Math.floor(next() * 80), alphabet), ...shared, ...tokens(next, Math.floor(next() * 80), alphabet)]);
      expect(shares(anchorsOf(a, window), anchorsOf(b, window)), `seed ${seed}`).toBe(true);
    }
  });

  it('keeps few fingerprints, distinct and sorted, and none for a sequence shorter than a window', () => {
    const next = random(1);
    const sequence = tokens(next, 20_000, 10_000);
    const anchors = anchorsOf(sequence, 50);
    // Winnowing keeps about 2 / (reach + 1) of the runs: 2 / 27 here.
    expect(anchors.length).toBeGreaterThan(20_000 * 0.05);
    expect(anchors.length).toBeLessThan(20_000 * 0.1);
    expect([...anchors]).toEqual([...new Set(anchors)].sort((x, y) => x - y));
    expect(anchorsOf(sequence.subarray(0, 49), 50)).toHaveLength(0);
    expect(anchorsOf(sequence.subarray(0, 50), 50).length).toBeGreaterThan(0);
    // Unrelated code shares (almost) none: this is what lets a derived run skip files.
    expect(shares(anchors, anchorsOf(tokens(next, 20_000, 10_000), 50))).toBe(false);
  });
});

describe('saved anchors', () => {
  it('name the files that hold a window of the asked sequences, and no file of other code', () => {
    const next = random(3);
    const files = Array.from({ length: 30 }, () => tokens(next, 300, 10_000));
    const change = Int32Array.from([...tokens(next, 40, 10_000), ...files[4].subarray(100, 150), ...files[17].subarray(0, 60), ...tokens(next, 40, 10_000)]);
    const saved = JSON.parse(JSON.stringify(saveAnchors(files, 50)));
    expect(filesSharingAnchors(saved, files.length, [change], 50)).toEqual([4, 17]);
    // Every file holding a window of the change is named (checked by the windows themselves).
    const keys = new Set(windowKeys(change, 50));
    const holders = files.flatMap((f, i) => (windowKeys(f, 50).some((k) => keys.has(k)) ? [i] : []));
    expect(holders).toEqual([4, 17]);
  });

  it('are declined when they do not describe the files', () => {
    const files = [Int32Array.from({ length: 60 }, (_, i) => i)];
    const saved = saveAnchors(files, 50);
    expect(filesSharingAnchors(saved, 1, files, 50)).toEqual([0]);
    expect(filesSharingAnchors(saved, 2, files, 50)).toBeUndefined();
    expect(filesSharingAnchors({ ...saved, counts: [saved.counts[0] + 1] }, 1, files, 50)).toBeUndefined();
    expect(filesSharingAnchors({ ...saved, counts: [-1] }, 1, files, 50)).toBeUndefined();
    expect(filesSharingAnchors(undefined, 1, files, 50)).toBeUndefined();
  });
});
