// Issues (spec section 4, "Issues and dismiss rules"): list with every query parameter, one
// issue, statistics, dismiss and restore.
import { api } from '@codehealth/service';
import { z } from 'zod';
import { ProjectParams, projectParamsWith } from '../params.js';
import { QueryBoolean } from '../request.js';
import { defineRoute } from '../route.js';

const TAG = 'Issues';
const SEVERITIES = api.IssueSeveritySchema.options;

/** `high,critical`: a comma-separated OR filter; blanks are ignored, an empty value filters nothing. */
const SeverityList = z
  .string()
  .transform((value, ctx) => {
    const items = [
      ...new Set(
        value
          .split(',')
          .map((item) => item.trim())
          .filter((item) => item !== ''),
      ),
    ];
    const unknown = items.filter((item) => !(SEVERITIES as readonly string[]).includes(item));
    if (unknown.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `unknown severity ${unknown.map((item) => `"${item}"`).join(', ')}: expected a comma-separated list of ${SEVERITIES.join(', ')}`,
      });
      return z.NEVER;
    }
    return items as Array<(typeof SEVERITIES)[number]>;
  })
  .meta({ description: `comma-separated severities, OR-combined (e.g. \`critical,high\`); values: ${SEVERITIES.join(', ')}` });

const ScopeQuery = {
  context_type: api.IssueContextTypeSchema.optional().meta({
    description: 'only issues of runs of this kind (every run of it unless `context_id` is given too)',
  }),
  context_id: z.uuid({ error: 'context_id must be a UUID' }).optional().meta({ description: 'only the issues of this analysis run' }),
};

const ListIssuesQuery = z.object({
  severity: api.IssueSeveritySchema.optional(),
  severities: SeverityList.optional(),
  category: api.IssueCategorySchema.optional(),
  source: api.IssueSourceSchema.optional(),
  is_dismissed: QueryBoolean.optional().meta({ description: '`true`: dismissed issues only; `false`: active issues only' }),
  is_new: QueryBoolean.optional().meta({
    description: 'extension: `true`: only issues new in their run (`is_new`, against the run it was compared with); `false`: only those that were there before',
  }),
  ...ScopeQuery,
  sort_by: z.enum(api.ISSUE_SORT_KEYS).default('severity').meta({
    description: 'severity (default; most severe first), file_path (A-Z, then line), category (A-Z), created_at (newest first)',
  }),
  ...api.paginationQuery(api.ISSUE_LIST_DEFAULT_LIMIT, api.ISSUE_LIST_MAX_LIMIT),
});

const SCOPE_DOC =
  'Without `context_type` and `context_id` the issues of the latest completed health assessment of the project are read (the ' +
  "project's current issues; earlier assessments hold earlier copies of the same issues), and none while no assessment has " +
  'completed. With `context_type` every run of that kind is read, with `context_id` that one run. An assessment has issues only ' +
  'once it is completed, and only while retention keeps its list (the latest CODEHEALTH_ISSUE_RETENTION_RUNS assessments, ' +
  'default 10): an older one answers like a run that found nothing, its record staying under /health/assessments. At most ' +
  'CODEHEALTH_MAX_ISSUES_PER_RULE issues (default 1,000) per rule and repository are listed for a run, the rest summed up in one ' +
  'issue of the rule titled "…and N more findings of rule X not listed" (file_path `.`); the assessment\'s counts cover all.';

const IssueParams = projectParamsWith('issueId');

export const issueRoutes = [
  defineRoute({
    method: 'GET',
    path: '/projects/{id}/analysis/issues',
    operationId: 'listIssues',
    summary: 'Issues of the project, filtered, sorted and paginated',
    description:
      `${SCOPE_DOC} Filters combine with AND (\`severity\` and \`severities\` too). \`limit\` defaults to ` +
      `${api.ISSUE_LIST_DEFAULT_LIMIT}, at most ${api.ISSUE_LIST_MAX_LIMIT}; \`total\` counts every match before limit/offset. ` +
      'Every sort order is stable: ties are broken by severity, file path, line and id.',
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    query: ListIssuesQuery,
    status: 200,
    response: api.IssueListSchema,
    handler: ({ services, actor, params, query }) => services.issues.list(actor, params.id, query),
  }),
  // Declared before `{issueId}`; the router prefers the static segment anyway.
  defineRoute({
    method: 'GET',
    path: '/projects/{id}/analysis/issues/stats',
    operationId: 'getIssueStats',
    summary: 'Issue counts by category, severity and source',
    description:
      `${SCOPE_DOC} \`context_type\`/\`context_id\` are optional extensions of the spec. Every count includes dismissed issues; ` +
      '`dismissed` says how many of `total` are dismissed. Each object lists every category, severity or source, 0 included.',
    tag: TAG,
    access: 'member',
    params: ProjectParams,
    query: z.object(ScopeQuery),
    status: 200,
    response: api.IssueStatsSchema,
    handler: ({ services, actor, params, query }) => services.issues.stats(actor, params.id, query),
  }),
  defineRoute({
    method: 'GET',
    path: '/projects/{id}/analysis/issues/{issueId}',
    operationId: 'getIssue',
    summary: 'One issue of the project (from any run)',
    tag: TAG,
    access: 'member',
    params: IssueParams,
    status: 200,
    response: api.IssueSchema,
    errors: [404],
    handler: ({ services, actor, params }) => services.issues.get(actor, params.id, params.issueId),
  }),
  defineRoute({
    method: 'POST',
    path: '/projects/{id}/analysis/issues/{issueId}/dismiss',
    operationId: 'dismissIssue',
    summary: 'Dismiss the issue, here and in every run where it recurs',
    description:
      "Creates a dismiss rule pinned to the issue's identity: `rule_pattern` = its rule id, `secondary_pattern` = " +
      '`fingerprint:<fingerprint>` (rule, file, enclosing symbol and the anchored code with comments and formatting left out — for ' +
      'metric rules the symbol alone —, not line numbers), scope `file` with its ' +
      'path, `source_type` = its source. Every copy of the issue in earlier runs is dismissed at once, and the copy found by the ' +
      "next analysis too, even when lines above it moved or the code was re-formatted. Dismissing it again updates that rule's `action`/`reason` (only the " +
      'fields given) instead of adding a rule. `action` defaults to `dismiss`.',
    tag: TAG,
    access: 'member',
    params: IssueParams,
    body: api.DismissIssueBody,
    bodyOptional: true,
    status: 200,
    response: z.object({ status: z.literal('dismissed') }),
    errors: [404],
    handler: ({ services, actor, params, body }) => services.issues.dismiss(actor, params.id, params.issueId, body),
  }),
  defineRoute({
    method: 'POST',
    path: '/projects/{id}/analysis/issues/{issueId}/restore',
    operationId: 'restoreIssue',
    summary: 'Restore a dismissed issue, here and in every run where it recurs',
    description:
      "Deletes the rules pinned to the issue's fingerprint (those created by dismissing it) and records a restoration: broader " +
      'rules created before it no longer hide any copy of the issue, in existing or future runs; rules created afterwards do. ' +
      'Restoring an issue that is not dismissed is idempotent: 200 with `status: restored`.',
    tag: TAG,
    access: 'member',
    params: IssueParams,
    status: 200,
    response: z.object({ status: z.literal('restored') }),
    errors: [404],
    handler: ({ services, actor, params }) => services.issues.restore(actor, params.id, params.issueId),
  }),
];
