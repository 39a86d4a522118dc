// Stored PR analyses as wire objects: the columns read, and the typed empty values a run shows
// until it completes (the result columns are NULL before then; the spec types them as objects
// and arrays, so clients never meet a null where it promises an object).
import type {
  GraphImpact,
  HealthImpact,
  HealthProjection,
  MergeReadiness,
  PrAnalysis,
  PrAnalysisListItem,
  PrAnalysisResult,
  PrAnalysisStatus,
  PrClassification,
  PrConflicts,
  StackedPrs,
} from '../api/pr-analyses.js';
import { iso } from './time.js';

export const PR_ANALYSIS_COLUMNS = `id, project_id, repository_id, pr_number, head_sha, status, classification, merge_readiness,
  health_impact, health_projection, graph_impact, scope_drift, impact_zones, conflicts, stacked_prs, analysis_run_id,
  workflow_id, error, feedback, created_at, started_at, completed_at`;

export interface PrAnalysisRow extends Record<string, unknown> {
  id: string;
  project_id: string;
  repository_id: string;
  pr_number: number;
  head_sha: string;
  status: PrAnalysisStatus;
  classification: PrClassification | null;
  merge_readiness: MergeReadiness | null;
  health_impact: HealthImpact | null;
  health_projection: HealthProjection | null;
  graph_impact: GraphImpact | null;
  scope_drift: PrAnalysisResult['scope_drift'] | null;
  impact_zones: PrAnalysisResult['impact_zones'] | null;
  conflicts: PrConflicts | null;
  stacked_prs: StackedPrs | null;
  analysis_run_id: string;
  workflow_id: string | null;
  /** The failure message of a failed run (credentials masked). */
  error: string | null;
  /** What became of the run's feedback on the code host (services/pr-feedback.ts); null before any was attempted. */
  feedback: PrAnalysis['feedback'];
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

/** What a run that has not completed shows (fresh objects each time: callers may mutate them). */
export function pendingResult(): PrAnalysisResult {
  return {
    classification: { primary_intent: 'unknown', secondary_intents: [], change_categories: [], risk_signals: [], summary: '' },
    // Never `ready` before the code was looked at.
    merge_readiness: { status: 'needs_review', blocking_count: 0, advisory_count: 0, info_count: 0, confidence: 0 },
    health_impact: { overall_delta: 0, issues_added: 0, issues_fixed: 0, impact_rating: 'unknown' },
    // Grade F with score 0, as health assessments show before completion.
    health_projection: {
      current_overall: 0,
      projected_overall: 0,
      overall_delta: 0,
      current_grade: 'F',
      projected_grade: 'F',
      category_deltas: [],
      issues_added: 0,
      issues_fixed: 0,
      impact_rating: 'unknown',
    },
    graph_impact: { changed_symbols: [], dependents_count: 0, dependent_files: [], depth: 0, summary: '' },
    scope_drift: [],
    impact_zones: [],
    conflicts: { conflicts: [], checked_prs: [], summary: '' },
    stacked_prs: { is_stacked: false, stacked_prs: [], parent_prs: [], child_prs: [], summary: '' },
  };
}

/** Why a run has no verdict yet, or never will: shown as the readiness reason of the typed empty values. */
function noVerdictReason(row: Pick<PrAnalysisRow, 'status' | 'error'>): string {
  if (row.status === 'failed') return `the analysis failed: ${row.error ?? 'no reason was recorded'}`;
  return `the analysis is ${row.status}: no verdict yet`;
}

/**
 * The stored readiness with its reasons: a run without a result (pending, running, failed) says
 * why it has no verdict, and never reads `ready`.
 */
function readinessOfRow(row: PrAnalysisRow, empty: MergeReadiness): MergeReadiness {
  if (row.status === 'completed' && row.merge_readiness) return row.merge_readiness;
  const reasons = [noVerdictReason(row)];
  return { ...empty, reasons, confidence_reasons: reasons };
}

export function prAnalysisOfRow(row: PrAnalysisRow): PrAnalysis {
  const empty = pendingResult();
  return {
    id: row.id,
    project_id: row.project_id,
    repository_id: row.repository_id,
    pr_number: row.pr_number,
    head_sha: row.head_sha,
    classification: row.classification ?? empty.classification,
    merge_readiness: readinessOfRow(row, empty.merge_readiness),
    health_impact: row.health_impact ?? empty.health_impact,
    health_projection: row.health_projection ?? empty.health_projection,
    graph_impact: row.graph_impact ?? empty.graph_impact,
    scope_drift: row.scope_drift ?? empty.scope_drift,
    impact_zones: row.impact_zones ?? empty.impact_zones,
    conflicts: row.conflicts ?? empty.conflicts,
    stacked_prs: row.stacked_prs ?? empty.stacked_prs,
    analysis_run_id: row.analysis_run_id,
    status: row.status,
    failure_reason: row.status === 'failed' ? (row.error ?? 'no reason was recorded') : null,
    feedback: row.feedback ?? null,
    created_at: iso(row.created_at),
    started_at: iso(row.started_at),
    completed_at: iso(row.completed_at),
  };
}

export function prAnalysisItemOfRow(row: PrAnalysisRow): PrAnalysisListItem {
  const full = prAnalysisOfRow(row);
  return {
    id: full.id,
    project_id: full.project_id,
    repository_id: full.repository_id,
    pr_number: full.pr_number,
    head_sha: full.head_sha,
    classification: full.classification,
    merge_readiness: full.merge_readiness,
    status: full.status,
    failure_reason: full.failure_reason,
    created_at: full.created_at,
    completed_at: full.completed_at,
  };
}
