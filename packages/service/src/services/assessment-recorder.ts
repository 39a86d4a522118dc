// The write side of health assessments, used by the workflow activities: create a pending record,
// mark it running, and complete it with everything a run produces (scores, metrics, conventions,
// repository stats, issues, drift alerts) — or mark it failed. Completing writes the issues first,
// in short batches that leave the event loop and the store free between them, then publishes the
// run in one short transaction: until then none of its issues is read, so a run is seen whole or
// not at all. Every step is safe to repeat, because workflow engines retry activities.
import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { DefaultDriftDetector, HEALTH_CATEGORY_KEYS, DefaultScoringModel } from '@codehealth/engine';
import type { DriftDetector, DriftThresholds, Grade } from '@codehealth/engine';
import type { Database, Sql } from '../store/database.js';
import { combineResults, snapshotOfRecord, type RepositoryAssessment, type ScoreColumns, type StoredMetrics } from './assessment-combination.js';
import { DEFAULT_ISSUE_RETENTION_RUNS, maintainEmbeddedStore, pruneAssessmentIssues, type PrunedIssues } from './assessment-retention.js';
import { ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import { capFindingsPerRule, DEFAULT_MAX_ISSUES_PER_RULE } from './finding-cap.js';
import { deleteContextIssues, writeIssuesInBatches } from './issue-batches.js';

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
  /**
   * Issues listed per rule and repository of a run (default 1,000); the rest become one "…and N
   * more" record per rule. Scores and counts always cover every finding. 0: no cap.
   */
  maxIssuesPerRule?: number;
  /** Completed assessments per project that keep their full issue list (default 10); 0: all. */
  issueRetentionRuns?: number;
  /** Issue rows per write batch (default DEFAULT_ISSUE_BATCH_SIZE). */
  issueBatchSize?: number;
  /** Told about a retention pass that removed something, or failed (it never fails the run). */
  onRetention?: (projectId: string, outcome: PrunedIssues | Error) => void;
}

/** Another attempt of the same run took over its recording (a retry or a duplicate delivery). */
class RecordingTakenOverError extends Error {
  override readonly name = 'RecordingTakenOverError';
}

/** Failure messages are stored, and may carry a clone URL: credentials in URLs are masked. */
export function redactFailure(message: string): string {
  const masked = message.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi, '$1***@');
  return masked.length > 2000 ? `${masked.slice(0, 2000)}…` : masked;
}

/** The project's latest completed run other than `$2`: baseline of `is_new` and of drift. */
const LATEST_COMPLETED = `SELECT id FROM health_assessments
  WHERE project_id = $1 AND status = 'completed' AND id <> $2
  ORDER BY completed_at DESC, created_at DESC LIMIT 1`;

