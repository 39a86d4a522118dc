// The REST API v1 shapes the dashboard reads (spec section 2); fields the views do not use are left out.
export interface Project {
  id: string;
  name: string;
  key: string;
  description: string;
  settings: Record<string, unknown>;
  user_role: 'owner' | 'member';
  created_at: string;
  updated_at: string;
}

export const CATEGORY_KEYS = ['security', 'runtime_risks', 'test_coverage', 'code_smell', 'duplication', 'dead_code', 'consistency', 'compliance'] as const;
export type CategoryKey = (typeof CATEGORY_KEYS)[number];

export type Assessment = {
  id: string;
  overall_score: number;
  overall_grade: string;
  critical_count: number;
  high_count: number;
  medium_count: number;
  low_count: number;
  info_count: number;
  total_lines_of_code: number;
  test_lines_of_code: number;
  trigger_type: string;
  status: string;
  created_at: string;
  completed_at: string | null;
} & { [K in `${CategoryKey}_score`]: number };

export interface DriftAlert {
  id: string;
  drift_type: string;
  category: string;
  previous_value: number;
  current_value: number;
  change: number;
  message: string;
  affected_files: string[];
  detected_at: string;
  dismissed: boolean;
}

export interface HealthDashboard {
  latest_assessment: Assessment | null;
  category_breakdown: { category: string; count: number; critical: number; high: number; medium: number; low: number; info: number }[];
  trend_data: (Assessment & { churn_rate: number; refactoring_rate: number; convention_consistency: number })[];
  drift_alerts: DriftAlert[];
  codebase_dynamics: {
    churn_rate: number;
    churn_change: number;
    hot_files_count: number;
    duplication_index: number;
    duplication_change: number;
    refactoring_rate: number;
    refactoring_interpretation: string;
    convention_consistency: number;
    convention_change: number;
    deviations_count: number;
  } | null;
  convention_consistency: {
    overall_consistency: number;
    patterns: { name: string; consistency: number; dominant_value: string; total_count: number; deviation_count: number }[];
  } | null;
  test_quality: { structural_coverage: number; coverage_change: number; assertion_density: number; test_code_ratio: number; mock_usage_pct: number } | null;
  repo_stats: {
    id: string;
    name: string;
    full_name: string;
    language: string;
    total_loc: number;
    test_loc: number;
    lines_added_30d: number;
    lines_deleted_30d: number;
    pr_count: number;
  }[];
}

export interface HealthCategory {
  name: string;
  key: string;
  icon: string;
  color: string;
}

export interface Issue {
  id: string;
  source: string;
  severity: string;
  file_path: string;
  anchor: { line_start: number; line_end: number; code_snippet: string; validated: boolean };
  category: string;
  title: string;
  description: string;
  why_it_matters: string;
  suggested_action: string;
  rule_id: string;
  analyzer_name: string;
  confidence: number;
  is_new: boolean;
  is_dismissed: boolean;
  context_type: string;
  created_at: string;
}

export interface DismissRule {
  id: string;
  source_type: string | null;
  rule_pattern: string;
  secondary_pattern: string | null;
  scope: string;
  file_path: string | null;
  action: string;
  reason: string;
  match_count: number;
  created_at: string;
}

export interface Repository {
  id: string;
  installation_id: number;
  full_name: string;
  url: string;
  description: string;
  default_branch: string;
  analyzers: { language: string; path: string; enabled: boolean; description: string }[];
  private: boolean;
  created_at: string;
}

export interface PrListItem {
  id: string;
  repository_id: string;
  pr_number: number;
  head_sha: string;
  classification: { primary_intent: string; summary: string } | null;
  merge_readiness: { status: string; blocking_count: number; advisory_count: number; info_count: number; confidence: number } | null;
  status: string;
  created_at: string;
  completed_at: string | null;
  failure_reason?: string | null;
}

export interface PrAnalysis extends PrListItem {
  classification: { primary_intent: string; secondary_intents: string[]; change_categories: string[]; risk_signals: string[]; summary: string } | null;
  merge_readiness: (PrListItem['merge_readiness'] & { reasons?: string[]; confidence_reasons?: string[] }) | null;
  health_impact: {
    overall_delta: number;
    issues_added: number;
    issues_fixed: number;
    impact_rating: string;
    issues_new?: number;
    issues_worsened?: number;
    issues_pre_existing?: number;
    issues_improved?: number;
  } | null;
  health_projection: {
    current_overall: number;
    projected_overall: number;
    overall_delta: number;
    current_grade: string;
    projected_grade: string;
    category_deltas: { category: string; current_score: number; projected_score: number; delta: number; issues_in_pr: number }[];
    impact_rating: string;
  } | null;
  scope_drift: { description: string; reason: string; files: string[] }[] | null;
  impact_zones:
    | {
        name: string;
        risk: string;
        scope_classification: string;
        summary: string;
        intent: string;
        files: { path: string; additions: number; deletions: number }[];
      }[]
    | null;
  conflicts: {
    conflicts: { pr_number: number; title: string; semantic_conflict: string; resolution_suggestion: string; overlapping_files: string[] }[];
    checked_prs: number[];
    summary: string;
  } | null;
  stacked_prs: { is_stacked: boolean; parent_prs: unknown[]; child_prs: unknown[]; summary: string } | null;
  started_at: string | null;
  analysis_run_id: string;
}

export interface PrStats {
  total_count: number;
  completed_count: number;
  failed_count: number;
  running_count: number;
  blocked_count: number;
  needs_review_count: number;
  ready_count: number;
  avg_duration_seconds: number;
}

export interface ApiKey {
  id: string;
  name: string;
  description?: string;
  key_prefix: string;
  last_used_at?: string | null;
  created_at?: string;
  key?: string;
}

export interface Member {
  id: string;
  user_id: string;
  role: string;
  created_at: string;
  email?: string;
}
