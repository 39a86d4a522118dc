// Issues as stored records: one row per finding per analysis run (context), identified across
// runs by its fingerprint (rule, file, qualified symbol, the anchor's normalised text; for metric
// rules the symbol alone), so that `is_new`, dismissals and dismiss rules survive line moves,
// formatting and re-analysis. Rows also keep the fingerprint of identity v1 (`legacy_fingerprint`),
// the identity of issues recorded before v2 and of the dismissals pinned to them: both match.
import { issueFingerprint, uuidFromName } from '@codehealth/engine';
import type { Finding, IssueSource, Severity } from '@codehealth/engine';
import { compileGlob, globSyntaxProblem, type GlobOptions } from '@codehealth/engine/internal';
import { changeKeyOf, type IssueChangeOf } from '@codehealth/engine/internal';
import { legacyIssueFingerprint } from '@codehealth/engine/internal';
import type { Sql } from '../store/database.js';

export type IssueContextType = 'pr_analysis' | 'health_assessment' | 'architecture_review' | 'push';

export const SEVERITY_RANK: Record<Severity, number> = { critical: 5, high: 4, medium: 3, low: 2, info: 1 };

export interface IssueContext {
  projectId: string;
  contextType: IssueContextType;
  contextId: string;
  /**
   * Earlier runs to compare with: an issue is new when its fingerprint is in none of them.
   * Without a baseline (a project's first assessment) no issue is called new.
   */
  baselineContextIds?: readonly string[];
  /**
   * The caller's own verdict of which fingerprints are new (the PR pipeline follows renames and
   * moves); when given it decides `is_new` instead of the baseline runs.
   */
  newFingerprints?: readonly string[];
  /** A PR analysis's verdict of how each fingerprint changed against its base (stored as `change`, `previous_value`). */
  changes?: Readonly<Record<string, IssueChangeOf>>;
}

export interface IssueInput {
  finding: Finding;
  repositoryId: string | null;
}

export interface InsertedIssues {
  inserted: number;
  newCount: number;
  dismissed: number;
}

/** One statement per batch: the rows travel as one jsonb parameter `$1` (no SQL is assembled); `$2..$4` the context. */
export const INSERT_ISSUES = `INSERT INTO issues (id, project_id, repository_id, context_type, context_id, fingerprint, source, severity,
   severity_rank, category, file_path, file_group, line_start, line_end, code_snippet, validated, title,
   description, why_it_matters, suggested_action, rule_id, analyzer_name, confidence, auto_fixable, is_new, file_role,
   legacy_fingerprint, symbol, data, anchor_shape, change, previous_value)
 SELECT r.id, $2, r.repository_id, $3, $4, r.fingerprint, r.source, r.severity, r.severity_rank, r.category,
        r.file_path, r.file_group, r.line_start, r.line_end, r.code_snippet, r.validated, r.title, r.description,
        r.why_it_matters, r.suggested_action, r.rule_id, r.analyzer_name, r.confidence, r.auto_fixable, r.is_new, r.file_role,
        r.legacy_fingerprint, r.symbol, r.data, r.anchor_shape, r.change, r.previous_value
   FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, repository_id uuid, fingerprint text, source text, severity text,
        severity_rank int, category text, file_path text, file_group text, line_start int, line_end int,
        code_snippet text, validated bool, title text, description text, why_it_matters text,
        suggested_action text, rule_id text, analyzer_name text, confidence int, auto_fixable bool, is_new bool, file_role text,
        legacy_fingerprint text, symbol text, data jsonb, anchor_shape text, change text, previous_value float8)`;

export interface IssueRow extends Record<string, unknown> {
  id: string;
  fingerprint: string;
  legacy_fingerprint: string;
  is_new: boolean;
  change: IssueChangeOf['change'] | null;
}

/**
 * The row of one finding. `occurrences` numbers equal fingerprints within the run, so that a run's
 * ids are stable; `isNewOf` says whether a fingerprint is new against the run's baseline.
 */
