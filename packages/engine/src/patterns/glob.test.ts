import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { randomText } from './fixtures/random-text.js';
import { compileGlob, globSyntaxProblem, GlobSyntaxError, unsupportedGlobProblem, type GlobOptions } from './glob.js';
import { UnsupportedPatternError } from './safe-regexp.js';

/** The option sets the code base uses: dismiss-rule patterns, dismiss-rule file paths, config globs. */
const RULE: GlobOptions = { bash: true, nocase: true, dot: true };
const FILE: GlobOptions = { dot: true };
const OPTION_SETS: GlobOptions[] = [RULE, FILE, {}, { dot: true, noextglob: true }];

/** Subjects on which compileGlob and picomatch disagree (described). */
function disagreements(pattern: string, options: GlobOptions, subjects: readonly string[]): string[] {
  const ours = compileGlob(pattern, options);
  const theirs = picomatch(pattern, options);
  return subjects
    .filter((subject) => ours(subject) !== theirs(subject))
    .map((subject) => `${JSON.stringify(pattern)} ${JSON.stringify(options)} on ${JSON.stringify(subject)}`);
}

/** The matcher's bound: work grows with pattern × subject, never faster. */
function expectLinearWork(pattern: string, subject: string, steps: number): void {
  expect(steps, `${steps} steps for ${pattern.slice(0, 30)} on ${subject.length} characters`).toBeLessThanOrEqual(
    32 * (pattern.length + 1) * (subject.length + 1),
  );
}

