// The embedded workflow starter: a job is a row in `jobs`, durable across restarts; the runner
// in @codehealth/worker claims and runs it, round-robin across users and projects (each job knows
// both: the user who asked for it, else the project's first owner). A user's request is refused
// with 409 when that user, or the project, already has too much work queued or running, so one
// user's ten onboardings cannot fill the queue; work the system starts (webhooks, schedules) is
// never refused, only ordered. Listeners hear of new jobs at once (no polling lag).
import { randomUUID } from 'node:crypto';
import type { Database, Sql } from '../store/database.js';
import { workflowIdOf, type StartOptions, type WorkflowRequest, type WorkflowStarter } from '../ports/workflow-starter.js';
import { ConflictError } from './errors.js';

export type JobListener = (workflowId: string) => void;

export interface JobQueueLimits {
  /** Jobs one user may have queued or running at once (default 20; 0: no limit). */
  perUser?: number;
  /** Jobs one project may have queued or running at once (default 10; 0: no limit). */
  perProject?: number;
}

export const DEFAULT_JOB_QUEUE_LIMITS: Required<JobQueueLimits> = { perUser: 20, perProject: 10 };

const ACTIVE = "status IN ('queued', 'running')";

export class JobQueueWorkflowStarter implements WorkflowStarter {
  private readonly listeners = new Set<JobListener>();
  private readonly limits: Required<JobQueueLimits>;

  constructor(
    private readonly db: Database,
    limits: JobQueueLimits = {},
  ) {
    this.limits = { ...DEFAULT_JOB_QUEUE_LIMITS, ...limits };
  }

  async start(request: WorkflowRequest, options: StartOptions = {}): Promise<{ workflowId: string }> {
    const workflowId = options.workflowId ?? workflowIdOf(request);
    const { kind, ...input } = request;
    await this.db.transaction(async (tx) => {
      // Starting the same workflow again is never refused: it is the same job.
      const [existing] = await tx.query('SELECT 1 FROM jobs WHERE workflow_id = $1', [workflowId]);
      if (existing) return;
      if (options.requestedBy) await this.checkLimits(tx, request.projectId, options.requestedBy);
      // Nobody asked (a webhook, a schedule): the job counts against the project's first owner.
      await tx.query(
        `INSERT INTO jobs (id, workflow_id, kind, input, concurrency_key, project_id, user_id)
         VALUES ($1, $2, $3, $4, $5, $6, COALESCE($7::uuid, (
           SELECT user_id FROM project_members WHERE project_id = $6 AND role = 'owner' ORDER BY created_at, user_id LIMIT 1)))
         ON CONFLICT (workflow_id) DO NOTHING`,
        [randomUUID(), workflowId, kind, input, `${kind}:${request.projectId}`, request.projectId, options.requestedBy ?? null],
      );
    });
    for (const listener of this.listeners) listener(workflowId);
    return { workflowId };
  }

  /** Subscribes to newly enqueued jobs; returns the unsubscribe function. */
  onEnqueued(listener: JobListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Refuses a user's request over a limit; the user's lock serialises concurrent requests. */
  private async checkLimits(tx: Sql, projectId: string, userId: string): Promise<void> {
    const { perUser, perProject } = this.limits;
    if (perUser <= 0 && perProject <= 0) return;
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended('codehealth:jobs:' || $1::text, 0))", [userId]);
    const [counts] = await tx.query<{ user_jobs: number; project_jobs: number }>(
      `SELECT (SELECT count(*)::int FROM jobs WHERE user_id = $1 AND ${ACTIVE}) AS user_jobs,
              (SELECT count(*)::int FROM jobs WHERE project_id = $2 AND ${ACTIVE}) AS project_jobs`,
      [userId, projectId],
    );
    if (perUser > 0 && counts!.user_jobs >= perUser) {
      throw new ConflictError(`you already have ${counts!.user_jobs} runs queued or running (at most ${perUser}); try again when one has finished`);
    }
    if (perProject > 0 && counts!.project_jobs >= perProject) {
      throw new ConflictError(
        `this project already has ${counts!.project_jobs} runs queued or running (at most ${perProject}); try again when one has finished`,
      );
    }
  }
}