export function issueRowOf(
  contextId: string,
  { finding, repositoryId }: IssueInput,
  occurrences: Map<string, number>,
  isNewOf: (fingerprint: string, legacy: string) => boolean = () => false,
  changes?: IssueContext['changes'],
): IssueRow {
  const fingerprint = issueFingerprint(finding);
  const legacy = legacyIssueFingerprint(finding);
  const occurrence = occurrences.get(fingerprint) ?? 0;
  occurrences.set(fingerprint, occurrence + 1);
  const change = changes?.[changeKeyOf(fingerprint, occurrence)];
  return {
    id: uuidFromName(`${contextId}:${fingerprint}#${occurrence}`),
    repository_id: repositoryId,
    fingerprint,
    source: finding.source,
    severity: finding.severity,
    severity_rank: SEVERITY_RANK[finding.severity],
    category: finding.category,
    file_path: finding.filePath,
    file_group: finding.fileGroup,
    line_start: finding.anchor.lineStart,
    line_end: finding.anchor.lineEnd,
    code_snippet: finding.anchor.codeSnippet,
    validated: finding.anchor.validated,
    title: finding.title,
    description: finding.description,
    why_it_matters: finding.whyItMatters,
    suggested_action: finding.suggestedAction,
    rule_id: finding.ruleId,
    analyzer_name: finding.analyzerName,
    confidence: Math.round(finding.confidence),
    auto_fixable: finding.autoFixable,
    // A PR's verdict of this very finding (equal fingerprints apart) decides; else the fingerprint's.
    is_new: change ? change.change === 'new' : isNewOf(fingerprint, legacy),
    file_role: finding.role ?? null,
    legacy_fingerprint: legacy,
    symbol: finding.symbol ?? null,
    data: finding.data ?? null,
    anchor_shape: finding.anchor.shape ?? null,
    change: change?.change ?? null,
    previous_value: change?.previousValue ?? null,
  };
}

/** Inserts the issues of one run in the caller's transaction and applies the project's dismiss rules. */
export async function insertContextIssues(tx: Sql, context: IssueContext, items: readonly IssueInput[]): Promise<InsertedIssues> {
  const baseline = new Set<string>();
  const verdict = context.newFingerprints ? new Set(context.newFingerprints) : undefined;
  const hasBaseline = !verdict && (context.baselineContextIds ?? []).length > 0;
  if (hasBaseline) {
    // Rows recorded before identity v2 hold the former fingerprint: new rows match them by theirs.
    const rows = await tx.query<{ fingerprint: string }>('SELECT DISTINCT fingerprint FROM issues WHERE project_id = $1 AND context_id = ANY($2::uuid[])', [
      context.projectId,
      context.baselineContextIds,
    ]);
    for (const row of rows) baseline.add(row.fingerprint);
  }
  const occurrences = new Map<string, number>();
  let newCount = 0;
  // One statement per run: the rows travel as one jsonb parameter (no SQL is assembled).
  const rows: Record<string, unknown>[] = [];
  const isNewOf = (fingerprint: string, legacy: string) =>
    verdict ? verdict.has(fingerprint) : hasBaseline && !baseline.has(fingerprint) && !baseline.has(legacy);
  for (const item of items) {
    const row = issueRowOf(context.contextId, item, occurrences, isNewOf, context.changes);
    if (row.is_new) newCount++;
    rows.push(row);
  }
  if (rows.length > 0) {
    await tx.query(INSERT_ISSUES, [rows, context.projectId, context.contextType, context.contextId]);
    await adoptLegacyIdentities(tx, context.projectId, rows as IssueRow[]);
  }
  const dismissed = await applyDismissRules(tx, context.projectId, { contextId: context.contextId, countMatches: true });
  return { inserted: items.length, newCount, dismissed };
}

/**
 * Maps identities recorded before v2 onto v2 as runs meet them again: rows whose fingerprint is
 * the legacy one of an issue in `rows` take its v2 fingerprint (keeping the former as
 * `legacy_fingerprint`), and rules pinned to the legacy identity (a dismissal made before v2) are
 * pinned to the v2 one. From then on the dismissal follows the issue through formatting and edits
 * that change its legacy fingerprint, and so does a restoration recorded under the former one. A
 * legacy fingerprint has a single v2 one (v2 reads less of the code), so the mapping is a function.
 */
