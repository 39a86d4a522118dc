// Wire schemas of issues, issue statistics and dismiss rules (spec section 2, "Issue", "Issue
// statistics", "Dismiss rule"; section 4, "Issues and dismiss rules").
import { z } from 'zod';
import { FILE_ROLES, ISSUE_CATEGORIES, ISSUE_SOURCES, SEVERITIES } from '@codehealth/engine';
import { ISSUE_CHANGES } from '@codehealth/engine/internal';
import { globProblem } from '../services/issue-records.js';
import { Timestamp, Uuid } from './common.js';

export const IssueSeveritySchema = z.enum(SEVERITIES);
export const IssueCategorySchema = z.enum(ISSUE_CATEGORIES);
export const IssueSourceSchema = z.enum(ISSUE_SOURCES);
export const ISSUE_CONTEXT_TYPES = ['pr_analysis', 'health_assessment', 'architecture_review', 'push'] as const;
export const IssueContextTypeSchema = z.enum(ISSUE_CONTEXT_TYPES);
export const ISSUE_SORT_KEYS = ['severity', 'file_path', 'category', 'created_at'] as const;
export type IssueSortKey = (typeof ISSUE_SORT_KEYS)[number];
export const DISMISS_ACTIONS = ['dismiss', 'false_positive', 'wont_fix'] as const;
export const DismissActionSchema = z.enum(DISMISS_ACTIONS);
export const DISMISS_SCOPES = ['global', 'project', 'file'] as const;

/** Default and maximum page size of the issue list (the spec fixes the default only). */
export const ISSUE_LIST_DEFAULT_LIMIT = 50;
export const ISSUE_LIST_MAX_LIMIT = 500;

export const IssueSchema = z
  .strictObject({
    id: Uuid,
    source: IssueSourceSchema,
    severity: IssueSeveritySchema,
    file_path: z.string(),
    file_group: z.string(),
    anchor: z.strictObject({
      line_start: z.number().int(),
      line_end: z.number().int(),
      code_snippet: z.string(),
      validated: z.boolean(),
    }),
    category: IssueCategorySchema,
    title: z.string(),
    description: z.string(),
    why_it_matters: z.string(),
    suggested_action: z.string(),
    rule_id: z.string(),
    analyzer_name: z.string(),
    confidence: z.number().int().min(0).max(100),
    auto_fixable: z.boolean(),
    is_new: z.boolean().meta({
      description:
        "no issue with the same identity was in the run it was compared with. Identity: rule, file, qualified enclosing symbol and the anchor's own code with comments and formatting left out; for metric rules (long function, cognitive complexity …) rule, file and symbol, so a changed value is not a new issue (see `change`)",
    }),
    is_dismissed: z.boolean(),
    context_type: IssueContextTypeSchema,
    context_id: Uuid.meta({ description: 'id of the analysis run in that context' }),
    project_id: Uuid,
    repository_id: Uuid.meta({ description: 'the nil UUID when the repository is no longer known' }),
    created_at: Timestamp,
    file_role: z.enum(FILE_ROLES).optional().meta({
      description:
        "extension: the role of the issue's file as the run classified it (production, test, fixture, benchmark, example, docs, tooling, generated, vendored); only production findings count in scores. Absent for issues recorded before roles existed",
    }),
    change: z.enum(ISSUE_CHANGES).optional().meta({
      description:
        "extension, on issues of a PR analysis: how the issue changed against the PR's base. `new`: not there before (`is_new`); `worsened`/`improved`: a metric issue (long function, cognitive complexity, large class …) whose measured value got worse/better — a worsened issue counts with the new ones in `issues_added` and merge readiness; `unchanged`: there before, as it was. Absent on other runs and on issues recorded before it existed",
    }),
    previous_value: z.number().optional().meta({
      description:
        "extension, with `change` `worsened`, `improved` or `unchanged` of a metric issue: its measured value at the PR's base (e.g. the complexity 43 of a function now at 71), when known",
    }),
  })
  .meta({ id: 'Issue' });
export type Issue = z.infer<typeof IssueSchema>;

export const IssueListSchema = z
  .strictObject({
    issues: z.array(IssueSchema),
    total: z.number().int().meta({ description: 'issues matching the filters, before limit/offset' }),
  })
  .meta({ id: 'IssueList' });
