import { describe, expect, it } from 'vitest';
import { codeSpan, escapeCell, renderMarkdown } from './markdown.js';
import { makeAssessmentResult, makeFinding } from './fixtures/assessment-result.js';

describe('renderMarkdown', () => {
  const md = renderMarkdown(makeAssessmentResult());

  it('has a title, the overall score and grade and the checkout', () => {
    expect(md.startsWith('## CodeHealth report\n\n**Overall score: 78.4 / 100 — grade C**\n')).toBe(true);
    expect(md).toContain('Repository `/tmp/shop` · branch `main` · commit `0123456`');
    expect(renderMarkdown(makeAssessmentResult(), { headingLevel: 1 })).toMatch(/^# CodeHealth report\n[\s\S]*\n## Categories\n/);
  });

  it('tabulates the eight categories', () => {
    expect(md).toContain(
      [
        '| Category | Score | Issues | Rests on |',
        '|---|---:|---:|---|',
        '| Security | 61.3 | 1 | findings of security |',
        '| Runtime Risks | 72.0 | 0 | findings of runtime-risks |',
        '| Test Coverage | — | 0 | not assessed: no enabled analyzer covers it |',
        '| Code Smells | 55.6 | 2 | findings of code-smell |',
        '| Duplication | 93.3 | 0 | findings of duplication; duplication index 3.2% |',
        '| Dead Code | 88.9 | 0 | findings of dead-code |',
        '| Codebase Consistency | 100.0 | 0 | findings of consistency |',
        '| Compliance | 80.0 | 0 | findings of compliance |',
      ].join('\n'),
    );
  });

  it('explains the score in a table: what each category cost of the overall and where it lost its points', () => {
    expect(md).toContain(
      [
        '### Why 78.4 (grade C)',
        '',
        "21.6 points below 100. Cost is in points of the overall score; the rules and measurements are in points of their category's score.",
        '',
        '| Category | Score | Weight | Cost | Where the category lost its points |',
        '|---|---:|---:|---:|---|',
        '| Security | 61.3 | 23.5% | -9.1 | security/no-eval (1 finding) -38.7 |',
        '| Code Smells | 55.6 | 17.6% | -7.8 | code-smell/cognitive-complexity (2 findings) -30.1<br>code-smell/long-function (3 findings) -9.2<br>code-smell/magic-numbers (2 findings) -3.1<br>code-smell/deep-nesting (1 finding) -2.0 |',
        '| Runtime Risks | 72.0 | 17.6% | -4.9 |  |',
      ].join('\n'),
    );
    expect(md).toContain('| Outside the grade: examples | 310 lines, 2 issues (7 points) |');
  });

  it('says there is no grade and why', () => {
    const none = makeAssessmentResult();
    none.scores = {
      ...none.scores,
      overall: null,
      grade: null,
      notGradedReason: 'no TypeScript or JavaScript files: 3 Python files are not analysed',
      ledger: [],
    };
    const out = renderMarkdown(none);
    expect(out).toContain('**No grade: no TypeScript or JavaScript files: 3 Python files are not analysed**');
    expect(out).not.toContain('Why ');
  });

  it('tabulates severity counts and code metrics', () => {
    expect(md).toContain('| Critical | High | Medium | Low | Info | Total |\n|---:|---:|---:|---:|---:|---:|\n| 1 | 1 | 1 | 0 | 0 | 3 |');
    for (const row of [
      '| Lines of code | 12,345 |',
      '| Test lines of code | 4,321 |',
      '| Files analysed | 31 of 40 |',
      '| Parsed cleanly | 98.8% |',
      '| Files with parse errors | 2 (6.5%) |',
      '| Skipped files | 1 |',
      '| Duration | 1.2 s |',
    ]) {
      expect(md).toContain(row);
    }
  });

  it('lists the top issues with escaped titles', () => {
    expect(md).toContain('| critical | `packages/api/src/run script.ts:3` | Avoid `eval` of &lt;user&gt; input | `security/no-eval` |');
    expect(md).toContain('| medium | `src/orders/checkout.ts:40` | Function `pay` is too complex | `code-smell/cognitive-complexity` |');
    expect(md).not.toContain('more._');
  });

  it('caps the list and counts the rest', () => {
    const many = Array.from({ length: 12 }, (_, i) => makeFinding({ anchor: { lineStart: i + 1, lineEnd: i + 1, codeSnippet: `x${i}`, validated: true } }));
    const out = renderMarkdown(makeAssessmentResult({ findings: many }), { top: 5 });
    expect(out.match(/^\| high \|/gm)).toHaveLength(5);
    expect(out).toContain('_…and 7 more._');
    expect(renderMarkdown(makeAssessmentResult({ findings: [] }))).not.toContain('Top issues');
  });

  it('keeps table rows intact whatever the text contains', () => {
    expect(escapeCell('a | b\n*c* <T>')).toBe('a \\| b \\*c\\* &lt;T&gt;');
    expect(codeSpan('a`b|c')).toBe('`` a`b\\|c ``');
    expect(codeSpan('plain')).toBe('`plain`');
  });
});