const alreadyFinished = (overallScore: number | null): CompletedAssessment => ({
  status: 'already_finished',
  overallScore,
  issues: 0,
  newIssues: 0,
  driftAlerts: 0,
});

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

  /**
   * The commits of each project's latest completed assessment (of one project when given), a
   * project per row: what the graph rebuild re-reads.
   */
  async latestCompletedCommits(projectId?: string): Promise<Array<Array<{ repository_id: string; sha: string }>>> {
    const rows = await this.db.query<{ commits: Array<{ repository_id: string; sha: string }> }>(
      `SELECT DISTINCT ON (project_id) commits FROM health_assessments
        WHERE status = 'completed' ${projectId ? 'AND project_id = $1' : ''}
        ORDER BY project_id, completed_at DESC, created_at DESC`,
      projectId ? [projectId] : [],
    );
    return rows.map((row) => row.commits);
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

  /**
   * → failed with a (redacted) message, unless the run already completed. Returns the resulting run.
   * Issues an attempt had written (never visible: the run did not complete) are removed; what a
   * failure here leaves, the next retention pass removes.
   */
  async fail(assessmentId: string, message: string): Promise<AssessmentRun> {
    const failed = await this.db.query<{ project_id: string }>(
      `UPDATE health_assessments SET status = 'failed', error = $2, completed_at = now(), recording_token = NULL
        WHERE id = $1 AND status IN ('pending', 'running') RETURNING project_id`,
      [assessmentId, redactFailure(message)],
    );
    if (failed[0]) await deleteContextIssues(this.db, failed[0].project_id, assessmentId).catch(() => 0);
    return this.changed(await this.find(this.db, assessmentId));
  }

  private async changed(run: AssessmentRun): Promise<AssessmentRun> {
    await this.options.onChange?.(run.projectId);
    return run;
  }

  /**
   * Writes the results of every repository of the run and marks it completed. The issues go in
   * batches while the run is still `running` (invisible to readers); one short transaction then
   * writes scores, metrics and drift alerts and flips the run to `completed`. A failure anywhere
   * leaves no visible trace of this run's results. Issues get `is_new` against the previous
   * completed assessment, and drift alerts are raised against it. Afterwards, older runs' issues
   * beyond the retention are removed.
   */
  async complete(assessmentId: string, results: readonly RepositoryAssessment[]): Promise<CompletedAssessment> {
    if (results.length === 0) throw new InvalidInputError('an assessment needs the result of at least one repository');
    const begun = await this.beginRecording(assessmentId);
    if ('overallScore' in begun) return alreadyFinished(begun.overallScore);
    const { projectId, token, previousId } = begun;
    const guard = (tx: Sql) => this.holdRecording(tx, assessmentId, token);
    let completed: CompletedAssessment;
    try {
      // Rows an interrupted attempt of this run left behind.
      await deleteContextIssues(this.db, projectId, assessmentId, { guard });
      const listed = results.map((r) => ({
        repositoryId: r.repositoryId,
        ...capFindingsPerRule(r.result.findings, this.options.maxIssuesPerRule ?? DEFAULT_MAX_ISSUES_PER_RULE),
      }));
      const inserted = await writeIssuesInBatches(
        this.db,
        { projectId, contextType: 'health_assessment', contextId: assessmentId, baselineContextIds: previousId ? [previousId] : [] },
        listed.flatMap((r) => r.findings.map((finding) => ({ finding, repositoryId: r.repositoryId }))),
        { guard, batchSize: this.options.issueBatchSize },
      );
      await yieldToEventLoop();
      const notListed = listed.reduce((n, r) => n + r.notListed, 0);
      completed = await this.db.transaction((tx) => this.publish(tx, { assessmentId, projectId, previousId, guard, results, notListed, inserted }));
    } catch (error) {
      if (error instanceof RecordingTakenOverError) return alreadyFinished(null);
      throw error;
    }
    await this.options.onChange?.(projectId);
    await this.enforceRetention(projectId);
    return completed;
  }

  /** Takes the run for this attempt: a new recording token (an earlier attempt still writing stops at its next batch). */
  private async beginRecording(
    assessmentId: string,
  ): Promise<{ overallScore: number | null } | { projectId: string; token: string; previousId: string | undefined }> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<{ project_id: string; status: AssessmentStatus; overall_score: number | null }>(
        'SELECT project_id, status, overall_score FROM health_assessments WHERE id = $1 FOR UPDATE',
        [assessmentId],
      );
      if (!row) throw new NotFoundError('assessment');
      if (row.status === 'completed') return { overallScore: row.overall_score };
      if (row.status === 'failed') throw new ConflictError('assessment already failed');
      const token = randomUUID();
      await tx.query('UPDATE health_assessments SET recording_token = $2 WHERE id = $1', [assessmentId, token]);
      const [previous] = await tx.query<{ id: string }>(LATEST_COMPLETED, [row.project_id, assessmentId]);
      return { projectId: row.project_id, token, previousId: previous?.id };
    });
  }

  /** First statement of each batch: the run must still be this attempt's and unfinished (row-locked). */
  private async holdRecording(tx: Sql, assessmentId: string, token: string): Promise<void> {
    const [row] = await tx.query<{ status: AssessmentStatus; recording_token: string | null }>(
      'SELECT status, recording_token FROM health_assessments WHERE id = $1 FOR UPDATE',
      [assessmentId],
    );
    if (!row) throw new NotFoundError('assessment');
    if (row.status === 'failed') throw new ConflictError('assessment already failed');
    if (row.status === 'completed' || row.recording_token !== token) throw new RecordingTakenOverError('another attempt is recording this run');
  }

  /** The short transaction that makes the run visible: scores, metrics, drift alerts, status. */
  private async publish(
    tx: Sql,
    run: {
      assessmentId: string;
      projectId: string;
      previousId: string | undefined;
      guard: (tx: Sql) => Promise<void>;
      results: readonly RepositoryAssessment[];
      notListed: number;
      inserted: { inserted: number; newCount: number };
    },
  ): Promise<CompletedAssessment> {
    const { assessmentId, projectId, results } = run;
    await run.guard(tx);
    const prCounts = await tx.query<{ repository_id: string; count: number }>(
      'SELECT repository_id, count(*)::int AS count FROM pull_requests WHERE repository_id = ANY($1::uuid[]) GROUP BY repository_id',
      [results.map((r) => r.repositoryId)],
    );
    const combined = combineResults(results, this.gradeOf, new Map(prCounts.map((r) => [r.repository_id, r.count])));
    const [previous] = run.previousId
      ? await tx.query<ScoreColumns & { id: string; metrics: Partial<StoredMetrics> }>(
          `SELECT id, metrics, ${PREVIOUS_COLUMNS.join(', ')} FROM health_assessments WHERE id = $1`,
          [run.previousId],
        )
      : [];

    const c = combined.columns;
    await tx.query(
      `UPDATE health_assessments SET
         overall_score = $2, overall_grade = $3, security_score = $4, runtime_risks_score = $5,
         test_coverage_score = $6, code_smell_score = $7, duplication_score = $8, dead_code_score = $9,
         consistency_score = $10, compliance_score = $11, critical_count = $12, high_count = $13,
         medium_count = $14, low_count = $15, info_count = $16, total_lines_of_code = $17,
         test_lines_of_code = $18, actual_coverage_percent = $19, structural_coverage_pct = $20,
         mock_usage_pct = $21, metrics = $22, conventions = $23, repo_stats = $24, commits = $25,
         status = 'completed', error = NULL, recording_token = NULL,
         started_at = COALESCE(started_at, now()), completed_at = now()
       WHERE id = $1`,
      [
        assessmentId,
        c.overall_score,
        c.overall_grade,
        c.security_score,
        c.runtime_risks_score,
        c.test_coverage_score,
        c.code_smell_score,
        c.duplication_score,
        c.dead_code_score,
        c.consistency_score,
        c.compliance_score,
        c.critical_count,
        c.high_count,
        c.medium_count,
        c.low_count,
        c.info_count,
        c.total_lines_of_code,
        c.test_lines_of_code,
        c.actual_coverage_percent,
        c.structural_coverage_pct,
        c.mock_usage_pct,
        { ...combined.metrics, issues_not_listed: run.notListed },
        combined.conventions,
        combined.repoStats,
        combined.commits,
      ],
    );

    const alerts = previous ? this.driftDetector.detect(snapshotOfRecord(previous, previous.metrics), combined.drift, this.options.driftThresholds) : [];
    for (const alert of alerts) {
      await tx.query(
        `INSERT INTO drift_alerts (id, project_id, assessment_id, drift_type, category, previous_value, current_value,
           change, message, affected_files)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [
          randomUUID(),
          projectId,
          assessmentId,
          alert.driftType,
          alert.category,
          alert.previousValue,
          alert.currentValue,
          alert.change,
          alert.message,
          alert.affectedFiles,
        ],
      );
    }
    return { status: 'completed', overallScore: c.overall_score, issues: run.inserted.inserted, newIssues: run.inserted.newCount, driftAlerts: alerts.length };
  }

  /** Retention and store upkeep after a recorded run; their failure is reported, never the run's. */
  private async enforceRetention(projectId: string): Promise<void> {
    try {
      const pruned = await pruneAssessmentIssues(this.db, projectId, this.options.issueRetentionRuns ?? DEFAULT_ISSUE_RETENTION_RUNS);
      if (pruned.issues > 0 || pruned.assessments > 0) this.options.onRetention?.(projectId, pruned);
      await maintainEmbeddedStore(this.db);
    } catch (error) {
      this.options.onRetention?.(projectId, error instanceof Error ? error : new Error(String(error)));
    }
  }

  private async find(sql: Sql, id: string): Promise<AssessmentRun> {
    const [row] = await sql.query<{ project_id: string; status: AssessmentStatus }>('SELECT project_id, status FROM health_assessments WHERE id = $1', [id]);
    if (!row) throw new NotFoundError('assessment');
    return { id, projectId: row.project_id, status: row.status };
  }
}
