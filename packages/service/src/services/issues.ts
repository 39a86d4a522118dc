// Issues of a project: the filtered, sorted list and the statistics (by default over the latest
// completed health assessment), one issue, and dismiss/restore of one issue's identity (its
// fingerprint, or the legacy one it also carries), which reach every run holding that identity,
// past and future.
import { stableJson, type ProjectCache } from './project-cache.js';
import { randomUUID } from 'node:crypto';
import type { DismissIssueInput, Issue, IssueFilter, IssueList, IssueScope, IssueSortKey, IssueStats } from '../api/issues.js';
import { ISSUE_CATEGORIES, ISSUE_SOURCES, SEVERITIES, type Finding, NIL_UUID } from '@codehealth/engine';
import type { Database, Sql } from '../store/database.js';
import type { ProjectAccess } from './access.js';
import type { Actor } from './actor.js';
import { NotFoundError } from './errors.js';
import { applyDismissRules, compileDismissRule, fingerprintToken, lockProjectIssues, type DismissRuleRecord } from './issue-records.js';
import { iso } from './time.js';

/** A row of the issues table (store/migrations); queries select the columns they need. */
export interface IssueColumns {
  id: string;
  fingerprint: string;
  /** NULL on rows recorded before identity v2, whose fingerprint is the legacy one. */
  legacy_fingerprint: string | null;
  symbol: string | null;
  data: Finding['data'] | null;
  anchor_shape: string | null;
  source: Issue['source'];
  severity: Issue['severity'];
  category: Issue['category'];
  file_path: string;
  file_group: string;
  line_start: number;
  line_end: number;
  code_snippet: string;
  validated: boolean;
  title: string;
  description: string;
  why_it_matters: string;
  suggested_action: string;
  rule_id: string;
  analyzer_name: string;
  confidence: number;
  auto_fixable: boolean;
  is_new: boolean;
  is_dismissed: boolean;
  context_type: Issue['context_type'];
  context_id: string;
  project_id: string;
  repository_id: string | null;
  created_at: Date;
  file_role: Issue['file_role'] | null;
  change: Issue['change'] | null;
  previous_value: number | null;
}

/** The columns the issue endpoints select (COLUMNS). */
type ListedIssueRow = Omit<IssueColumns, 'symbol' | 'data' | 'anchor_shape'> & Record<string, unknown>;

const COLUMNS = `id, fingerprint, source, severity, category, file_path, file_group, line_start, line_end, code_snippet,
  validated, title, description, why_it_matters, suggested_action, rule_id, analyzer_name, confidence, auto_fixable,
  is_new, is_dismissed, context_type, context_id, project_id, repository_id, created_at, file_role, legacy_fingerprint,
  change, previous_value`;

/** Byte-order collation for text keys, so both stores (whatever their locale) sort alike. */
const C = 'COLLATE "C"';

/** Each order ends in a unique key, so pages never overlap or skip. */
const ORDER_BY: Record<IssueSortKey, string> = {
  severity: `severity_rank DESC, file_path ${C}, line_start, rule_id ${C}, id`,
  file_path: `file_path ${C}, line_start, severity_rank DESC, rule_id ${C}, id`,
  category: `category ${C}, severity_rank DESC, file_path ${C}, line_start, id`,
  created_at: `created_at DESC, severity_rank DESC, file_path ${C}, line_start, id`,
};

/** The run the project's issues are read from when no context is asked for. */
const LATEST_COMPLETED_ASSESSMENT = `SELECT a.id FROM health_assessments a
  WHERE a.project_id = $1 AND a.status = 'completed'
  ORDER BY a.completed_at DESC NULLS LAST, a.created_at DESC, a.id DESC LIMIT 1`;

function wire(row: ListedIssueRow): Issue {
  return {
    id: row.id,
    source: row.source,
    severity: row.severity,
    file_path: row.file_path,
    file_group: row.file_group,
    anchor: { line_start: row.line_start, line_end: row.line_end, code_snippet: row.code_snippet, validated: row.validated },
    category: row.category,
    title: row.title,
    description: row.description,
    why_it_matters: row.why_it_matters,
    suggested_action: row.suggested_action,
    rule_id: row.rule_id,
    analyzer_name: row.analyzer_name,
    confidence: row.confidence,
    auto_fixable: row.auto_fixable,
    is_new: row.is_new,
    is_dismissed: row.is_dismissed,
    context_type: row.context_type,
    context_id: row.context_id,
    project_id: row.project_id,
    repository_id: row.repository_id ?? NIL_UUID,
    created_at: iso(row.created_at),
    ...(row.file_role ? { file_role: row.file_role } : {}),
    ...(row.change ? { change: row.change } : {}),
    ...(row.previous_value !== null && row.previous_value !== undefined ? { previous_value: Number(row.previous_value) } : {}),
  };
}

