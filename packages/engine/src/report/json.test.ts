import { describe, expect, it } from 'vitest';
import { deriveAssessmentIds, uuidFromName } from './issue-id.js';
import { toJsonReport } from './json.js';
import { makeAssessmentResult } from './fixtures/assessment-result.js';
import { TOOL_VERSION } from './tool-info.js';

describe('toJsonReport', () => {
  const result = makeAssessmentResult();
  const report = toJsonReport(result);
  const ids = deriveAssessmentIds(result);

  it('names the tool and the checkout', () => {
    expect(report.run).toEqual({
      tool: 'CodeHealth',
      tool_version: TOOL_VERSION,
      root: '/tmp/shop',
      head_sha: '0123456789abcdef0123456789abcdef01234567',
      branch: 'main',
      provenance: { commit_date: '2026-01-10T09:00:00.000Z', config_digest: '44136fa355b3678a', rule_set: '00112233aabbccdd', scoring_model: 'default-v1' },
    });
    expect(TOOL_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('carries the wire assessment with derived ids', () => {
    expect(report.assessment.id).toBe(ids.assessmentId);
    expect(report.assessment.project_id).toBe(ids.projectId);
    expect(report.assessment.overall_score).toBe(78.4);
    // The JSON report carries the ledger (an extension of the spec's object).
    expect(report.assessment.score_ledger?.overall.map((e) => e.category)).toEqual(['security', 'code_smell', 'runtime_risks']);
  });

  it('carries every issue, tied to this run', () => {
    expect(report.issues.map((i) => i.rule_id)).toEqual(['security/no-eval', 'code-smell/cognitive-complexity', 'code-smell/cognitive-complexity']);
    for (const issue of report.issues) {
      expect(issue).toMatchObject({
        context_type: 'health_assessment',
        context_id: ids.assessmentId,
        project_id: ids.projectId,
        repository_id: ids.repositoryId,
        created_at: result.completedAt,
      });
    }
    expect(new Set(report.issues.map((i) => i.id)).size).toBe(3);
  });

  it('uses ids a host passes', () => {
    const assessmentId = uuidFromName('run-42');
    const custom = toJsonReport(result, { assessmentId });
    expect(custom.assessment.id).toBe(assessmentId);
    expect(custom.issues.every((i) => i.context_id === assessmentId)).toBe(true);
    expect(custom.assessment.project_id).toBe(ids.projectId);
  });

  it('writes the metrics in snake_case with category details, skipped files, analyzers and cycles', () => {
    expect(report.metrics).toEqual({
      files: { total: 40, analysed: 31, source: 20, test: 11, generated: 2, vendored: 3, config: 2, other: 1, skipped: 1 },
      total_lines_of_code: 12345,
      test_lines_of_code: 4321,
      production_lines_of_code: 12345,
      roles: null,
      parse: {
        files: 31,
        files_with_errors: 2,
        files_with_errors_percent: 6.5,
        clean_percent: 98.8,
        repaired_files: 3,
        error_files: [
          { path: 'src/legacy/parser.ts', line: 12 },
          { path: 'src/orders/checkout.ts', line: 40 },
        ],
        cached_files: 7,
      },
      severity_counts: { critical: 1, high: 1, medium: 1, low: 0, info: 0 },
      category_counts: { security: 1, runtime_risks: 0, test_coverage: 0, code_smell: 2, duplication: 0, dead_code: 0, consistency: 0, compliance: 0 },
      categories: {
        security: { name: 'Security', score: 61.3, assessed: true, not_assessed_reason: null, findings: 1, density: 1.3 },
        runtime_risks: { name: 'Runtime Risks', score: 72, assessed: true, not_assessed_reason: null, findings: 0, density: 1.3 },
        test_coverage: { name: 'Test Coverage', score: null, assessed: false, not_assessed_reason: 'no enabled analyzer covers it', findings: 0, density: 0 },
        code_smell: { name: 'Code Smells', score: 55.6, assessed: true, not_assessed_reason: null, findings: 2, density: 1.3 },
        duplication: { name: 'Duplication', score: 93.3, assessed: true, not_assessed_reason: null, findings: 0, density: 1.3 },
        dead_code: { name: 'Dead Code', score: 88.9, assessed: true, not_assessed_reason: null, findings: 0, density: 1.3 },
        consistency: { name: 'Codebase Consistency', score: 100, assessed: true, not_assessed_reason: null, findings: 0, density: 1.3 },
        compliance: { name: 'Compliance', score: 80, assessed: true, not_assessed_reason: null, findings: 0, density: 1.3 },
      },
      structural_coverage_pct: 64.4,
      actual_coverage_percent: null,
      mock_usage_pct: 12.4,
      assertion_density: null,
      test_code_ratio: null,
      duplication_index: 3.2,
      duplicated_lines: null,
      convention_consistency: 91,
      convention_patterns: [{ name: 'function-naming', consistency: 96.7, dominant_value: 'camelCase', total_count: 120, deviation_count: 4 }],
      churn: { lines_added_30d: 500, lines_deleted_30d: 120, churn_rate: 50.2, hot_files: ['src/orders/checkout.ts'] },
      graph: { modules: 25, internal_edges: 40, external_edges: 12, unresolved_edges: 1, cycles: 1, cycle_modules: [['src/a.ts', 'src/b.ts']] },
      skipped_files: [{ path: 'assets/big.min.js', reason: 'larger than maxFileBytes' }],
      analyzers: [
        { id: 'code-smell', rules: ['code-smell/cognitive-complexity'] },
        { id: 'security', rules: ['security/no-eval'] },
      ],
      analyzer_metrics: { 'code-smell.functions': 88 },
      duration_ms: 1234,
    });
  });

  it('keeps unmeasured metrics null and survives JSON serialisation unchanged', () => {
    const bare = makeAssessmentResult();
    bare.metrics = {
      ...bare.metrics,
      structuralCoveragePct: undefined,
      mockUsagePct: undefined,
      duplicationIndex: undefined,
      conventionConsistency: undefined,
    };
    bare.git = { ...bare.git, available: false, headSha: undefined, branch: undefined };
    const json = toJsonReport(bare);
    expect(json.metrics).toMatchObject({ structural_coverage_pct: null, mock_usage_pct: null, duplication_index: null, convention_consistency: null });
    expect(json.run).toMatchObject({ head_sha: null, branch: null });
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    expect(json.run).not.toHaveProperty('history_error');
  });

  it('carries why the history could not be read', () => {
    const damaged = makeAssessmentResult();
    damaged.git = { ...damaged.git, historyError: 'the history could not be read (fatal: unable to read 0f00c2d): churn, ages and commit counts are left out' };
    expect(toJsonReport(damaged).run.history_error).toBe(damaged.git.historyError);
  });
});