export async function adoptLegacyIdentities(
  tx: Sql,
  projectId: string,
  rows: ReadonlyArray<Pick<IssueRow, 'fingerprint' | 'legacy_fingerprint'>>,
): Promise<void> {
  const pairs = [
    ...new Map(rows.filter((row) => row.legacy_fingerprint !== row.fingerprint).map((row) => [row.legacy_fingerprint, row.fingerprint])).entries(),
  ].map(([legacy, fingerprint]) => ({ legacy, fingerprint }));
  if (pairs.length === 0) return;
  await tx.query(
    `UPDATE issues i SET fingerprint = m.fingerprint, legacy_fingerprint = m.legacy
       FROM jsonb_to_recordset($2::jsonb) AS m(legacy text, fingerprint text)
      WHERE i.project_id = $1 AND i.legacy_fingerprint IS NULL AND i.fingerprint = m.legacy`,
    [projectId, pairs],
  );
  await tx.query(
    `UPDATE dismiss_rules r SET secondary_pattern = 'fingerprint:' || m.fingerprint
       FROM jsonb_to_recordset($2::jsonb) AS m(legacy text, fingerprint text)
      WHERE r.project_id = $1 AND r.secondary_pattern = 'fingerprint:' || m.legacy`,
    [projectId, pairs],
  );
  // Several former fingerprints can map to one v2 fingerprint: the latest restoration wins.
  await tx.query(
    `INSERT INTO issue_restorations (project_id, fingerprint, restored_at)
     SELECT $1, m.fingerprint, max(r.restored_at)
       FROM issue_restorations r JOIN jsonb_to_recordset($2::jsonb) AS m(legacy text, fingerprint text) ON r.fingerprint = m.legacy
      WHERE r.project_id = $1
      GROUP BY m.fingerprint
     ON CONFLICT (project_id, fingerprint) DO UPDATE SET restored_at = GREATEST(issue_restorations.restored_at, EXCLUDED.restored_at)`,
    [projectId, pairs],
  );
}

export interface DismissRuleRecord {
  id: string;
  source_type: IssueSource | null;
  rule_pattern: string;
  secondary_pattern: string | null;
  scope: 'global' | 'project' | 'file';
  file_path: string;
  created_at: Date;
}

export interface IssueMatchFields {
  fingerprint: string;
  /** The issue's identity before v2 (NULL on rows recorded before v2, whose `fingerprint` is that identity). */
  legacy_fingerprint?: string | null;
  source: string;
  rule_id: string;
  title: string;
  file_path: string;
  code_snippet: string;
}

/** The secondary pattern's token that pins a rule to one issue identity (used by "dismiss issue"). */
export const fingerprintToken = (fingerprint: string): string => `fingerprint:${fingerprint}`;

/**
 * picomatch options of `rule_pattern` and `secondary_pattern`: case-insensitive, `*` crosses `/`.
 * picomatch only reads the globs; patterns/glob.ts runs them without backtracking.
 */
export const RULE_GLOB_OPTIONS = { bash: true, nocase: true, dot: true } as const;
/** picomatch options of a file-scope `file_path`: path globs (`*` stays within a segment, `**` crosses). */
export const FILE_GLOB_OPTIONS = { dot: true } as const;
/**
 * Longer patterns are refused (picomatch's own limit is 64 KiB; nobody writes globs that long).
 * Length is the only bound needed: patterns are matched in linear time (patterns/glob.ts), so a
 * test costs at most O(pattern × value) however many wildcards the pattern holds.
 */
export const MAX_GLOB_LENGTH = 1_000;

/**
 * Our glob dialect is picomatch without extglobs: `(`, `)` and `|` are literal, because titles
 * (`eval() compiles ...`) and paths (`app/(marketing)/page.tsx`) hold them, and picomatch would
 * read them as a regex group. A backslash still escapes the next character.
 */
export function toPicomatchPattern(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '\\' && i + 1 < pattern.length) out += ch + pattern[++i];
    else out += ch === '(' || ch === ')' || ch === '|' ? `\\${ch}` : ch;
  }
  return out;
}

/**
 * Why `pattern` is not a usable glob (an unclosed brace, a reversed range, a trailing backslash,
 * too long, a construct the linear-time matcher refuses such as a backreference), or undefined
 * when it is fine. Without this check picomatch silently turns a broken pattern into one that
 * never matches, and the rule would do nothing.
 */
