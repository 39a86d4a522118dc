import { describe, expect, it } from 'vitest';
import { countCodeLines } from './code-lines.js';

/** The definition: a row is a code line when a character outside every comment is not blank (`\S`). */
function reference(source: string, comments: ReadonlyArray<readonly [number, number]>): number[] {
  const inComment = new Uint8Array(source.length);
  for (const [start, end] of comments) inComment.fill(1, start, end);
  const rows = source.split('\n');
  const out: number[] = [];
  let at = 0;
  for (const text of rows) {
    let code = 0;
    for (let k = 0; k < text.length; k++) if (!inComment[at + k] && /\S/.test(text[k])) code = 1;
    out.push(code);
    at += text.length + 1;
  }
  return out;
}

describe('code lines', () => {
  it('counts a row when a character outside comments is not blank, for any range of rows', () => {
    const parts = ['a();', '  ', '\t', '\u00a0', 'b', '// c', '/* d', 'e */', ' f ', '\r', '\n', '\n', '\u2028'];
    let seed = 11;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    for (let sample = 0; sample < 500; sample++) {
      let source = '';
      for (let k = random(30); k > 0; k--) source += parts[random(parts.length)];
      // Comments: the text's `//` and `/* */` spans, as a tree gives them (document order, no overlap).
      const comments: Array<[number, number]> = [];
      for (const match of source.matchAll(/\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g)) comments.push([match.index, match.index + match[0].length]);
      const expected = reference(source, comments);
      const lines = countCodeLines(source, comments);
      expect(lines.total, JSON.stringify(source)).toBe(expected.reduce((a, b) => a + b, 0));
      const first = random(expected.length);
      const last = first + random(expected.length - first);
      expect(lines.between(first, last), JSON.stringify(source)).toBe(expected.slice(first, last + 1).reduce((a, b) => a + b, 0));
    }
  });
});
