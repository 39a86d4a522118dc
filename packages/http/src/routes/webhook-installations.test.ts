// Installation webhooks with the real payloads of @octokit/webhooks-examples: installations
// created, suspended, unsuspended and deleted, repositories added and removed. Metadata of newly
// granted repositories comes from a loopback GitHub (recorded payloads) through the real App auth.
import { createAppAuth } from '@octokit/auth-app';
import { GitHubCodeHost, upsertRepository } from '@codehealth/service';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recorded, startFakeGitHub, type FakeGitHub } from '../../../../test/helpers/fake-github.js';
import { deliver, example } from '../fixtures/github-webhooks.js';
import { WEBHOOK_SECRET } from '../fixtures/github-webhooks.js';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

const ACTIVE = recorded.activeInstallation.id as number; // 957387, Codertocat
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let github: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub();
});
afterAll(() => github?.close());

describeStores('GitHub installation webhooks', (store) => {
  let api: TestApi;
  let user: TestUser;

  beforeAll(async () => {
    const host = new GitHubCodeHost({
      baseUrl: github.baseUrl,
      app: { authStrategy: createAppAuth, auth: { appId: github.appId, privateKey: github.privateKey } },
    });
    api = await createTestApi({ store, codeHosts: [host], app: { webhookSecret: WEBHOOK_SECRET } });
    user = await api.createUser();
    github.rateLimited = false;
    github.repositoriesByInstallation.set(ACTIVE, [recorded.installedPublic, recorded.installedPrivate]);
  });
  afterAll(() => api?.close());

  const send = (event: string, payload: unknown, id?: string) => deliver(api, event, payload, { id });
  const installation = async (installationId: number) =>
    (await api.db.query('SELECT provider, account_login, account_type, status FROM vcs_installations WHERE installation_id = $1', [installationId]))[0];
  const repository = async (vcsId: number) =>
    (
      await api.db.query<{ id: string; installation_id: unknown; full_name: string; default_branch: string; url: string }>(
        'SELECT id, installation_id, full_name, default_branch, url FROM repositories WHERE vcs_id = $1',
        [vcsId],
      )
    )[0];

  /** A repository row as an earlier installation sync leaves it. */
  const seed = (vcsId: number, fullName: string, installationId: number) =>
    upsertRepository(api.db, {
      provider: 'github',
      vcsId,
      installationId,
      owner: fullName.split('/')[0]!,
      name: fullName.split('/')[1]!,
      fullName,
      url: `https://github.com/${fullName}`,
      cloneUrl: `https://github.com/${fullName}.git`,
      description: '',
      defaultBranch: 'master',
      private: false,
    });

  it('installation created: stores the installation and the granted repository (metadata from GitHub); users still sync to see it', async () => {
    const created = example('installation', (e) => e.action === 'created');
    const { id, response } = await send('installation', created);
    expect(response.status).toBe(200);
    const hello = await repository(186853002);
    expect(response.body).toEqual({
      status: 'processed',
      event: 'installation',
      actions: [
        { type: 'installation_updated', installation_id: ACTIVE, status: 'active' },
        { type: 'repositories_attached', installation_id: ACTIVE, repository_ids: [hello!.id], unknown_full_names: [] },
      ],
    });
    expect(await installation(ACTIVE)).toEqual({ provider: 'github', account_login: 'Codertocat', account_type: 'User', status: 'active' });
    expect(hello).toMatchObject({
      id: expect.stringMatching(UUID),
      full_name: 'Codertocat/Hello-World',
      default_branch: 'master',
      url: 'https://github.com/Codertocat/Hello-World',
    });
    expect(Number(hello!.installation_id)).toBe(ACTIVE);
    // Only Hello-World was granted by this delivery: the installation's other repository waits for a sync.
    expect(await repository(recorded.installedPrivate.id as number)).toBeUndefined();

    const projectId = await api.createProject(user);
    const available = () => api.request('GET', `/api/v1/projects/${projectId}/repos/available`, { key: user.key });
    expect((await available()).body).toEqual([]);
    expect((await api.request('POST', '/api/v1/vcs/installations/sync', { key: user.key, body: { installation_ids: [ACTIVE] } })).status).toBe(200);
    expect((await available()).body.map((repo: { full_name: string }) => repo.full_name)).toEqual(['Codertocat/Hello-World', 'Codertocat/hello-world-npm']);

    // A redelivery does nothing, not even a call to GitHub.
    const calls = github.requests.length;
    expect((await send('installation', created, id)).response.body).toEqual({ status: 'duplicate' });
    expect(github.requests.length).toBe(calls);
  });

  it('installation_repositories added: unknown repositories are listed when GitHub cannot describe them, stored when it can', async () => {
    const added = example('installation_repositories', (e) => e.action === 'added');
    github.rateLimited = true;
    try {
      const { response } = await send('installation_repositories', added);
      expect(response.body.actions).toEqual([
        { type: 'installation_updated', installation_id: ACTIVE, status: 'active' },
        { type: 'repositories_attached', installation_id: ACTIVE, repository_ids: [], unknown_full_names: ['Codertocat/Space'] },
      ]);
      expect(await repository(186853007)).toBeUndefined();
    } finally {
      github.rateLimited = false;
    }
    // GitHub now describes Codertocat/Space (the recorded Hello-World repository under Space's identity).
    const space = {
      ...recorded.installedPublic,
      id: 186853007,
      name: 'Space',
      full_name: 'Codertocat/Space',
      html_url: 'https://github.com/Codertocat/Space',
      clone_url: 'https://github.com/Codertocat/Space.git',
    };
    github.repositoriesByInstallation.set(ACTIVE, [recorded.installedPublic, recorded.installedPrivate, space]);
    // A later grant of the same repository: another event, so another body (the same body would be a replay).
    const { response } = await send('installation_repositories', { ...added, installation: { ...added.installation, updated_at: 1557937191 } });
    const stored = await repository(186853007);
    expect(response.body.actions[1]).toEqual({ type: 'repositories_attached', installation_id: ACTIVE, repository_ids: [stored!.id], unknown_full_names: [] });
    expect(stored).toMatchObject({ full_name: 'Codertocat/Space', url: 'https://github.com/Codertocat/Space', default_branch: 'master' });
    expect(Number(stored!.installation_id)).toBe(ACTIVE);
  });

  it('installation suspend and unsuspend change the status only', async () => {
    const suspend = example('installation', (e) => e.action === 'suspend');
    const installationId = suspend.installation.id as number;
    const calls = github.requests.length;
    expect((await send('installation', suspend)).response.body.actions).toEqual([
      { type: 'installation_updated', installation_id: installationId, status: 'suspended' },
    ]);
    expect(await installation(installationId)).toEqual({ provider: 'github', account_login: 'Codertocat', account_type: 'User', status: 'suspended' });
    expect(
      (
        await send(
          'installation',
          example('installation', (e) => e.action === 'unsuspend'),
        )
      ).response.body.actions,
    ).toEqual([{ type: 'installation_updated', installation_id: installationId, status: 'active' }]);
    expect(await installation(installationId)).toMatchObject({ status: 'active' });
    expect(github.requests.length).toBe(calls);
  });

  it('installation deleted detaches every repository of the installation; repositories removed detach those', async () => {
    const deleted = example('installation', (e) => e.action === 'deleted');
    const gone = deleted.installation.id as number; // 2, octocat
    const helloId = await seed(1296269, 'octocat/Hello-World', gone);
    const otherId = await seed(1296270, 'octocat/Spoon-Knife', gone);
    const { response } = await send('installation', deleted);
    expect(response.body.actions).toEqual([
      { type: 'installation_updated', installation_id: gone, status: 'deleted' },
      { type: 'repositories_detached', installation_id: gone, repository_ids: [helloId, otherId].sort() },
    ]);
    expect(await installation(gone)).toMatchObject({ account_login: 'octocat', status: 'deleted' });
    expect(Number((await repository(1296269))!.installation_id)).toBe(0);
    expect(Number((await repository(1296270))!.installation_id)).toBe(0);

    await seed(1296269, 'octocat/Hello-World', gone);
    await seed(1296270, 'octocat/Spoon-Knife', gone);
    const removed = example('installation_repositories', (e) => e.action === 'removed');
    const result = await send('installation_repositories', removed);
    expect(result.response.body.actions).toEqual([
      { type: 'installation_updated', installation_id: gone, status: 'active' },
      { type: 'repositories_detached', installation_id: gone, repository_ids: [helloId] },
    ]);
    expect(Number((await repository(1296269))!.installation_id)).toBe(0);
    expect(Number((await repository(1296270))!.installation_id)).toBe(gone);
  });
});
