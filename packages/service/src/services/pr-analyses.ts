// Pull-request analyses for REST clients: list, read, statistics, the latest analysis of a PR,
// and the manual trigger (coalescing with a pending or running run of the same head commit; an
// explicit trigger re-analyses a completed head). The write side of a run is the
// PrAnalysisRecorder; PR metadata comes from the store, synced from the code host.
import type { ProjectCache } from './project-cache.js';
import { randomUUID } from 'node:crypto';
import type { PrAnalysis, PrAnalysisList, PrStatistics, TriggerPrAnalysisResponse } from '../api/pr-analyses.js';
import { workflowIdOf, type WorkflowStarter } from '../ports/workflow-starter.js';
import { sqlState, type Database } from '../store/database.js';
import type { ProjectAccess } from './access.js';
import type { Actor } from './actor.js';
import { ConflictError, InvalidInputError, NotFoundError, ServiceError, UnavailableError } from './errors.js';
import { maskCredentials, type PrAnalysisRecorder } from './pr-analysis-recorder.js';
import { PR_ANALYSIS_COLUMNS, prAnalysisItemOfRow, prAnalysisOfRow, type PrAnalysisRow } from './pr-analysis-records.js';

export interface Page {
  limit: number;
  offset: number;
}

export interface EnqueuedPrAnalysis {
  analysisId: string;
  workflowId: string;
  status: 'pending' | 'running' | 'completed';
  /** False when an analysis of the same head commit was returned instead of a new one. */
  created: boolean;
}

export interface EnqueueOptions {
  /**
   * Start a new run even when the head's latest analysis completed (an explicit re-trigger after a
   * config change, a dismiss rule or an upgrade). Only a pending or running run is then reused.
   * Default false: a code-host event for an analysed head (a reopened PR) reuses the completed run.
   */
  rerunCompleted?: boolean;
}

/** Refreshes a repository's stored PR metadata from its code host (the RepositoryService does). */
export interface PullRequestSync {
  syncPullRequests(repositoryId: string): Promise<unknown>;
  /** The PR's commits as the code host lists them; undefined when it cannot say. */
  pullRequestCommits?(repositoryId: string, prNumber: number): Promise<string[] | undefined>;
}

export class PrAnalysisService {
  constructor(
    private readonly db: Database,
    private readonly access: ProjectAccess,
    private readonly workflows: WorkflowStarter,
    private readonly pullRequests: PullRequestSync,
    private readonly recorder: PrAnalysisRecorder,
    private readonly cached?: ProjectCache,
  ) {}