/**
 * Issues of a health assessment are read once it is completed, and only while retention keeps its
 * list: a run being recorded (its issues arrive in batches) or one whose list was pruned has none.
 */
const VISIBLE = `(context_type <> 'health_assessment' OR context_id IN (
  SELECT a.id FROM health_assessments a WHERE a.project_id = $1 AND a.status = 'completed' AND a.issues_pruned_at IS NULL))`;

/** WHERE conditions of a scope and filter; `$1` is the project id. */
function conditionsOf(filter: IssueScope & Partial<IssueFilter>, params: unknown[]): string[] {
  const conditions = ['project_id = $1', VISIBLE];
  if (filter.context_type === undefined && filter.context_id === undefined) {
    conditions.push(`context_type = 'health_assessment'`, `context_id = (${LATEST_COMPLETED_ASSESSMENT})`);
  }
  if (filter.context_type !== undefined) conditions.push(`context_type = $${params.push(filter.context_type)}`);
  if (filter.context_id !== undefined) conditions.push(`context_id = $${params.push(filter.context_id)}`);
  if (filter.severity !== undefined) conditions.push(`severity = $${params.push(filter.severity)}`);
  if (filter.severities !== undefined && filter.severities.length > 0) conditions.push(`severity = ANY($${params.push(filter.severities)}::text[])`);
  if (filter.category !== undefined) conditions.push(`category = $${params.push(filter.category)}`);
  if (filter.source !== undefined) conditions.push(`source = $${params.push(filter.source)}`);
  if (filter.is_dismissed !== undefined) conditions.push(`is_dismissed = $${params.push(filter.is_dismissed)}`);
  if (filter.is_new !== undefined) conditions.push(`is_new = $${params.push(filter.is_new)}`);
  return conditions;
}

const zeroCounts = <K extends string>(keys: readonly K[]): Record<K, number> => Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;

export class IssueService {
  constructor(
    private readonly db: Database,
    private readonly access: ProjectAccess,
    private readonly cached?: ProjectCache,
  ) {}

  async list(actor: Actor, projectId: string, filter: IssueFilter): Promise<IssueList> {
    await this.access.require(actor, projectId);
    const params: unknown[] = [projectId];
    const where = conditionsOf(filter, params).join(' AND ');
    const [{ total } = { total: 0 }] = await this.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM issues WHERE ${where}`, params);
    const rows = await this.db.query<ListedIssueRow>(
      `SELECT ${COLUMNS} FROM issues WHERE ${where}
        ORDER BY ${ORDER_BY[filter.sort_by ?? 'severity']}
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    return { issues: rows.map(wire), total };
  }

  async get(actor: Actor, projectId: string, issueId: string): Promise<Issue> {
    await this.access.require(actor, projectId);
    return wire(await findIssue(this.db, projectId, issueId));
  }

  /** Counts over the same scope as the list; every count includes dismissed issues, `dismissed` says how many. */
  async stats(actor: Actor, projectId: string, scope: IssueScope = {}): Promise<IssueStats> {
    await this.access.require(actor, projectId);
    const read = () => this.computeStats(projectId, scope);
    return this.cached ? this.cached.read(projectId, `issue-stats:${stableJson(scope)}`, read) : read();
  }

  private async computeStats(projectId: string, scope: IssueScope): Promise<IssueStats> {
    const params: unknown[] = [projectId];
    const rows = await this.db.query<{ category: Issue['category']; severity: Issue['severity']; source: Issue['source']; is_dismissed: boolean; n: number }>(
      `SELECT category, severity, source, is_dismissed, count(*)::int AS n FROM issues
        WHERE ${conditionsOf(scope, params).join(' AND ')} GROUP BY category, severity, source, is_dismissed`,
      params,
    );
    const stats: IssueStats = {
      by_category: zeroCounts(ISSUE_CATEGORIES),
      by_severity: zeroCounts(SEVERITIES),
      by_source: zeroCounts(ISSUE_SOURCES),
      total: 0,
      dismissed: 0,
    };
    for (const row of rows) {
      stats.by_category[row.category] += row.n;
      stats.by_severity[row.severity] += row.n;
      stats.by_source[row.source] += row.n;
      stats.total += row.n;
      if (row.is_dismissed) stats.dismissed += row.n;
    }
    return stats;
  }

