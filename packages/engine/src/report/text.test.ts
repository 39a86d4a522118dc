import { describe, expect, it } from 'vitest';
import { makeAssessmentResult, makeFinding, makeMetrics } from './fixtures/assessment-result.js';
import { renderText } from './text.js';
import { formatDuration, scoreBar } from './report-view.js';

const ESC = '\u001b[';

describe('renderText', () => {
  const result = makeAssessmentResult();
  const text = renderText(result);
  const lines = text.split('\n');

  it('starts with the tool, the root and the checkout, then the overall score and grade', () => {
    expect(lines[0]).toMatch(/^CodeHealth \d+\.\d+\.\d+ {2}\/tmp\/shop \(main @ 0123456\)$/);
    expect(text).toContain('Overall  78.4 / 100   grade C');
  });

  it('lists the eight categories with a bar, the score and what is not assessed', () => {
    const start = lines.indexOf('Categories');
    const rows = lines.slice(start + 1, start + 9);
    expect(rows.map((r) => r.trim().split(/\s{2,}/)[0])).toEqual([
      'Security',
      'Runtime Risks',
      'Test Coverage',
      'Code Smells',
      'Duplication',
      'Dead Code',
      'Codebase Consistency',
      'Compliance',
    ]);
    expect(rows[0]).toContain('██████░░░░   61.3  1 issue');
    // Not assessed: no score (never 100), an empty bar and the reason.
    expect(rows[2]).toContain('░░░░░░░░░░      —  not assessed: no enabled analyzer covers it');
    expect(rows[3]).toContain('55.6  2 issues');
    expect(rows[1]).toMatch(/72\.0$/);
  });

  it('explains the score: what each category cost of the overall, and under it what cost the category', () => {
    const start = lines.findIndex((l) => l.startsWith('Why 78.4 (grade C)'));
    expect(lines[start]).toContain(': 21.6 points below 100, by category');
    expect(lines.slice(start + 1, start + 10)).toEqual([
      '    -9.1  Security (score 61.3 × weight 23.5%)',
      '           -38.7  security/no-eval (1 finding)',
      '    -7.8  Code Smells (score 55.6 × weight 17.6%)',
      '           -30.1  code-smell/cognitive-complexity (2 findings)',
      '            -9.2  code-smell/long-function (3 findings)',
      '            -3.1  code-smell/magic-numbers (2 findings)',
      '            -2.0  … 1 more',
      '    -4.9  Runtime Risks (score 72.0 × weight 17.6%)',
      '',
    ]);
  });

  it('says there is no grade and why, lists no score and no ledger', () => {
    const reason = 'no TypeScript or JavaScript files: 3 Python files are not analysed';
    const none = makeAssessmentResult();
    none.scores = {
      overall: null,
      grade: null,
      notGradedReason: reason,
      ledger: [],
      categories: Object.fromEntries(
        Object.entries(none.scores.categories).map(([key]) => [key, { key, score: null, assessed: false, findings: 0, density: 0, notAssessedReason: reason }]),
      ) as typeof none.scores.categories,
    };
    const out = renderText(none);
    expect(out).toContain(`Overall  no grade: ${reason}\n`);
    expect(out).not.toContain('Why ');
    // The reason is said once, not on each of the eight rows.
    expect(out.split(reason)).toHaveLength(2);
    expect(out.match(/ {6}— {2}not assessed\n/g)).toHaveLength(8);
  });

  it('shows severity counts, size, parse health, skipped files and duration', () => {
    expect(text).toContain('Issues   1 critical · 1 high · 1 medium · 0 low · 0 info   (3 total)');
    expect(text).toContain('Code     12,345 lines · 4,321 test lines · 31 of 40 files analysed');
    expect(text).toContain('Parsing  29 of 31 files parsed cleanly · 2 files with parse errors (6.5%) · 98.8% of bytes clean\n');
    expect(text).toContain('Skipped  1 file\nOutside  the grade: examples 310 lines, 2 issues (7 points)\n');
    expect(text.endsWith('Done in 1.2 s\n')).toBe(true);
  });

  it('names the files with parse errors and their first error line, and how many it leaves out', () => {
    const start = lines.findIndex((l) => l.startsWith('Parsing  '));
    expect(lines.slice(start + 1, start + 3)).toEqual(['         src/legacy/parser.ts:12', '         src/orders/checkout.ts:40']);
    expect(lines[start + 3]).toMatch(/^Skipped/);
    const many = renderText(
      makeAssessmentResult({
        metrics: makeMetrics({
          parse: {
            files: 500,
            filesWithErrors: 14,
            filesWithErrorsPercent: 2.8,
            cleanPercent: 99.1,
            repairedFiles: 0,
            errorFiles: Array.from({ length: 14 }, (_, i) => ({ path: `src/f${String(i).padStart(2, '0')}.ts`, line: i + 1 })),
            cachedFiles: 0,
          },
        }),
      }),
    ).split('\n');
    const at = many.findIndex((l) => l.startsWith('Parsing  '));
    expect(many[at + 1]).toBe('         src/f00.ts:1');
    expect(many[at + 10]).toBe('         src/f09.ts:10');
    expect(many[at + 11]).toBe('         … and 4 more');
  });

  it('lists the top issues most severe first as severity, path:line and title', () => {
    const start = lines.indexOf('Top 3 issues');
    expect(lines.slice(start + 1, start + 4)).toEqual([
      '  CRITICAL  packages/api/src/run script.ts:3  Avoid `eval` of <user> input',
      '  HIGH      src/orders/checkout.ts:12         Function `checkout` is too complex',
      '  MEDIUM    src/orders/checkout.ts:40         Function `pay` is too complex',
    ]);
  });

  it('stops at ten issues and says how many more there are', () => {
    const many = Array.from({ length: 13 }, (_, i) =>
      makeFinding({ severity: i === 12 ? 'critical' : 'low', anchor: { lineStart: i + 1, lineEnd: i + 1, codeSnippet: `x${i}`, validated: true } }),
    );
    const out = renderText(makeAssessmentResult({ findings: many }));
    expect(out).toContain('Top 10 issues');
    expect(out).toContain('  CRITICAL  src/orders/checkout.ts:13');
    expect(out).toContain('  … and 3 more');
    expect(out.match(/^ {2}LOW /gm)).toHaveLength(9);
  });

  it('omits the issue list when there are none', () => {
    const out = renderText(makeAssessmentResult({ findings: [] }));
    expect(out).not.toContain('Top');
    expect(out).toContain('(0 total)');
  });

  it('writes colours only when asked', () => {
    expect(text).not.toContain(ESC);
    const coloured = renderText(result, { color: true });
    expect(coloured).toContain(`${ESC}33m${ESC}1mC${ESC}22m${ESC}39m`);
    expect(coloured).toContain(`${ESC}1m${ESC}31mCRITICAL`);
    expect(coloured.replace(new RegExp(`${String.fromCharCode(27)}\\[\\d+m`, 'g'), '')).toBe(text);
  });

  it('leaves out the checkout when git is unavailable', () => {
    const out = renderText(makeAssessmentResult({ git: { ...result.git, available: false, headSha: undefined, branch: undefined } }));
    expect(out.split('\n')[0]).toMatch(/ {2}\/tmp\/shop$/);
  });

  it('says when the history could not be read, and only then', () => {
    const historyError = 'the history could not be read (fatal: unable to read 0f00c2d): churn, ages and commit counts are left out';
    const out = renderText(makeAssessmentResult({ git: { ...result.git, historyError } }));
    expect(out).toContain(`History  ${historyError}`);
    expect(text).not.toContain('History  ');
  });
});

describe('report helpers', () => {
  it('formats durations and bars', () => {
    expect(formatDuration(850.4)).toBe('850 ms');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(scoreBar(0)).toBe('░'.repeat(10));
    expect(scoreBar(55)).toBe('██████░░░░');
    expect(scoreBar(140)).toBe('█'.repeat(10));
  });
});
