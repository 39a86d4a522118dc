import ignore from 'ignore';
import { describe, expect, it } from 'vitest';
import { randomText } from './fixtures/random-text.js';
import { safeIgnore } from './safe-ignore.js';

describe('safeIgnore', () => {
  it('answers as ignore does, on random gitignore rules and paths', () => {
    const text = randomText(7_070);
    const atoms = [
      'a',
      'b',
      'A',
      '.',
      '/',
      '*',
      '**',
      '?',
      '[ab]',
      '[!a]',
      '[^a]',
      '[a-c]',
      '\\*',
      '\\',
      '!',
      '#',
      ' ',
      '\\ ',
      '[[:alpha:]]',
      '**/',
      '/**',
      '/**/',
      'ab',
      '[',
      ']',
      '-',
    ];
    const segments = ['a/', 'b/', 'A/', 'ab/', 'ba/', '.a/', 'a.b/', '*/', '[/', 'aa/', 'x/'];
    const found: string[] = [];
    let compared = 0;
    let ignored = 0;
    for (let i = 0; i < 1_500; i++) {
      const rules = Array.from({ length: 1 + (i % 3) }, () => text.join(atoms, 1, 5));
      const theirs = ignore().add(rules);
      const ours = safeIgnore().add(rules);
      for (let k = 0; k < 10; k++) {
        // A file, or a directory (trailing slash).
        const directory = text.join(segments, 1, 4);
        const path = text.pick([directory.slice(0, -1), directory]);
        const expected = theirs.test(path);
        const actual = ours.test(path);
        compared++;
        if (expected.ignored) ignored++;
        if (actual.ignored !== expected.ignored || actual.unignored !== expected.unignored || ours.ignores(path) !== theirs.ignores(path)) {
          found.push(`${JSON.stringify(rules)} on ${JSON.stringify(path)}`);
        }
      }
    }
    expect(found).toEqual([]);
    expect(compared).toBe(15_000);
    expect(ignored).toBeGreaterThan(1_500);
  });

  it('matches runs of ** against deep paths without backtracking', () => {
    // ignore's own regex took 17 s on this one.
    const rules = safeIgnore().add(['x/**/**/**/**/**/**/**/**/y', 'x/**/a/**/a/**/a/**/a/**/a/**/a/**/a/**/a/y']);
    expect(rules.ignores(`x${'/a'.repeat(2_000)}/z`)).toBe(false);
    expect(rules.ignores(`x${'/a'.repeat(2_000)}/y`)).toBe(true);
  });

  it('guards rules added later and from other instances too', () => {
    const rules = safeIgnore().add('*.log');
    rules.add('tmp/\n!tmp/keep');
    rules.add(ignore().add('*.bak'));
    expect([rules.ignores('a.log'), rules.ignores('tmp/x'), rules.ignores('a.bak'), rules.ignores('src/a.ts')]).toEqual([true, true, true, false]);
    // Every rule now runs on the linear-time matcher, not on a RegExp.
    const internals = (rules as unknown as { _rules: { _rules: Array<{ regex: unknown; checkRegex: unknown }> } })._rules._rules;
    expect(internals).toHaveLength(4);
    for (const rule of internals) {
      expect(rule.regex).not.toBeInstanceOf(RegExp);
      expect(rule.checkRegex).not.toBeInstanceOf(RegExp);
    }
  });
});