  /**
   * Dismisses the issue's identity: a rule pinned to its fingerprint (rule id, file, fingerprint
   * token), so every copy of it — in earlier runs and in runs still to come — is dismissed. A
   * second dismiss updates the pinned rule's action/reason instead of adding another rule.
   */
  async dismiss(actor: Actor, projectId: string, issueId: string, input: DismissIssueInput = {}): Promise<{ status: 'dismissed' }> {
    await this.access.require(actor, projectId);
    await this.db.transaction(async (tx) => {
      await lockProjectIssues(tx, projectId);
      const issue = await findIssue(tx, projectId, issueId);
      const token = fingerprintToken(issue.fingerprint);
      // A rule pinned to the issue's legacy identity (a dismissal made before identity v2) is its own too.
      const pinned = await tx.query<DismissRuleRecord & Record<string, unknown>>(
        `SELECT id, source_type, rule_pattern, secondary_pattern, scope, file_path, created_at
           FROM dismiss_rules WHERE project_id = $1 AND secondary_pattern = ANY($2::text[]) ORDER BY created_at, id`,
        [projectId, identitiesOf(issue).map(fingerprintToken)],
      );
      const own = pinned.find((rule) => compileDismissRule(rule)(issue));
      if (own) {
        await tx.query('UPDATE dismiss_rules SET action = COALESCE($2, action), reason = COALESCE($3, reason) WHERE id = $1', [
          own.id,
          input.action ?? null,
          input.reason ?? null,
        ]);
      } else {
        await tx.query(
          `INSERT INTO dismiss_rules (id, project_id, source_type, rule_pattern, secondary_pattern, scope, file_path, action, reason, created_by_user_id)
           VALUES ($1, $2, $3, $4, $5, 'file', $6, $7, $8, $9)`,
          [randomUUID(), projectId, issue.source, issue.rule_id, token, issue.file_path, input.action ?? 'dismiss', input.reason ?? '', actor.userId],
        );
      }
      await applyDismissRules(tx, projectId, { fingerprints: identitiesOf(issue) });
    });
    return { status: 'dismissed' };
  }

  /**
   * Restores the issue's identity: deletes the rules pinned to its fingerprint and records a
   * restoration, so rules older than now no longer hide any copy of it (rules created later
   * still do). Restoring an active issue is a no-op that also answers `restored`.
   */
  async restore(actor: Actor, projectId: string, issueId: string): Promise<{ status: 'restored' }> {
    await this.access.require(actor, projectId);
    await this.db.transaction(async (tx) => {
      await lockProjectIssues(tx, projectId);
      const issue = await findIssue(tx, projectId, issueId);
      const identities = identitiesOf(issue);
      const deleted = await tx.query<{ id: string }>('DELETE FROM dismiss_rules WHERE project_id = $1 AND secondary_pattern = ANY($2::text[]) RETURNING id', [
        projectId,
        identities.map(fingerprintToken),
      ]);
      for (const fingerprint of identities) {
        await tx.query(
          `INSERT INTO issue_restorations (project_id, fingerprint) VALUES ($1, $2)
           ON CONFLICT (project_id, fingerprint) DO UPDATE SET restored_at = now()`,
          [projectId, fingerprint],
        );
      }
      await applyDismissRules(tx, projectId, { fingerprints: identities });
      // A pinned rule can in principle match more than its fingerprint (a secondary pattern is
      // also tried on titles and snippets): whatever else it hid is re-evaluated too.
      for (const { id } of deleted) await applyDismissRules(tx, projectId, { dismissedByRuleId: id });
    });
    return { status: 'restored' };
  }
}

/** The fingerprints an issue is known by: its own and, recorded since identity v2, its legacy one. */
const identitiesOf = (issue: Pick<IssueColumns, 'fingerprint' | 'legacy_fingerprint'>): string[] =>
  issue.legacy_fingerprint && issue.legacy_fingerprint !== issue.fingerprint ? [issue.fingerprint, issue.legacy_fingerprint] : [issue.fingerprint];

async function findIssue(db: Sql, projectId: string, issueId: string): Promise<ListedIssueRow> {
  const [row] = await db.query<ListedIssueRow>(`SELECT ${COLUMNS} FROM issues WHERE project_id = $1 AND id = $2 AND ${VISIBLE}`, [projectId, issueId]);
  if (!row) throw new NotFoundError('issue');
  return row;
}