export function globProblem(pattern: string, kind: 'rule' | 'file'): string | undefined {
  if (pattern.length > MAX_GLOB_LENGTH) return `is longer than ${MAX_GLOB_LENGTH} characters`;
  return globSyntaxProblem(toPicomatchPattern(pattern), kind === 'rule' ? RULE_GLOB_OPTIONS : FILE_GLOB_OPTIONS);
}

/**
 * A dismiss rule as a predicate. Patterns are globs (`*` and `?`, `[...]`, `{a,b}`, a leading `!`
 * negates; a single `*` also crosses `/`; parentheses and `|` are literal), case-insensitive; a
 * pattern also matches a value equal to it (ignoring case), so ids and paths holding glob
 * characters (`app/[id]/page.tsx`) can be named literally:
 * - `rule_pattern` must match the issue's rule id or its title;
 * - `secondary_pattern`, when set, must match the title, the code snippet or `fingerprint:<fp>` (the
 *   issue's fingerprint or its legacy one: a rule pinned before identity v2 still finds its issue);
 * - `source_type`, when set, must equal the issue's source;
 * - scope `file`: `file_path` (a path or glob, case-sensitive) must match the issue's file path.
 *   Scopes `global` and `project` both cover the whole project: a rule never reaches beyond its
 *   own project.
 */
export function compileDismissRule(rule: Omit<DismissRuleRecord, 'created_at' | 'id'>): (issue: IssueMatchFields) => boolean {
  const primary = anyValueMatcher(rule.rule_pattern);
  const secondary = rule.secondary_pattern ? anyValueMatcher(rule.secondary_pattern) : undefined;
  const file = rule.scope === 'file' && rule.file_path ? storedGlob(rule.file_path, FILE_GLOB_OPTIONS) : undefined;
  return (issue) =>
    (!rule.source_type || rule.source_type === issue.source) &&
    primary([issue.rule_id, issue.title]) &&
    (!secondary || secondary(matchValuesOf(issue))) &&
    (rule.scope !== 'file' || (file !== undefined && (file(issue.file_path) || issue.file_path === rule.file_path)));
}

/** What a secondary pattern is tried on. */
function matchValuesOf(issue: IssueMatchFields): string[] {
  const values = [issue.title, issue.code_snippet, fingerprintToken(issue.fingerprint)];
  if (issue.legacy_fingerprint) values.push(fingerprintToken(issue.legacy_fingerprint));
  return values;
}

/**
 * A stored pattern as a predicate. One that no longer compiles (stored before the matcher refused a
 * construct, such as a backreference) matches nothing rather than failing every later run; it can
 * still match a value equal to it.
 */
function storedGlob(pattern: string, options: GlobOptions): (value: string) => boolean {
  try {
    return compileGlob(toPicomatchPattern(pattern), options);
  } catch {
    return () => false;
  }
}

/**
 * True when one of the values matches the pattern (or equals it, ignoring case). A leading `!`
 * negates the whole test — none of the values matches — so `!security/*` means "not a security
 * rule" rather than "a rule id or a title that is not one".
 */
function anyValueMatcher(pattern: string): (values: readonly string[]) => boolean {
  const negated = pattern.length > 1 && pattern.startsWith('!');
  const body = negated ? pattern.slice(1) : pattern;
  const glob = storedGlob(body, RULE_GLOB_OPTIONS);
  const lower = body.toLowerCase();
  const one = (value: string) => glob(value) || value.toLowerCase() === lower;
  return (values) => values.some(one) !== negated;
}

/** Serialises changes to a project's dismiss rules and issue states (rules, restorations, new runs). */
export async function lockProjectIssues(tx: Sql, projectId: string): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('codehealth:issues:' || $1::text, 0))", [projectId]);
}

export interface ApplyScope {
  /** Only the issues of this run. */
  contextId?: string;
  /** Only issues with these ids (one batch of a run being recorded). */
  ids?: readonly string[];
  /** Only issues with one of these fingerprints, current or legacy (dismiss, restore). */
  fingerprints?: readonly string[];
  /** Only issues currently dismissed by this rule (rule deleted). */
  dismissedByRuleId?: string;
  /** Only issues not dismissed now (a new rule: it is the newest, so it cannot change a dismissed issue's rule). */
  activeOnly?: boolean;
  /** Count matches into `match_count` (new runs only; a rule's count starts at 0). */
  countMatches?: boolean;
}

