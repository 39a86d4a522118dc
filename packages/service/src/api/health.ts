// Wire schemas of code health (spec section 2: Health assessment, Assessment summary, Health
// dashboard, Drift alert, Health category metadata; section 4, "Code health").
import { z } from 'zod';
import { HEALTH_CATEGORY_KEYS } from '@codehealth/engine';
import { paginationQuery, Timestamp, Uuid } from './common.js';
import { gradingFields, ScoreLedgerSchema } from './score-ledger.js';

export const GradeSchema = z.enum(['A', 'B', 'C', 'D', 'F']);
export const TriggerTypeSchema = z.enum(['manual', 'push', 'pr_merge', 'scheduled']);
export const AssessmentStatusSchema = z.enum(['pending', 'running', 'completed', 'failed']);
export const DriftTypeSchema = z.enum(['score', 'coverage', 'convention', 'churn']);

const Score = z.number().min(0).max(100);
const Count = z.number().int().min(0);
/** Null until the run has finished (completed or failed). */
const FinishedAt = Timestamp.nullable().meta({ description: 'when the run finished (completed or failed); null while pending or running' });

const scoreFields = {
  security_score: Score,
  runtime_risks_score: Score,
  test_coverage_score: Score,
  code_smell_score: Score,
  duplication_score: Score,
  dead_code_score: Score,
  consistency_score: Score,
  compliance_score: Score,
};
const countFields = {
  critical_count: Count,
  high_count: Count,
  medium_count: Count,
  low_count: Count,
  info_count: Count,
};

export const HealthAssessmentSchema = z
  .object({
    id: Uuid,
    project_id: Uuid,
    overall_score: Score,
    overall_grade: GradeSchema,
    ...scoreFields,
    ...countFields,
    total_lines_of_code: Count,
    test_lines_of_code: Count,
    actual_coverage_percent: z.number().nullable(),
    structural_coverage_pct: z.number(),
    mock_usage_pct: z.number(),
    trigger_type: TriggerTypeSchema,
    status: AssessmentStatusSchema,
    created_at: Timestamp,
    completed_at: FinishedAt,
    ...gradingFields,
    score_ledger: ScoreLedgerSchema.optional().meta({ description: 'on GET of one completed assessment: where the points went' }),
  })
  .strict()
  .meta({
    id: 'HealthAssessment',
    description:
      'Scores, grade, counts and sizes are 0 (grade F) until `status` is `completed`. Severity counts are all issues the run found, dismissed or not, so dismissing later does not rewrite history. ' +
      'Extensions of the spec: `graded`, `not_graded_reason` and `not_assessed` say which score fields are placeholders (0, grade F) rather than measurements; `score_ledger` explains the scores.',
  });
export type HealthAssessment = z.infer<typeof HealthAssessmentSchema>;

export const AssessmentSummarySchema = z
  .object({
    id: Uuid,
    overall_score: Score,
    overall_grade: GradeSchema,
    trigger_type: TriggerTypeSchema,
    status: AssessmentStatusSchema,
    critical_count: Count,
    high_count: Count,
    created_at: Timestamp,
    completed_at: FinishedAt,
    graded: gradingFields.graded,
    not_graded_reason: gradingFields.not_graded_reason,
  })
  .strict()
  .meta({ id: 'AssessmentSummary' });
export type AssessmentSummary = z.infer<typeof AssessmentSummarySchema>;

export const AssessmentListSchema = z
  .object({ items: z.array(AssessmentSummarySchema), total_count: Count, limit: Count, offset: Count })
  .strict()
  .meta({ id: 'AssessmentList' });
export type AssessmentList = z.infer<typeof AssessmentListSchema>;

export const AssessmentListQuery = z.object(paginationQuery());

export const TriggerAssessmentResponseSchema = z
  .object({ status: z.literal('queued'), assessment_id: Uuid, workflow_id: z.string() })
  .strict()
  .meta({ id: 'TriggerAssessmentResponse' });
export type TriggerAssessmentResponse = z.infer<typeof TriggerAssessmentResponseSchema>;

