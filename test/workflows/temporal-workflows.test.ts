// The same workflow scenarios on a real Temporal server (test/infra/temporal.sh; CI starts it and
// sets TEST_TEMPORAL_ADDRESS): workflows started through the Temporal client, run by a worker
// registered like `codehealth worker`, with the same activities as the embedded runner.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { WorkflowRequest } from '@codehealth/service';
import { createTemporalWorker, failureMessage, TemporalWorkflowStarter } from '@codehealth/worker';
import { useWorkflowEnvironment, workflowScenarios } from './scenarios.js';
import { hostileLinkScenarios } from './hostile-links.js';

const address = process.env.TEST_TEMPORAL_ADDRESS;
if (!address) console.warn('Temporal workflow suite skipped: TEST_TEMPORAL_ADDRESS is not set (start a server with test/infra/temporal.sh)');

describe.skipIf(!address)('Temporal workflows [pglite]', () => {
  const started = new Set<string>();
  let client: TemporalWorkflowStarter;
  const context = useWorkflowEnvironment('pglite', async (_api, activities) => {
    const taskQueue = `codehealth-test-${randomUUID()}`;
    client = await TemporalWorkflowStarter.connect({ address: address!, taskQueue });
    const { worker, connection } = await createTemporalWorker({ address: address!, taskQueue, activities });
    const running = worker.run();
    return {
      starter: {
        async start(request: WorkflowRequest, options?: { workflowId?: string }) {
          const result = await client.start(request, options);
          started.add(result.workflowId);
          return result;
        },
      },
      async awaitIdle() {
        for (const id of started) await client.result(id).catch(() => undefined);
      },
      async outcome(workflowId: string) {
        try {
          await client.result(workflowId);
          return { status: 'completed' as const };
        } catch (error) {
          return { status: 'failed' as const, error: failureMessage(error) };
        }
      },
      async stop() {
        worker.shutdown();
        await running;
        await connection.close();
        await client.close();
      },
    };
  });

  workflowScenarios(context);
  hostileLinkScenarios(context);

  it("returns Temporal's workflow id from the trigger and reuses it for a pending run", async () => {
    const projectId = await context.api.createProject(context.owner);
    await context.api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
      key: context.owner.key,
      body: { url: `file://${context.repo.root}`, skip_onboarding: true },
    });
    const trigger = await context.api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: context.owner.key });
    expect(trigger.body.workflow_id).toBe(`health-assessment-${trigger.body.assessment_id}`);
    expect(started.has(trigger.body.workflow_id)).toBe(true);
    await expect(client.result(trigger.body.workflow_id)).resolves.toMatchObject({ overallScore: expect.any(Number) });
    const record = await context.api.request('GET', `/api/v1/projects/${projectId}/health/assessments/${trigger.body.assessment_id}`, {
      key: context.owner.key,
    });
    expect(record.body.status).toBe('completed');
  }, 120_000);
});
