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
      throw new ConflictError(`this project already has ${counts!.project_jobs} runs queued or running (at most ${perProject}); try again when one has finished`);
    }
  }
}
