import { describe, expect, it } from 'vitest';
import { random } from './fixtures/random.js';
import { KeySet } from './key-set.js';

describe('KeySet', () => {
  it('adds keys in bulk, noting those added twice, and keeps the entries whose key it holds, in order', () => {
    const next = random(3);
    for (let round = 0; round < 20; round++) {
      const keys = Int32Array.from({ length: 500 }, () => Math.floor(next() * 800) - 400);
      const set = new KeySet(keys.length);
      const repeated = new KeySet(keys.length);
      set.addAll(keys, 300, repeated);
      const first = [...keys.subarray(0, 300)];
      for (const key of new Set(keys)) {
        expect(set.has(key)).toBe(first.includes(key));
        expect(repeated.has(key)).toBe(first.indexOf(key) !== first.lastIndexOf(key));
      }
      const values = Uint32Array.from(keys, (_, i) => i);
      const expected = [...keys].map((key, i) => [key, i]).filter(([key]) => first.includes(key));
      const count = set.retain(keys, values, keys.length);
      expect([...keys.subarray(0, count)].map((key, i) => [key, values[i]])).toEqual(expected);
    }
  });
});