describe('compileGlob', () => {
  it('means what picomatch means, on a table of ordinary globs', () => {
    const paths = [
      'src/a.ts',
      'src/a.test.ts',
      'src/deep/b.test.ts',
      '.github/x.yml',
      'src/.hidden/c.ts',
      'a.d.ts',
      'App/[id]/page.tsx',
      'app/i/page.tsx',
      'x/../y',
      'src/',
      'README.md',
    ];
    const ids = ['security/no-eval', 'SECURITY/No-Eval', 'runtime/x', 'eval() compiles a string', "  return eval('n');", 'a\nb', 'fingerprint:ab12'];
    const table: Array<[string, readonly string[]]> = [
      ['security/*', ids],
      ['sec*eval', ids],
      ['*eval*', ids],
      ['?ecurity/*', ids],
      ['security/{no-eval,sql-injection}', ids],
      ['!security/*', ids],
      ['*', ids],
      ['**', ids],
      ['fingerprint:ab1[0-9]', ids],
      ['*\\(\\)*', ids],
      ['src/**/*.test.ts', paths],
      ['**/*.ts', paths],
      ['*.ts', paths],
      ['src/*', paths],
      ['src/**', paths],
      ['**/.*/**', paths],
      ['App/[id]/page.tsx', paths],
      ['{src,app}/**', paths],
      ['!(*.d).ts', paths],
      ['src/!(deep)/**', paths],
      ['@(src|app)/*.ts', paths],
      ['+(a|b).ts', paths],
      ['src/a.?s', paths],
      ['[[:alpha:]]*.md', paths],
      ['x/**/y', paths],
      ['./src/*.ts', paths],
    ];
    const found = table.flatMap(([pattern, subjects]) => OPTION_SETS.flatMap((options) => disagreements(pattern, options, subjects)));
    expect(found).toEqual([]);
  });

  it('agrees with picomatch on random small globs and subjects', () => {
    const text = randomText(4_242);
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
      '{a,b}',
      '{a,}',
      '\\*',
      '!',
      '(',
      ')',
      '|',
      '+',
      '@(a|b)',
      '*(a)',
      '?(b)',
      '+(a|b)',
      '!(a)',
      '!(*a)',
      '[',
      ']',
      '{',
      '}',
      ',',
      '$',
      '^',
      '\n',
      '.*',
      '**/',
      '/**',
      '{1..3}',
      '1',
    ];
    const characters = ['a', 'b', 'A', '.', '/', '.', '/', '1', '2', '[', ']', '*', 'ab', '\n', '(', ')', '|', '!', 'c'];
    const found: string[] = [];
    let compared = 0;
    let matched = 0;
    for (let i = 0; i < 1_500; i++) {
      const pattern = text.join(atoms, 1, 6);
      const options = text.pick(OPTION_SETS);
      let theirs: (input: string) => boolean;
      try {
        theirs = picomatch(pattern, { ...options, debug: true } as GlobOptions);
      } catch {
        expect(() => compileGlob(pattern, options), pattern).toThrow(GlobSyntaxError);
        continue;
      }
      const subjects = Array.from({ length: 10 }, () => text.join(characters, 0, 8));
      // A backreference (`{a,b}\1`) is the one thing refused; everything else must agree.
      if (unsupportedGlobProblem(pattern, options)) {
        expect(unsupportedGlobProblem(pattern, options), pattern).toMatch(/backreferences/);
        continue;
      }
      found.push(...disagreements(pattern, options, subjects));
      compared += subjects.length;
      matched += subjects.filter((subject) => theirs(subject)).length;
    }
    expect(found).toEqual([]);
    expect(compared).toBeGreaterThan(10_000);
    expect(matched).toBeGreaterThan(500);
  });

  it('matches adversarial globs against long subjects in work linear in both', () => {
    const stars = '*?'.repeat(500);
    const cases: Array<[string, GlobOptions, string, boolean]> = [
      // The report's pattern: picomatch took 14.7 s on a title.
      ['*?*?*?*?*?*?*?Z', RULE, 'x'.repeat(10_000), false],
      ['*?*?*?*?*?*?*?*?*?*?Z', RULE, `${'x'.repeat(10_000)}z`, true],
      ['a*a*a*a*a*a*a*a*b', FILE, 'a'.repeat(10_000), false],
      ['a*a*a*a*a*a*a*a*b', RULE, `${'a'.repeat(10_000)}/b`, true],
      [`${'{a,a}'.repeat(30)}b`, RULE, 'a'.repeat(30), false],
      [`**/${'*a'.repeat(20)}/**/x`, FILE, `${'a/'.repeat(2_000)}y`, false],
      // 1,000 characters (the longest pattern a dismiss rule may have) against 10,000.
      [stars, RULE, 'x'.repeat(10_000), true],
      [stars, RULE, 'x'.repeat(499), false],
      [`${stars.slice(0, -2)}Z`, RULE, 'x'.repeat(10_000), false],
      [`${stars.slice(0, -2)}Z`, RULE, `${'x'.repeat(10_000)}Z`, true],
    ];
    for (const [pattern, options, subject, expected] of cases) {
      const glob = compileGlob(pattern, options);
      expect(glob(subject), pattern.slice(0, 30)).toBe(expected);
      expectLinearWork(pattern, subject, glob.steps);
    }
  });

  it('keeps picomatch.test around the regex: empty input, input equal to the glob, negation', () => {
    expect(compileGlob('*', RULE)('')).toBe(false);
    expect(compileGlob('a[', FILE)('a[')).toBe(true);
    expect(compileGlob('!src/**', FILE)('lib/a.ts')).toBe(true);
    expect(compileGlob('!src/**', FILE)('src/a.ts')).toBe(false);
    // picomatch's negation wrapper `^(?!...).*$` cannot cross a line break.
    expect(compileGlob('!src/**', FILE)('lib/a\nb')).toBe(false);
    expect(compileGlob(['*.md', 'src/**'], FILE)('src/a.ts')).toBe(true);
  });

  it('refuses what picomatch cannot compile, and backreferences, saying which', () => {
    expect(() => compileGlob('security/{a,b', RULE)).toThrow(GlobSyntaxError);
    expect(globSyntaxProblem('[z-a]', RULE)).toMatch(/is not a valid glob/);
    expect(() => compileGlob('{a,b}\\1', RULE)).toThrow(UnsupportedPatternError);
    expect(globSyntaxProblem('{a,b}\\1', RULE)).toMatch(/uses backreferences/);
    expect(unsupportedGlobProblem('{a,b}\\1', FILE)).toMatch(/uses backreferences/);
    expect(unsupportedGlobProblem('[z-a]', FILE)).toBeUndefined();
    expect(globSyntaxProblem('src/**/!(*.d).ts', FILE)).toBeUndefined();
  });
});
