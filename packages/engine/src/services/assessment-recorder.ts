// The write side of health assessments, used by the workflow activities: create a pending record,
// mark it running, and complete it with everything a run produces (scores, metrics, conventions,
// repository stats, issues, drift alerts) in one transaction — or mark it failed. Every step is
// safe to repeat, because workflow engines retry activities.
import { randomUUID } from 'node:crypto';
import type { DriftDetector, DriftThresholds } from '../contracts/drift.js';
import type { Grade } from '../contracts/scoring.js';
import { DefaultDriftDetector } from '../drift/default-drift-detector.js';
import { HEALTH_CATEGORY_KEYS } from '../domain/types.js';
import { DefaultScoringModel } from '../scoring/default-scoring-model.js';
import type { Database, Sql } from '../store/database.js';
import { combineResults, snapshotOfRecord, type RepositoryAssessment, type ScoreColumns, type StoredMetrics } from './assessment-combination.js';
import { ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import { insertContextIssues } from './issue-records.js';

export type { RepositoryAssessment } from './assessment-combination.js';
export type AssessmentTrigger = 'manual' | 'push' | 'pr_merge' | 'scheduled';
export type AssessmentStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface AssessmentRun {
  id: string;
  projectId: string;
  /** The status after the call; `completed`/`failed` mean the run had already finished. */
  status: AssessmentStatus;
}

export interface CompletedAssessment {
  /** `already_finished` when an earlier attempt completed it: nothing was written again. */
  status: 'completed' | 'already_finished';
  overallScore: number | null;
  issues: number;
  newIssues: number;
  driftAlerts: number;
}

export interface AssessmentRecorderOptions {
  driftDetector?: DriftDetector;
  driftThresholds?: Partial<DriftThresholds>;
  /** Grade of a combined (several repositories) overall score; one repository keeps its own grade. */
  gradeOf?: (score: number) => Grade;
  /** Called after every change of a run (the project's cached aggregates are invalidated). */
  onChange?: (projectId: string) => Promise<void>;
}

/** Failure messages are stored, and may carry a clone URL: credentials in URLs are masked. */
export function redactFailure(message: string): string {
  const masked = message.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1***@');
  return masked.length > 2000 ? `${masked.slice(0, 2000)}…` : masked;
}

const PREVIOUS_COLUMNS = ['overall_score', 'overall_grade', ...HEALTH_CATEGORY_KEYS.map((k) => `${k}_score`), 'actual_coverage_percent'];

export class AssessmentRecorder {
  private readonly driftDetector: DriftDetector;
  private readonly gradeOf: (score: number) => Grade;

  constructor(
    private readonly db: Database,
    private readonly options: AssessmentRecorderOptions = {},
  ) {
    this.driftDetector = options.driftDetector ?? new DefaultDriftDetector();
    const model = new DefaultScoringModel({});
    this.gradeOf = options.gradeOf ?? ((score) => model.gradeOf(score));
  }

  /**
   * Inserts a pending assessment. With an `id`, repeating the call returns the same record
   * (onboarding creates its initial assessment this way); the project must match.
   */
  async create(projectId: string, trigger: AssessmentTrigger, options: { id?: string; workflowId?: string } = {}, sql: Sql = this.db): Promise<AssessmentRun> {
    const id = options.id ?? randomUUID();
    await sql.query(
      `INSERT INTO health_assessments (id, project_id, trigger_type, status, workflow_id)
       VALUES ($1, $2, $3, 'pending', $4) ON CONFLICT (id) DO NOTHING`,
      [id, projectId, trigger, options.workflowId ?? null],
    );
    const run = await this.find(sql, id);
    if (run.projectId !== projectId) throw new ConflictError('assessment id belongs to another project');
    return run;
  }

  /** pending → running (started_at set once). A finished run is left as it is and reported as such. */
  async markRunning(assessmentId: string): Promise<AssessmentRun> {
    await this.db.query(
      `UPDATE health_assessments SET status = 'running', started_at = COALESCE(started_at, now())
        WHERE id = $1 AND status IN ('pending', 'running')`,
      [assessmentId],
    );
    return this.changed(await this.find(this.db, assessmentId));
  }

  /** → failed with a (redacted) message, unless the run already completed. Returns the resulting run. */
  async fail(assessmentId: string, message: string): Promise<AssessmentRun> {
    await this.db.query(
      `UPDATE health_assessments SET status = 'failed', error = $2, completed_at = now()
        WHERE id = $1 AND status IN ('pending', 'running')`,
      [assessmentId, redactFailure(message)],
    );
    return this.changed(await this.find(this.db, assessmentId));
  }

  private async changed(run: AssessmentRun): Promise<AssessmentRun> {
    await this.options.onChange?.(run.projectId);
    return run;
  }

  /**
   * Writes the results of every repository of the run and marks it completed, all in one
   * transaction: a failure anywhere leaves no trace of this run's results. Issues get `is_new`
   * against the previous completed assessment, and drift alerts are raised against it.
   */
  async complete(assessmentId: string, results: readonly RepositoryAssessment[]): Promise<CompletedAssessment> {
    if (results.length === 0) throw new InvalidInputError('an assessment needs the result of at least one repository');
    let touched: string | undefined;
    const completed = await this.db.transaction(async (tx) => {
      // The row lock serialises concurrent attempts of the same run: the second sees `completed`.
      const [row] = await tx.query<{ project_id: string; status: AssessmentStatus; overall_score: number | null }>(
        'SELECT project_id, status, overall_score FROM health_assessments WHERE id = $1 FOR UPDATE',
        [assessmentId],
      );
      if (!row) throw new NotFoundError('assessment');
      if (row.status === 'completed') {
        return { status: 'already_finished', overallScore: row.overall_score, issues: 0, newIssues: 0, driftAlerts: 0 } as const;
      }
      if (row.status === 'failed') throw new ConflictError('assessment already failed');
      const projectId = row.project_id;
      touched = projectId;

      const prCounts = await tx.query<{ repository_id: string; count: number }>(
        'SELECT repository_id, count(*)::int AS count FROM pull_requests WHERE repository_id = ANY($1::uuid[]) GROUP BY repository_id',
        [results.map((r) => r.repositoryId)],
      );
      const combined = combineResults(results, this.gradeOf, new Map(prCounts.map((r) => [r.repository_id, r.count])));
      const [previous] = await tx.query<ScoreColumns & { id: string; metrics: Partial<StoredMetrics> }>(
        `SELECT id, metrics, ${PREVIOUS_COLUMNS.join(', ')} FROM health_assessments
          WHERE project_id = $1 AND status = 'completed' AND id <> $2
          ORDER BY completed_at DESC, created_at DESC LIMIT 1`,
        [projectId, assessmentId],
      );

      const c = combined.columns;
      await tx.query(
        `UPDATE health_assessments SET
           overall_score = $2, overall_grade = $3, security_score = $4, runtime_risks_score = $5,
           test_coverage_score = $6, code_smell_score = $7, duplication_score = $8, dead_code_score = $9,
           consistency_score = $10, compliance_score = $11, critical_count = $12, high_count = $13,
           medium_count = $14, low_count = $15, info_count = $16, total_lines_of_code = $17,
           test_lines_of_code = $18, actual_coverage_percent = $19, structural_coverage_pct = $20,
           mock_usage_pct = $21, metrics = $22, conventions = $23, repo_stats = $24, commits = $25,
           status = 'completed', error = NULL, started_at = COALESCE(started_at, now()), completed_at = now()
         WHERE id = $1`,
        [
          assessmentId, c.overall_score, c.overall_grade, c.security_score, c.runtime_risks_score,
          c.test_coverage_score, c.code_smell_score, c.duplication_score, c.dead_code_score,
          c.consistency_score, c.compliance_score, c.critical_count, c.high_count,
          c.medium_count, c.low_count, c.info_count, c.total_lines_of_code,
          c.test_lines_of_code, c.actual_coverage_percent, c.structural_coverage_pct,
          c.mock_usage_pct, combined.metrics, combined.conventions, combined.repoStats, combined.commits,
        ],
      );

      const inserted = await insertContextIssues(
        tx,
        { projectId, contextType: 'health_assessment', contextId: assessmentId, baselineContextIds: previous ? [previous.id] : [] },
        results.flatMap((r) => r.result.findings.map((finding) => ({ finding, repositoryId: r.repositoryId }))),
      );

      const alerts = previous
        ? this.driftDetector.detect(snapshotOfRecord(previous, previous.metrics), combined.drift, this.options.driftThresholds)
        : [];
      for (const alert of alerts) {
        await tx.query(
          `INSERT INTO drift_alerts (id, project_id, assessment_id, drift_type, category, previous_value, current_value,
             change, message, affected_files)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [randomUUID(), projectId, assessmentId, alert.driftType, alert.category, alert.previousValue, alert.currentValue,
            alert.change, alert.message, alert.affectedFiles],
        );
      }
      return { status: 'completed', overallScore: c.overall_score, issues: inserted.inserted, newIssues: inserted.newCount, driftAlerts: alerts.length } as const;
    });
    if (touched) await this.options.onChange?.(touched);
    return completed;
  }

  private async find(sql: Sql, id: string): Promise<AssessmentRun> {
    const [row] = await sql.query<{ project_id: string; status: AssessmentStatus }>(
      'SELECT project_id, status FROM health_assessments WHERE id = $1',
      [id],
    );
    if (!row) throw new NotFoundError('assessment');
    return { id, projectId: row.project_id, status: row.status };
  }
}
