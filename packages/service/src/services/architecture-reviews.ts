// Architecture reviews: the REST side (list, get, trigger) and the recorder the review workflow
// calls (start, complete, fail, or `run` to compute and store a review from assessments). A
// completed review writes its record, its issues (source `architecture`, context
// `architecture_review`) and the project's architecture overview in one transaction.
import { randomUUID } from 'node:crypto';
import type {
  ArchitectureFinding,
  ArchitectureOverviewContent,
  ArchitectureReview,
  ArchitectureReviewList,
  ArchitectureReviewMetrics,
  ArchitectureReviewResult,
  ArchitectureReviewSummary,
  TriggeredReview,
} from '../api/architecture.js';
import { workflowIdOf, type WorkflowStarter } from '../ports/workflow-starter.js';
import type { Database } from '../store/database.js';
import type { ProjectAccess } from './access.js';
import type { Actor } from './actor.js';
import { buildArchitectureOverview } from './architecture-overview.js';
import { architectureIssueOf } from './architecture-findings.js';
import { reviewArchitecture, type ArchitectureReviewOptions } from './architecture-review.js';
import type { ArchitectureInput } from './architecture-structure.js';
import { requireLinkedRepository, type ArchitectureService } from './architecture.js';
import { NotFoundError, UnavailableError } from './errors.js';
import { insertContextIssues } from './issue-records.js';
import { iso } from './time.js';

interface ReviewRow extends Record<string, unknown> {
  id: string;
  project_id: string;
  status: ArchitectureReview['status'];
  summary: string;
  finding_count: number;
  workflow_id: string | null;
  error: string | null;
  created_at: Date;
  completed_at: Date | null;
}

const SUMMARY_COLUMNS = 'id, project_id, status, summary, jsonb_array_length(findings) AS finding_count, workflow_id, error, created_at, completed_at';

function wireSummary(row: ReviewRow): ArchitectureReviewSummary {
  return {
    id: row.id,
    project_id: row.project_id,
    status: row.status,
    summary: row.summary,
    finding_count: row.finding_count,
    workflow_id: row.workflow_id,
    error: row.error,
    created_at: iso(row.created_at),
    completed_at: iso(row.completed_at),
  };
}

export class ArchitectureReviewService {
  constructor(
    private readonly db: Database,
    private readonly access: ProjectAccess,
    private readonly workflows: WorkflowStarter,
  ) {}