/**
 * Recomputes `is_dismissed` of the project's issues in scope from its dismiss rules and issue
 * restorations: an issue is dismissed by the oldest matching rule, unless the issue was restored
 * after that rule was created. Returns how many issues in scope are dismissed.
 */
export async function applyDismissRules(tx: Sql, projectId: string, scope: ApplyScope = {}): Promise<number> {
  await lockProjectIssues(tx, projectId);
  // Times in microseconds (as float8: exact below 2^53): a restore and a later rule may fall in
  // the same millisecond, and a JS Date would call them equal.
  const rules = await tx.query<DismissRuleRecord & { created_us: number } & Record<string, unknown>>(
    `SELECT id, source_type, rule_pattern, secondary_pattern, scope, file_path, created_at,
            (extract(epoch FROM created_at) * 1000000)::float8 AS created_us
       FROM dismiss_rules WHERE project_id = $1 ORDER BY created_at, id`,
    [projectId],
  );
  const conditions = ['project_id = $1'];
  const params: unknown[] = [projectId];
  if (scope.contextId) conditions.push(`context_id = $${params.push(scope.contextId)}`);
  if (scope.ids) conditions.push(`id = ANY($${params.push(scope.ids)}::uuid[])`);
  if (scope.fingerprints) {
    const at = params.push(scope.fingerprints);
    conditions.push(`(fingerprint = ANY($${at}::text[]) OR legacy_fingerprint = ANY($${at}::text[]))`);
  }
  if (scope.dismissedByRuleId) conditions.push(`dismissed_by_rule_id = $${params.push(scope.dismissedByRuleId)}`);
  if (scope.activeOnly) conditions.push('NOT is_dismissed');
  const issues = await tx.query<IssueMatchFields & { id: string; dismissed_by_rule_id: string | null } & Record<string, unknown>>(
    `SELECT id, fingerprint, legacy_fingerprint, source, rule_id, title, file_path, code_snippet, dismissed_by_rule_id
       FROM issues WHERE ${conditions.join(' AND ')}`,
    params,
  );
  if (issues.length === 0) return 0;
  const restoredRows = await tx.query<{ fingerprint: string; restored_us: number }>(
    `SELECT fingerprint, (extract(epoch FROM restored_at) * 1000000)::float8 AS restored_us
       FROM issue_restorations WHERE project_id = $1`,
    [projectId],
  );
  const restoredAt = new Map(restoredRows.map((row) => [row.fingerprint, Number(row.restored_us)]));
  const compiled = rules.map((rule) => ({ rule, matches: compileDismissRule(rule), createdAt: Number(rule.created_us) }));

  const byRule = new Map<string | null, string[]>();
  const counts = new Map<string, number>();
  let dismissed = 0;
  for (const issue of issues) {
    // A restore recorded under either identity of the issue counts.
    const restored = Math.max(
      restoredAt.get(issue.fingerprint) ?? -Infinity,
      issue.legacy_fingerprint ? (restoredAt.get(issue.legacy_fingerprint) ?? -Infinity) : -Infinity,
    );
    const hit = compiled.find((candidate) => candidate.createdAt > restored && candidate.matches(issue));
    const ruleId = hit?.rule.id ?? null;
    if (ruleId) {
      dismissed++;
      counts.set(ruleId, (counts.get(ruleId) ?? 0) + 1);
    }
    if (ruleId === issue.dismissed_by_rule_id) continue;
    byRule.set(ruleId, [...(byRule.get(ruleId) ?? []), issue.id]);
  }
  for (const [ruleId, ids] of byRule) {
    await tx.query('UPDATE issues SET is_dismissed = $1, dismissed_by_rule_id = $2 WHERE id = ANY($3::uuid[])', [ruleId !== null, ruleId, ids]);
  }
  if (scope.countMatches) {
    for (const [ruleId, count] of counts) {
      await tx.query('UPDATE dismiss_rules SET match_count = match_count + $2 WHERE id = $1', [ruleId, count]);
    }
  }
  return dismissed;
}
