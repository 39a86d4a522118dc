// Pull-request feedback through the code-host App (issue 21): a `CodeHealth` check run on the
// head commit (in progress while the analysis runs, then completed with the readiness gate's
// conclusion, a summary and annotations on changed lines only, at most 50 per request) and ONE
// sticky comment with the Markdown summary. Everything is found again on the code host — the
// check run by name on the head commit, the comment by its hidden marker — never by an id kept
// here, so redeliveries, re-runs and restarts update what exists instead of adding to it; an
// unchanged comment is not touched. Feedback goes only to repositories installed with the App,
// for open pull requests, when the project has not turned it off (`settings.pr_feedback.enabled`).
import { renderPrMarkdown } from '@codehealth/engine';
import type { CodeHosts } from '../ports/code-host.js';
import type { CheckRunAnnotation, CheckRunState, PullRequestFeedbackChannel } from '../ports/pr-feedback.js';
import type { Database } from '../store/database.js';
import { NotFoundError } from './errors.js';
import { maskCredentials } from './pr-analysis-recorder.js';
import { PR_ANALYSIS_COLUMNS, prAnalysisOfRow, type PrAnalysisRow } from './pr-analysis-records.js';
import { REPOSITORY_COLUMNS, repositoryMetadataOf, type RepositoryRow } from './repository-records.js';

export const CHECK_RUN_NAME = 'CodeHealth';
export const COMMENT_MARKER = '<!-- codehealth:pr-summary -->';
/** GitHub takes at most 50 annotations per create or update of a check run. */
export const ANNOTATIONS_PER_REQUEST = 50;
/** New findings listed by name in the check run's summary. */
const TOP_FINDINGS = 10;

/** Head line ranges each changed file's hunks touch, by path (what annotations may point at). */
export type ChangedLines = Record<string, Array<[start: number, end: number]>>;

/** What became of a run's feedback (`pr_analyses.feedback`, the analysis' `feedback` field). */
export interface PrFeedbackRecord {
  status: 'posted' | 'not_posted' | 'skipped';
  reason?: string;
  at: string;
}

export interface PrFeedbackOptions {
  /** The API's public root (BACKEND_URL), for links from the summary; without it paths are shown. */
  apiUrl?: string;
}

export type PrFeedbackOutcome =
  { status: 'posted'; checkRunId: number; comment: 'created' | 'updated' | 'unchanged' | 'none' } | { status: 'skipped'; reason: string };

interface FeedbackRow extends PrAnalysisRow {
  changed_lines: ChangedLines | null;
  settings: { pr_feedback?: { enabled?: unknown } } | null;
  pr_state: string | null;
}

interface NewIssueRow {
  id: string;
  severity: string;
  title: string;
  description: string;
  rule_id: string;
  file_path: string;
  line_start: number;
  line_end: number;
  change: string | null;
}

const SEVERITY_ORDER = ['critical', 'high', 'medium', 'low', 'info'];
const LEVEL: Record<string, CheckRunAnnotation['annotation_level']> = {
  critical: 'failure',
  high: 'failure',
  medium: 'warning',
  low: 'notice',
  info: 'notice',
};
const CONCLUSION = { ready: 'success', needs_review: 'neutral', blocked: 'failure' } as const;

/** Whether a project wants feedback: on unless `settings.pr_feedback.enabled` is false. */
export function feedbackEnabled(settings: FeedbackRow['settings']): boolean {
  return settings?.pr_feedback?.enabled !== false;
}

/** The head line ranges of a diff's files, for annotations on changed lines only. */
export function changedLinesOf(
  files: ReadonlyArray<{ path: string; status: string; hunks: ReadonlyArray<{ newStart: number; newLines: number }> }>,
): ChangedLines {
  const out: ChangedLines = {};
  for (const file of files) {
    if (file.status === 'deleted') continue;
    const ranges = file.hunks.filter((hunk) => hunk.newLines > 0).map((hunk): [number, number] => [hunk.newStart, hunk.newStart + hunk.newLines - 1]);
    if (ranges.length > 0) out[file.path] = ranges;
  }
  return out;
}

function onChangedLines(issue: NewIssueRow, changed: ChangedLines): { start: number; end: number } | undefined {
  for (const [start, end] of changed[issue.file_path] ?? []) {
    if (issue.line_start <= end && issue.line_end >= start) return { start: Math.max(start, issue.line_start), end: Math.min(end, issue.line_end) };
  }
  return undefined;
}

export class PrFeedbackService {
  constructor(
    private readonly db: Database,
    private readonly codeHosts: CodeHosts,
    private readonly options: PrFeedbackOptions = {},
  ) {}

  /** Records the head line ranges the analysed change touched (the pipeline's diff). */
  async recordChangedLines(analysisId: string, changed: ChangedLines): Promise<void> {
    await this.db.query('UPDATE pr_analyses SET changed_lines = $2 WHERE id = $1', [analysisId, changed]);
  }

