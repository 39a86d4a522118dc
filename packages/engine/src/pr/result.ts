// What a pull-request analysis concludes, as the engine's own types: the classification, the merge
// readiness, the health impact and projection, the graph impact, scope drift, impact zones,
// conflicts and stacking. The REST wire schemas (api/pr-analyses.ts) describe the same shapes for
// clients and are checked against these at compile time, so the PR analysis needs no wire type.
import type { HealthCategoryKey } from '../domain/types.js';

/** `unknown`: not classified (yet): the analysis is pending, running or failed. */
export const PR_INTENTS = ['feature', 'bugfix', 'refactor', 'test', 'docs', 'dependency', 'config', 'performance', 'security', 'chore', 'unknown'] as const;
export type PrIntent = (typeof PR_INTENTS)[number];
export const MERGE_READINESS = ['ready', 'needs_review', 'blocked'] as const;
/** Ordered from least to most risky. */
export const ZONE_RISKS = ['low', 'medium', 'high', 'critical'] as const;
/**
 * How a zone relates to the PR's stated intent: `primary` carries it, `supporting` is needed by it
 * (tests, types, wiring), `incidental` is small collateral editing (formatting, renames),
 * `unrelated` is outside it (and is reported in `scope_drift` too).
 */
export const SCOPE_CLASSIFICATIONS = ['primary', 'supporting', 'incidental', 'unrelated'] as const;
/** From best to worst; `unknown` while the analysis has not completed. */
export const IMPACT_RATINGS = ['improves', 'neutral', 'minor_regression', 'major_regression', 'critical_regression', 'unknown'] as const;
export type ImpactRating = (typeof IMPACT_RATINGS)[number];
export type PrGrade = 'A' | 'B' | 'C' | 'D' | 'F';

export interface PrClassification {
  primary_intent: PrIntent;
  secondary_intents: PrIntent[];
  /** Kinds of change, e.g. source, test, docs, config, dependency, migration, ci. */
  change_categories: string[];
  /** E.g. touches auth or crypto code, database migration, public API change, large deletion. */
  risk_signals: string[];
  summary: string;
}

export interface MergeReadiness {
  status: (typeof MERGE_READINESS)[number];
  blocking_count: number;
  advisory_count: number;
  info_count: number;
  /** 0-100. */
  confidence: number;
  /** Why the status, one line per blocking or advisory issue, or why it is ready. */
  reasons?: string[] | undefined;
  /** Why the confidence is below 100, one line per changed file not (fully) read. */
  confidence_reasons?: string[] | undefined;
}

export interface HealthImpact {
  overall_delta: number;
  issues_added: number;
  issues_fixed: number;
  impact_rating: ImpactRating;
  issues_new?: number | undefined;
  issues_worsened?: number | undefined;
  issues_pre_existing?: number | undefined;
  issues_improved?: number | undefined;
}

export interface CategoryDelta {
  category: HealthCategoryKey;
  current_score: number;
  projected_score: number;
  delta: number;
  issues_in_pr: number;
}

export interface HealthProjection {
  current_overall: number;
  projected_overall: number;
  overall_delta: number;
  current_grade: PrGrade;
  projected_grade: PrGrade;
  category_deltas: CategoryDelta[];
  issues_added: number;
  issues_fixed: number;
  impact_rating: ImpactRating;
}

export interface GraphImpact {
  changed_symbols: { name: string; file: string; kind: string }[];
  dependents_count: number;
  dependent_files: string[];
  depth: number;
  summary: string;
}

export interface ScopeDriftItem {
  description: string;
  reason: string;
  files: string[];
}

export interface ImpactZone {
  name: string;
  risk: (typeof ZONE_RISKS)[number];
  scope_classification: (typeof SCOPE_CLASSIFICATIONS)[number];
  summary: string;
  intent: PrIntent;
  files: { path: string; additions: number; deletions: number }[];
}

export interface PrConflicts {
  conflicts: { pr_number: number; title: string; semantic_conflict: string; resolution_suggestion: string; overlapping_files: string[] }[];
  checked_prs: number[];
  summary: string;
}

export interface StackedPrs {
  is_stacked: boolean;
  stacked_prs: number[];
  parent_prs: number[];
  child_prs: number[];
  summary: string;
}

/** Everything a completed run produces: what the pipeline hands to the service's recorder. */
export interface PrAnalysisResult {
  classification: PrClassification;
  merge_readiness: MergeReadiness;
  health_impact: HealthImpact;
  health_projection: HealthProjection;
  graph_impact: GraphImpact;
  scope_drift: ScopeDriftItem[];
  impact_zones: ImpactZone[];
  conflicts: PrConflicts;
  stacked_prs: StackedPrs;
}