export type IssueList = z.infer<typeof IssueListSchema>;

const countsOf = <T extends readonly string[]>(keys: T) =>
  z.strictObject(Object.fromEntries(keys.map((key) => [key, z.number().int()])) as Record<T[number], z.ZodNumber>);

export const IssueStatsSchema = z
  .strictObject({
    by_category: countsOf(ISSUE_CATEGORIES),
    by_severity: countsOf(SEVERITIES),
    by_source: countsOf(ISSUE_SOURCES),
    total: z.number().int(),
    dismissed: z.number().int(),
  })
  .meta({ id: 'IssueStatistics' });
export type IssueStats = z.infer<typeof IssueStatsSchema>;

/** What the issue list and statistics select (the route's query parameters, validated). */
export interface IssueScope {
  context_type?: (typeof ISSUE_CONTEXT_TYPES)[number];
  context_id?: string;
}

export interface IssueFilter extends IssueScope {
  severity?: z.infer<typeof IssueSeveritySchema>;
  severities?: Array<z.infer<typeof IssueSeveritySchema>>;
  category?: z.infer<typeof IssueCategorySchema>;
  source?: z.infer<typeof IssueSourceSchema>;
  is_dismissed?: boolean;
  is_new?: boolean;
  sort_by?: IssueSortKey;
  limit: number;
  offset: number;
}

export const DismissIssueBody = z
  .strictObject({
    action: DismissActionSchema.optional().meta({ description: '`dismiss` (default), `false_positive` or `wont_fix`' }),
    reason: z.string().max(10_000).optional(),
  })
  .meta({ id: 'DismissIssueRequest' });
export type DismissIssueInput = z.infer<typeof DismissIssueBody>;

export const DismissRuleSchema = z
  .strictObject({
    id: Uuid,
    source_type: IssueSourceSchema.nullable().meta({ description: 'only issues of this source; null: any source' }),
    rule_pattern: z.string(),
    secondary_pattern: z.string().nullable(),
    scope: z.enum(DISMISS_SCOPES),
    file_path: z.string().meta({ description: 'path or glob; used when scope is `file`, empty otherwise' }),
    action: DismissActionSchema,
    reason: z.string(),
    match_count: z.number().int().meta({ description: 'issues the rule matched in analysis runs recorded after it was created; 0 on creation' }),
    created_at: Timestamp,
  })
  .meta({ id: 'DismissRule' });
export type DismissRule = z.infer<typeof DismissRuleSchema>;

const Pattern = z.string().trim().min(1, 'must not be empty');

export const CreateDismissRuleBody = z
  .strictObject({
    rule_pattern: Pattern.meta({ description: 'glob matched against the rule id or the title' }),
    source_type: IssueSourceSchema.nullable().optional(),
    secondary_pattern: Pattern.nullable().optional().meta({ description: 'glob matched against the title, the code snippet or `fingerprint:<fp>`' }),
    scope: z.enum(DISMISS_SCOPES).default('global'),
    file_path: z.string().trim().optional().meta({ description: 'path or path glob; required when scope is `file`' }),
    action: DismissActionSchema.default('dismiss'),
    reason: z.string().max(10_000).default(''),
  })
  .superRefine((rule, ctx) => {
    const checks: Array<[string, string | null | undefined, 'rule' | 'file']> = [
      ['rule_pattern', rule.rule_pattern, 'rule'],
      ['secondary_pattern', rule.secondary_pattern, 'rule'],
      ['file_path', rule.file_path, 'file'],
    ];
    for (const [field, pattern, kind] of checks) {
      const problem = pattern ? globProblem(pattern, kind) : undefined;
      if (problem) ctx.addIssue({ code: 'custom', path: [field], message: `${field} ${problem}` });
    }
    if (rule.scope === 'file' && !rule.file_path) {
      ctx.addIssue({ code: 'custom', path: ['file_path'], message: "file_path is required when scope is 'file'" });
    }
    if (rule.scope !== 'file' && rule.file_path) {
      ctx.addIssue({ code: 'custom', path: ['file_path'], message: "file_path applies only to scope 'file'" });
    }
  })
  .meta({ id: 'CreateDismissRuleRequest' });
export type CreateDismissRuleInput = z.output<typeof CreateDismissRuleBody>;
