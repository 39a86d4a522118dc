import { describe, expect, it } from 'vitest';
import { deriveAssessmentIds, issueFingerprint, issueIdOf, normaliseSnippet, uuidFromDigest, uuidFromName } from './issue-id.js';
import { makeAssessmentResult, makeFinding } from './fixtures/assessment-result.js';
import { NIL_UUID, round1, toWireAssessment, toWireIssue, toWireIssues } from './wire.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ids = { projectId: uuidFromName('p'), repositoryId: uuidFromName('r'), contextId: uuidFromName('c') };

describe('toWireIssue', () => {
  it('maps every field of a finding onto the spec Issue', () => {
    const finding = makeFinding({ confidence: 87.6 });
    const issue = toWireIssue(finding, { ...ids, createdAt: '2026-03-01T10:00:01.234Z' });
    expect(issue).toEqual({
      id: uuidFromDigest(issueFingerprint(finding)),
      source: 'static_analyzer',
      severity: 'high',
      file_path: 'src/orders/checkout.ts',
      file_group: 'src',
      anchor: {
        line_start: 12,
        line_end: 14,
        code_snippet: 'function checkout(cart) {\n  if (a) { if (b) {} }\n}',
        validated: true,
      },
      category: 'code_smell',
      title: 'Function `checkout` is too complex',
      description: 'Cognitive complexity is 23; the limit is 15.',
      why_it_matters: 'Complex functions are hard to read and to change safely.',
      suggested_action: 'Extract the nested branches into named helpers.',
      rule_id: 'code-smell/cognitive-complexity',
      analyzer_name: 'code-smell',
      confidence: 88,
      auto_fixable: false,
      is_new: false,
      is_dismissed: false,
      context_type: 'health_assessment',
      context_id: ids.contextId,
      project_id: ids.projectId,
      repository_id: ids.repositoryId,
      created_at: '2026-03-01T10:00:01.234Z',
    });
    expect(Object.keys(issue)).toHaveLength(22);
    expect(issue.id).toMatch(UUID);
  });

  it('takes the run facts it cannot know from extra', () => {
    const issue = toWireIssue(makeFinding(), { id: ids.contextId, contextType: 'pr_analysis', isNew: true, isDismissed: true });
    expect(issue).toMatchObject({ id: ids.contextId, context_type: 'pr_analysis', is_new: true, is_dismissed: true });
  });

  it('fills unknown ids with the nil UUID, never null', () => {
    const issue = toWireIssue(makeFinding());
    expect([issue.project_id, issue.repository_id, issue.context_id]).toEqual([NIL_UUID, NIL_UUID, NIL_UUID]);
    expect(Date.parse(issue.created_at)).not.toBeNaN();
  });

  it('writes confidence as an integer within 0-100', () => {
    expect(toWireIssue(makeFinding({ confidence: 101.2 })).confidence).toBe(100);
    expect(toWireIssue(makeFinding({ confidence: -3 })).confidence).toBe(0);
    expect(toWireIssue(makeFinding({ confidence: 49.5 })).confidence).toBe(50);
  });
});

describe('issueFingerprint', () => {
  const base = makeFinding();

  it('ignores line numbers and whitespace, so moved or re-indented code keeps its identity', () => {
    const moved = makeFinding({
      anchor: { ...base.anchor, lineStart: 80, lineEnd: 82, codeSnippet: 'function checkout(cart)   {\n\n    if (a) { if (b) {} }\n}\n' },
    });
    expect(issueFingerprint(moved)).toBe(issueFingerprint(base));
  });

  it('changes with the rule, the file, the symbol or the code', () => {
    const fp = issueFingerprint(base);
    expect(issueFingerprint({ ...base, ruleId: 'code-smell/long-function' })).not.toBe(fp);
    expect(issueFingerprint({ ...base, filePath: 'src/other.ts' })).not.toBe(fp);
    expect(issueFingerprint({ ...base, symbol: 'pay' })).not.toBe(fp);
    expect(issueFingerprint({ ...base, anchor: { ...base.anchor, codeSnippet: 'eval(x)' } })).not.toBe(fp);
    expect(fp).toMatch(/^[0-9a-f]{64}$/);
  });

  it('normalises snippets line by line', () => {
    expect(normaliseSnippet('  a   b \r\n\n\tc\n')).toBe('a b\nc');
  });
});

describe('ids', () => {
  it('formats digests as v5-style UUIDs with the RFC variant', () => {
    expect(uuidFromDigest('f'.repeat(64))).toBe('ffffffff-ffff-5fff-bfff-ffffffffffff');
    expect(uuidFromDigest('0'.repeat(32))).toBe('00000000-0000-5000-8000-000000000000');
    expect(() => uuidFromDigest('abc')).toThrow(TypeError);
    expect(uuidFromName('x')).toBe(uuidFromName('x'));
    expect(uuidFromName('x')).not.toBe(uuidFromName('y'));
  });

  it('derives project, repository and run ids from root and start time', () => {
    const a = deriveAssessmentIds({ root: '/repo', startedAt: '2026-01-01T00:00:00.000Z' });
    const later = deriveAssessmentIds({ root: '/repo', startedAt: '2026-01-02T00:00:00.000Z' });
    expect(new Set([a.projectId, a.repositoryId, a.assessmentId]).size).toBe(3);
    for (const id of Object.values(a)) expect(id).toMatch(UUID);
    expect(later.projectId).toBe(a.projectId);
    expect(later.repositoryId).toBe(a.repositoryId);
    expect(later.assessmentId).not.toBe(a.assessmentId);
  });

  it('keeps ids unique when two findings share a fingerprint', () => {
    const twice = [makeFinding(), makeFinding({ anchor: { ...makeFinding().anchor, lineStart: 90 } })];
    const issues = toWireIssues(twice, ids);
    expect(issues[0].id).toBe(issueIdOf(issueFingerprint(twice[0])));
    expect(issues[1].id).toBe(issueIdOf(issueFingerprint(twice[0]), 1));
    expect(issues[1].id).not.toBe(issues[0].id);
    expect(issues[1].anchor.line_start).toBe(90);
  });
});

