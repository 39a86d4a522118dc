import { describe, expect, it } from 'vitest';
import { isBelow, parseAnalyzeArgs, parseFailUnder } from './args.js';

describe('parseAnalyzeArgs', () => {
  it('defaults to the current directory, text, cache on, progress on', () => {
    expect(parseAnalyzeArgs([])).toEqual({ dir: '.', format: 'text', cache: true, untrusted: false, quiet: false, help: false });
  });

  it('reads every flag, long and short', () => {
    expect(parseAnalyzeArgs(['repo', '--format', 'sarif', '--output', 'out.sarif', '--fail-under', 'B', '--no-cache', '--untrusted', '--quiet'])).toEqual({
      dir: 'repo',
      format: 'sarif',
      output: 'out.sarif',
      failUnder: { kind: 'grade', grade: 'B' },
      cache: false,
      untrusted: true,
      quiet: true,
      help: false,
    });
    expect(parseAnalyzeArgs(['-f', 'json', '-o', 'r.json', '-q', '-h'])).toMatchObject({ format: 'json', output: 'r.json', quiet: true, help: true });
    expect(parseAnalyzeArgs(['--format=markdown', '--fail-under=72.5'])).toMatchObject({ format: 'markdown', failUnder: { kind: 'score', score: 72.5 } });
  });

  it('refuses unknown flags in one short line', () => {
    expect(() => parseAnalyzeArgs(['--formt', 'json'])).toThrow("unknown option '--formt' (see 'codehealth analyze --help')");
    expect(() => parseAnalyzeArgs(['-x'])).toThrow("unknown option '-x'");
    expect(() => parseAnalyzeArgs(['--cache'])).toThrow("unknown option '--cache'");
  });

  it('refuses missing values, unknown formats and a second directory', () => {
    expect(() => parseAnalyzeArgs(['--format'])).toThrow("option '--format' needs a value");
    expect(() => parseAnalyzeArgs(['--format', 'xml'])).toThrow("unknown format 'xml' (expected text, json, sarif, markdown)");
    expect(() => parseAnalyzeArgs(['a', 'b'])).toThrow('analyze takes one directory, got 2: a b');
    expect(() => parseAnalyzeArgs(['--output', ''])).toThrow('--output needs a file name');
    expect(() => parseAnalyzeArgs(['--quiet=yes'])).toThrow(/quiet/);
  });

  it('marks its errors as user errors', () => {
    try {
      parseAnalyzeArgs(['--nope']);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ name: 'UsageError', expose: true });
    }
  });
});

describe('--fail-under', () => {
  it('accepts a score 0-100 or a grade letter', () => {
    expect(parseFailUnder('70')).toEqual({ kind: 'score', score: 70 });
    expect(parseFailUnder(' 0 ')).toEqual({ kind: 'score', score: 0 });
    expect(parseFailUnder(100)).toEqual({ kind: 'score', score: 100 });
    expect(parseFailUnder('b')).toEqual({ kind: 'grade', grade: 'B' });
    for (const bad of ['101', '-1', 'E', 'AB', '', '7O']) {
      expect(() => parseFailUnder(bad), bad).toThrow('--fail-under expects a score from 0 to 100 or a grade A-F');
    }
  });

  it('compares scores as reported and grades by rank', () => {
    expect(isBelow({ kind: 'score', score: 70 }, 69.9, 'D')).toBe(true);
    expect(isBelow({ kind: 'score', score: 70 }, 69.96, 'D')).toBe(false);
    expect(isBelow({ kind: 'score', score: 70 }, 70, 'C')).toBe(false);
    expect(isBelow({ kind: 'grade', grade: 'B' }, 0, 'C')).toBe(true);
    expect(isBelow({ kind: 'grade', grade: 'B' }, 0, 'B')).toBe(false);
    expect(isBelow({ kind: 'grade', grade: 'B' }, 0, 'A')).toBe(false);
    expect(isBelow({ kind: 'grade', grade: 'F' }, 0, 'F')).toBe(false);
  });
});
