// Limits on queued work of the embedded starter, on the real embedded store: a user's request over
// the user's or the project's limit is refused with a conflict that says why; the same workflow
// started again and work nobody asked for (webhooks, schedules) are never refused; finished jobs
// no longer count.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../store/database.js';
import { createTestDatabase } from '../store/test-database.js';
import { ConflictError } from './errors.js';
import { seedProject } from './fixtures/seeded-project.js';
import { JobQueueWorkflowStarter } from './job-queue.js';

let db: Database;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ db, dispose } = await createTestDatabase('pglite'));
});
afterAll(() => dispose?.());

const detect = (projectId: string) => ({ kind: 'convention-detection', projectId }) as const;
/** Convention detections are named by the clock: two in one millisecond would be one job. */
const fresh = () => ({ workflowId: `convention-detection-${randomUUID()}` });

describe('JobQueueWorkflowStarter limits', () => {
  it("refuses a user's request once the user has `perUser` runs queued or running, across projects", async () => {
    const a = await seedProject(db);
    const b = await seedProject(db, { owner: a.owner });
    const starter = new JobQueueWorkflowStarter(db, { perUser: 3, perProject: 0 });
    await starter.start(detect(a.projectId), { ...fresh(), requestedBy: a.owner.userId });
    await starter.start(detect(a.projectId), { ...fresh(), requestedBy: a.owner.userId });
    const { workflowId } = await starter.start(detect(b.projectId), { ...fresh(), requestedBy: a.owner.userId });

    const refused = starter.start(detect(b.projectId), { ...fresh(), requestedBy: a.owner.userId });
    await expect(refused).rejects.toBeInstanceOf(ConflictError);
    await expect(refused).rejects.toThrow('you already have 3 runs queued or running (at most 3); try again when one has finished');
    // The same workflow again is the same job; a webhook's run names no user and is never refused.
    await expect(starter.start(detect(b.projectId), { workflowId, requestedBy: a.owner.userId })).resolves.toEqual({ workflowId });
    await starter.start(detect(b.projectId), fresh());
    const jobs = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs WHERE user_id = $1', [a.owner.userId]);
    expect(jobs[0]!.n).toBe(4);

    // A finished run no longer counts.
    await db.query("UPDATE jobs SET status = 'completed' WHERE workflow_id = $1", [workflowId]);
    await db.query("UPDATE jobs SET status = 'failed' WHERE user_id = $1 AND input ->> 'projectId' = $2", [a.owner.userId, b.projectId]);
    await expect(starter.start(detect(b.projectId), { ...fresh(), requestedBy: a.owner.userId })).resolves.toBeDefined();
  });

  it("refuses any user's request once the project has `perProject` runs queued or running", async () => {
    const project = await seedProject(db);
    const member = { userId: randomUUID(), email: 'member@example.com' };
    await db.query('INSERT INTO users (id, email) VALUES ($1, $2)', [member.userId, member.email]);
    const starter = new JobQueueWorkflowStarter(db, { perUser: 0, perProject: 2 });
    await starter.start(detect(project.projectId), { ...fresh(), requestedBy: project.owner.userId });
    await starter.start(detect(project.projectId), fresh());
    await expect(starter.start(detect(project.projectId), { ...fresh(), requestedBy: member.userId })).rejects.toThrow(
      'this project already has 2 runs queued or running (at most 2); try again when one has finished',
    );
  });

  it('records the project and the user each job counts against: who asked, else the first owner', async () => {
    const project = await seedProject(db);
    const asker = randomUUID();
    await db.query('INSERT INTO users (id, email) VALUES ($1, $2)', [asker, `${asker}@example.com`]);
    const starter = new JobQueueWorkflowStarter(db);
    const asked = await starter.start(detect(project.projectId), { ...fresh(), requestedBy: asker });
    const scheduled = await starter.start({ kind: 'health-assessment', projectId: project.projectId, assessmentId: randomUUID() });
    const rows = await db.query<{ workflow_id: string; project_id: string; user_id: string }>(
      'SELECT workflow_id, project_id, user_id FROM jobs WHERE workflow_id = ANY($1::text[]) ORDER BY created_at',
      [[asked.workflowId, scheduled.workflowId]],
    );
    expect(rows).toEqual([
      { workflow_id: asked.workflowId, project_id: project.projectId, user_id: asker },
      { workflow_id: scheduled.workflowId, project_id: project.projectId, user_id: project.owner.userId },
    ]);
  });
});
