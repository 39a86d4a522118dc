// Code health for REST clients: trigger an assessment (coalescing with one already under way),
// list and read assessments, the dashboard, drift alerts and the category metadata. The write side
// of a run is the AssessmentRecorder.
import type { ProjectCache } from './project-cache.js';
import { randomUUID } from 'node:crypto';
import type { AssessmentList, DriftAlert, HealthAssessment, HealthCategory, HealthDashboard, TriggerAssessmentResponse } from '../api/health.js';
import { HEALTH_CATEGORIES } from '@codehealth/engine';
import { workflowIdOf, type WorkflowStarter } from '../ports/workflow-starter.js';
import type { Database } from '../store/database.js';
import type { ProjectAccess } from './access.js';
import type { Actor } from './actor.js';
import type { AssessmentRecorder, AssessmentTrigger } from './assessment-recorder.js';
import { ConflictError, NotFoundError, UnavailableError } from './errors.js';
import { readHealthDashboard } from './health-dashboard.js';
import { LEDGER_COLUMN } from './assessment-grading.js';
import type { ScoreLedger } from '../api/score-ledger.js';
import {
  ASSESSMENT_COLUMNS,
  assessmentOfRow,
  DRIFT_ALERT_COLUMNS,
  driftAlertOfRow,
  summaryOfRow,
  type AssessmentRow,
  type DriftAlertRow,
} from './health-records.js';

export interface Page {
  limit: number;
  offset: number;
}

export interface EnqueuedAssessment {
  assessmentId: string;
  workflowId: string;
  /** False when an assessment already pending or running was returned instead of a new one. */
  created: boolean;
}

export class HealthService {
  constructor(
    private readonly db: Database,
    private readonly access: ProjectAccess,
    private readonly workflows: WorkflowStarter,
    private readonly recorder: AssessmentRecorder,
    private readonly cached?: ProjectCache,
  ) {}

  categories(): HealthCategory[] {
    return HEALTH_CATEGORIES.map(({ name, key, icon, color }) => ({ name, key, icon, color }));
  }

  async trigger(actor: Actor, projectId: string): Promise<TriggerAssessmentResponse> {
    await this.access.require(actor, projectId);
    const run = await this.enqueue(projectId, 'manual');
    return { status: 'queued', assessment_id: run.assessmentId, workflow_id: run.workflowId };
  }

  /**
   * Queues an assessment of the project (REST trigger, webhooks, schedules). One run at a time:
   * while one is pending or running, it is returned instead of a new one. The project row lock
   * makes concurrent triggers see each other.
   */
  async enqueue(projectId: string, trigger: AssessmentTrigger): Promise<EnqueuedAssessment> {
    const run = await this.db.transaction(async (tx) => {
      const project = await tx.query('SELECT id FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
      if (project.length === 0) throw new NotFoundError('project');
      const [linked] = await tx.query<{ count: number }>('SELECT count(*)::int AS count FROM project_repositories WHERE project_id = $1', [projectId]);
      if (linked!.count === 0) throw new ConflictError('link a repository first');
      const [active] = await tx.query<{ id: string; status: string; workflow_id: string | null }>(
        `SELECT id, status, workflow_id FROM health_assessments
          WHERE project_id = $1 AND status IN ('pending', 'running') ORDER BY created_at, id LIMIT 1`,
        [projectId],
      );
      if (active) return { id: active.id, status: active.status, workflowId: active.workflow_id, created: false };
      const id = randomUUID();
      const workflowId = workflowIdOf({ kind: 'health-assessment', projectId, assessmentId: id });
      await this.recorder.create(projectId, trigger, { id, workflowId }, tx);
      return { id, status: 'pending', workflowId, created: true };
    });
    if (run.created) await this.cached?.invalidate(projectId);
    const request = { kind: 'health-assessment', projectId, assessmentId: run.id } as const;
    const workflowId = run.workflowId ?? workflowIdOf(request);
    // A running assessment has surely started. A pending one is started (again): starting the same
    // workflow id twice is a no-op, and it recovers a run whose start was lost in a crash.
    if (run.status === 'running') return { assessmentId: run.id, workflowId, created: false };
    let started: { workflowId: string };
    try {
      started = await this.workflows.start(request, { workflowId });
    } catch {
      if (run.created) await this.recorder.fail(run.id, 'the workflow engine did not accept the run');
      throw new UnavailableError('the workflow engine is unavailable; try again later');
    }
    if (started.workflowId !== run.workflowId) {
      await this.db.query('UPDATE health_assessments SET workflow_id = $2 WHERE id = $1', [run.id, started.workflowId]);
    }
    return { assessmentId: run.id, workflowId: started.workflowId, created: run.created };
  }

  async listAssessments(actor: Actor, projectId: string, page: Page): Promise<AssessmentList> {
    await this.access.require(actor, projectId);
    const rows = await this.db.query<AssessmentRow>(
      `SELECT ${ASSESSMENT_COLUMNS} FROM health_assessments WHERE project_id = $1
        ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [projectId, page.limit, page.offset],
    );
    const [total] = await this.db.query<{ count: number }>('SELECT count(*)::int AS count FROM health_assessments WHERE project_id = $1', [projectId]);
    return { items: rows.map(summaryOfRow), total_count: total!.count, limit: page.limit, offset: page.offset };
  }

  async getAssessment(actor: Actor, projectId: string, assessmentId: string): Promise<HealthAssessment> {
    await this.access.require(actor, projectId);
    const [row] = await this.db.query<AssessmentRow & { score_ledger: ScoreLedger | null }>(
      `SELECT ${ASSESSMENT_COLUMNS}, ${LEDGER_COLUMN} FROM health_assessments WHERE id = $1 AND project_id = $2`,
      [assessmentId, projectId],
    );
    if (!row) throw new NotFoundError('assessment');
    const assessment = assessmentOfRow(row);
    return row.status === 'completed' && row.score_ledger ? { ...assessment, score_ledger: row.score_ledger } : assessment;
  }

  async dashboard(actor: Actor, projectId: string): Promise<HealthDashboard> {
    await this.access.require(actor, projectId);
    const read = () => readHealthDashboard(this.db, projectId);
    return this.cached ? this.cached.read(projectId, 'dashboard', read) : read();
  }

  /** Active alerts first, then dismissed ones; newest first within each. */
  async listDriftAlerts(actor: Actor, projectId: string, query: Page & { dismissed?: boolean }): Promise<DriftAlert[]> {
    await this.access.require(actor, projectId);
    const params: unknown[] = [projectId, query.limit, query.offset];
    const filter = query.dismissed === undefined ? '' : `AND dismissed = $${params.push(query.dismissed)}`;
    const rows = await this.db.query<DriftAlertRow>(
      `SELECT ${DRIFT_ALERT_COLUMNS} FROM drift_alerts WHERE project_id = $1 ${filter}
        ORDER BY dismissed, detected_at DESC, id LIMIT $2 OFFSET $3`,
      params,
    );
    return rows.map(driftAlertOfRow);
  }

  /** Idempotent: dismissing a dismissed alert answers the same. */
  async dismissDriftAlert(actor: Actor, projectId: string, alertId: string): Promise<{ status: 'dismissed' }> {
    await this.access.require(actor, projectId);
    const rows = await this.db.query('UPDATE drift_alerts SET dismissed = true WHERE id = $1 AND project_id = $2 RETURNING id', [alertId, projectId]);
    if (rows.length === 0) throw new NotFoundError('drift alert');
    return { status: 'dismissed' };
  }
}