  /** The `CodeHealth` check run goes `in_progress` on the head commit (created, or the existing one updated). */
  async begin(analysisId: string): Promise<PrFeedbackOutcome> {
    const target = await this.target(analysisId);
    if ('skip' in target) return this.skip(analysisId, target.skip);
    const { row, channel } = target;
    const state: CheckRunState = {
      status: 'in_progress',
      external_id: row.id,
      output: { title: 'Analysing the pull request', summary: `CodeHealth is analysing \`${row.head_sha.slice(0, 12)}\`.` },
    };
    const checkRunId = await this.upsertCheckRun(channel, row.head_sha, state);
    return { status: 'posted', checkRunId, comment: 'none' };
  }

  /**
   * The analysis' verdict where developers look: the check run completed (annotations in batches
   * of 50: the first with the completion, the rest as updates) and the sticky comment created or
   * updated. A failed analysis completes the check run only (no comment for a run without a verdict).
   */
  async publish(analysisId: string): Promise<PrFeedbackOutcome> {
    const target = await this.target(analysisId);
    if ('skip' in target) return this.skip(analysisId, target.skip);
    const { row, channel } = target;
    const analysis = prAnalysisOfRow(row);
    const markdown = renderPrMarkdown(analysis);
    if (analysis.status !== 'completed') {
      const checkRunId = await this.upsertCheckRun(channel, row.head_sha, {
        status: 'completed',
        conclusion: 'neutral',
        external_id: row.id,
        output: { title: analysis.status === 'failed' ? 'The analysis failed' : `The analysis is ${analysis.status}`, summary: markdown },
      });
      await this.record(analysisId, { status: 'posted' });
      return { status: 'posted', checkRunId, comment: 'none' };
    }
    const issues = await this.db.query<NewIssueRow>(
      `SELECT id, severity, title, description, rule_id, file_path, line_start, line_end, change FROM issues
        WHERE context_type = 'pr_analysis' AND context_id = $1 AND project_id = $2 AND NOT is_dismissed
          AND (change IN ('new', 'worsened') OR (change IS NULL AND is_new))`,
      [row.analysis_run_id, row.project_id],
    );
    issues.sort(
      (a, b) =>
        SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || a.file_path.localeCompare(b.file_path) || a.line_start - b.line_start,
    );
    const annotations = this.annotations(issues, row.changed_lines ?? {});
    const title = `${{ ready: 'Ready to merge', needs_review: 'Needs review', blocked: 'Blocked' }[analysis.merge_readiness.status]}: ${analysis.health_impact.issues_added} introduced, ${analysis.health_impact.issues_fixed} fixed`;
    const summary = this.summary(analysis, issues, annotations.length);
    const completion: CheckRunState = {
      status: 'completed',
      conclusion: CONCLUSION[analysis.merge_readiness.status],
      external_id: row.id,
      output: { title, summary, annotations: annotations.slice(0, ANNOTATIONS_PER_REQUEST) },
    };
    const checkRunId = await this.upsertCheckRun(channel, row.head_sha, completion);
    for (let offset = ANNOTATIONS_PER_REQUEST; offset < annotations.length; offset += ANNOTATIONS_PER_REQUEST) {
      // GitHub appends the annotations of each update; title and summary are required with them.
      await channel.updateCheckRun(checkRunId, {
        status: 'completed',
        output: { title, summary, annotations: annotations.slice(offset, offset + ANNOTATIONS_PER_REQUEST) },
      });
    }
    const comment = await this.upsertComment(channel, row.pr_number, `${COMMENT_MARKER}\n${markdown}`);
    await this.record(analysisId, { status: 'posted' });
    return { status: 'posted', checkRunId, comment };
  }

  /** The analysis notes that its feedback could not be posted (after the workflow's retries). */
  async recordFailure(analysisId: string, message: string): Promise<void> {
    await this.record(analysisId, { status: 'not_posted', reason: maskCredentials(message, 500) });
  }

  private async skip(analysisId: string, reason: string): Promise<PrFeedbackOutcome> {
    await this.record(analysisId, { status: 'skipped', reason });
    return { status: 'skipped', reason };
  }

  private async record(analysisId: string, record: Omit<PrFeedbackRecord, 'at'>): Promise<void> {
    await this.db.query('UPDATE pr_analyses SET feedback = $2 WHERE id = $1', [analysisId, { ...record, at: new Date().toISOString() }]);
  }