/** A job as a runner claims it. */
export interface ClaimedJob extends Record<string, unknown> {
  id: string;
  workflow_id: string;
  kind: WorkflowRequest['kind'];
  input: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

/**
 * The runner's side of the queue: claim, complete, fail, cancel, recover. The embedded runner in
 * @codehealth/worker drives it; the SQL of the `jobs` table stays here, in the service.
 */
export class JobQueue {
  constructor(private readonly db: Database) {}

  /**
   * One queued job whose concurrency key (kind + project) is not running already, chosen fairly:
   * the user with the fewest jobs running, then the one served longest ago (never served first);
   * within a user, the same for projects; then the oldest job. `locked_at` is when a job was last
   * claimed (migration 0006 indexes it per user and per project). Jobs queued before that migration
   * know neither and come first.
   */
  async claim(runnerId: string): Promise<ClaimedJob | undefined> {
    const rows = await this.db.query<ClaimedJob>(
      `UPDATE jobs SET status = 'running', locked_by = $1, locked_at = clock_timestamp(), attempts = attempts + 1, updated_at = now()
        WHERE id = (
          SELECT j.id FROM jobs j
           WHERE j.status = 'queued' AND j.run_after <= now()
             AND (j.concurrency_key IS NULL OR NOT EXISTS (
                   SELECT 1 FROM jobs r WHERE r.status = 'running' AND r.concurrency_key = j.concurrency_key))
           ORDER BY
             (SELECT count(*) FROM jobs r WHERE r.status = 'running' AND r.user_id = j.user_id),
             (SELECT max(r.locked_at) FROM jobs r WHERE r.user_id = j.user_id) NULLS FIRST,
             (SELECT count(*) FROM jobs r WHERE r.status = 'running' AND r.project_id = j.project_id),
             (SELECT max(r.locked_at) FROM jobs r WHERE r.project_id = j.project_id) NULLS FIRST,
             j.created_at, j.id
           LIMIT 1
           FOR UPDATE SKIP LOCKED)
        RETURNING id, workflow_id, kind, input, attempts, max_attempts`,
      [runnerId],
    );
    return rows[0];
  }

  /** A running job finished; a job cancelled meanwhile stays cancelled. */
  async complete(jobId: string, result: unknown): Promise<void> {
    await this.db.query("UPDATE jobs SET status = 'completed', result = $2, error = NULL, updated_at = now() WHERE id = $1 AND status = 'running'", [
      jobId,
      (result ?? null) as never,
    ]);
  }

  /** A job failed (or was cancelled while it ran: it stays cancelled), with its message. */
  async fail(jobId: string, message: string): Promise<void> {
    await this.db.query(
      "UPDATE jobs SET status = CASE WHEN status = 'cancelled' THEN 'cancelled' ELSE 'failed' END, error = $2, updated_at = now() WHERE id = $1",
      [jobId, message],
    );
  }

  /** Cancels a queued or running workflow's job; the job, or undefined when there was none to cancel. */
  async cancel(workflowId: string): Promise<ClaimedJob | undefined> {
    const rows = await this.db.query<ClaimedJob>(
      "UPDATE jobs SET status = 'cancelled', updated_at = now() WHERE workflow_id = $1 AND status IN ('queued', 'running') RETURNING *",
      [workflowId],
    );
    return rows[0];
  }

  /** Jobs running, or queued and due now. */
  async pendingCount(): Promise<number> {
    const [{ n } = { n: 0 }] = await this.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM jobs WHERE status = 'running' OR (status = 'queued' AND run_after <= now())",
    );
    return n;
  }

  /** Jobs left `running` (by a process that died, when called at a runner's start). */
  running(): Promise<ClaimedJob[]> {
    return this.db.query<ClaimedJob>("SELECT * FROM jobs WHERE status = 'running'");
  }

  /** Puts an interrupted job back in the queue, due now. */
  async requeue(jobId: string): Promise<void> {
    await this.db.query("UPDATE jobs SET status = 'queued', locked_by = NULL, run_after = now(), updated_at = now() WHERE id = $1", [jobId]);
  }
}
