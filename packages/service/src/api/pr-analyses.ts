// Wire schemas of pull-request analyses (spec section 2, "Pull-request analysis", its list items
// and "PR statistics"; section 4, "Pull requests"). Where the spec says "not shown" (the allowed
// values of primary_intent, risk, scope_classification and impact_rating, the fields of
// graph_impact, the element type of the stacked-PR arrays) the vocabulary is fixed once, in the
// PR analysis' own types (pr/result.ts), so the pipeline, the OpenAPI document and clients share it.
import { z } from 'zod';
import { HEALTH_CATEGORY_KEYS } from '@codehealth/engine';
import type * as domain from '@codehealth/engine/internal';
import { IMPACT_RATINGS, MERGE_READINESS, PR_INTENTS, SCOPE_CLASSIFICATIONS, ZONE_RISKS } from '@codehealth/engine/internal';
import { paginationQuery, Timestamp, Uuid } from './common.js';

export const PR_ANALYSIS_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export const PrAnalysisStatusSchema = z.enum(PR_ANALYSIS_STATUSES);
export type PrAnalysisStatus = (typeof PR_ANALYSIS_STATUSES)[number];

// The vocabulary and the shapes are the PR analysis' own (pr/result.ts); these schemas describe
// them on the wire and are checked against them below.
export { PR_INTENTS, MERGE_READINESS, ZONE_RISKS, SCOPE_CLASSIFICATIONS, IMPACT_RATINGS };
export const PrIntentSchema = z.enum(PR_INTENTS).meta({
  description: 'feature, bugfix, refactor, test, docs, dependency, config, performance, security, chore; `unknown` while the analysis has not completed',
});
export const ImpactRatingSchema = z.enum(IMPACT_RATINGS).meta({
  description:
    'improves (the projected score rises or issues are fixed), neutral, minor_regression, major_regression, critical_regression; `unknown` while the analysis has not completed',
});
export const PrGradeSchema = z.enum(['A', 'B', 'C', 'D', 'F']);

const Count = z.number().int().min(0);
const Score = z.number().min(0).max(100);
const PrNumber = z.number().int().min(1);
const PrNumbers = z.array(PrNumber).meta({ description: 'pull-request numbers in the same repository' });

export const PrClassificationSchema = z
  .strictObject({
    primary_intent: PrIntentSchema,
    secondary_intents: z.array(PrIntentSchema),
    change_categories: z.array(z.string()).meta({ description: 'kinds of change, e.g. source, test, docs, config, dependency, migration, ci' }),
    risk_signals: z
      .array(z.string())
      .meta({ description: 'e.g. touches auth or crypto code, database migration, public API change, large deletion, changed code without tests' }),
    summary: z.string(),
  })
  .meta({ id: 'PrClassification' });
export type PrClassification = z.infer<typeof PrClassificationSchema>;

export const MergeReadinessSchema = z
  .strictObject({
    status: z.enum(MERGE_READINESS).meta({
      description: 'ready = no blocking or advisory issues; needs_review = advisory issues but no blockers; blocked = blocking issues to resolve before merge',
    }),
    blocking_count: Count,
    advisory_count: Count,
    info_count: Count,
    confidence: z.number().min(0).max(100).meta({ description: "0-100, like an issue's confidence" }),
    reasons: z
      .array(z.string())
      .optional()
      .meta({
        description:
          'extension: why the status, one line per blocking or advisory issue, worst first (`blocking: new critical security issue …`), or why it is ready; ' +
          'before completion why there is no verdict (`the analysis failed: …`). Absent on analyses recorded before it',
      }),
    confidence_reasons: z
      .array(z.string())
      .optional()
      .meta({
        description:
          'extension: why the confidence is below 100, one line per changed file not (fully) read, largest loss first (`src/types.ts could not be parsed`, ' +
          '`src/a.ts: 62 % parsed cleanly`); empty at 100. Absent on analyses recorded before it',
      }),
  })
  .meta({ id: 'MergeReadiness' });
export type MergeReadiness = z.infer<typeof MergeReadinessSchema>;