  private async target(analysisId: string): Promise<{ row: FeedbackRow; channel: PullRequestFeedbackChannel } | { skip: string }> {
    const [row] = await this.db.query<FeedbackRow>(
      `SELECT ${PR_ANALYSIS_COLUMNS.split(',')
        .map((column) => `a.${column.trim()}`)
        .join(', ')}, a.changed_lines, p.settings, pr.state AS pr_state
         FROM pr_analyses a JOIN projects p ON p.id = a.project_id
         LEFT JOIN pull_requests pr ON pr.repository_id = a.repository_id AND pr.pr_number = a.pr_number
        WHERE a.id = $1`,
      [analysisId],
    );
    if (!row) throw new NotFoundError(`PR analysis ${analysisId}`);
    const [repo] = await this.db.query<RepositoryRow>(`SELECT ${REPOSITORY_COLUMNS} FROM repositories r WHERE r.id = $1`, [row.repository_id]);
    if (!repo) throw new NotFoundError('repository');
    const metadata = repositoryMetadataOf(repo);
    if (metadata.installationId === 0) return { skip: 'the repository is not linked through the code-host App' };
    if (!feedbackEnabled(row.settings)) return { skip: 'the project turned pull-request feedback off (settings.pr_feedback.enabled)' };
    if (row.pr_state !== 'open') return { skip: `pull request #${row.pr_number} is ${row.pr_state ?? 'unknown'}` };
    for (const host of this.codeHosts.list()) {
      if (host.provider !== metadata.provider || !host.pullRequestFeedback) continue;
      const channel = host.pullRequestFeedback(metadata);
      if (channel) return { row, channel };
    }
    return { skip: `no ${metadata.provider} App is configured to post feedback` };
  }

  /** Updates the `CodeHealth` check run of the head commit when one exists (the first GitHub lists), else creates it. */
  private async upsertCheckRun(channel: PullRequestFeedbackChannel, headSha: string, state: CheckRunState): Promise<number> {
    const [existing] = await channel.findCheckRuns(headSha, CHECK_RUN_NAME);
    if (existing) {
      await channel.updateCheckRun(existing.id, state);
      return existing.id;
    }
    return (await channel.createCheckRun(headSha, CHECK_RUN_NAME, state)).id;
  }

  /** The one comment that starts with the marker: updated when its body differs, created when there is none. */
  private async upsertComment(channel: PullRequestFeedbackChannel, prNumber: number, body: string): Promise<'created' | 'updated' | 'unchanged'> {
    const existing = (await channel.listComments(prNumber)).find((comment) => comment.body.startsWith(COMMENT_MARKER));
    if (!existing) {
      await channel.createComment(prNumber, body);
      return 'created';
    }
    if (existing.body === body) return 'unchanged';
    await channel.updateComment(existing.id, body);
    return 'updated';
  }

  private annotations(issues: NewIssueRow[], changed: ChangedLines): CheckRunAnnotation[] {
    const out: CheckRunAnnotation[] = [];
    for (const issue of issues) {
      const lines = onChangedLines(issue, changed);
      if (!lines) continue;
      out.push({
        path: issue.file_path,
        start_line: lines.start,
        end_line: lines.end,
        annotation_level: LEVEL[issue.severity] ?? 'notice',
        title: `${issue.title} (${issue.rule_id})`.slice(0, 255),
        message: (issue.description || issue.title).slice(0, 64_000),
      });
    }
    return out;
  }

  private link(path: string): string {
    return this.options.apiUrl ? `${this.options.apiUrl.replace(/\/+$/, '')}${path}` : path;
  }

  private summary(analysis: ReturnType<typeof prAnalysisOfRow>, issues: NewIssueRow[], annotated: number): string {
    const projection = analysis.health_projection;
    const impact = analysis.health_impact;
    const lines = [
      `**Merge readiness:** ${analysis.merge_readiness.status} (confidence ${analysis.merge_readiness.confidence})`,
      `**Health projection:** ${projection.current_grade} ${projection.current_overall} → ${projection.projected_grade} ${projection.projected_overall}`,
      `**Issues:** ${impact.issues_added} new · ${impact.issues_fixed} fixed · ${annotated} on changed lines annotated`,
      '',
    ];
    if (issues.length > 0) {
      lines.push('**Top new findings**', '');
      for (const issue of issues.slice(0, TOP_FINDINGS)) {
        const url = this.link(`/api/v1/projects/${analysis.project_id}/analysis/issues/${issue.id}`);
        lines.push(`- ${issue.severity}: [${issue.title.replace(/[[\]]/g, '')}](${url}) — \`${issue.file_path}:${issue.line_start}\``);
      }
      if (issues.length > TOP_FINDINGS) lines.push(`- …and ${issues.length - TOP_FINDINGS} more`);
      lines.push('');
    }
    lines.push(`Full analysis: ${this.link(`/api/v1/projects/${analysis.project_id}/pr-analyses/${analysis.id}`)}`);
    return lines.join('\n').slice(0, 65_000);
  }
}
