// Stored health assessments and drift alerts as the spec's wire objects: the column lists the
// read side selects and the one row → wire mapping each (scores are 0, grade F, until completed;
// the grading extension says which are placeholders).
import type { AssessmentSummary, DriftAlert, HealthAssessment, TrendPoint } from '../api/health.js';
import { HEALTH_CATEGORY_KEYS, SEVERITIES } from '@codehealth/engine';
import type { StoredMetrics } from './assessment-combination.js';
import { iso } from './time.js';
import { GRADING_COLUMNS, gradingOfRow, type GradingRow } from './assessment-grading.js';

type ScoreColumn = 'overall_score' | `${(typeof HEALTH_CATEGORY_KEYS)[number]}_score`;
type CountColumn = `${(typeof SEVERITIES)[number]}_count`;
const SCORE_COLUMNS: ScoreColumn[] = ['overall_score', ...HEALTH_CATEGORY_KEYS.map((k) => `${k}_score` as const)];
const COUNT_COLUMNS: CountColumn[] = SEVERITIES.map((s) => `${s}_count` as const);

export const ASSESSMENT_COLUMNS = [
  'id',
  'project_id',
  ...SCORE_COLUMNS,
  'overall_grade',
  ...COUNT_COLUMNS,
  'total_lines_of_code',
  'test_lines_of_code',
  'actual_coverage_percent',
  'structural_coverage_pct',
  'mock_usage_pct',
  'trigger_type',
  'status',
  'created_at',
  'completed_at',
  GRADING_COLUMNS,
].join(', ');

/** The assessment columns plus the jsonb the dashboard reads. */
export const DASHBOARD_COLUMNS = `${ASSESSMENT_COLUMNS}, metrics, conventions, repo_stats`;

export interface AssessmentRow extends Record<string, unknown> {
  id: string;
  project_id: string;
  overall_score: number | null;
  overall_grade: HealthAssessment['overall_grade'] | null;
  total_lines_of_code: number;
  test_lines_of_code: number;
  actual_coverage_percent: number | null;
  structural_coverage_pct: number;
  mock_usage_pct: number;
  trigger_type: HealthAssessment['trigger_type'];
  status: HealthAssessment['status'];
  created_at: Date;
  completed_at: Date | null;
  metrics?: Partial<StoredMetrics>;
  not_assessed?: GradingRow['not_assessed'];
  not_graded_reason?: string | null;
}

const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

export function assessmentOfRow(row: AssessmentRow): HealthAssessment {
  const scores = Object.fromEntries(SCORE_COLUMNS.map((c) => [c, num(row[c])])) as Record<ScoreColumn, number>;
  const counts = Object.fromEntries(COUNT_COLUMNS.map((c) => [c, num(row[c])])) as Record<CountColumn, number>;
  return {
    id: row.id,
    project_id: row.project_id,
    ...scores,
    overall_grade: row.overall_grade ?? 'F',
    ...counts,
    total_lines_of_code: row.total_lines_of_code,
    test_lines_of_code: row.test_lines_of_code,
    actual_coverage_percent: row.actual_coverage_percent,
    structural_coverage_pct: row.structural_coverage_pct,
    mock_usage_pct: row.mock_usage_pct,
    trigger_type: row.trigger_type,
    status: row.status,
    created_at: iso(row.created_at),
    completed_at: iso(row.completed_at),
    ...gradingOfRow(row),
  };
}

export function summaryOfRow(row: AssessmentRow): AssessmentSummary {
  const a = assessmentOfRow(row);
  return {
    id: a.id,
    overall_score: a.overall_score,
    overall_grade: a.overall_grade,
    trigger_type: a.trigger_type,
    status: a.status,
    critical_count: a.critical_count,
    high_count: a.high_count,
    created_at: a.created_at,
    completed_at: a.completed_at,
    graded: a.graded,
    not_graded_reason: a.not_graded_reason,
  };
}

/** A trend point: the assessment without project, coverage and test size, plus three metrics. */
export function trendPointOfRow(row: AssessmentRow): TrendPoint {
  const {
    project_id: _project,
    test_lines_of_code: _testLoc,
    actual_coverage_percent: _actual,
    structural_coverage_pct: _structural,
    mock_usage_pct: _mock,
    ...rest
  } = assessmentOfRow(row);
  const metrics = row.metrics ?? {};
  return {
    ...rest,
    churn_rate: num(metrics.churn_rate),
    refactoring_rate: num(metrics.refactoring_rate),
    convention_consistency: num(metrics.convention_consistency),
  };
}

export const DRIFT_ALERT_COLUMNS =
  'id, project_id, assessment_id, drift_type, category, previous_value, current_value, change, message, affected_files, detected_at, dismissed';

export interface DriftAlertRow extends Record<string, unknown> {
  id: string;
  project_id: string;
  assessment_id: string;
  drift_type: DriftAlert['drift_type'];
  category: string;
  previous_value: number;
  current_value: number;
  change: number;
  message: string;
  affected_files: string[];
  detected_at: Date;
  dismissed: boolean;
}

export function driftAlertOfRow(row: DriftAlertRow): DriftAlert {
  return {
    id: row.id,
    project_id: row.project_id,
    assessment_id: row.assessment_id,
    drift_type: row.drift_type,
    category: row.category,
    previous_value: row.previous_value,
    current_value: row.current_value,
    change: row.change,
    message: row.message,
    affected_files: row.affected_files,
    detected_at: iso(row.detected_at),
    dismissed: row.dismissed,
  };
}
