import { describe, expect, it } from 'vitest';
import { hasSelfSubscriptAssignment } from './patterns.js';

const PATTERN = /\b([\w$]+)\s*=\s*\1\s*\[/;

describe('prototype-pollution text hints', () => {
  it('finds `cur = cur[` exactly where the pattern does', () => {
    expect(hasSelfSubscriptAssignment('let cur = obj;\nfor (const k of path) cur = cur[k];')).toBe(true);
    expect(hasSelfSubscriptAssignment('cur = other[k]; cur == cur[k]; xcur = cur[k];')).toBe(false);
    expect(hasSelfSubscriptAssignment('a$b = b [0]')).toBe(true); // `\b` holds between `$` and `b`
    const parts = ['a', 'b', 'ab', '$', '_', '1', ' ', '\t', '\n', '\u00a0', '=', '==', '[', ']', '.', 'é', '(', 'cur', 'x$'];
    let seed = 5;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    let matches = 0;
    for (let sample = 0; sample < 20_000; sample++) {
      const piece = (max: number) => {
        let out = '';
        for (let k = random(max + 1); k > 0; k--) out += parts[random(parts.length)];
        return out;
      };
      const names = ['a', 'ab', 'b', '$a', 'a$', 'x$a', 'é', '_1'];
      const blank = () => [' ', '', '\t', '\n', '\u00a0'][random(5)];
      // Half the samples are shaped like the pattern, with random names, blanks and surroundings.
      const text =
        sample % 2 === 0
          ? piece(12)
          : `${piece(3)}${names[random(names.length)]}${blank()}=${blank()}${names[random(names.length)]}${blank()}${['[', '(', ''][random(3)]}${piece(3)}`;
      const expected = PATTERN.test(text);
      if (expected) matches++;
      expect(hasSelfSubscriptAssignment(text), JSON.stringify(text)).toBe(expected);
    }
    expect(matches).toBeGreaterThan(100);
  });
});
