// The PR analysis workflow's feedback on a real Temporal server (test/infra/temporal.sh; CI sets
// TEST_TEMPORAL_ADDRESS), against the loopback GitHub: workflows started through the Temporal
// client — directly, and by the service's webhook intake — and run by a worker registered like
// `codehealth worker`. The exact requests GitHub receives: the check run created in progress, then
// completed, one sticky comment; a redelivered webhook and a second run of the workflow create no
// second check run and no second comment. As in pr-feedback-activities.test.ts (the embedded
// runner), the analysis activity records a fixed result through the real recorder; the feedback
// activities, the workflow, the store, Octokit and Temporal are real.
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { createAppAuth } from '@octokit/auth-app';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, GitHubCodeHost, Services, staticCodeHosts, type Database, type WorkflowRequest } from '@codehealth/service';
import { skipWithoutBuild } from '../../../../test/helpers/built-packages.js';
import { startFakeGitHub, type FakeGitHub } from '../../../../test/helpers/fake-github.js';
import { openedPullRequestEvent, pullRequestDelivery, readyAnalysis, seedLinkedPullRequest } from '../../../../test/helpers/linked-pull-request.js';
import { prActivities, type PrActivityDeps } from '../activities/pr-activities.js';
import type { Activities } from '../workflows/activities.js';
import { TemporalWorkflowStarter } from './temporal-starter.js';
import { createTemporalWorker, WORKFLOWS_PATH } from './temporal-worker.js';

const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';
const REPO = '/repos/Codertocat/Hello-World';

const address = process.env.TEST_TEMPORAL_ADDRESS;
if (!address) console.warn('Temporal PR feedback suite skipped: TEST_TEMPORAL_ADDRESS is not set (start a server with test/infra/temporal.sh)');
// The worker bundles the built workflow module (dist), as `codehealth worker` does.
const unbuilt = address !== undefined && skipWithoutBuild('The Temporal PR feedback suite', [pathToFileURL(WORKFLOWS_PATH)]);

