// The embedded workflow starter: a job is a row in `jobs`, durable across restarts; the runner
// in @codehealth/worker claims and runs it. Listeners hear of new jobs at once (no polling lag).
import { randomUUID } from 'node:crypto';
import type { Database } from '../store/database.js';
import { workflowIdOf, type WorkflowRequest, type WorkflowStarter } from '../ports/workflow-starter.js';

export type JobListener = (workflowId: string) => void;

export class JobQueueWorkflowStarter implements WorkflowStarter {
  private readonly listeners = new Set<JobListener>();

  constructor(private readonly db: Database) {}

  async start(request: WorkflowRequest, options: { workflowId?: string } = {}): Promise<{ workflowId: string }> {
    const workflowId = options.workflowId ?? workflowIdOf(request);
    const { kind, ...input } = request;
    await this.db.query(
      `INSERT INTO jobs (id, workflow_id, kind, input, concurrency_key)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (workflow_id) DO NOTHING`,
      [randomUUID(), workflowId, kind, input, `${kind}:${request.projectId}`],
    );
    for (const listener of this.listeners) listener(workflowId);
    return { workflowId };
  }

  /** Subscribes to newly enqueued jobs; returns the unsubscribe function. */
  onEnqueued(listener: JobListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