  /** Newest first; analyses of unlinked repositories stay listed (unlinking keeps analysis data). */
  async list(actor: Actor, projectId: string, page: Page): Promise<PrAnalysisList> {
    await this.access.require(actor, projectId);
    const rows = await this.db.query<PrAnalysisRow>(
      `SELECT ${PR_ANALYSIS_COLUMNS} FROM pr_analyses WHERE project_id = $1
        ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [projectId, page.limit, page.offset],
    );
    const [total] = await this.db.query<{ count: number }>('SELECT count(*)::int AS count FROM pr_analyses WHERE project_id = $1', [projectId]);
    return { analyses: rows.map(prAnalysisItemOfRow), total: total!.count, limit: page.limit, offset: page.offset };
  }

  async get(actor: Actor, projectId: string, analysisId: string): Promise<PrAnalysis> {
    await this.access.require(actor, projectId);
    const [row] = await this.db.query<PrAnalysisRow>(`SELECT ${PR_ANALYSIS_COLUMNS} FROM pr_analyses WHERE id = $1 AND project_id = $2`, [
      analysisId,
      projectId,
    ]);
    if (!row) throw new NotFoundError('PR analysis');
    return prAnalysisOfRow(row);
  }

  /** `since`: a timestamp string the store parses (the edge validated it); only later analyses count. */
  async stats(actor: Actor, projectId: string, query: { since?: string }): Promise<PrStatistics> {
    await this.access.require(actor, projectId);
    const read = async () => {
      const [row] = await this.statsQuery(projectId, query.since);
      return { ...row!, avg_duration_seconds: Math.max(0, Number(row!.avg_duration_seconds)) };
    };
    return this.cached ? this.cached.read(projectId, `pr-stats:${query.since ?? ''}`, read) : read();
  }

  /**
   * `since` travels as text and Postgres parses it, the same way on both stores (postgres.js would
   * turn a timestamptz parameter into a JS Date, dropping microseconds and widening what it accepts).
   */
  private async statsQuery(projectId: string, since: string | undefined): Promise<PrStatistics[]> {
    try {
      return await this.db.query<PrStatistics>(
        `SELECT count(*)::int AS total_count,
                count(*) FILTER (WHERE status = 'completed')::int AS completed_count,
                count(*) FILTER (WHERE status = 'failed')::int AS failed_count,
                count(*) FILTER (WHERE status = 'running')::int AS running_count,
                count(*) FILTER (WHERE status = 'completed' AND merge_readiness->>'status' = 'blocked')::int AS blocked_count,
                count(*) FILTER (WHERE status = 'completed' AND merge_readiness->>'status' = 'needs_review')::int AS needs_review_count,
                count(*) FILTER (WHERE status = 'completed' AND merge_readiness->>'status' = 'ready')::int AS ready_count,
                COALESCE(avg(extract(epoch FROM completed_at - COALESCE(started_at, created_at)))
                           FILTER (WHERE status = 'completed'), 0)::float8 AS avg_duration_seconds
           FROM pr_analyses
          WHERE project_id = $1 AND ($2::text IS NULL OR created_at > $2::text::timestamptz)`,
        [projectId, since ?? null],
      );
    } catch (error) {
      // Postgres refuses some timestamps ISO 8601 allows (year 0000, offsets beyond ±15:59).
      if (since !== undefined && sqlState(error)?.startsWith('22')) throw new InvalidInputError(`since is outside the supported range: ${since}`);
      throw error;
    }
  }

  /** The most recent analysis of one PR of a repository linked to the project. */
  async latest(actor: Actor, projectId: string, repositoryId: string, prNumber: number): Promise<PrAnalysis> {
    await this.access.require(actor, projectId);
    await this.requireLinked(projectId, repositoryId);
    const [row] = await this.db.query<PrAnalysisRow>(
      `SELECT ${PR_ANALYSIS_COLUMNS} FROM pr_analyses WHERE project_id = $1 AND repository_id = $2 AND pr_number = $3
        ORDER BY created_at DESC, id DESC LIMIT 1`,
      [projectId, repositoryId, prNumber],
    );
    if (!row) throw new NotFoundError(`analysis of pull request #${prNumber}`);
    return prAnalysisOfRow(row);
  }

  async trigger(actor: Actor, projectId: string, repositoryId: string, prNumber: number, input: { head_sha?: string }): Promise<TriggerPrAnalysisResponse> {
    await this.access.require(actor, projectId);
    await this.requireLinked(projectId, repositoryId);
    // A manual trigger decides on the code host's current view of the PR: its head may have moved
    // since the last sync (a push the webhook missed), and a given head must be one of its commits.
    await this.syncPullRequests(repositoryId);
    if (!(await this.knowsPullRequest(repositoryId, prNumber))) throw new NotFoundError(`pull request #${prNumber}`);
    if (input.head_sha !== undefined) await this.requireCommitOfPullRequest(repositoryId, prNumber, input.head_sha.toLowerCase());
    const run = await this.enqueue(projectId, repositoryId, prNumber, input.head_sha, { rerunCompleted: true });
    return { id: run.analysisId, status: run.status, workflow_id: run.workflowId, pr_number: prNumber };
  }

  /**
   * Queues an analysis of a PR at `headSha` (default: the head of the synced PR metadata; when the
   * store knows no such PR, the code host is asked first). While an analysis of the same head is
   * pending or running, it is returned instead of a new one; a completed one too unless
   * `rerunCompleted`; a failed one is retried with a new run. The PR row lock makes concurrent
   * triggers of one PR see each other.
   */
  async enqueue(
    projectId: string,
    repositoryId: string,
    prNumber: number,
    headSha: string | undefined,
    options: EnqueueOptions & { rerunCompleted: true },
  ): Promise<EnqueuedPrAnalysis & { status: 'pending' | 'running' }>;
  async enqueue(projectId: string, repositoryId: string, prNumber: number, headSha?: string, options?: EnqueueOptions): Promise<EnqueuedPrAnalysis>;
  async enqueue(projectId: string, repositoryId: string, prNumber: number, headSha?: string, options: EnqueueOptions = {}): Promise<EnqueuedPrAnalysis> {
    await this.requireLinked(projectId, repositoryId);
    if (!(await this.knowsPullRequest(repositoryId, prNumber))) {
      await this.syncPullRequests(repositoryId);
      if (!(await this.knowsPullRequest(repositoryId, prNumber))) throw new NotFoundError(`pull request #${prNumber}`);
    }
    const run = await this.db.transaction(async (tx) => {
      const [pr] = await tx.query<{ head_sha: string; base_sha: string }>(
        'SELECT head_sha, base_sha FROM pull_requests WHERE repository_id = $1 AND pr_number = $2 FOR UPDATE',
        [repositoryId, prNumber],
      );
      if (!pr) throw new NotFoundError(`pull request #${prNumber}`);
      const sha = headSha ?? pr.head_sha;
      if (!sha) throw new ConflictError(`the head commit of pull request #${prNumber} is not known yet: pass head_sha`);
      const [existing] = await tx.query<{ id: string; status: 'pending' | 'running' | 'completed'; workflow_id: string | null }>(
        `SELECT id, status, workflow_id FROM pr_analyses
          WHERE project_id = $1 AND repository_id = $2 AND pr_number = $3 AND head_sha = $4
            AND (status IN ('pending', 'running') OR (status = 'completed' AND NOT $5::boolean))
          ORDER BY created_at DESC, id DESC LIMIT 1`,
        [projectId, repositoryId, prNumber, sha, options.rerunCompleted === true],
      );
      if (existing) return { id: existing.id, status: existing.status, workflowId: existing.workflow_id, created: false };
      const id = randomUUID();
      const workflowId = workflowIdOf({ kind: 'pr-analysis', projectId, analysisId: id });
      // The synced merge base belongs to the synced head only; for another head the pipeline finds it.
      const baseSha = sha === pr.head_sha && pr.base_sha ? pr.base_sha : null;
      await tx.query(
        `INSERT INTO pr_analyses (id, project_id, repository_id, pr_number, head_sha, base_sha, status, analysis_run_id, workflow_id)
         VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7, $8)`,
        [id, projectId, repositoryId, prNumber, sha, baseSha, randomUUID(), workflowId],
      );
      return { id, status: 'pending' as const, workflowId, created: true };
    });
    if (run.created) await this.cached?.invalidate(projectId);
    const request = { kind: 'pr-analysis', projectId, analysisId: run.id } as const;
    const workflowId = run.workflowId ?? workflowIdOf(request);
    // A pending run is started (again): starting the same workflow id twice is a no-op, and it
    // recovers a run whose start was lost in a crash. Running and completed ones have started.
    if (run.status !== 'pending') return { analysisId: run.id, workflowId, status: run.status, created: false };
    let started: { workflowId: string };
    try {
      started = await this.workflows.start(request, { workflowId });
    } catch {
      if (run.created) await this.recorder.fail(run.id, 'the workflow engine did not accept the run');
      throw new UnavailableError('the workflow engine is unavailable; try again later');
    }
    if (started.workflowId !== run.workflowId) {
      await this.db.query('UPDATE pr_analyses SET workflow_id = $2 WHERE id = $1', [run.id, started.workflowId]);
    }
    return { analysisId: run.id, workflowId: started.workflowId, status: 'pending', created: run.created };
  }

  /** Service errors (no host configured, local repositories not allowed) pass; a host's own failure is a 503. */
  private async syncPullRequests(repositoryId: string): Promise<void> {
    try {
      await this.pullRequests.syncPullRequests(repositoryId);
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new UnavailableError(`could not read the pull requests from the code host: ${maskCredentials(message, 500)}`);
    }
  }

  /** InvalidInputError (400) when the code host lists the PR's commits and `sha` is not among them. */
  private async requireCommitOfPullRequest(repositoryId: string, prNumber: number, sha: string): Promise<void> {
    const [pr] = await this.db.query<{ head_sha: string }>('SELECT head_sha FROM pull_requests WHERE repository_id = $1 AND pr_number = $2', [
      repositoryId,
      prNumber,
    ]);
    if (pr?.head_sha === sha || !this.pullRequests.pullRequestCommits) return;
    let commits: string[] | undefined;
    try {
      commits = await this.pullRequests.pullRequestCommits(repositoryId, prNumber);
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new UnavailableError(`could not read the commits of pull request #${prNumber} from the code host: ${maskCredentials(message, 500)}`);
    }
    if (commits && !commits.some((commit) => commit.toLowerCase() === sha)) {
      throw new InvalidInputError(`head_sha ${sha} is not a commit of pull request #${prNumber}`);
    }
  }

  private async requireLinked(projectId: string, repositoryId: string): Promise<void> {
    const rows = await this.db.query('SELECT 1 FROM project_repositories WHERE project_id = $1 AND repository_id = $2', [projectId, repositoryId]);
    if (rows.length === 0) throw new NotFoundError('repository');
  }

  private async knowsPullRequest(repositoryId: string, prNumber: number): Promise<boolean> {
    const rows = await this.db.query('SELECT 1 FROM pull_requests WHERE repository_id = $1 AND pr_number = $2', [repositoryId, prNumber]);
    return rows.length > 0;
  }
}
