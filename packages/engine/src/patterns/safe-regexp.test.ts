import { describe, expect, it } from 'vitest';
import { randomText } from './fixtures/random-text.js';
import { compileSafeRegExp, safeRegExpProblem, UnsupportedPatternError } from './safe-regexp.js';

/** The subjects on which the linear-time matcher and RegExp disagree (described). */
function disagreements(source: string, flags: string, subjects: readonly string[]): string[] {
  const safe = compileSafeRegExp(source, flags);
  const native = new RegExp(source, flags);
  return subjects.filter((subject) => safe.test(subject) !== native.test(subject)).map((subject) => `/${source}/${flags} on ${JSON.stringify(subject)}`);
}

function expectSameAsRegExp(source: string, flags: string, subjects: readonly string[]): void {
  expect(disagreements(source, flags, subjects)).toEqual([]);
}

/** The matcher's own bound: work grows with pattern × subject, never faster. */
function expectLinearWork(source: string, subject: string, steps: number): void {
  expect(steps, `${steps} steps for /${source.slice(0, 40)}/ on ${subject.length} characters`).toBeLessThanOrEqual(
    8 * (source.length + 1) * (subject.length + 1),
  );
}

describe('compileSafeRegExp', () => {
  it('answers as RegExp does on a table of ordinary patterns', () => {
    const table: Array<[string, string, string[]]> = [
      ['^(?:security\\/.*?)$', 'i', ['security/no-eval', 'SECURITY/x', 'runtime/x', 'security/', 'security']],
      ['a|bc', '', ['xa', 'bc', 'b', '']],
      ['^\\d{2,3}$', '', ['12', '1234', '123', '1']],
      ['colou?r', '', ['color', 'colour', 'colouur']],
      ['\\bfoo\\b', '', ['a foo b', 'afoo', 'foo', 'foo_']],
      ['\\Bfoo', '', ['afoo', 'foo']],
      ['[^a-c]x', 'i', ['Bx', 'dx', 'Dx', 'x']],
      ['^a.c$', '', ['abc', 'a\nc', 'a\u2028c']],
      ['^a.c$', 's', ['a\nc']],
      ['^b$', 'm', ['a\nb\nc', 'ab']],
      ['(?:^|\\/)a(?:(?!a)[^\\/])*a[^\\/]*b(?=$|\\/$)', 'i', ['aab', 'x/aaxb/', 'ab', 'a/ab', 'A/AAB']],
      ['^(?!\\.{1,2}(?:\\/|$))x', '', ['x', '.x']],
      ['[\\d-z]+', '', ['-', 'z', '5', 'y']],
      ['\\x41\\u0042\\103\\cJ', '', ['ABC\n', 'ABC']],
      ['a{,2}', '', ['a{,2}', 'aa']],
      ['[\\b]', '', ['\b', 'b']],
      ['(?<name>ab)+', '', ['abab', 'ba']],
      ['\\8\\9', '', ['89']],
      ['^(?!.*test).*$', 'i', ['src/a.ts', 'src/a.test.ts', 'TEST', '']],
      ['(?<=\\$)\\d+', '', ['$12', '12', 'a$']],
      ['(?<!un)safe', '', ['unsafe', 'safe', 'is safe']],
      ['(?<=a(?=b)b)c', '', ['abc', 'ac', 'bc']],
      [`^(?=${'a'.repeat(100)})a+$`, '', ['a'.repeat(100), 'a'.repeat(99), 'a'.repeat(150)]],
      ['(?:|){30}x', '', ['', 'x', 'y']],
    ];
    for (const [source, flags, subjects] of table) expectSameAsRegExp(source, flags, subjects);
  });

  it('folds case as the non-unicode i flag does', () => {
    const samples = [
      ...Array.from({ length: 0x250 }, (_, i) => i),
      0x130,
      0x131,
      0x17f,
      0x212a,
      0x212b,
      0x3a3,
      0x3c2,
      0x3c3,
      0x1e9e,
      0xdf,
      0xff,
      0x178,
      0x2c65,
      0xff21,
      0xff41,
    ];
    for (const code of samples) {
      const char = String.fromCharCode(code);
      const escaped = `\\u${code.toString(16).padStart(4, '0')}`;
      const range = code < 0x61 ? `${escaped}-\\u0061` : `\\u0061-${escaped}`;
      const candidates = [char, char.toUpperCase(), char.toLowerCase(), 'k', 'K', 's', 'S', 'i', 'I', '\u212a', '\u017f'].filter((c) => c.length === 1);
      expectSameAsRegExp(`^${escaped}$`, 'i', candidates);
      expectSameAsRegExp(`^[${range}]$`, 'i', candidates);
      expectSameAsRegExp(`^[^${escaped}]$`, 'i', candidates);
    }
  });

  it('agrees with RegExp on random small patterns and subjects', () => {
    const text = randomText(20_240_601);
    const leaves = ['a', 'b', 'A', '.', '[ab]', '[^a]', '[a-c]', '\\d', '\\w', '\\W', '\\s', ' ', '\\n', '_', '1', '\\.'];
    // Each builder picks one form and builds only that one.
    const bounded = (depth: number): string => {
      if (depth === 0) return text.pick(leaves);
      const inner = () => bounded(depth - 1);
      const forms = [
        inner,
        () => `${inner()}${inner()}`,
        () => `(?:${inner()}|${inner()})`,
        () => `(${inner()})`,
        () => `${text.pick(leaves)}?`,
        () => `${text.pick(leaves)}{1,2}`,
      ];
      return text.pick(forms)();
    };
    // No repetition inside a repetition: RegExp itself would backtrack for minutes on some of those
    // (`^(?:(?:((\\w|$)*?|(\\b|a)?){2,}){2,})$` took 59 s on an 8-character subject).
    const any = (depth: number, repeated = false): string => {
      if (depth === 0) return text.pick([...leaves, '^', '$', '\\b', '\\B']);
      const inner = () => any(depth - 1, repeated);
      const atom = () => text.pick([() => text.pick(leaves), () => `(?:${any(depth - 1, true)})`, () => `(${any(depth - 1, true)}|${any(depth - 1, true)})`])();
      const repeats = [() => `${atom()}*`, () => `${atom()}+`, () => `${atom()}?`, () => `${atom()}*?`, () => `${atom()}{0,2}`, () => `${atom()}{2,}`];
      const forms = [
        () => `${inner()}${inner()}`,
        () => `${inner()}|${inner()}`,
        ...(repeated ? [] : repeats),
        () => `(?=${bounded(depth - 1)})`,
        () => `(?!${bounded(depth - 1)})`,
        () => `(?<=${bounded(depth - 1)})`,
        () => `(?<!${bounded(depth - 1)})`,
        () => `(?=.*${bounded(depth - 1)})`,
        () => `(?!${bounded(depth - 1)}.*${bounded(depth - 1)})`,
        inner,
      ];
      return text.pick(forms)();
    };
    let compared = 0;
    let matched = 0;
    const found: string[] = [];
    for (let i = 0; i < 2_000; i++) {
      // Anchored often: an unanchored pattern with a `*` matches nearly every subject.
      const body = any(3);
      const source = text.pick([body, `^(?:${body})$`, `^(?:${body})$`, `^${body}`]);
      const flags = text.pick(['', 'i', 'm', 's', 'im']);
      const subjects = Array.from({ length: 12 }, () => text.join(['a', 'b', 'A', 'B', '1', '_', ' ', '\n', '.', 'c'], 0, 8));
      found.push(...disagreements(source, flags, subjects));
      compared += subjects.length;
      matched += subjects.filter((subject) => new RegExp(source, flags).test(subject)).length;
    }
    expect(found).toEqual([]);
    expect(compared).toBe(24_000);
    // Both answers are well represented, so agreeing means something.
    expect(matched).toBeGreaterThan(compared / 5);
    expect(matched).toBeLessThan((compared * 4) / 5);
  });

  it('runs patterns that make RegExp backtrack catastrophically in work linear in the subject', () => {
    const cases: Array<[string, string, boolean]> = [
      ['^(a+)+$', `${'a'.repeat(5_000)}b`, false],
      ['^(a+)+$', 'a'.repeat(5_000), true],
      ['^(a|aa)*b$', 'a'.repeat(5_000), false],
      ['^(\\w+\\s?)*$', `${'word '.repeat(1_000)}!`, false],
      ['a*a*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(10_000), false],
      ['(?:|){40}x', '', false],
      ['(.*a){12}', 'a'.repeat(11) + 'b'.repeat(5_000), false],
      ['(.*a){12}', 'a'.repeat(12) + 'b'.repeat(5_000), true],
      [`^(?:${'.*?.'.repeat(500)}Z)$`, 'x'.repeat(10_000), false],
      [`^(?:${'.*?.'.repeat(500)}Z)$`, `${'x'.repeat(10_000)}Z`, true],
    ];
    for (const [source, subject, expected] of cases) {
      const regex = compileSafeRegExp(source);
      expect(regex.test(subject), `/${source.slice(0, 40)}/`).toBe(expected);
      expectLinearWork(source, subject, regex.steps);
    }
  });

  it('decides lookarounds of any length in one pass each', () => {
    const subject = `${'a'.repeat(10_000)}test`;
    for (const [source, expected] of [
      ['^(?!.*test).*$', false],
      ['^(?=.*test)', true],
      ['(?<=a{50,})t', true],
      ['(?<!s)t$', false],
    ] as const) {
      const regex = compileSafeRegExp(source);
      expect(regex.test(subject), source).toBe(expected);
      expectLinearWork(source, subject, regex.steps);
    }
  });

  it('refuses what cannot run in linear time, and syntax errors, saying which', () => {
    const refused: Array<[string, string, RegExp]> = [
      ['(a)\\1', '', /backreferences/],
      ['(?<x>a)\\k<x>', '', /backreferences/],
      ['a', 'u', /the u and v flags/],
      [`(?:${'a'.repeat(100)}){1000}`, '', /over 50000 matcher states/],
      [`${'('.repeat(201)}a${')'.repeat(201)}`, '', /nested more than 200 deep/],
    ];
    for (const [source, flags, message] of refused) {
      expect(() => compileSafeRegExp(source, flags), source.slice(0, 20)).toThrow(UnsupportedPatternError);
      expect(safeRegExpProblem(source, flags), source.slice(0, 20)).toMatch(message);
    }
    expect(() => compileSafeRegExp('(')).toThrow(SyntaxError);
    expect(safeRegExpProblem('(')).toMatch(/^is not a valid regular expression/);
    expect(safeRegExpProblem('^UNSAFE_')).toBeUndefined();
    // Not a backreference: \1 beyond the group count is an octal escape in this dialect.
    expect(compileSafeRegExp('\\1').test('\u0001')).toBe(true);
  });
});