describe.skipIf(!address || unbuilt)('PR feedback through Temporal', () => {
  let db: Database;
  let dispose: () => Promise<void>;
  let github: FakeGitHub;
  let services: Services;
  let client: TemporalWorkflowStarter;
  let stopWorker: () => Promise<void>;
  const started = new Set<string>();
  let projectId: string;
  let repositoryId: string;

  beforeAll(async () => {
    ({ db, dispose } = await createTestDatabase('pglite'));
    github = await startFakeGitHub();
    const host = new GitHubCodeHost({
      baseUrl: github.baseUrl,
      app: { authStrategy: createAppAuth, auth: { appId: github.appId, privateKey: github.privateKey } },
    });
    const taskQueue = `codehealth-feedback-${randomUUID()}`;
    client = await TemporalWorkflowStarter.connect({ address: address!, taskQueue });
    // Every workflow the service starts (the webhook intake) goes to Temporal; its id is kept to await it.
    const workflows = {
      async start(request: WorkflowRequest, options?: { workflowId?: string }) {
        const result = await client.start(request, options);
        started.add(result.workflowId);
        return result;
      },
    };
    services = new Services({ db, workflows, codeHosts: staticCodeHosts([host]) });
    const activities = {
      ...prActivities({ services } as PrActivityDeps),
      analyzePullRequest: readyAnalysis(services),
    } as Activities;
    const { worker, connection } = await createTemporalWorker({ address: address!, taskQueue, activities });
    const running = worker.run();
    stopWorker = async () => {
      worker.shutdown();
      await running;
      await connection.close();
    };
  });
  afterAll(async () => {
    await stopWorker?.();
    await client?.close();
    await github?.close();
    await dispose?.();
  });
  beforeEach(async () => {
    started.clear();
    ({ projectId, repositoryId } = await seedLinkedPullRequest(db, github, HEAD));
  });

  /** Waits for every workflow started so far to end. */
  const settle = async () => {
    for (const id of started) await client.result(id);
  };
  /** What GitHub received, App token requests left out: method and path. */
  const sent = () =>
    github.exchanges.filter((exchange) => !exchange.path.startsWith('/app/')).map((exchange) => `${exchange.method} ${exchange.path.split('?')[0]}`);
  const bodyOf = (method: string, prefix: string) => github.exchanges.find((exchange) => exchange.method === method && exchange.path.startsWith(prefix))?.body;
  const comments = () => github.comments.get('codertocat/hello-world#2') ?? [];
  const feedbackOf = async (analysisId: string) =>
    (await db.query<{ status: string; feedback: { status: string } | null }>('SELECT status, feedback FROM pr_analyses WHERE id = $1', [analysisId]))[0]!;

  it('creates the check run in progress, completes it, and posts one sticky comment', async () => {
    const analysisId = randomUUID();
    await db.query(
      "INSERT INTO pr_analyses (id, project_id, repository_id, pr_number, head_sha, status, analysis_run_id) VALUES ($1, $2, $3, 2, $4, 'pending', $5)",
      [analysisId, projectId, repositoryId, HEAD, randomUUID()],
    );
    const { workflowId } = await client.start({ kind: 'pr-analysis', projectId, analysisId }, { workflowId: `pr-analysis-${analysisId}` });
    await client.result(workflowId);
    const [checkRunId] = [...github.checkRuns.keys()];
    expect(sent()).toEqual([
      `GET ${REPO}/commits/${HEAD}/check-runs`,
      `POST ${REPO}/check-runs`,
      `GET ${REPO}/commits/${HEAD}/check-runs`,
      `PATCH ${REPO}/check-runs/${checkRunId}`,
      `GET ${REPO}/issues/2/comments`,
      `POST ${REPO}/issues/2/comments`,
    ]);
    expect(bodyOf('POST', `${REPO}/check-runs`)).toMatchObject({ name: 'CodeHealth', head_sha: HEAD, status: 'in_progress' });
    expect(bodyOf('PATCH', `${REPO}/check-runs/`)).toMatchObject({ status: 'completed', conclusion: 'success' });
    expect([...github.checkRuns.values()].map((run) => [run.name, run.status, run.conclusion])).toEqual([['CodeHealth', 'completed', 'success']]);
    expect(comments()).toHaveLength(1);
    expect(await feedbackOf(analysisId)).toMatchObject({ status: 'completed', feedback: { status: 'posted' } });
  }, 120_000);

  it('a redelivered webhook, and the workflow run again, create no second check run or comment', async () => {
    const payload = openedPullRequestEvent(HEAD);
    const first = pullRequestDelivery(`d-${randomUUID()}`, payload);
    expect(await services.webhooks.receiveGitHub(first)).toMatchObject({
      status: 'processed',
      actions: expect.arrayContaining([expect.objectContaining({ repository_id: repositoryId, created: true })]),
    });
    expect(started.size).toBe(1);
    await settle();
    expect(sent().filter((request) => request.startsWith('POST'))).toEqual([`POST ${REPO}/check-runs`, `POST ${REPO}/issues/2/comments`]);
    expect([github.checkRuns.size, comments().length]).toEqual([1, 1]);
    const [workflowId] = [...started];
    const [checkRunId] = [...github.checkRuns.keys()];
    const comment = comments()[0]!.body;

    // The same delivery again, twice, and a new delivery of the same head: the completed analysis is reused, nothing is sent.
    github.exchanges.length = 0;
    await services.webhooks.receiveGitHub(first);
    await services.webhooks.receiveGitHub(first);
    await services.webhooks.receiveGitHub(pullRequestDelivery(`d-${randomUUID()}`, { ...payload, action: 'reopened' }));
    await settle();
    expect(sent()).toEqual([]);

    // The workflow of that analysis run a second time (a reset, a replayed run): the check run and the
    // comment are found on GitHub and updated in place — no POST at all — and the comment, unchanged, is not touched.
    const analysisId = workflowId!.replace(/^pr-analysis-/, '');
    const again = await client.start({ kind: 'pr-analysis', projectId, analysisId }, { workflowId: `${workflowId}-again` });
    await client.result(again.workflowId);
    expect(sent()).toEqual([
      `GET ${REPO}/commits/${HEAD}/check-runs`,
      `PATCH ${REPO}/check-runs/${checkRunId}`,
      `GET ${REPO}/commits/${HEAD}/check-runs`,
      `PATCH ${REPO}/check-runs/${checkRunId}`,
      `GET ${REPO}/issues/2/comments`,
    ]);
    expect([github.checkRuns.size, comments().length]).toEqual([1, 1]);
    expect(comments()[0]!.body).toBe(comment);
    expect(github.checkRuns.get(checkRunId!)).toMatchObject({ status: 'completed', conclusion: 'success' });
  }, 120_000);
});
