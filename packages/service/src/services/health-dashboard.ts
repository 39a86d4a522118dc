// The health dashboard of a project (spec section 2, "Health dashboard"), read from the latest
// completed assessment, the one before it (for the `*_change` fields), its active issues, the
// trend of completed assessments and the active drift alerts.
import type { CodebaseDynamics, ConventionPatternWire, HealthDashboard, RepoStat } from '../api/health.js';
import { HEALTH_CATEGORIES, healthKeyOf, SEVERITIES, type HealthCategoryKey, type IssueCategory, type Severity } from '@codehealth/engine';
import { round1 } from '@codehealth/engine/internal';
import type { Sql } from '../store/database.js';
import type { StoredMetrics } from './assessment-combination.js';
import {
  assessmentOfRow,
  DASHBOARD_COLUMNS,
  DRIFT_ALERT_COLUMNS,
  driftAlertOfRow,
  trendPointOfRow,
  type AssessmentRow,
  type DriftAlertRow,
} from './health-records.js';

/** Completed assessments in the trend. */
export const TREND_LENGTH = 30;
/** Active drift alerts shown on the dashboard (newest first); the full list is paginated. */
export const DASHBOARD_DRIFT_ALERTS = 100;

interface DashboardRow extends AssessmentRow {
  metrics: Partial<StoredMetrics>;
  conventions: ConventionPatternWire[];
  repo_stats: RepoStat[];
}

const num = (value: number | null | undefined): number => value ?? 0;
const delta = (current: number | null | undefined, previous: number | null | undefined, hasPrevious: boolean) =>
  hasPrevious ? round1(num(current) - num(previous)) : 0;

/**
 * What the share of deleted lines among the last 30 days' changed lines says: a modified line
 * counts as one deleted and one added, so 50% means pure rewriting and more means net removal.
 */
export function refactoringInterpretation(rate: number, linesChanged: number): string {
  if (linesChanged === 0) return 'no changes in the last 30 days';
  if (rate < 15) return 'mostly new code';
  if (rate < 35) return 'new code with some rework of existing code';
  if (rate < 55) return 'heavy refactoring: much existing code rewritten';
  return 'net removal: more code deleted than added';
}

function dynamicsOf(latest: DashboardRow, previous: DashboardRow | undefined): CodebaseDynamics {
  const m = latest.metrics;
  const p = previous?.metrics;
  const has = previous !== undefined;
  return {
    churn_rate: num(m.churn_rate),
    churn_change: delta(m.churn_rate, p?.churn_rate, has),
    hot_files_count: num(m.hot_files_count),
    duplication_index: num(m.duplication_index),
    duplication_change: delta(m.duplication_index, p?.duplication_index, has),
    refactoring_rate: num(m.refactoring_rate),
    refactoring_interpretation: refactoringInterpretation(num(m.refactoring_rate), num(m.lines_added_30d) + num(m.lines_deleted_30d)),
    convention_consistency: num(m.convention_consistency),
    convention_change: delta(m.convention_consistency, p?.convention_consistency, has),
    deviations_count: latest.conventions.reduce((total, pattern) => total + pattern.deviation_count, 0),
  };
}

async function categoryBreakdown(sql: Sql, projectId: string, assessmentId: string): Promise<HealthDashboard['category_breakdown']> {
  const rows = await sql.query<{ category: IssueCategory; severity: Severity; count: number }>(
    `SELECT category, severity, count(*)::int AS count FROM issues
      WHERE project_id = $1 AND context_type = 'health_assessment' AND context_id = $2 AND NOT is_dismissed
      GROUP BY category, severity`,
    [projectId, assessmentId],
  );
  const zero = () => ({ count: 0, ...(Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>) });
  const byKey = new Map<HealthCategoryKey, ReturnType<typeof zero>>(HEALTH_CATEGORIES.map((c) => [c.key, zero()]));
  for (const row of rows) {
    const entry = byKey.get(healthKeyOf(row.category))!;
    entry.count += row.count;
    entry[row.severity] += row.count;
  }
  return HEALTH_CATEGORIES.map((c) => ({ category: c.key, ...byKey.get(c.key)! }));
}

async function activeDriftAlerts(sql: Sql, projectId: string): Promise<HealthDashboard['drift_alerts']> {
  const rows = await sql.query<DriftAlertRow>(
    `SELECT ${DRIFT_ALERT_COLUMNS} FROM drift_alerts WHERE project_id = $1 AND NOT dismissed
      ORDER BY detected_at DESC, id LIMIT ${DASHBOARD_DRIFT_ALERTS}`,
    [projectId],
  );
  return rows.map(driftAlertOfRow);
}

/**
 * Without a completed assessment the shape stays the same: `latest_assessment`,
 * `codebase_dynamics`, `convention_consistency` and `test_quality` are null, the arrays empty.
 */
export async function readHealthDashboard(sql: Sql, projectId: string): Promise<HealthDashboard> {
  const recent = await sql.query<DashboardRow>(
    `SELECT ${DASHBOARD_COLUMNS} FROM health_assessments WHERE project_id = $1 AND status = 'completed'
      ORDER BY completed_at DESC, created_at DESC, id DESC LIMIT ${TREND_LENGTH}`,
    [projectId],
  );
  const driftAlerts = await activeDriftAlerts(sql, projectId);
  const [latest, previous] = recent;
  if (!latest) {
    return {
      latest_assessment: null,
      category_breakdown: [],
      trend_data: [],
      drift_alerts: driftAlerts,
      codebase_dynamics: null,
      convention_consistency: null,
      test_quality: null,
      repo_stats: [],
    };
  }
  const m = latest.metrics;
  const hasPrevious = previous !== undefined;
  return {
    latest_assessment: assessmentOfRow(latest),
    category_breakdown: await categoryBreakdown(sql, projectId, latest.id),
    trend_data: recent.slice().reverse().map(trendPointOfRow),
    drift_alerts: driftAlerts,
    codebase_dynamics: dynamicsOf(latest, previous),
    convention_consistency: { overall_consistency: num(m.convention_consistency), patterns: latest.conventions },
    test_quality: {
      structural_coverage: latest.structural_coverage_pct,
      coverage_change: delta(latest.structural_coverage_pct, previous?.structural_coverage_pct, hasPrevious),
      assertion_density: num(m.assertion_density),
      test_code_ratio: num(m.test_code_ratio),
      mock_usage_pct: latest.mock_usage_pct,
    },
    repo_stats: latest.repo_stats,
  };
}
