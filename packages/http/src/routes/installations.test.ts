// Code-host installation sync, available repositories and linking by id, through the GitHub
// adapter with the real @octokit/auth-app strategy against a loopback server speaking GitHub's
// protocol with recorded payloads.
import { createAppAuth } from '@octokit/auth-app';
import { GitHubCodeHost } from '@codehealth/service';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recorded, startFakeGitHub, type FakeGitHub } from '../../../../test/helpers/fake-github.js';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ACTIVE = recorded.activeInstallation.id as number;
const SUSPENDED = recorded.suspendedInstallation.id as number;

let github: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub();
});
afterAll(() => github?.close());

describeStores('code-host installations API', (store) => {
  let api: TestApi;
  let user: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    const host = new GitHubCodeHost({
      baseUrl: github.baseUrl,
      app: { authStrategy: createAppAuth, auth: { appId: github.appId, privateKey: github.privateKey } },
    });
    api = await createTestApi({ store, codeHosts: [host] });
    user = await api.createUser();
    other = await api.createUser();
  });
  afterAll(() => api?.close());
  beforeEach(() => {
    github.installations = [recorded.activeInstallation, recorded.suspendedInstallation];
    github.repositoriesByInstallation.set(ACTIVE, [recorded.installedPublic, recorded.installedPrivate]);
  });

  const sync = (key: string, body?: unknown, path = '/api/v1/vcs/installations/sync') => api.request('POST', path, { key, body });
  const available = async (key: string, projectId: string) => {
    const res = await api.request('GET', `/api/v1/projects/${projectId}/repos/available`, { key });
    expect(res.status).toBe(200);
    return res.body as Array<{ id: string; full_name: string; installation_id: number; private: boolean }>;
  };

  it('syncs every installation of the App (no body) and answers the installation objects', async () => {
    const res = await sync(user.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: expect.stringMatching(UUID),
        provider: 'github',
        installation_id: ACTIVE,
        account_login: 'Codertocat',
        account_type: 'User',
        status: 'active',
        created_at: expect.stringMatching(/Z$/),
      },
      {
        id: expect.stringMatching(UUID),
        provider: 'github',
        installation_id: SUSPENDED,
        account_login: 'Codertocat',
        account_type: 'User',
        status: 'suspended',
        created_at: expect.stringMatching(/Z$/),
      },
    ]);
    // A second sync updates the same rows.
    const again = await sync(user.key, {}, '/api/v1/github/installations/sync');
    expect(again.body.map((installation: { id: string }) => installation.id)).toEqual(res.body.map((installation: { id: string }) => installation.id));
  });

  it('offers the synced repositories to associated users only, and links them by id with one onboarding', async () => {
    await sync(user.key, { installation_ids: [ACTIVE] });
    const projectId = await api.createProject(user);
    const offered = await available(user.key, projectId);
    expect(offered.map((repo) => [repo.full_name, repo.installation_id, repo.private])).toEqual([
      ['Codertocat/Hello-World', ACTIVE, false],
      ['Codertocat/hello-world-npm', ACTIVE, true],
    ]);
    const othersProject = await api.createProject(other);
    expect(await available(other.key, othersProject)).toEqual([]);

    const ids = offered.map((repo) => repo.id);
    const linked = await api.request('POST', `/api/v1/projects/${projectId}/repos`, { key: user.key, body: { repository_ids: [...ids, ids[0]] } });
    expect(linked).toMatchObject({ status: 201, body: { status: 'linked', linked: 2, onboarding_session_id: expect.stringMatching(UUID) } });
    const jobs = await api.db.query<{ input: { repositoryIds: string[]; sessionId: string } }>(
      "SELECT input FROM jobs WHERE kind = 'onboarding' AND input->>'projectId' = $1",
      [projectId],
    );
    expect(jobs).toHaveLength(1);
    expect(jobs[0]!.input.sessionId).toBe(linked.body.onboarding_session_id);
    expect([...jobs[0]!.input.repositoryIds].sort()).toEqual([...ids].sort());
    expect(await available(user.key, projectId)).toEqual([]);
    const listed = await api.request('GET', `/api/v1/projects/${projectId}/repos`, { key: user.key });
    expect(listed.body.map((repo: { full_name: string }) => repo.full_name).sort()).toEqual(['Codertocat/Hello-World', 'Codertocat/hello-world-npm']);

    // Linking again is a conflict; the other user may not link repositories of installations they did not sync.
    const twice = await api.request('POST', `/api/v1/projects/${projectId}/repos`, { key: user.key, body: { repository_id: ids[0] } });
    expect(twice).toMatchObject({ status: 409, body: { error: 'repository Codertocat/Hello-World is already linked to this project' } });
    const foreign = await api.request('POST', `/api/v1/projects/${othersProject}/repos`, { key: other.key, body: { repository_id: ids[0] } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toBe(
      `repository ${ids[0]} not found among the synced repositories of your code-host installations (sync them first); nothing was linked`,
    );
  });

  it('links with skip_onboarding without a workflow, and links nothing when one id is not linkable', async () => {
    await sync(user.key, { installation_ids: [ACTIVE] });
    const projectId = await api.createProject(user);
    const [first] = await available(user.key, projectId);
    const unknown = '7b0c7a8e-1c1a-4f5e-9d55-2d5d4f0a9b11';
    const partial = await api.request('POST', `/api/v1/projects/${projectId}/repos`, { key: user.key, body: { repository_ids: [first!.id, unknown] } });
    expect(partial.status).toBe(404);
    expect(partial.body.error).toContain(unknown);
    expect(await api.db.query('SELECT 1 FROM project_repositories WHERE project_id = $1', [projectId])).toEqual([]);

    const skipped = await api.request('POST', `/api/v1/projects/${projectId}/repos`, {
      key: user.key,
      body: { repository_id: first!.id, skip_onboarding: true },
    });
    expect(skipped).toMatchObject({ status: 201, body: { linked: 1 } });
    const [session] = await api.db.query<{ status: string }>('SELECT status FROM onboarding_sessions WHERE id = $1', [skipped.body.onboarding_session_id]);
    expect(session!.status).toBe('completed');
    expect(await api.db.query("SELECT 1 FROM jobs WHERE input->>'projectId' = $1", [projectId])).toEqual([]);
  });

  it.each([
    [{}, /give exactly one of repository_id or repository_ids/],
    [{ repository_id: '7b0c7a8e-1c1a-4f5e-9d55-2d5d4f0a9b11', repository_ids: ['7b0c7a8e-1c1a-4f5e-9d55-2d5d4f0a9b11'] }, /exactly one/],
    [{ repository_id: 'abc' }, /repository_id/],
    [{ repository_ids: [] }, /repository_ids/],
    [{ repository_ids: Array.from({ length: 101 }, () => '7b0c7a8e-1c1a-4f5e-9d55-2d5d4f0a9b11') }, /repository_ids: Too big/],
  ])('refuses link body %# with 400', async (body, message) => {
    const projectId = await api.createProject(user);
    const res = await api.request('POST', `/api/v1/projects/${projectId}/repos`, { key: user.key, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('syncs only the requested installations; an id the App does not have is a 404 and syncs nothing', async () => {
    const only = await sync(user.key, { installation_ids: [SUSPENDED] });
    expect(only.body.map((installation: { installation_id: number }) => installation.installation_id)).toEqual([SUSPENDED]);
    const missing = await sync(user.key, { installation_ids: [ACTIVE, 4242] });
    expect(missing).toMatchObject({ status: 404, body: { error: "installation 4242 not found among the code-host App's installations; nothing was synced" } });
    expect((await sync(user.key, { installation_ids: [0] })).status).toBe(400);
    expect((await sync(user.key, { installation_ids: 'all' })).status).toBe(400);
  });

  it('stops offering repositories an installation no longer grants, and those of removed installations', async () => {
    await sync(user.key);
    const projectId = await api.createProject(user);
    expect(await available(user.key, projectId)).toHaveLength(2);
    github.repositoriesByInstallation.set(ACTIVE, [recorded.installedPublic]);
    await sync(user.key, { installation_ids: [ACTIVE] });
    expect((await available(user.key, projectId)).map((repo) => repo.full_name)).toEqual(['Codertocat/Hello-World']);
    github.installations = [recorded.suspendedInstallation];
    const res = await sync(user.key);
    expect(res.body.map((installation: { installation_id: number }) => installation.installation_id)).toEqual([SUSPENDED]);
    const [row] = await api.db.query<{ status: string }>('SELECT status FROM vcs_installations WHERE installation_id = $1', [ACTIVE]);
    expect(row!.status).toBe('deleted');
    expect(await available(user.key, projectId)).toEqual([]);
  });

  it('answers 503 when GitHub is rate limiting, and needs a key', async () => {
    github.rateLimited = true;
    try {
      const res = await sync(user.key);
      expect(res.status).toBe(503);
      expect(res.body.error).toMatch(/^GitHub API rate limit exceeded/);
    } finally {
      github.rateLimited = false;
    }
    expect(await sync('')).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
  });
});

describe('installation sync without a code-host App', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ codeHosts: [new GitHubCodeHost({ baseUrl: github.baseUrl })] });
  });
  afterAll(() => api?.close());

  it('answers 503 naming the variables to set, on both paths', async () => {
    const user = await api.createUser();
    for (const path of ['/api/v1/vcs/installations/sync', '/api/v1/github/installations/sync']) {
      expect(await api.request('POST', path, { key: user.key })).toMatchObject({
        status: 503,
        body: { error: 'no code-host App is configured (set VCS_APP_ID and VCS_PRIVATE_KEY_PATH)' },
      });
    }
  });
});
