// The PR analysis workflow's feedback steps in the embedded runner, against the loopback GitHub:
// a 5xx is retried by the activity policy and the feedback then posted; GitHub refusing every
// attempt (429 with Retry-After) leaves the analysis completed, the job completed, and the
// analysis noting that its feedback was not posted. The analysis activity records a fixed result
// through the real recorder (the pipeline is tested in pr-activities.test.ts); everything else is
// the real activities, runner, store and Octokit.
import { randomUUID } from 'node:crypto';
import { createAppAuth } from '@octokit/auth-app';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, GitHubCodeHost, JobQueueWorkflowStarter, Services, staticCodeHosts, type Database } from '@codehealth/service';
import { startFakeGitHub, type FakeGitHub } from '../../../../test/helpers/fake-github.js';
import { openedPullRequestEvent, pullRequestDelivery, readyAnalysis, seedLinkedPullRequest } from '../../../../test/helpers/linked-pull-request.js';
import { EmbeddedRunner } from '../embedded/embedded-runner.js';
import type { Activities } from '../workflows/activities.js';
import { ACTIVITY_RETRY } from '../workflows/retry.js';
import { prActivities, type PrActivityDeps } from './pr-activities.js';

const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';

describe('PR analysis workflow: feedback steps', () => {
  let db: Database;
  let dispose: () => Promise<void>;
  let github: FakeGitHub;
  let services: Services;
  let projectId: string;
  let repositoryId: string;
  let log: string[];

  beforeAll(async () => {
    ({ db, dispose } = await createTestDatabase('pglite'));
    github = await startFakeGitHub();
    const host = new GitHubCodeHost({
      baseUrl: github.baseUrl,
      app: { authStrategy: createAppAuth, auth: { appId: github.appId, privateKey: github.privateKey } },
    });
    services = new Services({ db, workflows: new JobQueueWorkflowStarter(db), codeHosts: staticCodeHosts([host]) });
  });
  afterAll(async () => {
    await github?.close();
    await dispose?.();
  });
  beforeEach(async () => {
    log = [];
    ({ projectId, repositoryId } = await seedLinkedPullRequest(db, github, HEAD));
  });

  /** Runs one PR analysis workflow to its end in the embedded runner; returns the analysis id. */
  async function runAnalysis(): Promise<string> {
    const analysisId = randomUUID();
    await db.query(
      "INSERT INTO pr_analyses (id, project_id, repository_id, pr_number, head_sha, status, analysis_run_id) VALUES ($1, $2, $3, 2, $4, 'pending', $5)",
      [analysisId, projectId, repositoryId, HEAD, randomUUID()],
    );
    const starter = new JobQueueWorkflowStarter(db);
    await starter.start({ kind: 'pr-analysis', projectId, analysisId }, { workflowId: `pr-analysis-${analysisId}` });
    await drain();
    return analysisId;
  }

  /** Runs every queued workflow to its end in a fresh embedded runner (no state kept between calls). */
  async function drain(): Promise<void> {
    const real = prActivities({ services } as PrActivityDeps);
    const activities = {
      ...real,
      analyzePullRequest: readyAnalysis(services),
    } as Activities;
    const runner = new EmbeddedRunner({
      db,
      starter: new JobQueueWorkflowStarter(db),
      activities,
      pollIntervalMs: 20,
      retry: { ...ACTIVITY_RETRY, initialIntervalMs: 1, backoffCoefficient: 1, maximumIntervalMs: 5 },
      log: (line) => log.push(line),
    });
    await runner.start();
    try {
      await runner.drain(60_000);
    } finally {
      await runner.stop();
    }
  }

  const record = async (analysisId: string) =>
    (
      await db.query<{ status: string; feedback: { status: string; reason?: string } | null }>('SELECT status, feedback FROM pr_analyses WHERE id = $1', [
        analysisId,
      ])
    )[0]!;
  const job = async (analysisId: string) =>
    (await db.query<{ status: string }>('SELECT status FROM jobs WHERE workflow_id = $1', [`pr-analysis-${analysisId}`]))[0]!;
  const sent = () =>
    github.exchanges.filter((exchange) => !exchange.path.startsWith('/app/')).map((exchange) => `${exchange.method} ${exchange.path.split('?')[0]}`);

  it('retries a 5xx and then posts: the check run created in progress, completed, one comment', async () => {
    github.failures.push({ status: 502, body: { message: 'Server Error' } });
    const id = await runAnalysis();
    expect(sent()).toEqual([
      `GET /repos/Codertocat/Hello-World/commits/${HEAD}/check-runs`, // 502
      `GET /repos/Codertocat/Hello-World/commits/${HEAD}/check-runs`,
      'POST /repos/Codertocat/Hello-World/check-runs',
      `GET /repos/Codertocat/Hello-World/commits/${HEAD}/check-runs`,
      `PATCH /repos/Codertocat/Hello-World/check-runs/${[...github.checkRuns.keys()][0]}`,
      'GET /repos/Codertocat/Hello-World/issues/2/comments',
      'POST /repos/Codertocat/Hello-World/issues/2/comments',
    ]);
    expect(log.some((line) => /activity beginPrFeedback .* failed \(attempt 1\): GitHub could not list the check runs: unavailable \(502/.test(line))).toBe(
      true,
    );
    expect([...github.checkRuns.values()].map((run) => [run.status, run.conclusion])).toEqual([['completed', 'success']]);
    expect(await record(id)).toMatchObject({ status: 'completed', feedback: { status: 'posted' } });
    expect((await job(id)).status).toBe('completed');
  });

  it('GitHub refusing every attempt (429) leaves the analysis completed, noting that feedback was not posted', async () => {
    for (let i = 0; i < 6; i++)
      github.failures.push({ status: 429, headers: { 'retry-after': '1' }, body: { message: 'You have exceeded a secondary rate limit.' } });
    const id = await runAnalysis();
    // Three attempts of each step, each stopped at its first request.
    expect(sent()).toEqual(Array.from({ length: 6 }, () => `GET /repos/Codertocat/Hello-World/commits/${HEAD}/check-runs`));
    // The requested second is waited for up to the policy's longest interval (5 ms here), not the 1 ms backoff.
    expect(log.filter((line) => /failed \(attempt \d\).*retrying in 5 ms$/.test(line))).toHaveLength(4);
    const after = await record(id);
    expect(after).toMatchObject({
      status: 'completed',
      feedback: { status: 'not_posted', reason: expect.stringContaining('GitHub could not list the check runs: rate limited (429') },
    });
    expect((await job(id)).status).toBe('completed');
    expect(github.checkRuns.size).toBe(0);
  });

  it('a redelivered webhook, or the same event delivered again, posts nothing twice', async () => {
    const payload = openedPullRequestEvent(HEAD);
    expect(await services.webhooks.receiveGitHub(pullRequestDelivery(`d-${randomUUID()}`, payload))).toMatchObject({
      status: 'processed',
      actions: expect.arrayContaining([expect.objectContaining({ repository_id: repositoryId, created: true })]),
    });
    await drain();
    expect([github.checkRuns.size, github.comments.get('codertocat/hello-world#2')?.length]).toEqual([1, 1]);
    github.exchanges.length = 0;

    const redelivered = pullRequestDelivery(`d-${randomUUID()}`, payload);
    await services.webhooks.receiveGitHub(redelivered);
    await services.webhooks.receiveGitHub(redelivered);
    // The same head announced again by a new delivery (a reopened PR, a re-sent event): the completed analysis is reused.
    await services.webhooks.receiveGitHub(pullRequestDelivery(`d-${randomUUID()}`, { ...payload, action: 'reopened' }));
    await drain();
    expect(sent()).toEqual([]);
    expect([github.checkRuns.size, github.comments.get('codertocat/hello-world#2')?.length]).toEqual([1, 1]);
    const analyses = await db.query<{ feedback: { status: string } }>('SELECT feedback FROM pr_analyses WHERE repository_id = $1', [repositoryId]);
    expect(analyses.map((row) => row.feedback.status)).toEqual(['posted']);
  });
});
