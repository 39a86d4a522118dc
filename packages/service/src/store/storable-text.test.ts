import { describe, expect, it } from 'vitest';
import { NUL_REPLACEMENT, replaceNul, storableText } from './storable-text.js';

describe('storable text', () => {
  it('replaces every U+0000 of a string with U+FFFD and leaves other text alone', () => {
    expect(NUL_REPLACEMENT).toBe('\uFFFD');
    expect(storableText('a\u0000b\u0000')).toBe('a\uFFFDb\uFFFD');
    expect(storableText('plain \\u0000 text')).toBe('plain \\u0000 text');
  });

  it('returns the input itself when no string holds a NUL', () => {
    const payload = { a: [1, 'x', { b: null, c: true }], d: 'e' };
    const result = replaceNul(payload);
    expect(result).toEqual({ value: payload, paths: [], count: 0 });
    expect(result.value).toBe(payload);
  });

  it('replaces NUL in nested strings and names without changing the input, reporting paths in document order', () => {
    const payload = { commits: [{ message: 'a\u0000' }, { message: 'b' }], 'k\u0000': { title: '\u0000' }, top: '\u0000' };
    const result = replaceNul(payload);
    expect(result.value).toEqual({ commits: [{ message: 'a\uFFFD' }, { message: 'b' }], 'k\uFFFD': { title: '\uFFFD' }, top: '\uFFFD' });
    expect(result.paths).toEqual(['commits.0.message', 'k\uFFFD', 'k\uFFFD.title', 'top']);
    expect(result.count).toBe(4);
    expect(payload.commits[0]!.message).toBe('a\u0000');
    expect(replaceNul('\u0000')).toEqual({ value: '\uFFFD', paths: ['(payload)'], count: 1 });
    // A `__proto__` name in a payload is a name like any other.
    const tricky = replaceNul(JSON.parse('{"__proto__":{"a":"\\u0000"}}'));
    expect(Object.keys(tricky.value as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(tricky.value)).toBe(Object.prototype);
    expect(tricky.paths).toEqual(['__proto__.a']);
  });

  it('reports 20 paths at most but counts every change, and walks deep nesting without recursion', () => {
    const many = replaceNul(Array.from({ length: 50 }, () => '\u0000'));
    expect(many.count).toBe(50);
    expect(many.paths).toHaveLength(20);
    let deep: unknown = '\u0000';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(replaceNul(deep).count).toBe(1);
  });
});
