// Scheduled health assessments. A project opts in through its free-form settings:
// `{"schedule": {"assessment_interval_hours": N}}` with N a number from 1 to 720 (30 days); other
// values are ignored with one log line per project and value. A project is due when its latest
// assessment (any trigger, any status: a failed run is retried one interval later, not every
// minute) was created N hours ago or more, or, never assessed, when its first repository was
// linked N hours ago or more; never while an assessment is pending or running, and never without
// a linked repository. `tick(now)` queues a `scheduled` assessment for each due
// project through HealthService.enqueue (which coalesces with a run under way). The embedded host
// calls `tick` every minute; with Temporal, `codehealth worker` runs the same tick (one process
// is enough: concurrent ticks coalesce in `enqueue`).
import { MAX_ASSESSMENT_INTERVAL_HOURS, MIN_ASSESSMENT_INTERVAL_HOURS } from '../api/projects.js';
import type { Database } from '../store/database.js';
import { ServiceError } from './errors.js';
import type { HealthService } from './health.js';

export { MAX_ASSESSMENT_INTERVAL_HOURS, MIN_ASSESSMENT_INTERVAL_HOURS };
const HOUR_MS = 3_600_000;

export interface DueProject {
  projectId: string;
  intervalHours: number;
  /** When the latest assessment was created; null when the project was never assessed. */
  lastAssessmentAt: Date | null;
}

export interface TickResult {
  queued: { projectId: string; assessmentId: string; workflowId: string; created: boolean }[];
  failed: { projectId: string; error: string }[];
}

interface CandidateRow {
  id: string;
  interval: unknown;
  last_assessment_at: Date | null;
  first_linked_at: Date | null;
  active: boolean;
}

export type ScheduleLog = (line: string) => void;

/** The interval in hours when `value` is a valid one, else undefined. */
export function assessmentIntervalOf(value: unknown): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
  return value >= MIN_ASSESSMENT_INTERVAL_HOURS && value <= MAX_ASSESSMENT_INTERVAL_HOURS ? value : undefined;
}

export class AssessmentScheduler {
  /** Project id → the invalid value already reported (a tick a minute must not repeat it). */
  private readonly reported = new Map<string, string>();

  constructor(
    private readonly db: Database,
    private readonly health: HealthService,
  ) {}

  async dueProjects(now: Date, log: ScheduleLog = () => {}): Promise<DueProject[]> {
    const rows = await this.db.query<CandidateRow>(
      `SELECT p.id, p.settings->'schedule'->'assessment_interval_hours' AS interval,
              (SELECT max(a.created_at) FROM health_assessments a WHERE a.project_id = p.id) AS last_assessment_at,
              (SELECT min(l.linked_at) FROM project_repositories l WHERE l.project_id = p.id) AS first_linked_at,
              EXISTS (SELECT 1 FROM health_assessments a WHERE a.project_id = p.id AND a.status IN ('pending', 'running')) AS active
         FROM projects p
        WHERE p.settings->'schedule'->'assessment_interval_hours' IS NOT NULL
        ORDER BY p.id`,
    );
    const due: DueProject[] = [];
    for (const row of rows) {
      const intervalHours = assessmentIntervalOf(row.interval);
      if (intervalHours === undefined) {
        this.reportInvalid(row.id, row.interval, log);
        continue;
      }
      this.reported.delete(row.id);
      if (row.active || row.first_linked_at === null) continue;
      const since = row.last_assessment_at ?? row.first_linked_at;
      if (now.getTime() - new Date(since).getTime() >= intervalHours * HOUR_MS) {
        due.push({ projectId: row.id, intervalHours, lastAssessmentAt: row.last_assessment_at ? new Date(row.last_assessment_at) : null });
      }
    }
    return due;
  }

  /** Queues a `scheduled` assessment for every due project; one project's failure does not stop the others. */
  async tick(now: Date = new Date(), log: ScheduleLog = () => {}): Promise<TickResult> {
    const result: TickResult = { queued: [], failed: [] };
    for (const project of await this.dueProjects(now, log)) {
      try {
        const run = await this.health.enqueue(project.projectId, 'scheduled');
        result.queued.push({ projectId: project.projectId, assessmentId: run.assessmentId, workflowId: run.workflowId, created: run.created });
      } catch (error) {
        // Deleted or unlinked since the query (404/409), or the workflow engine is down (503: the
        // refused run is recorded as failed, so the next attempt comes one interval later).
        if (!(error instanceof ServiceError)) throw error;
        result.failed.push({ projectId: project.projectId, error: error.message });
        log(`scheduled assessment of project ${project.projectId} not queued: ${error.message}`);
      }
    }
    return result;
  }

  private reportInvalid(projectId: string, value: unknown, log: ScheduleLog): void {
    const shown = JSON.stringify(value) ?? String(value);
    if (this.reported.get(projectId) === shown) return;
    this.reported.set(projectId, shown);
    log(
      `project ${projectId}: settings.schedule.assessment_interval_hours ${shown.slice(0, 80)} is ignored ` +
        `(a number of hours from ${MIN_ASSESSMENT_INTERVAL_HOURS} to ${MAX_ASSESSMENT_INTERVAL_HOURS} is expected)`,
    );
  }
}
