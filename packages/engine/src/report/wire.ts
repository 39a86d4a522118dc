// The one place where internal camelCase results become the spec's snake_case wire objects (Issue,
// Health assessment) and the snake_case metrics block of the JSON report.
import { HEALTH_CATEGORY_KEYS, type Finding, type HealthCategoryKey, type IssueCategory, type IssueSource, type Severity } from '../domain/types.js';
import type { Grade } from '../contracts/scoring.js';
import type { AssessmentResult } from '../pipeline/types.js';
import { deriveAssessmentIds, issueFingerprint, issueIdOf } from './issue-id.js';
import { toWireScoreLedger, type WireScoreLedger } from './wire-score-ledger.js';

export type WireContextType = 'pr_analysis' | 'health_assessment' | 'architecture_review' | 'push';
export type WireTriggerType = 'manual' | 'push' | 'pr_merge' | 'scheduled';
export type WireAssessmentStatus = 'pending' | 'running' | 'completed' | 'failed';

/** Stands in for an id nobody supplied: a valid UUID that plainly means "unknown", never null. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

export interface WireIssue {
  id: string;
  source: IssueSource;
  severity: Severity;
  file_path: string;
  file_group: string;
  anchor: { line_start: number; line_end: number; code_snippet: string; validated: boolean };
  category: IssueCategory;
  title: string;
  description: string;
  why_it_matters: string;
  suggested_action: string;
  rule_id: string;
  analyzer_name: string;
  confidence: number;
  auto_fixable: boolean;
  is_new: boolean;
  is_dismissed: boolean;
  context_type: WireContextType;
  context_id: string;
  project_id: string;
  repository_id: string;
  created_at: string;
}

/** What a finding does not know about itself: where it was found and by which run. */
export interface WireIssueExtra {
  /** Defaults to the UUID of the finding's fingerprint. */
  id?: string;
  projectId?: string;
  repositoryId?: string;
  /** The run (assessment, PR analysis) that produced the issue. */
  contextId?: string;
  contextType?: WireContextType;
  createdAt?: string;
  /** Only a baseline can say an issue is new; without one it is `false`. */
  isNew?: boolean;
  isDismissed?: boolean;
}

export interface WireAssessment {
  id: string;
  project_id: string;
  overall_score: number;
  overall_grade: Grade;
  security_score: number;
  runtime_risks_score: number;
  test_coverage_score: number;
  code_smell_score: number;
  duplication_score: number;
  dead_code_score: number;
  consistency_score: number;
  compliance_score: number;
  critical_count: number;
  high_count: number;
  medium_count: number;
  low_count: number;
  info_count: number;
  total_lines_of_code: number;
  test_lines_of_code: number;
  actual_coverage_percent: number | null;
  structural_coverage_pct: number;
  mock_usage_pct: number;
  trigger_type: WireTriggerType;
  status: WireAssessmentStatus;
  created_at: string;
  completed_at: string;
  // Extensions of the spec's object (docs/rest-api.md, "Not assessed, no grade, score ledger"): the
  // spec's fields stay numbers and a grade letter; these say which of them carry no measurement.
  /** False when `overall_score` 0 and `overall_grade` F are placeholders: nothing could be graded. */
  graded: boolean;
  not_graded_reason: string | null;
  /** Categories not assessed, with the reason; their `<key>_score` is a placeholder 0. */
  not_assessed: Partial<Record<HealthCategoryKey, string>>;
  /** Where the points went (the JSON report, and GET of one assessment). */
  score_ledger?: WireScoreLedger;
}

export interface WireAssessmentExtra {
  id?: string;
  projectId?: string;
  triggerType?: WireTriggerType;
  status?: WireAssessmentStatus;
  createdAt?: string;
  completedAt?: string;
  /** Adds `score_ledger`. */
  ledger?: boolean;
}

/** One decimal, as every score and percentage is shown; a non-finite value is a scoring bug, not data. */
export function round1(value: number): number {
  if (!Number.isFinite(value)) throw new TypeError(`cannot report a non-finite number: ${value}`);
  return Math.round(value * 10) / 10;
}

