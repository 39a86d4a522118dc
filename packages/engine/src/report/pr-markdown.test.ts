// The Markdown summary of a PR analysis: the verdict with its reasons, the change's own issues
// apart from the pre-existing ones, and why a failed analysis has no verdict.
import { describe, expect, it } from 'vitest';
import { renderPrMarkdown, type PrSummaryInput } from './pr-markdown.js';

const completed = (over: Partial<PrSummaryInput> = {}): PrSummaryInput => ({
  pr_number: 12,
  head_sha: 'abcdef0123456789abcdef0123456789abcdef01',
  status: 'completed',
  failure_reason: null,
  classification: { primary_intent: 'feature', summary: 'Adds an upload endpoint', risk_signals: ['public API change'] },
  merge_readiness: {
    status: 'needs_review',
    blocking_count: 0,
    advisory_count: 1,
    info_count: 2,
    confidence: 84,
    reasons: [
      "advisory: worsened medium code_smell issue 'Cognitive complexity of upload' (complexity 19 -> 49) (code-smell/cognitive-complexity) at src/upload.ts:3",
    ],
    confidence_reasons: ['src/types.ts could not be parsed'],
  },
  health_impact: {
    overall_delta: -0.4,
    issues_added: 3,
    issues_fixed: 1,
    impact_rating: 'minor_regression',
    issues_new: 2,
    issues_worsened: 1,
    issues_pre_existing: 5,
    issues_improved: 1,
  },
  health_projection: { current_overall: 72.3, projected_overall: 71.9, current_grade: 'C', projected_grade: 'C' },
  ...over,
});

describe('renderPrMarkdown', () => {
  it("gives the verdict, its reasons, what lowered the confidence and the change's issues apart from the pre-existing ones", () => {
    const md = renderPrMarkdown(completed());
    const lines = md.split('\n');
    expect(lines[0]).toBe('## CodeHealth: pull request #12 — needs review');
    expect(md).toContain('**Merge readiness:** needs review (0 blocking, 1 advisory, 2 info) · confidence 84/100 · head `abcdef012345`');
    // Reasons follow their heading, escaped for Markdown (the arrow's '>' would start HTML).
    const why = lines.indexOf('Why:');
    expect(lines[why + 1]).toBe(
      "- advisory: worsened medium code_smell issue 'Cognitive complexity of upload' (complexity 19 -&gt; 49) (code-smell/cognitive-complexity) at src/upload.ts:3",
    );
    const confidence = lines.indexOf('Confidence 84/100, because:');
    expect(lines[confidence + 1]).toBe('- src/types.ts could not be parsed');
    expect(md).toContain('**Issues:** 3 introduced by this change (2 new, 1 worsened) · 5 pre-existing in the changed files (1 improved) · 1 fixed');
    expect(md).toContain('**Health:** 72.3 (C) → 71.9 (C), -0.4 · minor regression');
    expect(md).toContain('**Intent:** feature — Adds an upload endpoint');
    expect(md).toContain('- public API change');
  });

  it("omits the confidence section at 100 and falls back to the spec's two counts on records without the breakdown", () => {
    const md = renderPrMarkdown(
      completed({
        merge_readiness: {
          status: 'ready',
          blocking_count: 0,
          advisory_count: 0,
          info_count: 0,
          confidence: 100,
          reasons: ['ready: nothing weighs'],
          confidence_reasons: [],
        },
        health_impact: { overall_delta: 0, issues_added: 0, issues_fixed: 0, impact_rating: 'neutral' },
      }),
      { headingLevel: 3 },
    );
    expect(md.startsWith('### CodeHealth: pull request #12 — ready to merge\n')).toBe(true);
    expect(md).not.toContain('Confidence 100/100, because');
    expect(md).toContain('**Issues:** 0 introduced · 0 fixed');
  });

  it('lists at most maxReasons reasons and counts the rest', () => {
    const reasons = Array.from({ length: 5 }, (_, n) => `advisory: issue ${n}`);
    const md = renderPrMarkdown(completed({ merge_readiness: { ...completed().merge_readiness, reasons } }), { maxReasons: 2 });
    expect(md).toContain('- advisory: issue 1\n- …and 3 more');
    expect(md).not.toContain('advisory: issue 2');
  });

  it('says why a failed analysis has no verdict, and never shows its placeholder readiness', () => {
    const md = renderPrMarkdown(
      completed({
        status: 'failed',
        failure_reason: 'head_sha 0123 is not a commit of the repository',
        merge_readiness: { status: 'needs_review', blocking_count: 0, advisory_count: 0, info_count: 0, confidence: 0 },
      }),
    );
    expect(md.split('\n')[0]).toBe('## CodeHealth: pull request #12 — analysis failed');
    expect(md).toContain('The analysis of `abcdef012345` failed: head_sha 0123 is not a commit of the repository');
    expect(md).toContain('No merge readiness verdict');
    expect(md).not.toContain('needs review');
    expect(renderPrMarkdown(completed({ status: 'running' }))).toContain('The analysis of `abcdef012345` is running.');
  });
});