export const HealthImpactSchema = z
  .strictObject({
    overall_delta: z.number().meta({ description: 'projected minus current overall score' }),
    issues_added: Count.meta({
      description: 'issues the PR introduced: new ones plus metric issues it made worse (a complexity 43 -> 71); issues listed with `change`',
    }),
    issues_fixed: Count.meta({ description: 'issues of the base the PR removed (a metric issue that only improved is not fixed)' }),
    impact_rating: ImpactRatingSchema,
    issues_new: Count.optional().meta({ description: 'extension: issues the change introduced (issues_added = issues_new + issues_worsened)' }),
    issues_worsened: Count.optional().meta({ description: 'extension: metric issues of the base the change made worse' }),
    issues_pre_existing: Count.optional().meta({
      description: "extension: issues of the base still in the changed files, not made worse (unchanged or improved): not the change's own",
    }),
    issues_improved: Count.optional().meta({ description: 'extension: of issues_pre_existing, metric issues whose measured value got better' }),
  })
  .meta({ id: 'PrHealthImpact' });
export type HealthImpact = z.infer<typeof HealthImpactSchema>;

export const CategoryDeltaSchema = z
  .strictObject({
    category: z.enum(HEALTH_CATEGORY_KEYS).meta({ description: 'health category key' }),
    current_score: Score,
    projected_score: Score,
    delta: z.number(),
    issues_in_pr: Count.meta({ description: 'issues of this category found in the changed code' }),
  })
  .meta({ id: 'PrCategoryDelta' });

export const HealthProjectionSchema = z
  .strictObject({
    current_overall: Score,
    projected_overall: Score,
    overall_delta: z.number(),
    current_grade: PrGradeSchema,
    projected_grade: PrGradeSchema,
    category_deltas: z.array(CategoryDeltaSchema),
    issues_added: Count.meta({
      description: 'issues the PR introduced: new ones plus metric issues it made worse (a complexity 43 -> 71); issues listed with `change`',
    }),
    issues_fixed: Count.meta({ description: 'issues of the base the PR removed (a metric issue that only improved is not fixed)' }),
    impact_rating: ImpactRatingSchema,
  })
  .meta({ id: 'PrHealthProjection' });
export type HealthProjection = z.infer<typeof HealthProjectionSchema>;

export const ChangedSymbolSchema = z
  .strictObject({
    name: z.string(),
    file: z.string().meta({ description: 'repository-relative path of the file declaring the symbol' }),
    kind: z.string().meta({ description: 'function, class, method, interface, type, variable, enum, ...' }),
  })
  .meta({ id: 'PrChangedSymbol' });

export const GraphImpactSchema = z
  .strictObject({
    changed_symbols: z.array(ChangedSymbolSchema).meta({ description: 'exported symbols the PR adds, changes or removes' }),
    dependents_count: Count.meta({ description: 'files that depend on a changed symbol, directly or through at most `depth` import hops' }),
    dependent_files: z.array(z.string()).meta({ description: 'those files, repository-relative, sorted: the first 100 (dependents_count is the full total)' }),
    depth: Count.meta({ description: 'the import-hop limit used; 0 when nothing was computed' }),
    summary: z.string(),
  })
  .meta({ id: 'PrGraphImpact', description: 'Impact of the changed symbols on the code graph (fields chosen by this service: the spec does not show them).' });
export type GraphImpact = z.infer<typeof GraphImpactSchema>;

export const ScopeDriftItemSchema = z.strictObject({ description: z.string(), reason: z.string(), files: z.array(z.string()) }).meta({ id: 'PrScopeDrift' });
export type ScopeDriftItem = z.infer<typeof ScopeDriftItemSchema>;

export const ImpactZoneSchema = z
  .strictObject({
    name: z.string(),
    risk: z.enum(ZONE_RISKS).meta({ description: 'low, medium, high, critical' }),
    scope_classification: z.enum(SCOPE_CLASSIFICATIONS).meta({
      description:
        'primary (carries the stated intent), supporting (needed by it: tests, types, wiring), incidental (collateral edits), unrelated (outside it; also in scope_drift)',
    }),
    summary: z.string(),
    intent: PrIntentSchema,
    files: z.array(z.strictObject({ path: z.string(), additions: Count, deletions: Count })),
  })
  .meta({ id: 'PrImpactZone' });
export type ImpactZone = z.infer<typeof ImpactZoneSchema>;

export const PrConflictsSchema = z
  .strictObject({
    conflicts: z.array(
      z.strictObject({
        pr_number: PrNumber,
        title: z.string(),
        semantic_conflict: z.string(),
        resolution_suggestion: z.string(),
        overlapping_files: z.array(z.string()),
      }),
    ),
    checked_prs: PrNumbers.meta({ description: 'the other open pull requests compared with' }),
    summary: z.string(),
  })
  .meta({ id: 'PrConflicts' });
