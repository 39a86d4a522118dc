// The baseline of a PR analysis read from the store: the project's latest completed assessment,
// when it assessed exactly this repository at the PR's merge base, with its stored issues as
// findings. The PR activities of @codehealth/worker take it from here (no SQL in the worker).
import type { Finding } from '@codehealth/engine';
import type { PrBaseline } from '@codehealth/engine/internal';
import type { Database } from '../store/database.js';
import type { IssueColumns } from './issues.js';

/** The columns a baseline finding is rebuilt from. */
type IssueRow = Pick<
  IssueColumns,
  | 'fingerprint'
  | 'legacy_fingerprint'
  | 'symbol'
  | 'data'
  | 'anchor_shape'
  | 'source'
  | 'severity'
  | 'category'
  | 'file_path'
  | 'file_group'
  | 'line_start'
  | 'line_end'
  | 'code_snippet'
  | 'validated'
  | 'title'
  | 'description'
  | 'why_it_matters'
  | 'suggested_action'
  | 'rule_id'
  | 'analyzer_name'
  | 'confidence'
  | 'auto_fixable'
>;

/**
 * The project's latest completed assessment as a baseline, when it assessed exactly this
 * repository at `commitSha` (an assessment combining several repositories scores them together,
 * so its scores are not this repository's) and its stored issues are all of its findings (a run
 * over the per-rule cap lists only part of them, and retention may have removed a list).
 */
export async function storedPrBaseline(db: Database, projectId: string, repositoryId: string, commitSha: string): Promise<PrBaseline | undefined> {
  const [latest] = await db.query<{
    id: string;
    commits: Array<{ repository_id: string; sha: string }>;
    total_lines_of_code: number;
    test_lines_of_code: number;
    actual_coverage_percent: number | null;
    metrics: {
      structural_coverage_pct?: number | null;
      duplication_index?: number | null;
      convention_consistency?: number | null;
      production_lines_of_code?: number;
      issues_not_listed?: number;
    };
    issues_pruned: boolean;
  }>(
    `SELECT id, commits, total_lines_of_code, test_lines_of_code, actual_coverage_percent, metrics, issues_pruned_at IS NOT NULL AS issues_pruned
       FROM health_assessments
      WHERE project_id = $1 AND status = 'completed' ORDER BY completed_at DESC, created_at DESC LIMIT 1`,
    [projectId],
  );
  if (!latest || latest.commits.length !== 1 || latest.commits[0]!.repository_id !== repositoryId || latest.commits[0]!.sha !== commitSha) return undefined;
  if ((latest.metrics.issues_not_listed ?? 0) > 0 || latest.issues_pruned) return undefined;
  const rows = await db.query<IssueRow>(
    `SELECT fingerprint, legacy_fingerprint, symbol, data, anchor_shape, source, severity, category, file_path, file_group, line_start, line_end, code_snippet, validated, title, description,
            why_it_matters, suggested_action, rule_id, analyzer_name, confidence, auto_fixable
       FROM issues WHERE project_id = $1 AND context_type = 'health_assessment' AND context_id = $2`,
    [projectId, latest.id],
  );
  const findings = rows.map((row): Finding & { fingerprint: string; legacyFingerprint?: string } => ({
    fingerprint: row.fingerprint,
    // A row recorded before identity v2 holds the former fingerprint only: head matches it by that.
    ...(row.legacy_fingerprint === null ? { legacyFingerprint: row.fingerprint } : {}),
    ...(row.symbol !== null ? { symbol: row.symbol } : {}),
    ...(row.data !== null ? { data: row.data } : {}),
    source: row.source,
    severity: row.severity,
    category: row.category,
    filePath: row.file_path,
    fileGroup: row.file_group,
    anchor: {
      lineStart: row.line_start,
      lineEnd: row.line_end,
      codeSnippet: row.code_snippet,
      validated: row.validated,
      ...(row.anchor_shape !== null ? { shape: row.anchor_shape } : {}),
    },
    title: row.title,
    description: row.description,
    whyItMatters: row.why_it_matters,
    suggestedAction: row.suggested_action,
    ruleId: row.rule_id,
    analyzerName: row.analyzer_name,
    confidence: row.confidence,
    autoFixable: row.auto_fixable,
  }));
  const measured = (value: number | null | undefined) => (value === null || value === undefined ? undefined : Number(value));
  return {
    commitSha,
    assessmentId: latest.id,
    findings,
    metrics: {
      // Scores are measured against production lines (all source lines in records made before roles).
      sourceLoc: latest.metrics.production_lines_of_code ?? latest.total_lines_of_code,
      testLoc: latest.test_lines_of_code,
      structuralCoveragePct: measured(latest.metrics.structural_coverage_pct),
      actualCoveragePercent: measured(latest.actual_coverage_percent),
      duplicationIndex: measured(latest.metrics.duplication_index),
      conventionConsistency: measured(latest.metrics.convention_consistency),
    },
  };
}
