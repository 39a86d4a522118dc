// Wire schemas of the architecture endpoints (spec section 4, "Architecture"; payloads "not
// shown", designed here): reviews, conventions and architecture decision records. The overview
// lives in architecture-overview.ts.
import { z } from 'zod';
import { SEVERITIES } from '@codehealth/engine';
import { paginationQuery, Timestamp, Uuid } from './common.js';

export * from './architecture-overview.js';

const Count = z.number().int().min(0);
const Unit = z.number().min(0).max(1);
const FinishedAt = Timestamp.nullable().meta({ description: 'when the run finished (completed or failed); null before' });

// -- Reviews

export const ARCHITECTURE_RULES = ['import-cycle', 'layering-violation', 'unstable-dependency', 'hub-module'] as const;
export type ArchitectureRule = (typeof ARCHITECTURE_RULES)[number];
export const ReviewStatusSchema = z.enum(['pending', 'running', 'completed', 'failed']);

export const ArchitectureFindingSchema = z
  .object({
    rule_id: z.enum(ARCHITECTURE_RULES.map((rule) => `architecture/${rule}` as const) as [`architecture/${ArchitectureRule}`]),
    severity: z.enum(SEVERITIES),
    category: z.literal('code_smell'),
    title: z.string(),
    description: z.string(),
    why_it_matters: z.string(),
    suggested_action: z.string(),
    repository_id: Uuid.nullable(),
    file_path: z.string(),
    line_start: z.number().int().min(1),
    line_end: z.number().int().min(1),
    code_snippet: z.string(),
    components: z.array(z.string()),
    modules: z.array(z.string()),
    confidence: z.number().int().min(0).max(100),
  })
  .strict()
  .meta({ id: 'ArchitectureFinding' });
export type ArchitectureFinding = z.infer<typeof ArchitectureFindingSchema>;

export const ComponentMetricsSchema = z
  .object({
    repository_id: Uuid.nullable(),
    path: z.string(),
    modules: Count,
    afferent_coupling: Count,
    efferent_coupling: Count,
    instability: Unit.nullable(),
    abstractness: Unit.nullable(),
    distance: Unit.nullable(),
  })
  .strict()
  .meta({ id: 'ComponentMetrics' });

export const ArchitectureReviewMetricsSchema = z
  .object({
    repositories: Count,
    modules: Count.meta({ description: 'source modules' }),
    components: Count,
    internal_imports: Count,
    component_dependencies: Count,
    layers: Count.meta({ description: 'levels of the deepest repository' }),
    import_cycles: Count,
    runtime_import_cycles: Count,
    component_cycles: Count,
    layering_violations: Count,
    unstable_dependencies: Count,
    hub_modules: Count,
    average_instability: Unit.nullable(),
    average_distance: Unit.nullable(),
    component_metrics: z.array(ComponentMetricsSchema),
  })
  .strict()
  .meta({ id: 'ArchitectureReviewMetrics' });
export type ArchitectureReviewMetrics = z.infer<typeof ArchitectureReviewMetricsSchema>;

/** What the engine computes for a review and the recorder stores. */
export interface ArchitectureReviewResult {
  summary: string;
  findings: ArchitectureFinding[];
  metrics: ArchitectureReviewMetrics;
}

const reviewFields = {
  id: Uuid,
  project_id: Uuid,
  status: ReviewStatusSchema,
  summary: z.string().meta({ description: 'empty until completed' }),
  finding_count: Count,
  workflow_id: z.string().nullable(),
  error: z.string().nullable().meta({ description: 'why the review failed; null otherwise' }),
  created_at: Timestamp,
  completed_at: FinishedAt,
};

export const ArchitectureReviewSummarySchema = z.object(reviewFields).strict().meta({ id: 'ArchitectureReviewSummary' });
export type ArchitectureReviewSummary = z.infer<typeof ArchitectureReviewSummarySchema>;

export const ArchitectureReviewSchema = z
  .object({
    ...reviewFields,
    findings: z.array(ArchitectureFindingSchema),
    metrics: ArchitectureReviewMetricsSchema.nullable().meta({ description: 'null until completed' }),
  })
  .strict()
  .meta({ id: 'ArchitectureReview' });
export type ArchitectureReview = z.infer<typeof ArchitectureReviewSchema>;

export const ArchitectureReviewListSchema = z
  .object({ items: z.array(ArchitectureReviewSummarySchema), total_count: Count, limit: Count, offset: Count })
  .strict()
  .meta({ id: 'ArchitectureReviewList' });