export type PrConflicts = z.infer<typeof PrConflictsSchema>;

export const StackedPrsSchema = z
  .strictObject({
    is_stacked: z.boolean(),
    stacked_prs: PrNumbers.meta({
      description:
        'every PR of the stack this PR belongs to, this one included, from the bottom (nearest the default branch) to the top; empty when not stacked',
    }),
    parent_prs: PrNumbers.meta({
      description: 'open PRs this PR is built on (its base branch is their head branch, or its history holds their head commits), nearest first',
    }),
    child_prs: PrNumbers.meta({ description: 'open PRs built on this one, nearest first' }),
    summary: z.string(),
  })
  .meta({ id: 'StackedPrs', description: 'Array elements are pull-request numbers (integers) of the same repository.' });
export type StackedPrs = z.infer<typeof StackedPrsSchema>;

/** Everything a completed run produces: what the pipeline hands to `PrAnalysisRecorder.complete`. */
export const PrAnalysisResultSchema = z.strictObject({
  classification: PrClassificationSchema,
  merge_readiness: MergeReadinessSchema,
  health_impact: HealthImpactSchema,
  health_projection: HealthProjectionSchema,
  graph_impact: GraphImpactSchema,
  scope_drift: z.array(ScopeDriftItemSchema),
  impact_zones: z.array(ImpactZoneSchema),
  conflicts: PrConflictsSchema,
  stacked_prs: StackedPrsSchema,
});
export type PrAnalysisResult = z.infer<typeof PrAnalysisResultSchema>;

// The wire schemas and the PR analysis' own types describe the same shapes: a change to one
// without the other fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShapes: [
  Same<PrClassification, domain.PrClassification>,
  Same<MergeReadiness, domain.MergeReadiness>,
  Same<HealthImpact, domain.HealthImpact>,
  Same<HealthProjection, domain.HealthProjection>,
  Same<GraphImpact, domain.GraphImpact>,
  Same<ScopeDriftItem, domain.ScopeDriftItem>,
  Same<ImpactZone, domain.ImpactZone>,
  Same<PrConflicts, domain.PrConflicts>,
  Same<StackedPrs, domain.StackedPrs>,
  Same<PrAnalysisResult, domain.PrAnalysisResult>,
] = [true, true, true, true, true, true, true, true, true, true];
void sameShapes;

const HeadSha = z.string().meta({ description: 'commit id of the analysed head' });
const StartedAt = Timestamp.nullable().meta({ description: 'when a worker started the run; null while pending' });
const CompletedAt = Timestamp.nullable().meta({ description: 'when the run finished (completed or failed); null while pending or running' });

const FailureReason = z
  .string()
  .nullable()
  .meta({ description: 'extension: why the run failed (status `failed`), e.g. `head_sha … is not a commit of the repository`; null otherwise' });

const PrFeedbackSchema = z
  .strictObject({
    status: z.enum(['posted', 'not_posted', 'skipped']).meta({
      description:
        '`posted`: the check run and the sticky comment are on the code host; `not_posted`: the code host failed after the retries; `skipped`: no feedback is due',
    }),
    reason: z.string().optional().meta({ description: 'why it was not posted or skipped' }),
    at: Timestamp,
  })
  .nullable()
  .meta({
    id: 'PrFeedback',
    description:
      'extension: what became of the pull-request feedback through the code-host App (check run, sticky comment); null before any was attempted. A failure here never fails the analysis',
  });

const PENDING_DOC =
  'Until `status` is `completed` the result objects hold typed empty values: classification {primary_intent "unknown", empty ' +
  'arrays, summary ""}, merge_readiness {status "needs_review", counts 0, confidence 0, `reasons` saying why there is no verdict: ' +
  '"the analysis is pending: no verdict yet", "the analysis failed: <failure_reason>"}, health_impact and health_projection ' +
  '{scores and deltas 0, grades "F", no category_deltas, impact_rating "unknown"}, graph_impact {no symbols or files, depth 0}, ' +
  'empty scope_drift and impact_zones, conflicts {no conflicts, no checked_prs}, stacked_prs {is_stacked false, empty arrays}; ' +
  'summaries are "".';

