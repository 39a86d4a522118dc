// Scheduled assessments on both stores with a controlled clock: which projects are due (interval
// from settings, latest assessment, first link, runs under way, invalid values logged once), and
// what a tick queues (scheduled assessments and their jobs), including a refused workflow start.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { staticCodeHosts } from '../ports/code-host.js';
import type { WorkflowStarter } from '../ports/workflow-starter.js';
import type { Database } from '../store/database.js';
import { createTestDatabase, testPostgresUrl, type TestStoreKind } from '../store/test-database.js';
import { JobQueueWorkflowStarter } from './job-queue.js';
import { assessmentIntervalOf } from './schedules.js';
import { Services } from './services.js';

// Near the real clock: runs queued by a tick are created at the store's now().
const NOW = new Date();
const hoursBefore = (hours: number, from = NOW) => new Date(from.getTime() - hours * 3_600_000);

for (const store of ['pglite', 'postgres'] as const satisfies readonly TestStoreKind[]) {
  const run = store === 'postgres' && !testPostgresUrl() ? describe.skip : describe;
  run(`AssessmentScheduler [${store}]`, () => {
    let db: Database;
    let dispose: () => Promise<void>;
    let services: Services;
    let log: string[];

    beforeAll(async () => {
      ({ db, dispose } = await createTestDatabase(store));
      services = new Services({ db, workflows: new JobQueueWorkflowStarter(db), codeHosts: staticCodeHosts([]) });
    });
    afterAll(() => dispose?.());
    beforeEach(async () => {
      await db.query('DELETE FROM projects');
      log = [];
    });

    /** A project with `settings`, linked to one repository at `linkedAt` (none when null). */
    async function project(settings: unknown, linkedAt: Date | null = hoursBefore(1000)): Promise<string> {
      const id = randomUUID();
      await db.query('INSERT INTO projects (id, name, key, settings) VALUES ($1, $2, $3, $4)', [id, 'P', `p-${id}`, settings]);
      if (linkedAt) {
        const repo = randomUUID();
        await db.query("INSERT INTO repositories (id, provider, owner, name, full_name, url, clone_url) VALUES ($1, 'local', 'acme', 'r', 'acme/r', $2, $2)", [
          repo,
          `file:///tmp/${repo}`,
        ]);
        await db.query('INSERT INTO project_repositories (project_id, repository_id, linked_at) VALUES ($1, $2, $3)', [id, repo, linkedAt]);
      }
      return id;
    }

    async function assessment(projectId: string, createdAt: Date, status = 'completed', trigger = 'manual'): Promise<void> {
      await db.query('INSERT INTO health_assessments (id, project_id, trigger_type, status, created_at) VALUES ($1, $2, $3, $4, $5)', [
        randomUUID(),
        projectId,
        trigger,
        status,
        createdAt,
      ]);
    }

    const every = (hours: unknown) => ({ schedule: { assessment_interval_hours: hours } });
    const dueIds = async (now = NOW) => (await services.schedules.dueProjects(now, (line) => log.push(line))).map((due) => due.projectId).sort();

    it('is due N hours or more after the latest assessment of any trigger and status', async () => {
      const stale = await project(every(24));
      await assessment(stale, hoursBefore(25), 'completed', 'push');
      const exact = await project(every(24));
      await assessment(exact, hoursBefore(24), 'failed');
      const fresh = await project(every(24));
      await assessment(fresh, hoursBefore(48));
      await assessment(fresh, hoursBefore(23), 'completed', 'pr_merge');
      const busy = await project(every(24));
      await assessment(busy, hoursBefore(30), 'running');
      await project({ theme: 'dark' }); // no schedule
      expect(await dueIds()).toEqual([stale, exact].sort());
      expect((await services.schedules.dueProjects(NOW)).find((due) => due.projectId === stale)).toEqual({
        projectId: stale,
        intervalHours: 24,
        lastAssessmentAt: hoursBefore(25),
      });
    });

    it('counts a never-assessed project from its first link, and skips projects without repositories', async () => {
      const linkedLongAgo = await project(every(2), hoursBefore(3));
      await project(every(2), hoursBefore(1));
      await project(every(1), null);
      expect(await dueIds()).toEqual([linkedLongAgo]);
    });

    it('ignores invalid intervals with one log line per project and value', async () => {
      const text = await project(every('24'));
      await project(every(0.5));
      await project(every(721));
      await project(every(null));
      await project({ schedule: 'daily' }); // not an object: no interval at all
      const fractional = await project(every(1.5), hoursBefore(2));
      expect(await dueIds()).toEqual([fractional]);
      expect(log).toHaveLength(4);
      expect(log.find((line) => line.startsWith(`project ${text}:`))).toBe(
        `project ${text}: settings.schedule.assessment_interval_hours "24" is ignored (a number of hours from 1 to 720 is expected)`,
      );
      await dueIds();
      expect(log).toHaveLength(4);
      await db.query('UPDATE projects SET settings = $2 WHERE id = $1', [text, every('48')]);
      await dueIds();
      expect(log).toHaveLength(5);
      expect([1, 720, 36.5].map(assessmentIntervalOf)).toEqual([1, 720, 36.5]);
      expect([0, -1, 720.5, Number.NaN, Infinity, '3', undefined].map(assessmentIntervalOf)).toEqual(Array(7).fill(undefined));
    });

    it('tick queues a scheduled assessment and its job per due project, then waits one interval', async () => {
      const a = await project(every(6));
      await assessment(a, hoursBefore(7));
      const b = await project(every(12), hoursBefore(13));
      const notYet = await project(every(12));
      await assessment(notYet, hoursBefore(2));

      const result = await services.schedules.tick(NOW);
      expect(result.failed).toEqual([]);
      expect(result.queued.map((queued) => queued.projectId).sort()).toEqual([a, b].sort());
      for (const queued of result.queued) {
        expect(queued.created).toBe(true);
        const rows = await db.query("SELECT id, status, workflow_id FROM health_assessments WHERE project_id = $1 AND trigger_type = 'scheduled'", [
          queued.projectId,
        ]);
        expect(rows).toEqual([{ id: queued.assessmentId, status: 'pending', workflow_id: queued.workflowId }]);
        const jobs = await db.query('SELECT kind, input FROM jobs WHERE workflow_id = $1', [queued.workflowId]);
        expect(jobs).toEqual([{ kind: 'health-assessment', input: { projectId: queued.projectId, assessmentId: queued.assessmentId } }]);
      }
      // Pending runs are not due again; once completed, the next one comes an interval after it was created.
      expect((await services.schedules.tick(hoursBefore(-1))).queued).toEqual([]);
      await db.query("UPDATE health_assessments SET status = 'completed', created_at = $1 WHERE trigger_type = 'scheduled'", [NOW]);
      expect((await services.schedules.tick(hoursBefore(-5))).queued).toEqual([]);
      expect((await services.schedules.tick(hoursBefore(-6))).queued.map((queued) => queued.projectId)).toEqual([a]);
      expect((await services.schedules.tick(hoursBefore(-12))).queued.map((queued) => queued.projectId).sort()).toEqual([b, notYet].sort());
    });

    it('tick reports a refused workflow start per project and carries on', async () => {
      const refusing: WorkflowStarter = { start: async () => Promise.reject(new Error('connection refused')) };
      const down = new Services({ db, workflows: refusing, codeHosts: staticCodeHosts([]) });
      const a = await project(every(1), hoursBefore(2));
      const b = await project(every(1), hoursBefore(2));
      const result = await down.schedules.tick(NOW, (line) => log.push(line));
      expect(result.queued).toEqual([]);
      expect(result.failed).toEqual([a, b].sort().map((projectId) => ({ projectId, error: 'the workflow engine is unavailable; try again later' })));
      expect(log).toEqual([a, b].sort().map((id) => `scheduled assessment of project ${id} not queued: the workflow engine is unavailable; try again later`));
      // The refused runs are recorded as failed: the next attempt is one interval later.
      expect(await db.query("SELECT count(*)::int AS n FROM health_assessments WHERE status = 'failed' AND trigger_type = 'scheduled'")).toEqual([{ n: 2 }]);
      expect(await dueIds()).toEqual([]);
      expect(await dueIds(hoursBefore(-2))).toEqual([a, b].sort());
    });
  });
}
