// Fair claims of the embedded runner on the real embedded store: a user who queued ten runs does
// not delay another user's run behind all ten, and a project with several runs queued does not
// delay its owner's other projects. The runs are convention detections whose activity reports
// which project it runs and finishes when the test lets it.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, JobQueueWorkflowStarter, type Database } from '@codehealth/service';
import type { Activities } from '../workflows/activities.js';
import { EmbeddedRunner } from './embedded-runner.js';

interface Gate {
  started: string[];
  /** Resolves when `count` runs have started. */
  startedAt(count: number): Promise<void>;
  /** Lets the oldest started run finish. */
  finishNext(): void;
  activities: Activities;
}

/** Activities of convention detections that run one by one, as the test releases them. */
function gatedConventionRuns(): Gate {
  const started: string[] = [];
  const waiting: Array<() => void> = [];
  const watchers: Array<{ count: number; resolve: () => void }> = [];
  const activities = {
    async detectConventions({ projectId }: { projectId: string }) {
      started.push(projectId);
      for (const watcher of watchers.filter((w) => started.length >= w.count)) watcher.resolve();
      await new Promise<void>((resolve) => waiting.push(resolve));
      return { conventions: 0 };
    },
  } as unknown as Activities;
  return {
    started,
    activities,
    startedAt: (count) => (started.length >= count ? Promise.resolve() : new Promise((resolve) => watchers.push({ count, resolve }))),
    finishNext: () => waiting.shift()?.(),
  };
}

/** Convention detections are named by the clock: two in one millisecond would be one job. */
const fresh = () => ({ workflowId: `convention-detection-${randomUUID()}` });

async function createUser(db: Database): Promise<string> {
  const id = randomUUID();
  await db.query('INSERT INTO users (id, email) VALUES ($1, $2)', [id, `${id}@example.com`]);
  return id;
}

async function createProject(db: Database, owner: string): Promise<string> {
  const id = randomUUID();
  await db.query("INSERT INTO projects (id, name, key) VALUES ($1, 'P', $2)", [id, `p-${id}`]);
  await db.query("INSERT INTO project_members (id, project_id, user_id, role) VALUES ($1, $2, $3, 'owner')", [randomUUID(), id, owner]);
  return id;
}

describe('EmbeddedRunner: fair claims', () => {
  let db: Database;
  let dispose: () => Promise<void>;
  let runner: EmbeddedRunner | undefined;

  beforeEach(async () => {
    ({ db, dispose } = await createTestDatabase('pglite'));
  });
  afterEach(async () => {
    await runner?.stop();
    runner = undefined;
    await dispose();
  });

  /** Runs every queued job one at a time (concurrency 1) and returns the projects in the order they ran. */
  async function runAll(starter: JobQueueWorkflowStarter, count: number, concurrency = 1): Promise<string[]> {
    const gate = gatedConventionRuns();
    runner = new EmbeddedRunner({ db, starter, activities: gate.activities, concurrency, pollIntervalMs: 20 });
    await runner.start();
    for (let done = 0; done < count; done++) {
      await gate.startedAt(Math.min(count, done + concurrency));
      gate.finishNext();
    }
    await runner.drain(30_000);
    return gate.started;
  }

  it("claims a second user's run before the first user's tenth, though it was queued after all ten", async () => {
    const [first, second] = [await createUser(db), await createUser(db)];
    const starter = new JobQueueWorkflowStarter(db);
    const firstProjects: string[] = [];
    for (let i = 0; i < 10; i++) {
      const projectId = await createProject(db, first);
      firstProjects.push(projectId);
      await starter.start({ kind: 'convention-detection', projectId }, { ...fresh(), requestedBy: first });
    }
    const secondProject = await createProject(db, second);
    await starter.start({ kind: 'convention-detection', projectId: secondProject }, { ...fresh(), requestedBy: second });

    const order = await runAll(starter, 11);
    expect(order).toHaveLength(11);
    expect(order.indexOf(secondProject)).toBe(1); // right after the run that was first in the queue
    expect(order.filter((p) => p !== secondProject)).toEqual(firstProjects); // the first user's runs keep their order
  });

  it('with two slots, the second user runs at once beside the first', async () => {
    const [first, second] = [await createUser(db), await createUser(db)];
    const starter = new JobQueueWorkflowStarter(db);
    for (let i = 0; i < 10; i++)
      await starter.start({ kind: 'convention-detection', projectId: await createProject(db, first) }, { ...fresh(), requestedBy: first });
    const secondProject = await createProject(db, second);
    await starter.start({ kind: 'convention-detection', projectId: secondProject }, { ...fresh(), requestedBy: second });

    const order = await runAll(starter, 11, 2);
    expect(order.slice(0, 2)).toContain(secondProject);
  });

  it("turns among one user's projects, and counts work nobody asked for against the project's owner", async () => {
    const owner = await createUser(db);
    const starter = new JobQueueWorkflowStarter(db);
    const busy = await createProject(db, owner);
    const quiet = await createProject(db, owner);
    for (let i = 0; i < 4; i++) await starter.start({ kind: 'convention-detection', projectId: busy }, fresh()); // nobody asked (e.g. a schedule)
    await starter.start({ kind: 'convention-detection', projectId: quiet }, { ...fresh(), requestedBy: owner });
    const counted = await db.query<{ user_id: string; project_id: string }>('SELECT DISTINCT user_id, project_id FROM jobs ORDER BY project_id');
    expect(counted).toEqual(
      expect.arrayContaining([
        { user_id: owner, project_id: busy },
        { user_id: owner, project_id: quiet },
      ]),
    );

    const order = await runAll(starter, 5);
    expect(order).toEqual([busy, quiet, busy, busy, busy]);
  });
});
