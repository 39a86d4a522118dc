// The workflow scenarios on the embedded runner (both stores), plus what only it has: restart
// recovery of jobs left running by a dead process, and cancellation.
import { expect, it } from 'vitest';
import type { EmbeddedRunner } from '@codehealth/worker';
import { describeStores } from '../helpers/test-api.js';
import { embeddedEngine, embeddedRunnerFor, useWorkflowEnvironment, workflowScenarios } from './scenarios.js';
import { hostileLinkScenarios } from './hostile-links.js';

describeStores('embedded workflows', (store) => {
  let runner: EmbeddedRunner;
  const context = useWorkflowEnvironment(store, async (api, activities, log) => {
    runner = embeddedRunnerFor(api, activities, log);
    return embeddedEngine(api, runner);
  });

  workflowScenarios(context);
  hostileLinkScenarios(context);

  it('resumes a run left `running` by a dead process, and cancels queued work', async () => {
    const projectId = await context.api.createProject(context.owner);
    await context.api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
      key: context.owner.key,
      body: { url: `file://${context.repo.root}`, skip_onboarding: true },
    });
    await runner.stop();
    const trigger = await context.api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: context.owner.key });
    // What a crash mid-run leaves behind: the job claimed by a process that no longer exists.
    await context.api.db.query("UPDATE jobs SET status = 'running', locked_by = 'embedded-dead', attempts = 1 WHERE workflow_id = $1", [
      trigger.body.workflow_id,
    ]);
    await context.api.db.query("UPDATE health_assessments SET status = 'running', started_at = now() WHERE id = $1", [trigger.body.assessment_id]);

    const other = await context.api.createProject(context.owner);
    await context.api.request('POST', `/api/v1/projects/${other}/repos/add-public`, {
      key: context.owner.key,
      body: { url: `file://${context.repo.root}`, skip_onboarding: true },
    });
    const cancelled = await context.api.request('POST', `/api/v1/projects/${other}/health/trigger`, { key: context.owner.key });
    expect(await runner.cancel(cancelled.body.workflow_id)).toBe(true);

    await runner.start();
    await runner.drain();
    const resumed = await context.api.request('GET', `/api/v1/projects/${projectId}/health/assessments/${trigger.body.assessment_id}`, {
      key: context.owner.key,
    });
    expect(resumed.body.status).toBe('completed');
    expect(context.log.some((line) => line.includes(`resuming ${trigger.body.workflow_id}`))).toBe(true);
    const issues = await context.api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM issues WHERE context_id = $1', [trigger.body.assessment_id]);
    const distinct = await context.api.db.query<{ n: number }>('SELECT count(DISTINCT id)::int AS n FROM issues WHERE context_id = $1', [
      trigger.body.assessment_id,
    ]);
    expect(issues[0]!.n).toBe(distinct[0]!.n);
    const gone = await context.api.request('GET', `/api/v1/projects/${other}/health/assessments/${cancelled.body.assessment_id}`, { key: context.owner.key });
    expect(gone.body.status).toBe('failed');
    const [job] = await context.api.db.query<{ status: string }>('SELECT status FROM jobs WHERE workflow_id = $1', [cancelled.body.workflow_id]);
    expect(job!.status).toBe('cancelled');
  }, 120_000);
});