export const PrAnalysisSchema = z
  .strictObject({
    id: Uuid,
    project_id: Uuid,
    repository_id: Uuid,
    pr_number: PrNumber,
    head_sha: HeadSha,
    ...PrAnalysisResultSchema.shape,
    analysis_run_id: Uuid.meta({ description: 'the run; its issues have context_type pr_analysis and context_id = analysis_run_id' }),
    status: PrAnalysisStatusSchema,
    failure_reason: FailureReason,
    feedback: PrFeedbackSchema,
    created_at: Timestamp,
    started_at: StartedAt,
    completed_at: CompletedAt,
  })
  .meta({ id: 'PrAnalysis', description: PENDING_DOC });
export type PrAnalysis = z.infer<typeof PrAnalysisSchema>;

export const PrAnalysisListItemSchema = z
  .strictObject({
    id: Uuid,
    project_id: Uuid,
    repository_id: Uuid,
    pr_number: PrNumber,
    head_sha: HeadSha,
    classification: PrClassificationSchema,
    merge_readiness: MergeReadinessSchema,
    status: PrAnalysisStatusSchema,
    failure_reason: FailureReason,
    created_at: Timestamp,
    completed_at: CompletedAt,
  })
  .meta({ id: 'PrAnalysisListItem' });
export type PrAnalysisListItem = z.infer<typeof PrAnalysisListItemSchema>;

export const PrAnalysisListSchema = z
  .strictObject({
    analyses: z.array(PrAnalysisListItemSchema).meta({ description: 'newest first' }),
    total: Count.meta({ description: 'analyses of the project, before limit/offset' }),
    limit: Count,
    offset: Count,
  })
  .meta({ id: 'PrAnalysisList' });
export type PrAnalysisList = z.infer<typeof PrAnalysisListSchema>;

export const PrAnalysisListQuery = z.object(paginationQuery());

export const PrStatisticsSchema = z
  .strictObject({
    total_count: Count.meta({ description: 'every analysis, whatever its status' }),
    completed_count: Count,
    failed_count: Count,
    running_count: Count.meta({ description: 'status running only; pending analyses count in total_count only' }),
    blocked_count: Count.meta({ description: 'completed analyses whose merge readiness is blocked' }),
    needs_review_count: Count.meta({ description: 'completed analyses whose merge readiness is needs_review' }),
    ready_count: Count.meta({ description: 'completed analyses whose merge readiness is ready' }),
    avg_duration_seconds: z.number().min(0).meta({ description: 'mean of completed_at - started_at over completed analyses; 0 when none' }),
  })
  .meta({ id: 'PrStatistics' });
export type PrStatistics = z.infer<typeof PrStatisticsSchema>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const HAS_OFFSET = /(Z|[+-]\d{2}(:?\d{2})?)$/i;

/**
 * An ISO 8601 date or date-time. A date means its midnight UTC, a date-time without an offset is
 * UTC. The output is a string the store parses as `timestamptz` without losing sub-milliseconds.
 */
export const SinceTimestamp = z
  .string()
  .refine((value) => z.iso.datetime({ offset: true, local: true }).safeParse(value).success || z.iso.date().safeParse(value).success, {
    message: 'since must be an ISO 8601 timestamp, e.g. 2024-05-01T00:00:00Z',
  })
  .transform((value) => (DATE_ONLY.test(value) ? `${value}T00:00:00Z` : HAS_OFFSET.test(value) ? value : `${value}Z`))
  .meta({ description: 'ISO 8601 timestamp (a date means its midnight UTC; no offset means UTC); only analyses created after it are counted' });

export const PrStatsQuery = z.object({ since: SinceTimestamp.optional() });

export const TriggerPrAnalysisBody = z
  .strictObject({
    head_sha: z
      .string()
      .regex(/^[0-9a-fA-F]{40}$/, 'head_sha must be a 40-character hexadecimal commit id')
      .transform((value) => value.toLowerCase())
      .optional()
      .meta({ description: 'commit to analyse; default: the head commit of the most recently synced PR metadata' }),
  })
  .meta({ id: 'TriggerPrAnalysisRequest' });
export type TriggerPrAnalysisInput = z.infer<typeof TriggerPrAnalysisBody>;

export const TriggerPrAnalysisResponseSchema = z
  .strictObject({
    id: Uuid,
    status: z.enum(['pending', 'running']).meta({
      description:
        '`pending` for a new run; an analysis of the same head commit that is still pending or running is returned instead, with its ' +
        'current status. A completed head is analysed again (a new run).',
    }),
    workflow_id: z.string(),
    pr_number: PrNumber,
  })
  .meta({ id: 'TriggerPrAnalysisResponse' });
export type TriggerPrAnalysisResponse = z.infer<typeof TriggerPrAnalysisResponseSchema>;