export function toWireIssue(finding: Finding, extra: WireIssueExtra = {}): WireIssue {
  return {
    id: extra.id ?? issueIdOf(issueFingerprint(finding)),
    source: finding.source,
    severity: finding.severity,
    file_path: finding.filePath,
    file_group: finding.fileGroup,
    anchor: {
      line_start: finding.anchor.lineStart,
      line_end: finding.anchor.lineEnd,
      code_snippet: finding.anchor.codeSnippet,
      validated: finding.anchor.validated,
    },
    category: finding.category,
    title: finding.title,
    description: finding.description,
    why_it_matters: finding.whyItMatters,
    suggested_action: finding.suggestedAction,
    rule_id: finding.ruleId,
    analyzer_name: finding.analyzerName,
    confidence: Math.min(100, Math.max(0, Math.round(finding.confidence))),
    auto_fixable: finding.autoFixable,
    is_new: extra.isNew ?? false,
    is_dismissed: extra.isDismissed ?? false,
    context_type: extra.contextType ?? 'health_assessment',
    context_id: extra.contextId ?? NIL_UUID,
    project_id: extra.projectId ?? NIL_UUID,
    repository_id: extra.repositoryId ?? NIL_UUID,
    created_at: extra.createdAt ?? new Date().toISOString(),
  };
}

/**
 * Converts a batch, giving findings with equal fingerprints (the same snippet twice in one function)
 * distinct ids by their order of appearance, so ids stay unique within a report.
 */
export function toWireIssues(findings: readonly Finding[], extra: Omit<WireIssueExtra, 'id'> = {}): WireIssue[] {
  const seen = new Map<string, number>();
  return findings.map((finding) => {
    const fingerprint = issueFingerprint(finding);
    const occurrence = seen.get(fingerprint) ?? 0;
    seen.set(fingerprint, occurrence + 1);
    return toWireIssue(finding, { ...extra, id: issueIdOf(fingerprint, occurrence) });
  });
}

/** A category's score; 0 stands in for a category not assessed (listed in `not_assessed`). */
function scoreOf(result: AssessmentResult, key: HealthCategoryKey): number {
  const c = result.scores.categories[key];
  return c.assessed && c.score !== null ? round1(c.score) : 0;
}

/** The categories not assessed, with their reasons. */
export function notAssessedOf(result: Pick<AssessmentResult, 'scores'>): Partial<Record<HealthCategoryKey, string>> {
  const out: Partial<Record<HealthCategoryKey, string>> = {};
  for (const key of HEALTH_CATEGORY_KEYS) {
    const c = result.scores.categories[key];
    if (!c.assessed || c.score === null) out[key] = c.notAssessedReason ?? 'not assessed';
  }
  return out;
}

/**
 * `structural_coverage_pct` and `mock_usage_pct` are plain numbers in the spec, so an unmeasured value
 * is written 0 there; the JSON report's metrics block keeps the distinction (null). So is a score
 * that was not measured: 0 (grade F without a grade), named in `not_assessed` / `graded: false`.
 */
export function toWireAssessment(result: AssessmentResult, extra: WireAssessmentExtra = {}): WireAssessment {
  const ids = deriveAssessmentIds(result);
  const m = result.metrics;
  const graded = result.scores.overall !== null && result.scores.grade !== null;
  return {
    id: extra.id ?? ids.assessmentId,
    project_id: extra.projectId ?? ids.projectId,
    overall_score: graded ? round1(result.scores.overall!) : 0,
    overall_grade: graded ? result.scores.grade! : 'F',
    security_score: scoreOf(result, 'security'),
    runtime_risks_score: scoreOf(result, 'runtime_risks'),
    test_coverage_score: scoreOf(result, 'test_coverage'),
    code_smell_score: scoreOf(result, 'code_smell'),
    duplication_score: scoreOf(result, 'duplication'),
    dead_code_score: scoreOf(result, 'dead_code'),
    consistency_score: scoreOf(result, 'consistency'),
    compliance_score: scoreOf(result, 'compliance'),
    critical_count: m.severityCounts.critical,
    high_count: m.severityCounts.high,
    medium_count: m.severityCounts.medium,
    low_count: m.severityCounts.low,
    info_count: m.severityCounts.info,
    total_lines_of_code: Math.round(m.totalLinesOfCode),
    test_lines_of_code: Math.round(m.testLinesOfCode),
    actual_coverage_percent: m.actualCoveragePercent == null ? null : round1(m.actualCoveragePercent),
    structural_coverage_pct: round1(m.structuralCoveragePct ?? 0),
    mock_usage_pct: round1(m.mockUsagePct ?? 0),
    trigger_type: extra.triggerType ?? 'manual',
    status: extra.status ?? 'completed',
    created_at: extra.createdAt ?? result.startedAt,
    completed_at: extra.completedAt ?? result.completedAt,
    graded,
    not_graded_reason: graded ? null : (result.scores.notGradedReason ?? 'nothing could be assessed'),
    not_assessed: notAssessedOf(result),
    ...(extra.ledger ? { score_ledger: toWireScoreLedger(result.scores, result.provenance.scoringModel) } : {}),
  };
}
