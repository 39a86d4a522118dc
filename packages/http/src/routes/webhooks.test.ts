// POST /webhooks/github with the real payloads of @octokit/webhooks-examples, signed like GitHub
// signs them: signature checks that write nothing, idempotent deliveries, pull requests stored and
// analysed, merges and default-branch pushes assessed. The repository Codertocat/Hello-World of
// the examples is linked through add-public against a loopback GitHub with recorded payloads.
import { GitHubCodeHost, Services, type WorkflowStarter } from '@codehealth/service';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startFakeGitHub, type FakeGitHub } from '../../../../test/helpers/fake-github.js';
import { createApp } from '../app.js';
import { deliver, example, WEBHOOK_SECRET } from '../fixtures/github-webhooks.js';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const opened = () => example('pull_request', (e) => e.action === 'opened');
const HEAD = opened().pull_request.head.sha as string;

let github: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub();
});
afterAll(() => github?.close());

describeStores('GitHub webhooks', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let projectId: string;
  let repositoryId: string;

  beforeAll(async () => {
    api = await createTestApi({ store, codeHosts: [new GitHubCodeHost({ baseUrl: github.baseUrl })], app: { webhookSecret: WEBHOOK_SECRET } });
    owner = await api.createUser();
  });
  afterAll(() => api?.close());

  /**
   * A fresh project linked to Codertocat/Hello-World; earlier projects are unlinked and earlier
   * deliveries forgotten (the same example body sent again would be a replay).
   */
  beforeEach(async () => {
    await api.db.query('DELETE FROM project_repositories');
    await api.db.query('DELETE FROM webhook_deliveries');
    projectId = await api.createProject(owner);
    repositoryId = await link(projectId);
  });

  async function link(project: string): Promise<string> {
    const added = await api.request('POST', `/api/v1/projects/${project}/repos/add-public`, {
      key: owner.key,
      body: { owner: 'Codertocat', name: 'Hello-World', skip_onboarding: true },
    });
    expect(added.status).toBe(201);
    return added.body.repository.id as string;
  }

  const send = (event: string, payload: unknown, options?: Parameters<typeof deliver>[3]) => deliver(api, event, payload, options);
  const count = async (table: string) => (await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;
  const counts = async () => ({
    deliveries: await count('webhook_deliveries'),
    pulls: await count('pull_requests'),
    analyses: await count('pr_analyses'),
    assessments: await count('health_assessments'),
    jobs: await count('jobs'),
  });
  const pullRow = async () =>
    (await api.db.query<Record<string, unknown>>('SELECT * FROM pull_requests WHERE repository_id = $1 AND pr_number = 2', [repositoryId]))[0];
  const jobsOf = (project: string, kind: string) =>
    api.db.query<{ workflow_id: string; input: Record<string, string> }>("SELECT workflow_id, input FROM jobs WHERE kind = $1 AND input->>'projectId' = $2", [
      kind,
      project,
    ]);

  it('refuses a missing, wrong or stale signature with 401 and writes nothing', async () => {
    const before = await counts();
    const payload = opened();
    const body = JSON.stringify(payload);
    expect(body).toContain('"number":2');
    for (const options of [
      { secret: null },
      { secret: 'another secret' },
      { signature: 'sha256=' + '0'.repeat(64) },
      { signature: 'sha1=abc' },
      { signature: '' },
    ]) {
      const { response } = await send('pull_request', payload, options);
      expect(response).toMatchObject({ status: 401, body: { error: 'invalid signature' } });
    }
    // A body signed, then changed in transit: the signature is over the exact bytes.
    const { sign } = await import('@octokit/webhooks-methods');
    const tampered = await send('pull_request', payload, { body: body.replace('"number":2', '"number":3'), signature: await sign(WEBHOOK_SECRET, body) });
    expect(tampered.response.status).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it('answers 503 when no secret is configured, and 400 for missing headers or a malformed payload', async () => {
    const before = await counts();
    const unconfigured = createApp({ services: api.services, validateResponses: true });
    const response = await unconfigured.request('/webhooks/github', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ error: 'webhooks are not configured (set VCS_WEBHOOK_SECRET)' });

    expect((await send('pull_request', opened(), { omit: ['x-github-delivery'] })).response).toMatchObject({
      status: 400,
      body: { error: 'missing x-github-delivery header' },
    });
    expect((await send('pull_request', opened(), { omit: ['x-github-event'] })).response).toMatchObject({
      status: 400,
      body: { error: 'missing x-github-event header' },
    });
    expect((await send('pull_request', null, { body: '{"action":' })).response).toMatchObject({
      status: 400,
      body: { error: 'webhook payload is not valid JSON' },
    });
    const incomplete = opened();
    delete incomplete.pull_request.head;
    expect((await send('pull_request', incomplete)).response).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^invalid pull_request payload: pull_request\.head: /) },
    });
    expect((await send('push', [1, 2])).response).toMatchObject({ status: 400, body: { error: 'invalid push payload: expected a JSON object' } });
    const large = await send('push', null, { body: JSON.stringify({ padding: 'x'.repeat(1024 * 1024) }) });
    expect(large.response).toMatchObject({ status: 413, body: { error: 'request body exceeds the 1 MB limit' } });
    expect(await counts()).toEqual(before);
  });

  it('answers ping with pong, and ignores other events, unknown repositories and tag pushes without recording them', async () => {
    const before = await counts();
    expect((await send('ping', example('ping'))).response).toMatchObject({ status: 200, body: { status: 'pong' } });
    expect((await send('issues', example('issues'))).response.body).toEqual({ status: 'ignored', reason: 'event "issues" is not acted on' });
    const labeled = await send(
      'pull_request',
      example('pull_request', (e) => e.action === 'labeled'),
    );
    expect(labeled.response.body).toEqual({ status: 'ignored', reason: 'pull_request action "labeled" is not acted on' });
    const elsewhere = opened();
    elsewhere.repository.id = 42;
    elsewhere.repository.full_name = 'someone/elsewhere';
    expect((await send('pull_request', elsewhere)).response.body).toEqual({
      status: 'ignored',
      reason: 'repository someone/elsewhere is not known to the service',
    });
    const tag = await send(
      'push',
      example('push', (e) => e.ref === 'refs/tags/simple-tag' && !e.deleted),
    );
    expect(tag.response.body).toEqual({ status: 'ignored', reason: 'push to refs/tags/simple-tag is not a branch' });
    expect(await counts()).toEqual(before);
  });

  it('pull_request opened: stores the PR from the payload and starts one analysis per linked project; a redelivery is a duplicate', async () => {
    const second = await api.createProject(owner);
    await link(second);
    const payload = opened();
    const { id, response } = await send('pull_request', payload);
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('processed');
    expect(response.body.actions[0]).toEqual({
      type: 'pull_request_updated',
      repository_id: repositoryId,
      pr_number: 2,
      state: 'open',
      merged: false,
      head_sha: HEAD,
    });
    expect(response.body.actions.slice(1).map((a: any) => [a.type, a.project_id, a.pr_number, a.head_sha, a.created])).toEqual([
      ['pr_analysis', projectId, 2, HEAD, true],
      ['pr_analysis', second, 2, HEAD, true],
    ]);
    expect(await pullRow()).toMatchObject({
      title: 'Update the README with new information.',
      body: 'This is a pretty simple change that we need to pull into master.',
      state: 'open',
      author: 'Codertocat',
      base_branch: 'master',
      head_branch: 'changes',
      base_sha: payload.pull_request.base.sha,
      head_sha: HEAD,
      merged: false,
    });
    for (const [project, action] of [
      [projectId, response.body.actions[1]],
      [second, response.body.actions[2]],
    ] as const) {
      const analyses = await api.db.query<{ id: string; status: string; head_sha: string }>(
        'SELECT id, status, head_sha FROM pr_analyses WHERE project_id = $1',
        [project],
      );
      expect(analyses).toEqual([{ id: action.analysis_id, status: 'pending', head_sha: HEAD }]);
      expect(await jobsOf(project, 'pr-analysis')).toEqual([
        { workflow_id: action.workflow_id, input: { projectId: project, analysisId: action.analysis_id } },
      ]);
    }
    const before = await counts();
    expect((await send('pull_request', payload, { id })).response).toMatchObject({ status: 200, body: { status: 'duplicate' } });
    expect(await counts()).toEqual(before);
  });

  it('processes one of two simultaneous copies of a delivery; the other is a duplicate', async () => {
    const id = 'f0e1d2c3-0000-4000-8000-concurrent00';
    const [a, b] = await Promise.all([send('pull_request', opened(), { id }), send('pull_request', opened(), { id })]);
    expect([a.response.body.status, b.response.body.status].sort()).toEqual(['duplicate', 'processed']);
    expect(await api.db.query('SELECT count(*)::int AS n FROM pr_analyses WHERE project_id = $1', [projectId])).toEqual([{ n: 1 }]);
    expect(await api.db.query('SELECT event FROM webhook_deliveries WHERE delivery_id = $1', [id])).toEqual([{ event: 'pull_request' }]);
  });

  it('pull_request synchronize reuses the analysis of the same head and starts one for a new head', async () => {
    const first = await send('pull_request', opened());
    const firstAnalysis = first.response.body.actions[1].analysis_id;
    const sync = example('pull_request', (e) => e.action === 'synchronize');
    const same = await send('pull_request', sync);
    expect(same.response.body.actions[1]).toMatchObject({ type: 'pr_analysis', analysis_id: firstAnalysis, created: false });
    const newHead = 'a'.repeat(40);
    sync.pull_request.head.sha = newHead;
    const moved = await send('pull_request', sync);
    expect(moved.response.body.actions[1]).toMatchObject({ type: 'pr_analysis', head_sha: newHead, created: true });
    expect(moved.response.body.actions[1].analysis_id).not.toBe(firstAnalysis);
    expect((await pullRow())!.head_sha).toBe(newHead);
    expect(await jobsOf(projectId, 'pr-analysis')).toHaveLength(2);
  });

  it("a webhook-triggered analysis of a fresh head is never refused by the manual trigger's commit check: the delivery's head is the truth", async () => {
    await send('pull_request', opened());
    // The code host's commit listing lags behind the push the delivery announces.
    github.pullCommits.set('codertocat/hello-world#2', [{ sha: HEAD, commit: { message: 'Update the README with new information.' } }]);
    try {
      const sync = example('pull_request', (e) => e.action === 'synchronize');
      const fresh = 'b'.repeat(40);
      sync.pull_request.head.sha = fresh;
      const moved = await send('pull_request', sync);
      expect(moved.response.status).toBe(200);
      expect(moved.response.body.actions[1]).toMatchObject({ type: 'pr_analysis', head_sha: fresh, created: true });
      const [run] = await api.db.query<{ head_sha: string; status: string }>('SELECT head_sha, status FROM pr_analyses WHERE id = $1', [
        moved.response.body.actions[1].analysis_id,
      ]);
      expect(run).toEqual({ head_sha: fresh, status: 'pending' });
      // The same head asked for by hand is checked against the host's listing, which does not have it.
      const manual = await api.request('POST', `/api/v1/projects/${projectId}/repos/${repositoryId}/prs/2/analyze`, {
        key: owner.key,
        body: { head_sha: 'c'.repeat(40) },
      });
      expect(manual).toMatchObject({ status: 400, body: { error: `head_sha ${'c'.repeat(40)} is not a commit of pull request #2` } });
      expect(await jobsOf(projectId, 'pr-analysis')).toHaveLength(2);
    } finally {
      github.pullCommits.clear();
    }
  });

  it('pull_request closed: merged into the default branch queues a pr_merge assessment; unmerged only updates the PR', async () => {
    await send('pull_request', opened());
    const unmerged = await send(
      'pull_request',
      example('pull_request', (e) => e.action === 'closed'),
    );
    expect(unmerged.response.body.actions).toEqual([
      { type: 'pull_request_updated', repository_id: repositoryId, pr_number: 2, state: 'closed', merged: false, head_sha: HEAD },
    ]);
    expect(await count('health_assessments')).toBe(0);

    // The examples hold no merged close; this is the real closed payload as GitHub sends it after a merge.
    const merged = example('pull_request', (e) => e.action === 'closed');
    Object.assign(merged.pull_request, { merged: true, merged_at: merged.pull_request.closed_at, merge_commit_sha: 'b'.repeat(40) });
    const { response } = await send('pull_request', merged);
    expect(response.body.actions[1]).toEqual({
      type: 'health_assessment',
      project_id: projectId,
      trigger_type: 'pr_merge',
      assessment_id: expect.stringMatching(UUID),
      workflow_id: expect.any(String),
      created: true,
    });
    expect(await pullRow()).toMatchObject({ state: 'closed', merged: true });
    const assessments = await api.db.query<{ id: string; trigger_type: string; status: string }>(
      'SELECT id, trigger_type, status FROM health_assessments WHERE project_id = $1',
      [projectId],
    );
    expect(assessments).toEqual([{ id: response.body.actions[1].assessment_id, trigger_type: 'pr_merge', status: 'pending' }]);
    expect(await jobsOf(projectId, 'health-assessment')).toEqual([
      { workflow_id: response.body.actions[1].workflow_id, input: { projectId, assessmentId: assessments[0]!.id } },
    ]);

    // Merged into another branch (a stacked PR): the default branch did not change.
    merged.pull_request.base.ref = 'release';
    merged.number = merged.pull_request.number = 3;
    expect((await send('pull_request', merged)).response.body.actions.map((a: any) => a.type)).toEqual(['pull_request_updated']);
  });

  it('push to the default branch queues a push assessment; other branches and deletions are ignored', async () => {
    const push = example('push', (e) => e.ref === 'refs/heads/master');
    const { response } = await send('push', push);
    expect(response.body).toEqual({
      status: 'processed',
      event: 'push',
      actions: [
        {
          type: 'health_assessment',
          project_id: projectId,
          trigger_type: 'push',
          assessment_id: expect.stringMatching(UUID),
          workflow_id: expect.any(String),
          created: true,
        },
      ],
    });
    expect(await api.db.query('SELECT trigger_type FROM health_assessments WHERE project_id = $1', [projectId])).toEqual([{ trigger_type: 'push' }]);
    // A second push while that one is pending coalesces with it (the same body again would be a replay).
    const again = await send('push', { ...push, before: push.after, after: 'd'.repeat(40) });
    expect(again.response.body.actions[0]).toMatchObject({ assessment_id: response.body.actions[0].assessment_id, created: false });

    const feature = { ...push, ref: 'refs/heads/feature' };
    expect((await send('push', feature)).response.body).toEqual({ status: 'ignored', reason: 'push to branch feature, not the default branch master' });
    const deleted = { ...push, deleted: true, after: '0'.repeat(40) };
    expect((await send('push', deleted)).response.body).toEqual({ status: 'ignored', reason: 'push deleted branch master' });
    // GitHub's default branch wins over the stored one, and is stored.
    const renamed = { ...push, ref: 'refs/heads/main', repository: { ...push.repository, default_branch: 'main' } };
    expect((await send('push', renamed)).response.body.status).toBe('processed');
    expect((await api.db.query('SELECT default_branch FROM repositories WHERE id = $1', [repositoryId]))[0]).toEqual({ default_branch: 'main' });
    expect(await api.db.query('SELECT count(*)::int AS n FROM health_assessments WHERE project_id = $1', [projectId])).toEqual([{ n: 1 }]);
  });

  it('accepts GitHub form-encoded deliveries (payload=...)', async () => {
    const body = new URLSearchParams({ payload: JSON.stringify(example('push', (e) => e.ref === 'refs/heads/master')) }).toString();
    const { response } = await send('push', null, { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(response.body).toMatchObject({ status: 'processed', actions: [{ type: 'health_assessment', trigger_type: 'push' }] });
  });

  it('forgets a delivery whose runs could not start (503), so that its redelivery is processed', async () => {
    const down: WorkflowStarter = { start: async () => Promise.reject(new Error('connection refused')) };
    const services = new Services({ db: api.db, workflows: down, codeHosts: api.services.codeHosts });
    const broken = createApp({ services, validateResponses: true, webhookSecret: WEBHOOK_SECRET });
    const before = await count('webhook_deliveries');
    const failed = await deliver({ request: (method, path, options) => requestVia(broken, method, path, options) }, 'pull_request', opened());
    expect(failed.response).toMatchObject({ status: 503, body: { error: 'the workflow engine is unavailable; try again later' } });
    expect(await count('webhook_deliveries')).toBe(before);
    expect(await api.db.query('SELECT status FROM pr_analyses WHERE project_id = $1', [projectId])).toEqual([{ status: 'failed' }]);

    const redelivered = await send('pull_request', opened(), { id: failed.id });
    expect(redelivered.response.body.actions[1]).toMatchObject({ type: 'pr_analysis', created: true });
    expect(await api.db.query('SELECT status FROM pr_analyses WHERE project_id = $1 ORDER BY created_at', [projectId])).toEqual([
      { status: 'failed' },
      { status: 'pending' },
    ]);
  });
});

async function requestVia(
  app: ReturnType<typeof createApp>,
  method: string,
  path: string,
  options: { rawBody?: string; headers?: Record<string, string> } = {},
) {
  const response = await app.request(path, { method, headers: options.headers, body: options.rawBody });
  return { status: response.status, body: (await response.json()) as any, headers: response.headers };
}