export const DriftAlertSchema = z
  .object({
    id: Uuid,
    project_id: Uuid,
    assessment_id: Uuid,
    drift_type: DriftTypeSchema,
    category: z.string().meta({ description: 'a health category key, or `overall` for the overall score' }),
    previous_value: z.number(),
    current_value: z.number(),
    change: z.number(),
    message: z.string(),
    affected_files: z.array(z.string()),
    detected_at: Timestamp,
    dismissed: z.boolean(),
  })
  .strict()
  .meta({ id: 'DriftAlert' });
export type DriftAlert = z.infer<typeof DriftAlertSchema>;

export const DriftAlertListQuery = z.object({
  ...paginationQuery(),
  dismissed: z
    .enum(['true', 'false', '1', '0'])
    .transform((value) => value === 'true' || value === '1')
    .optional()
    .meta({ description: 'only dismissed (true) or only active (false) alerts; all when omitted' }),
});

export const HealthCategorySchema = z
  .object({ name: z.string(), key: z.enum(HEALTH_CATEGORY_KEYS), icon: z.string(), color: z.string() })
  .strict()
  .meta({ id: 'HealthCategory' });
export type HealthCategory = z.infer<typeof HealthCategorySchema>;

export const CategoryBreakdownSchema = z
  .object({ category: z.enum(HEALTH_CATEGORY_KEYS), count: Count, critical: Count, high: Count, medium: Count, low: Count, info: Count })
  .strict();
export type CategoryBreakdown = z.infer<typeof CategoryBreakdownSchema>;

export const TrendPointSchema = z
  .object({
    id: Uuid,
    overall_score: Score,
    overall_grade: GradeSchema,
    ...scoreFields,
    ...countFields,
    total_lines_of_code: Count,
    churn_rate: z.number(),
    refactoring_rate: z.number(),
    convention_consistency: z.number(),
    trigger_type: TriggerTypeSchema,
    status: AssessmentStatusSchema,
    created_at: Timestamp,
    completed_at: FinishedAt,
    ...gradingFields,
  })
  .strict();
export type TrendPoint = z.infer<typeof TrendPointSchema>;

export const CodebaseDynamicsSchema = z
  .object({
    churn_rate: z.number(),
    churn_change: z.number(),
    hot_files_count: Count,
    duplication_index: z.number(),
    duplication_change: z.number(),
    refactoring_rate: z.number(),
    refactoring_interpretation: z.string(),
    convention_consistency: z.number(),
    convention_change: z.number(),
    deviations_count: Count,
  })
  .strict();
export type CodebaseDynamics = z.infer<typeof CodebaseDynamicsSchema>;

export const ConventionPatternSchema = z
  .object({ name: z.string(), consistency: z.number(), dominant_value: z.string(), total_count: Count, deviation_count: Count })
  .strict();
export type ConventionPatternWire = z.infer<typeof ConventionPatternSchema>;

export const ConventionConsistencySchema = z.object({ overall_consistency: z.number(), patterns: z.array(ConventionPatternSchema) }).strict();

export const TestQualitySchema = z
  .object({
    structural_coverage: z.number(),
    coverage_change: z.number(),
    assertion_density: z.number(),
    test_code_ratio: z.number(),
    mock_usage_pct: z.number(),
  })
  .strict();

export const RepoStatSchema = z
  .object({
    id: Uuid,
    name: z.string(),
    full_name: z.string(),
    language: z.string(),
    total_loc: Count,
    test_loc: Count,
    lines_added_30d: Count,
    lines_deleted_30d: Count,
    pr_count: Count,
  })
  .strict();
export type RepoStat = z.infer<typeof RepoStatSchema>;

export const HealthDashboardSchema = z
  .object({
    latest_assessment: HealthAssessmentSchema.nullable(),
    category_breakdown: z.array(CategoryBreakdownSchema),
    trend_data: z.array(TrendPointSchema),
    drift_alerts: z.array(DriftAlertSchema),
    codebase_dynamics: CodebaseDynamicsSchema.nullable(),
    convention_consistency: ConventionConsistencySchema.nullable(),
    test_quality: TestQualitySchema.nullable(),
    repo_stats: z.array(RepoStatSchema),
  })
  .strict()
  .meta({ id: 'HealthDashboard' });
export type HealthDashboard = z.infer<typeof HealthDashboardSchema>;