export type ArchitectureReviewList = z.infer<typeof ArchitectureReviewListSchema>;

export const ReviewListQuery = z.object(paginationQuery());

export const TriggeredReviewSchema = z
  .object({
    id: Uuid,
    status: z.enum(['pending', 'running']).meta({
      description: '`pending` for a new review; while a review of the project is pending or running, that one is returned instead, with its status',
    }),
    workflow_id: z.string(),
  })
  .strict()
  .meta({ id: 'TriggeredArchitectureReview' });
export type TriggeredReview = z.infer<typeof TriggeredReviewSchema>;

// -- Conventions

export const CONVENTION_STATUSES = ['detected', 'accepted', 'rejected'] as const;
export const ConventionStatusSchema = z.enum(CONVENTION_STATUSES);
export type ConventionStatus = z.infer<typeof ConventionStatusSchema>;

export const ConventionSchema = z
  .object({
    id: Uuid,
    project_id: Uuid,
    name: z.string(),
    description: z.string(),
    dominant_value: z.string(),
    consistency: z.number().min(0).max(100).meta({ description: 'percent of occurrences that follow the dominant value' }),
    total_count: Count,
    deviation_count: Count,
    status: ConventionStatusSchema,
    examples: z
      .array(z.object({ value: z.string(), count: Count }).strict())
      .meta({ description: 'every observed value with its number of occurrences, most frequent first' }),
    detected_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict()
  .meta({ id: 'Convention' });
export type Convention = z.infer<typeof ConventionSchema>;

export const ConventionListQuery = z.object({ status: ConventionStatusSchema.optional().meta({ description: 'only conventions with this status' }) });

export const UpdateConventionBody = z.object({ status: ConventionStatusSchema }).strict().meta({ id: 'UpdateConventionRequest' });
export type UpdateConventionInput = z.infer<typeof UpdateConventionBody>;

export const ConventionDetectionSchema = z
  .object({ status: z.literal('queued'), workflow_id: z.string() })
  .strict()
  .meta({ id: 'ConventionDetectionQueued' });

// -- Architecture decision records

export const ADR_STATUSES = ['proposed', 'accepted', 'rejected', 'deprecated', 'superseded'] as const;
export const AdrStatusSchema = z.enum(ADR_STATUSES);
export type AdrStatus = z.infer<typeof AdrStatusSchema>;

export const AdrSchema = z
  .object({
    id: Uuid,
    project_id: Uuid,
    number: z.number().int().min(1).meta({ description: '1, 2, 3, ... per project, in order of creation' }),
    title: z.string(),
    status: AdrStatusSchema,
    context: z.string(),
    decision: z.string(),
    consequences: z.string(),
    superseded_by: Uuid.nullable().meta({ description: 'the ADR that replaces this one; set only when `status` is `superseded`' }),
    created_by_user_id: Uuid.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict()
  .meta({ id: 'Adr' });
export type Adr = z.infer<typeof AdrSchema>;

const Title = z.string().trim().min(1).max(300);
const Text = z.string().max(100_000);

export const CreateAdrBody = z
  .object({
    title: Title,
    context: Text.optional(),
    decision: Text.optional(),
    consequences: Text.optional(),
    status: AdrStatusSchema.optional().meta({ description: 'default `proposed`' }),
    superseded_by: Uuid.optional().meta({ description: 'required when `status` is `superseded`' }),
  })
  .strict()
  .meta({ id: 'CreateAdrRequest' });
export type CreateAdrInput = z.infer<typeof CreateAdrBody>;

export const UpdateAdrBody = z
  .object({
    title: Title.optional(),
    context: Text.optional(),
    decision: Text.optional(),
    consequences: Text.optional(),
    status: AdrStatusSchema.optional(),
    superseded_by: Uuid.nullable().optional(),
  })
  .strict()
  .meta({ id: 'UpdateAdrRequest' });
export type UpdateAdrInput = z.infer<typeof UpdateAdrBody>;

export const AdrListQuery = z.object({
  status: AdrStatusSchema.optional().meta({ description: 'only ADRs with this status' }),
  ...paginationQuery(),
});

export const AdrListSchema = z
  .object({ items: z.array(AdrSchema), total_count: Count, limit: Count, offset: Count })
  .strict()
  .meta({ id: 'AdrList' });
export type AdrList = z.infer<typeof AdrListSchema>;
