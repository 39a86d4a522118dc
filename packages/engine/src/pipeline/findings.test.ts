import { describe, expect, it } from 'vitest';
import { anchorFor, lineTableOf, splitLines } from './findings.js';

describe('finding snippets', () => {
  it('reads the lines of the split, cut only when asked, with the slice bounds of an array', () => {
    const sources = ['', '\n', 'a', 'a\n', 'a\nb', '\n\nc\n\n', 'x\r\ny\rz\n', ' é\n😀 \n  end'];
    const bounds = [undefined, -9, -2, -1, 0, 1, 2, 3, 9, NaN, 1.7, -0.5];
    for (const source of sources) {
      const split = splitLines(source);
      // Row starts at `\n`, as a tree has them, may be handed over.
      const rowStarts = Int32Array.from([0, ...[...source.matchAll(/\n/g)].map((m) => m.index + 1)]);
      for (const table of [lineTableOf(source), lineTableOf(source, rowStarts)]) {
        expect(table.length, JSON.stringify(source)).toBe(split.length);
        for (const start of bounds)
          for (const end of bounds) expect(table.slice(start, end), `${JSON.stringify(source)} ${start} ${end}`).toEqual(split.slice(start, end));
      }
    }
  });

  it('cuts the snippet of a range from the lines, and says whether the range exists', () => {
    const lines = lineTableOf('one\ntwo\nthree\n');
    expect(anchorFor(lines, 2, 3)).toEqual({ lineStart: 2, lineEnd: 3, codeSnippet: 'two\nthree', validated: true });
    expect(anchorFor(lines, 4, 9)).toEqual({ lineStart: 4, lineEnd: 9, codeSnippet: '', validated: false });
  });
});
