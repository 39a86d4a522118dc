// The write side of PR analyses, used by the PR pipeline's activities: mark a run running,
// complete it with everything it produced (the result objects and the issues found in the
// changed code) in one transaction, or mark it failed. Every step is safe to repeat, because
// workflow engines retry activities.
import { PrAnalysisResultSchema, type PrAnalysisResult, type PrAnalysisStatus } from '../api/pr-analyses.js';
import type { Finding } from '@codehealth/engine';
import type { IssueChangeOf } from '@codehealth/engine/internal';
import type { Database, Sql } from '../store/database.js';
import { ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import { insertContextIssues } from './issue-records.js';

/** A stored run as the pipeline needs it. */
export interface PrAnalysisRun {
  id: string;
  projectId: string;
  repositoryId: string;
  prNumber: number;
  headSha: string;
  /** The merge base when known (from the synced PR metadata of the same head, or set on completion). */
  baseSha: string | null;
  /** Issues of the run carry it as `context_id` (with `context_type` `pr_analysis`). */
  analysisRunId: string;
  status: PrAnalysisStatus;
}

export interface PrAnalysisCompletion {
  result: PrAnalysisResult;
  /** Findings in the PR's changed code; stored as issues of the run, the project's dismiss rules applied. */
  findings: readonly Finding[];
  /** The merge base the run compared with. */
  baseSha?: string;
  /**
   * Runs whose issues count as already existing: a finding is `is_new` when its fingerprint is in
   * none of them. Default: the project's latest completed health assessment (none: nothing is new).
   */
  baselineContextIds?: readonly string[];
  /** The pipeline's verdict of new fingerprints (follows renames and moves); overrides the baseline runs. */
  newFingerprints?: readonly string[];
  /** The pipeline's verdict of how each fingerprint changed against the base (new, worsened, improved, unchanged). */
  issueChanges?: Readonly<Record<string, IssueChangeOf>>;
}

export interface CompletedPrAnalysis {
  /** `already_finished` when an earlier attempt completed it: nothing was written again. */
  status: 'completed' | 'already_finished';
  issues: number;
  newIssues: number;
  dismissedIssues: number;
}

/** Masks the user-info part of URLs (credentials) and bounds the length of a stored or shown message. */
export function maskCredentials(message: string, max = 2000): string {
  const masked = message.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1***@');
  return masked.length > max ? `${masked.slice(0, max)}…` : masked;
}

interface RunRow extends Record<string, unknown> {
  id: string;
  project_id: string;
  repository_id: string;
  pr_number: number;
  head_sha: string;
  base_sha: string | null;
  analysis_run_id: string;
  status: PrAnalysisStatus;
}

const RUN_COLUMNS = 'id, project_id, repository_id, pr_number, head_sha, base_sha, analysis_run_id, status';

const runOfRow = (row: RunRow): PrAnalysisRun => ({
  id: row.id,
  projectId: row.project_id,
  repositoryId: row.repository_id,
  prNumber: row.pr_number,
  headSha: row.head_sha,
  baseSha: row.base_sha,
  analysisRunId: row.analysis_run_id,
  status: row.status,
});

export class PrAnalysisRecorder {
  constructor(
    private readonly db: Database,
    /** Called after every change of a run (the project's cached aggregates are invalidated). */
    private readonly onChange?: (projectId: string) => Promise<void>,
  ) {}

  async find(analysisId: string, sql: Sql = this.db): Promise<PrAnalysisRun> {
    const [row] = await sql.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM pr_analyses WHERE id = $1`, [analysisId]);
    if (!row) throw new NotFoundError('PR analysis');
    return runOfRow(row);
  }

  /** pending → running (started_at set once). A finished run is left as it is and reported as such. */
  async markRunning(analysisId: string): Promise<PrAnalysisRun> {
    await this.db.query(
      `UPDATE pr_analyses SET status = 'running', started_at = COALESCE(started_at, now())
        WHERE id = $1 AND status IN ('pending', 'running')`,
      [analysisId],
    );
    const run = await this.find(analysisId);
    await this.onChange?.(run.projectId);
    return run;
  }

  /** → failed with a (credential-masked) message, unless the run already completed. Returns the resulting run. */
  async fail(analysisId: string, message: string): Promise<PrAnalysisRun> {
    await this.db.query(
      `UPDATE pr_analyses SET status = 'failed', error = $2, completed_at = now()
        WHERE id = $1 AND status IN ('pending', 'running')`,
      // A failed run is read for its reason: never stored without one.
      [analysisId, maskCredentials(message.trim() || 'the run failed without an error message')],
    );
    const run = await this.find(analysisId);
    await this.onChange?.(run.projectId);
    return run;
  }

  /**
   * Writes the result objects and the run's issues and marks the run completed, in one
   * transaction: a failure anywhere leaves no trace of this attempt. The result is checked
   * against the wire schema first, so what GET returns is always what the spec promises.
   */
  async complete(analysisId: string, completion: PrAnalysisCompletion): Promise<CompletedPrAnalysis> {
    const parsed = PrAnalysisResultSchema.safeParse(completion.result);
    if (!parsed.success) {
      const problems = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.') || '(result)'}: ${issue.message}`);
      throw new InvalidInputError(`invalid PR analysis result: ${problems.join('; ')}`);
    }
    const result = parsed.data;
    let touched: string | undefined;
    const completed = await this.db.transaction(async (tx) => {
      // The row lock serialises concurrent attempts of the same run: the second sees `completed`.
      const [row] = await tx.query<RunRow>(`SELECT ${RUN_COLUMNS} FROM pr_analyses WHERE id = $1 FOR UPDATE`, [analysisId]);
      if (!row) throw new NotFoundError('PR analysis');
      if (row.status === 'completed') return { status: 'already_finished', issues: 0, newIssues: 0, dismissedIssues: 0 } as const;
      if (row.status === 'failed') throw new ConflictError('PR analysis already failed');
      touched = row.project_id;

      let baseline = completion.baselineContextIds;
      if (!baseline) {
        const [latest] = await tx.query<{ id: string }>(
          `SELECT id FROM health_assessments WHERE project_id = $1 AND status = 'completed'
            ORDER BY completed_at DESC, created_at DESC LIMIT 1`,
          [row.project_id],
        );
        baseline = latest ? [latest.id] : [];
      }
      await tx.query(
        `UPDATE pr_analyses SET classification = $2::jsonb, merge_readiness = $3::jsonb, health_impact = $4::jsonb,
           health_projection = $5::jsonb, graph_impact = $6::jsonb, scope_drift = $7::jsonb, impact_zones = $8::jsonb,
           conflicts = $9::jsonb, stacked_prs = $10::jsonb, base_sha = COALESCE($11, base_sha), status = 'completed',
           error = NULL, started_at = COALESCE(started_at, now()), completed_at = now()
         WHERE id = $1`,
        [
          analysisId,
          result.classification,
          result.merge_readiness,
          result.health_impact,
          result.health_projection,
          result.graph_impact,
          result.scope_drift,
          result.impact_zones,
          result.conflicts,
          result.stacked_prs,
          completion.baseSha ?? null,
        ],
      );
      const inserted = await insertContextIssues(
        tx,
        {
          projectId: row.project_id,
          contextType: 'pr_analysis',
          contextId: row.analysis_run_id,
          baselineContextIds: baseline,
          newFingerprints: completion.newFingerprints,
          changes: completion.issueChanges,
        },
        completion.findings.map((finding) => ({ finding, repositoryId: row.repository_id })),
      );
      return { status: 'completed', issues: inserted.inserted, newIssues: inserted.newCount, dismissedIssues: inserted.dismissed } as const;
    });
    if (touched) await this.onChange?.(touched);
    return completed;
  }
}