  async list(actor: Actor, projectId: string, page: { limit: number; offset: number }): Promise<ArchitectureReviewList> {
    await this.access.require(actor, projectId);
    const rows = await this.db.query<ReviewRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM architecture_reviews WHERE project_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3`,
      [projectId, page.limit, page.offset],
    );
    const [total] = await this.db.query<{ count: number }>('SELECT count(*)::int AS count FROM architecture_reviews WHERE project_id = $1', [projectId]);
    return { items: rows.map(wireSummary), total_count: total!.count, limit: page.limit, offset: page.offset };
  }

  async get(actor: Actor, projectId: string, reviewId: string): Promise<ArchitectureReview> {
    await this.access.require(actor, projectId);
    const [row] = await this.db.query<ReviewRow & { findings: ArchitectureFinding[]; metrics: ArchitectureReviewMetrics | Record<string, never> }>(
      `SELECT ${SUMMARY_COLUMNS}, findings, metrics FROM architecture_reviews WHERE project_id = $1 AND id = $2`,
      [projectId, reviewId],
    );
    if (!row) throw new NotFoundError('architecture review');
    const metrics = row.status === 'completed' ? (row.metrics as ArchitectureReviewMetrics) : null;
    return { ...wireSummary(row), findings: row.findings, metrics };
  }

  /**
   * Queues a review of the project. One at a time: while a review is pending or running, it is
   * returned instead of a new one (the project row lock makes concurrent triggers see each other).
   * A pending review is started (again): the same workflow id twice is a no-op. When the workflow
   * engine refuses a new review, the review is marked failed and the caller gets a 503.
   */
  async trigger(actor: Actor, projectId: string): Promise<TriggeredReview> {
    await this.access.require(actor, projectId);
    const run = await this.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM projects WHERE id = $1 FOR NO KEY UPDATE', [projectId]);
      await requireLinkedRepository(tx, projectId, 'triggering an architecture review');
      const [active] = await tx.query<{ id: string; status: 'pending' | 'running'; workflow_id: string | null }>(
        "SELECT id, status, workflow_id FROM architecture_reviews WHERE project_id = $1 AND status IN ('pending', 'running') ORDER BY created_at, id LIMIT 1",
        [projectId],
      );
      if (active) return { id: active.id, status: active.status, workflowId: active.workflow_id, created: false };
      const id = randomUUID();
      const workflowId = workflowIdOf({ kind: 'architecture-review', projectId, reviewId: id });
      await tx.query("INSERT INTO architecture_reviews (id, project_id, status, workflow_id) VALUES ($1, $2, 'pending', $3)", [id, projectId, workflowId]);
      return { id, status: 'pending' as const, workflowId, created: true };
    });
    const request = { kind: 'architecture-review', projectId, reviewId: run.id } as const;
    const workflowId = run.workflowId ?? workflowIdOf(request);
    if (run.status === 'running') return { id: run.id, status: 'running', workflow_id: workflowId };
    let started: { workflowId: string };
    try {
      started = await this.workflows.start(request, { workflowId });
    } catch {
      if (run.created) {
        await this.db.query("UPDATE architecture_reviews SET status = 'failed', error = $2, completed_at = now() WHERE id = $1 AND status = 'pending'", [
          run.id,
          'the workflow engine did not accept the review',
        ]);
      }
      throw new UnavailableError('the workflow engine is unavailable; try again later');
    }
    if (started.workflowId !== run.workflowId)
      await this.db.query('UPDATE architecture_reviews SET workflow_id = $2 WHERE id = $1', [run.id, started.workflowId]);
    return { id: run.id, status: 'pending', workflow_id: started.workflowId };
  }
}

export type RecordOutcome = { status: 'completed' | 'already_finished' };

export class ArchitectureReviewRecorder {
  constructor(
    private readonly db: Database,
    private readonly architecture: ArchitectureService,
  ) {}

  /** The review's project and status, or NotFoundError. */
  async find(reviewId: string): Promise<{ projectId: string; status: ArchitectureReview['status'] }> {
    const [row] = await this.db.query<{ project_id: string; status: ArchitectureReview['status'] }>(
      'SELECT project_id, status FROM architecture_reviews WHERE id = $1',
      [reviewId],
    );
    if (!row) throw new NotFoundError('architecture review');
    return { projectId: row.project_id, status: row.status };
  }

  /** pending → running; false when the review is no longer pending. */
  async start(reviewId: string): Promise<boolean> {
    const rows = await this.db.query("UPDATE architecture_reviews SET status = 'running' WHERE id = $1 AND status = 'pending' RETURNING id", [reviewId]);
    return rows.length > 0;
  }

  /**
   * Completes a pending or running review: its record, its findings as issues (is_new against the
   * previous completed review) and, when given, the project's overview, in one transaction.
   * A review that already finished is left as it is.
   */
  async complete(reviewId: string, result: ArchitectureReviewResult, overview?: ArchitectureOverviewContent): Promise<RecordOutcome> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<{ project_id: string; status: string }>('SELECT project_id, status FROM architecture_reviews WHERE id = $1 FOR UPDATE', [
        reviewId,
      ]);
      if (!row) throw new NotFoundError('architecture review');
      if (row.status === 'completed' || row.status === 'failed') return { status: 'already_finished' } as const;
      const previous = await tx.query<{ id: string }>(
        "SELECT id FROM architecture_reviews WHERE project_id = $1 AND status = 'completed' AND id <> $2 ORDER BY completed_at DESC LIMIT 1",
        [row.project_id, reviewId],
      );
      await tx.query(
        `UPDATE architecture_reviews SET status = 'completed', summary = $2, findings = $3, metrics = $4, error = NULL, completed_at = now() WHERE id = $1`,
        [reviewId, result.summary, result.findings, result.metrics],
      );
      await insertContextIssues(
        tx,
        { projectId: row.project_id, contextType: 'architecture_review', contextId: reviewId, baselineContextIds: previous.map((p) => p.id) },
        result.findings.map((finding) => ({ finding: architectureIssueOf(finding), repositoryId: finding.repository_id })),
      );
      if (overview) await this.architecture.saveOverview(row.project_id, overview, tx);
      return { status: 'completed' } as const;
    });
  }

  /** Marks an unfinished review failed with a message for the API's users. */
  async fail(reviewId: string, message: string): Promise<void> {
    await this.db.query(
      "UPDATE architecture_reviews SET status = 'failed', error = $2, completed_at = now() WHERE id = $1 AND status IN ('pending', 'running')",
      [reviewId, message],
    );
  }

  /** The review runner: computes the review and the overview from the project's assessments and stores both. */
  async run(reviewId: string, input: ArchitectureInput, options: Partial<ArchitectureReviewOptions> = {}): Promise<RecordOutcome> {
    const { status } = await this.find(reviewId);
    if (status === 'completed' || status === 'failed') return { status: 'already_finished' };
    await this.start(reviewId);
    return this.complete(reviewId, reviewArchitecture(input, options), buildArchitectureOverview(input));
  }
}