describe('toWireAssessment', () => {
  it('maps every spec field, scores rounded to one decimal', () => {
    const result = makeAssessmentResult();
    const derived = deriveAssessmentIds(result);
    expect(toWireAssessment(result)).toEqual({
      id: derived.assessmentId,
      project_id: derived.projectId,
      overall_score: 78.4,
      overall_grade: 'C',
      security_score: 61.3,
      runtime_risks_score: 72,
      test_coverage_score: 0,
      code_smell_score: 55.6,
      duplication_score: 93.3,
      dead_code_score: 88.9,
      consistency_score: 100,
      compliance_score: 80,
      critical_count: 1,
      high_count: 1,
      medium_count: 1,
      low_count: 0,
      info_count: 0,
      total_lines_of_code: 12345,
      test_lines_of_code: 4321,
      actual_coverage_percent: null,
      structural_coverage_pct: 64.4,
      mock_usage_pct: 12.4,
      trigger_type: 'manual',
      status: 'completed',
      created_at: '2026-03-01T10:00:00.000Z',
      completed_at: '2026-03-01T10:00:01.234Z',
      graded: true,
      not_graded_reason: null,
      not_assessed: { test_coverage: 'no enabled analyzer covers it' },
    });
  });

  it('keeps the spec fields valid without a grade: placeholders 0 and F, named in the extension', () => {
    const reason = 'no TypeScript or JavaScript files: 3 Python files are not analysed';
    const base = makeAssessmentResult();
    const categories = Object.fromEntries(
      Object.keys(base.scores.categories).map((key) => [key, { key, score: null, assessed: false, findings: 0, density: 0, notAssessedReason: reason }]),
    ) as typeof base.scores.categories;
    const wire = toWireAssessment({ ...base, scores: { categories, overall: null, grade: null, notGradedReason: reason } });
    expect(wire).toMatchObject({ overall_score: 0, overall_grade: 'F', security_score: 0, compliance_score: 0, graded: false, not_graded_reason: reason });
    expect(Object.keys(wire.not_assessed)).toHaveLength(8);
    expect(wire.not_assessed.security).toBe(reason);
  });

  it('carries the score ledger when asked', () => {
    const result = makeAssessmentResult();
    expect(toWireAssessment(result).score_ledger).toBeUndefined();
    const ledger = toWireAssessment(result, { ledger: true }).score_ledger!;
    expect(ledger.scoring_model).toBe('default-v1');
    expect(ledger.overall[0]).toEqual({ category: 'security', share: 0.235, score: 61.3, cost: 9.1 });
    expect(ledger.categories.security).toEqual({
      assessed: true,
      not_assessed_reason: null,
      evidence: [{ kind: 'findings', analyzers: ['security'] }],
      ledger: [{ kind: 'rule', id: 'security/no-eval', findings: 1, points: 10, value: null, cost: 38.7 }],
    });
    expect(ledger.categories.test_coverage).toEqual({ assessed: false, not_assessed_reason: 'no enabled analyzer covers it', evidence: [], ledger: [] });
    expect(ledger.categories.duplication.ledger).toEqual([
      { kind: 'measurement', id: 'duplication-index', findings: null, points: null, value: 3.2, cost: 6.7 },
    ]);
    expect(ledger.non_production).toEqual({ example: { findings: 2, points: 7, lines_of_code: 310 } });
  });

  it('writes 0 for unmeasured structural coverage and mock usage, and keeps a measured coverage', () => {
    const base = makeAssessmentResult();
    const metrics = { ...base.metrics, structuralCoveragePct: undefined, mockUsagePct: undefined, actualCoveragePercent: 81.25 };
    const wire = toWireAssessment({ ...base, metrics });
    expect(wire).toMatchObject({ structural_coverage_pct: 0, mock_usage_pct: 0, actual_coverage_percent: 81.3 });
    expect(toWireAssessment({ ...base, metrics: { ...metrics, actualCoveragePercent: undefined } }).actual_coverage_percent).toBeNull();
  });

  it('lets a host set ids, trigger and status', () => {
    const wire = toWireAssessment(makeAssessmentResult(), { id: ids.contextId, projectId: ids.projectId, triggerType: 'push', status: 'running' });
    expect(wire).toMatchObject({ id: ids.contextId, project_id: ids.projectId, trigger_type: 'push', status: 'running' });
  });

  it('refuses a non-finite score rather than writing null', () => {
    expect(round1(2.25)).toBe(2.3);
    expect(() => round1(Number.NaN)).toThrow(/non-finite/);
  });
});
