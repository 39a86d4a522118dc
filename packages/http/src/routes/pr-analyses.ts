// Pull-request analyses (spec section 4, "Pull requests"): list, one analysis, statistics, the
// latest analysis of a PR, and the manual trigger.
import { api } from '@codehealth/service';
import { z } from 'zod';
import { ProjectParams, projectParamsWith, uuidParam } from '../params.js';
import { defineRoute } from '../route.js';

const TAG = 'Pull requests';
/** `pr_number` is a Postgres `integer`. */
const MAX_PR_NUMBER = 2_147_483_647;

const PrNumberParam = z
  .string()
  .regex(/^[1-9][0-9]{0,9}$/, 'number must be a positive integer')
  .transform(Number)
  .refine((value) => value <= MAX_PR_NUMBER, `number must be at most ${MAX_PR_NUMBER}`)
  // Documented as the integer it is; the string checks above are how a path segment is read.
  .meta({ description: 'pull-request number (positive integer)', type: 'integer', minimum: 1, maximum: MAX_PR_NUMBER } as Record<string, unknown>);

const PrParams = z.object({ id: uuidParam('id'), repoId: uuidParam('repoId'), number: PrNumberParam });

const RESULT_DOC =
  'Until the run completes, the result objects hold typed empty values (see the PrAnalysis schema): classification.primary_intent ' +
  '"unknown", merge_readiness.status "needs_review" with counts and confidence 0, impact_rating "unknown", grades "F", empty ' +
  'arrays and summaries. `started_at` is null until a worker picks the run up, `completed_at` until it completes or fails. ' +
  'The issues found in the changed code are listed by GET /projects/{id}/analysis/issues?context_type=pr_analysis&context_id=' +
  '<analysis_run_id>. Allowed values: primary_intent (and secondary_intents, zone intent) feature, bugfix, refactor, test, docs, ' +
  'dependency, config, performance, security, chore, unknown; zone risk low, medium, high, critical; scope_classification ' +
  'primary, supporting, incidental, unrelated; impact_rating improves, neutral, minor_regression, major_regression, ' +
  'critical_regression, unknown; merge_readiness.confidence 0-100. graph_impact is {changed_symbols [{name, file, kind}], ' +
  'dependents_count, dependent_files, depth, summary}. The stacked-PR arrays hold PR numbers (integers) of the same repository.';

export const prAnalysisRoutes = [
  defineRoute({
    method: 'GET',
    path: '/projects/{id}/pr-analyses',
    operationId: 'listPrAnalyses',
    summary: 'PR analyses of the project, newest first',
    description:
      'List items carry only id, project_id, repository_id, pr_number, head_sha, classification, merge_readiness, status, created_at and ' +
      'completed_at. `limit` defaults to 20, at most 100; `total` counts every analysis of the project. Analyses of repositories ' +
      'unlinked since stay listed (unlinking keeps analysis data).',
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    query: api.PrAnalysisListQuery,
    status: 200,
    response: api.PrAnalysisListSchema,
    handler: ({ services, actor, params, query }) => services.prAnalyses.list(actor, params.id, query),
  }),
  // Declared before `{analysisId}`; the router prefers the static segment anyway.
  defineRoute({
    method: 'GET',
    path: '/projects/{id}/pr-analyses/stats',
    operationId: 'getPrAnalysisStats',
    summary: 'Counts of PR analyses by status and merge readiness, and their mean duration',
    description:
      'Without `since` every analysis of the project counts; with it only those created strictly after it (an ISO 8601 date or ' +
      'date-time: a date is its midnight UTC, a date-time without offset is UTC; anything else is a 400). total_count counts every ' +
      'status; running_count counts `running` only (pending ones are in total_count alone); blocked/needs_review/ready_count count ' +
      'completed analyses by merge_readiness.status; avg_duration_seconds is the mean of completed_at - started_at over completed ' +
      'analyses (from created_at when a run never recorded its start), 0 when none completed.',
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    query: api.PrStatsQuery,
    status: 200,
    response: api.PrStatisticsSchema,
    handler: ({ services, actor, params, query }) => services.prAnalyses.stats(actor, params.id, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/projects/{id}/pr-analyses/{analysisId}',
    operationId: 'getPrAnalysis',
    summary: 'One PR analysis, in full',
    description: RESULT_DOC,
    tag: TAG,
    access: 'member',
    params: projectParamsWith('analysisId'),
    status: 200,
    response: api.PrAnalysisSchema,
    handler: ({ services, actor, params }) => services.prAnalyses.get(actor, params.id, params.analysisId),
  }),
  defineRoute({
    method: 'GET',
    path: '/projects/{id}/repos/{repoId}/prs/{number}/analysis',
    operationId: 'getLatestPrAnalysis',
    summary: 'The most recent analysis of a pull request (404 when none exists)',
    description:
      `The analysis created last for this PR, whatever its status or head commit. 404 when the PR has no analysis, and when the ` +
      `repository is not linked to the project. ${RESULT_DOC}`,
    tag: TAG,
    access: 'member',
    params: PrParams,
    status: 200,
    response: api.PrAnalysisSchema,
    handler: ({ services, actor, params }) => services.prAnalyses.latest(actor, params.id, params.repoId, params.number),
  }),
  defineRoute({
    method: 'POST',
    path: '/projects/{id}/repos/{repoId}/prs/{number}/analyze',
    operationId: 'analyzePullRequest',
    summary: 'Start an analysis of a pull request; it runs asynchronously (poll the get endpoints)',
    description:
      "The body is optional. The repository's pull requests are first synced from the code host, so a head pushed since the last " +
      "sync is the one seen; without `head_sha` the PR's head commit is analysed. A PR the code host does not list gives 404 " +
      '"pull request #N not found", a repository not linked to the project 404 too. A `head_sha` that is not one of the PR\'s ' +
      "commits as the code host lists them (another PR's, the base branch's, an unknown one) is a 400 \"head_sha <sha> is not a " +
      'commit of pull request #N", and no run is created. A new run answers `status` "pending". While an ' +
      'analysis of the same PR and head commit is pending or running, no new run starts: that analysis is returned with its ' +
      'current status (still 201). A completed or failed one is analysed again with a new run (after a config change, a dismiss ' +
      "rule or an upgrade). 409 when the PR's head commit is not known and " +
      'no head_sha was given; 503 when the code host or the workflow engine is unavailable.',
    tag: TAG,
    access: 'member',
    params: PrParams,
    body: api.TriggerPrAnalysisBody,
    bodyOptional: true,
    status: 201,
    response: api.TriggerPrAnalysisResponseSchema,
    errors: [409, 503],
    handler: ({ services, actor, params, body }) => services.prAnalyses.trigger(actor, params.id, params.repoId, params.number, body),
  }),
];
