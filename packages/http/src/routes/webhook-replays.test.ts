// Signed webhook deliveries that used to do harm, with the real payloads of
// @octokit/webhooks-examples: a payload holding U+0000 (a 500 from the store, the event lost) is
// processed with U+FFFD in its place and says so; a captured body re-sent under a new
// X-GitHub-Delivery id (processed again before) is acknowledged as a duplicate within the replay
// window and changes nothing.
import { GitHubCodeHost, WEBHOOK_REPLAY_WINDOW_DAYS } from '@codehealth/service';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { startFakeGitHub, type FakeGitHub } from '../../../../test/helpers/fake-github.js';
import { deliver, example, WEBHOOK_SECRET } from '../fixtures/github-webhooks.js';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

const opened = () => example('pull_request', (e) => e.action === 'opened');
const masterPush = () => example('push', (e) => e.ref === 'refs/heads/master');

let github: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub();
});
afterAll(() => github?.close());

describeStores('GitHub webhook payloads and replays', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let projectId: string;
  let repositoryId: string;

  beforeAll(async () => {
    api = await createTestApi({ store, codeHosts: [new GitHubCodeHost({ baseUrl: github.baseUrl })], app: { webhookSecret: WEBHOOK_SECRET } });
    owner = await api.createUser();
  });
  afterAll(() => api?.close());

  /** A fresh project linked to Codertocat/Hello-World, and no delivery recorded yet. */
  beforeEach(async () => {
    await api.db.query('DELETE FROM project_repositories');
    await api.db.query('DELETE FROM webhook_deliveries');
    projectId = await api.createProject(owner);
    const added = await api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
      key: owner.key,
      body: { owner: 'Codertocat', name: 'Hello-World', skip_onboarding: true },
    });
    expect(added.status).toBe(201);
    repositoryId = added.body.repository.id;
  });

  const send = (event: string, payload: unknown, options?: Parameters<typeof deliver>[3]) => deliver(api, event, payload, options);
  const count = async (sql: string, params: unknown[] = []) => (await api.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params))[0]!.n;
  const effects = async () => ({
    deliveries: await count('webhook_deliveries'),
    analyses: await count('pr_analyses'),
    assessments: await count('health_assessments'),
    jobs: await count('jobs'),
  });

  it('processes a pull request whose title and body hold U+0000, storing U+FFFD in their place and naming the fields', async () => {
    const payload = opened();
    payload.pull_request.title = 'Fix \u0000 handling';
    payload.pull_request.body = 'before\u0000after\u0000';
    const body = JSON.stringify(payload);
    expect(body).toContain('Fix \\u0000 handling');
    const { response } = await send('pull_request', null, { body });
    expect(response.status).toBe(200);
    expect(response.body.status).toBe('processed');
    expect(response.body.actions.map((action: { type: string }) => action.type)).toEqual(['pull_request_updated', 'pr_analysis', 'nul_replaced']);
    expect(response.body.actions[2]).toEqual({ type: 'nul_replaced', count: 2, paths: ['pull_request.title', 'pull_request.body'] });
    const [row] = await api.db.query<{ title: string; body: string }>('SELECT title, body FROM pull_requests WHERE repository_id = $1 AND pr_number = 2', [
      repositoryId,
    ]);
    expect(row).toEqual({ title: 'Fix \uFFFD handling', body: 'before\uFFFDafter\uFFFD' });
  });

  it('processes a push whose commit message holds U+0000 (GitHub sends such commits as they are)', async () => {
    const payload = masterPush();
    payload.head_commit.message = 'Merge\u0000branch';
    payload.commits[0].message = 'Merge\u0000branch';
    const { response } = await send('push', payload);
    expect(response.status).toBe(200);
    expect(response.body.actions).toEqual([
      expect.objectContaining({ type: 'health_assessment', trigger_type: 'push', created: true }),
      { type: 'nul_replaced', count: 2, paths: ['commits.0.message', 'head_commit.message'] },
    ]);
  });

  it('answers a U+0000 in a name or in an identifying field without a 5xx: the repository is simply not known', async () => {
    const payload = opened();
    payload.repository.full_name = 'Codertocat/Hello\u0000World';
    payload.repository.id = 7;
    payload['x\u0000'] = 1;
    const before = await count('pull_requests');
    const { response } = await send('pull_request', payload);
    expect(response).toMatchObject({ status: 200, body: { status: 'ignored', reason: 'repository Codertocat/Hello\uFFFDWorld is not known to the service' } });
    expect(await count('pull_requests')).toBe(before);
  });

  it('acknowledges a captured pull_request body re-sent under a new delivery id as a duplicate, starting nothing', async () => {
    const body = JSON.stringify(opened());
    const first = await send('pull_request', null, { body });
    expect(first.response.body.actions[1]).toMatchObject({ type: 'pr_analysis', created: true });
    const before = await effects();
    const replay = await send('pull_request', null, { body });
    expect(replay.id).not.toBe(first.id);
    expect(replay.response).toMatchObject({ status: 200, body: { status: 'duplicate' } });
    expect(await effects()).toEqual(before);
    // A new event of the same pull request (GitHub's bodies of two events always differ) is processed.
    const synchronize = example('pull_request', (e) => e.action === 'synchronize');
    synchronize.pull_request.head.sha = 'c'.repeat(40);
    expect((await send('pull_request', synchronize)).response.body.status).toBe('processed');
  });

  it('does not let a replayed installation event roll back a later one (suspend replayed after unsuspend)', async () => {
    const suspend = JSON.stringify(example('installation', (e) => e.action === 'suspend'));
    const installationId = JSON.parse(suspend).installation.id as number;
    const status = async () =>
      (await api.db.query<{ status: string }>('SELECT status FROM vcs_installations WHERE installation_id = $1', [installationId]))[0]!.status;
    await api.db.query('DELETE FROM vcs_installations WHERE installation_id = $1', [installationId]);
    expect((await send('installation', null, { body: suspend })).response.body.status).toBe('processed');
    expect(
      (
        await send(
          'installation',
          example('installation', (e) => e.action === 'unsuspend'),
        )
      ).response.body.status,
    ).toBe('processed');
    expect(await status()).toBe('active');
    expect((await send('installation', null, { body: suspend })).response).toMatchObject({ status: 200, body: { status: 'duplicate' } });
    expect(await status()).toBe('active');
  });

  it('processes one of two simultaneous replays of a push under different ids', async () => {
    const body = JSON.stringify(masterPush());
    const answers = await Promise.all([send('push', null, { body }), send('push', null, { body })]);
    expect(answers.map((a) => a.response.body.status).sort()).toEqual(['duplicate', 'processed']);
    expect(await count('health_assessments WHERE project_id = $1', [projectId])).toBe(1);
    expect(await count('webhook_deliveries')).toBe(1);
  });

  it(`processes the same body again once its digest is older than the ${WEBHOOK_REPLAY_WINDOW_DAYS}-day window; the old id stays a duplicate`, async () => {
    const body = JSON.stringify(masterPush());
    const first = await send('push', null, { body });
    expect(first.response.body.status).toBe('processed');
    await api.db.query(`UPDATE webhook_deliveries SET received_at = now() - make_interval(days => $1) + interval '1 hour'`, [WEBHOOK_REPLAY_WINDOW_DAYS]);
    expect((await send('push', null, { body })).response.body).toEqual({ status: 'duplicate' });
    await api.db.query(`UPDATE webhook_deliveries SET received_at = now() - make_interval(days => $1) - interval '1 hour'`, [WEBHOOK_REPLAY_WINDOW_DAYS]);
    // Old enough: a new id with the same body is processed (the pending assessment is reused) ...
    const late = await send('push', null, { body });
    expect(late.response.body).toMatchObject({ status: 'processed', actions: [{ type: 'health_assessment', created: false }] });
    // ... and the original id is still remembered.
    expect((await send('push', null, { body, id: first.id })).response.body).toEqual({ status: 'duplicate' });
    const digests = await api.db.query<{ delivery_id: string; body_sha256: string | null }>(
      'SELECT delivery_id, body_sha256 FROM webhook_deliveries ORDER BY received_at',
    );
    expect(digests).toEqual([
      { delivery_id: first.id, body_sha256: null },
      { delivery_id: late.id, body_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ]);
  });
});
