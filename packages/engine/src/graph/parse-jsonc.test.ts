import { describe, expect, it } from 'vitest';
import { parseJsonc } from './parse-jsonc.js';

describe('parseJsonc', () => {
  it('drops comments and trailing commas but keeps them inside strings', () => {
    const text = `\ufeff{
      // line comment
      "a": "http://x // not a comment", /* block */
      "b": ["/* kept */", 2,],
      "c": { "d": "quote \\" inside", }, // trailing, then a comment
    }`;
    expect(parseJsonc(text)).toEqual({ a: 'http://x // not a comment', b: ['/* kept */', 2], c: { d: 'quote " inside' } });
  });

  it('returns undefined for text that is not JSON even with comments removed', () => {
    expect(parseJsonc('{ "a": }')).toBeUndefined();
    expect(parseJsonc('')).toBeUndefined();
  });
});
