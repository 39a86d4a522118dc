// Repositories API: add-public (GitHub through a loopback server with recorded payloads, local
// git repositories), list, unlink, onboarding sessions and workflow starts, PR metadata sync.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { GitHubCodeHost, LocalGitCodeHost } from '@codehealth/service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGitHub, type FakeGitHub } from '../../../../test/helpers/fake-github.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

let github: FakeGitHub;
beforeAll(async () => {
  github = await startFakeGitHub();
});
afterAll(() => github?.close());

describeStores('repositories API', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let repo: TestRepo;

  beforeAll(async () => {
    api = await createTestApi({
      store,
      codeHosts: [new LocalGitCodeHost(), new GitHubCodeHost({ baseUrl: github.baseUrl })],
      serviceOptions: { allowLocalRepos: true },
    });
    owner = await api.createUser();
    repo = createGitRepo({ 'src/index.ts': 'export const a = 1;\n' }, 'codehealth-api-repo-');
  });
  afterAll(() => api?.close());

  const addPublic = (projectId: string, body: unknown) => api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, { key: owner.key, body });
  const jobsOf = (projectId: string) =>
    api.db.query<{ kind: string; workflow_id: string; input: Record<string, unknown> }>(
      "SELECT kind, workflow_id, input FROM jobs WHERE input->>'projectId' = $1 ORDER BY created_at",
      [projectId],
    );
  const sessionOf = async (id: string) =>
    (
      await api.db.query<{ status: string; repository_ids: string[]; finished_at: Date | null }>(
        'SELECT status, repository_ids, finished_at FROM onboarding_sessions WHERE id = $1',
        [id],
      )
    )[0];

  it('adds a public GitHub repository by URL: every Repository field, a pending onboarding session, a started workflow', async () => {
    const projectId = await api.createProject(owner);
    const added = await addPublic(projectId, { url: 'https://github.com/octokit-fixture-org/hello-world' });
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      status: 'linked',
      repository: {
        id: expect.stringMatching(UUID),
        vcs_id: 1000,
        installation_id: 0,
        owner: 'octokit-fixture-org',
        name: 'hello-world',
        full_name: 'octokit-fixture-org/hello-world',
        url: 'https://github.com/octokit-fixture-org/hello-world',
        description: '',
        default_branch: 'master',
        analyzers: [],
        private: false,
        created_at: expect.stringMatching(TIMESTAMP),
        updated_at: expect.stringMatching(TIMESTAMP),
      },
      onboarding_session_id: expect.stringMatching(UUID),
    });
    const repositoryId = added.body.repository.id;
    const sessionId = added.body.onboarding_session_id;
    expect(await sessionOf(sessionId)).toMatchObject({ status: 'pending', repository_ids: [repositoryId], finished_at: null });
    expect(await jobsOf(projectId)).toEqual([
      { kind: 'onboarding', workflow_id: `onboarding-${sessionId}`, input: { projectId, sessionId, repositoryIds: [repositoryId] } },
    ]);
    const listed = await api.request('GET', `/api/v1/projects/${projectId}/repos`, { key: owner.key });
    expect(listed).toMatchObject({ status: 200, body: [added.body.repository] });
  });

  it('reuses the known repository row for owner + name in another project, and refuses a second link with 409', async () => {
    const first = await api.createProject(owner);
    const second = await api.createProject(owner);
    const a = await addPublic(first, { url: 'https://github.com/octokit-fixture-org/hello-world.git', skip_onboarding: true });
    const b = await addPublic(second, { owner: 'octokit-fixture-org', name: 'hello-world', skip_onboarding: true });
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.body.repository.id).toBe(a.body.repository.id);
    const again = await addPublic(second, { owner: 'octokit-fixture-org', name: 'hello-world' });
    expect(again).toMatchObject({ status: 409, body: { error: 'repository octokit-fixture-org/hello-world is already linked to this project' } });
    expect(await jobsOf(second)).toEqual([]);
    const sessions = await api.db.query('SELECT 1 FROM onboarding_sessions WHERE project_id = $1', [second]);
    expect(sessions).toHaveLength(1);
  });

  it('with skip_onboarding opens an already completed session and starts no workflow', async () => {
    const projectId = await api.createProject(owner);
    const added = await addPublic(projectId, { owner: 'octokit-fixture-org', name: 'hello-world', skip_onboarding: true });
    expect(added.status).toBe(201);
    expect(await sessionOf(added.body.onboarding_session_id)).toMatchObject({ status: 'completed', repository_ids: [added.body.repository.id] });
    expect((await sessionOf(added.body.onboarding_session_id))!.finished_at).not.toBeNull();
    expect(await jobsOf(projectId)).toEqual([]);
  });

  it('answers GitHub’s answers: 404 for an unknown repository, 400 for a private one', async () => {
    const projectId = await api.createProject(owner);
    expect(await addPublic(projectId, { owner: 'octokit-fixture-org', name: 'missing' })).toMatchObject({
      status: 404,
      body: { error: 'repository octokit-fixture-org/missing not found on GitHub' },
    });
    const tokenApi = await createTestApi({ store, codeHosts: [new GitHubCodeHost({ baseUrl: github.baseUrl, token: 'ghp_x' })] });
    try {
      const user = await tokenApi.createUser();
      const project = await tokenApi.createProject(user);
      const res = await tokenApi.request('POST', `/api/v1/projects/${project}/repos/add-public`, {
        key: user.key,
        body: { url: 'https://github.com/octo-org/octo-repo' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^repository octo-org\/octo-repo is private/);
      expect(await tokenApi.db.query('SELECT 1 FROM repositories')).toEqual([]);
    } finally {
      await tokenApi.close();
    }
  });

  it.each([
    [{}, /give either url, or owner and name/],
    [{ url: 'https://github.com/a/b', owner: 'a', name: 'b' }, /give either url, or owner and name/],
    [{ owner: 'a' }, /give either url, or owner and name/],
    [{ url: 42 }, /url: Invalid input: expected string/],
    [{ url: 'https://github.com/a/b', skip_onboarding: 'yes' }, /skip_onboarding/],
    [{ url: 'https://github.com/a/b', branch: 'main' }, /branch/],
    [{ url: 'https://gitlab.com/a/b' }, /^unsupported code host 'gitlab.com'/],
    [{ url: 'http://169.254.169.254/latest' }, /^unsupported repository URL scheme 'http:'/],
    [{ url: 'https://user:secret@github.com/a/b' }, /^repository URLs must not contain credentials$/],
    [{ owner: 'a b', name: 'c' }, /^invalid GitHub owner 'a b'/],
  ])('refuses %j with 400', async (body, message) => {
    const projectId = await api.createProject(owner);
    const res = await addPublic(projectId, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
    expect(await api.db.query('SELECT 1 FROM project_repositories WHERE project_id = $1', [projectId])).toEqual([]);
  });

  it('adds a local repository by file:// URL with its metadata, and syncs its refs/pull/<N>/head pull requests', async () => {
    const projectId = await api.createProject(owner);
    const root = realpathSync(repo.root);
    const added = await addPublic(projectId, { url: pathToFileURL(root).href });
    expect(added.status).toBe(201);
    const [parent, name] = root.split('/').slice(-2);
    expect(added.body.repository).toMatchObject({
      vcs_id: 0,
      installation_id: 0,
      owner: parent,
      name,
      full_name: `${parent}/${name}`,
      url: pathToFileURL(root).href,
      description: '',
      default_branch: 'main',
      private: false,
    });
    const repositoryId = added.body.repository.id;
    const base = repo.git('rev-parse', 'HEAD');
    repo.git('checkout', '-q', '-b', 'topic');
    repo.write({ 'src/b.ts': 'export const b = 2;\n' });
    const head = repo.commit('Add b\n\nBecause b matters.');
    repo.git('checkout', '-q', 'main');
    repo.git('update-ref', 'refs/pull/7/head', head);

    expect(await api.services.repositories.syncPullRequests(repositoryId)).toEqual({ synced: 1, closed: 0 });
    const rows = await api.db.query(
      'SELECT pr_number, title, body, state, author, base_branch, head_branch, base_sha, head_sha, merged FROM pull_requests WHERE repository_id = $1',
      [repositoryId],
    );
    expect(rows).toEqual([
      {
        pr_number: 7,
        title: 'Add b',
        body: 'Because b matters.',
        state: 'open',
        author: 'Test',
        base_branch: 'main',
        head_branch: 'pull/7',
        base_sha: base,
        head_sha: head,
        merged: false,
      },
    ]);
    // The ref moves: the row follows; the ref goes: the pull request is closed.
    repo.git('update-ref', 'refs/pull/7/head', base);
    await api.services.repositories.syncPullRequests(repositoryId);
    expect((await api.db.query<{ head_sha: string }>('SELECT head_sha FROM pull_requests WHERE repository_id = $1', [repositoryId]))[0]!.head_sha).toBe(base);
    repo.git('update-ref', '-d', 'refs/pull/7/head');
    expect(await api.services.repositories.syncPullRequests(repositoryId)).toEqual({ synced: 0, closed: 1 });
    expect(await api.db.query('SELECT state FROM pull_requests WHERE repository_id = $1', [repositoryId])).toEqual([{ state: 'closed' }]);
  });

  it('refuses local paths that are not repositories with 400', async () => {
    const projectId = await api.createProject(owner);
    const res = await addPublic(projectId, { url: pathToFileURL(`${realpathSync(repo.root)}/src`).href });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/is not a git repository$/);
  });

  it('unlinks with 204 and keeps the analysis data; 404 for a repository not linked; 400 for a non-UUID id', async () => {
    const projectId = await api.createProject(owner);
    const added = await addPublic(projectId, { owner: 'octokit-fixture-org', name: 'hello-world', skip_onboarding: true });
    const repositoryId = added.body.repository.id;
    await api.db.query(
      `INSERT INTO pr_analyses (id, project_id, repository_id, pr_number, head_sha, analysis_run_id, status)
       VALUES (gen_random_uuid(), $1, $2, 3, 'abc', gen_random_uuid(), 'completed')`,
      [projectId, repositoryId],
    );
    const path = `/api/v1/projects/${projectId}/repos/${repositoryId}`;
    const removed = await api.request('DELETE', path, { key: owner.key });
    expect(removed.status).toBe(204);
    expect((await api.request('GET', `/api/v1/projects/${projectId}/repos`, { key: owner.key })).body).toEqual([]);
    expect(await api.db.query('SELECT pr_number FROM pr_analyses WHERE repository_id = $1', [repositoryId])).toEqual([{ pr_number: 3 }]);
    expect(await api.db.query('SELECT 1 FROM repositories WHERE id = $1', [repositoryId])).toHaveLength(1);
    expect(await api.request('DELETE', path, { key: owner.key })).toMatchObject({
      status: 404,
      body: { error: 'repository linked to this project not found' },
    });
    expect(await api.request('DELETE', `/api/v1/projects/${projectId}/repos/42`, { key: owner.key })).toMatchObject({
      status: 400,
      body: { error: 'invalid path parameter: repoId: repoId must be a UUID' },
    });
    // Linking it again works after an unlink.
    expect((await addPublic(projectId, { owner: 'octokit-fixture-org', name: 'hello-world', skip_onboarding: true })).status).toBe(201);
  });

  it('when the workflow cannot start, answers 503 and leaves neither link nor session', async () => {
    const projectId = await api.createProject(owner);
    // A real refusal of the real (embedded) workflow engine: its job queue rejects the insert.
    await api.db.exec(`CREATE FUNCTION refuse_jobs() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'workflow engine unreachable'; END $$;
      CREATE TRIGGER refuse_jobs BEFORE INSERT ON jobs FOR EACH ROW EXECUTE FUNCTION refuse_jobs();`);
    try {
      const res = await addPublic(projectId, { owner: 'octokit-fixture-org', name: 'hello-world' });
      expect(res).toMatchObject({
        status: 503,
        body: { error: 'the onboarding workflow could not be started, nothing was linked: workflow engine unreachable' },
      });
    } finally {
      await api.db.exec('DROP TRIGGER refuse_jobs ON jobs; DROP FUNCTION refuse_jobs();');
    }
    expect(await api.db.query('SELECT 1 FROM project_repositories WHERE project_id = $1', [projectId])).toEqual([]);
    expect(await api.db.query('SELECT 1 FROM onboarding_sessions WHERE project_id = $1', [projectId])).toEqual([]);
    expect((await addPublic(projectId, { owner: 'octokit-fixture-org', name: 'hello-world' })).status).toBe(201);
  });

  it('gives 403 to an outsider on every repository route of a project', async () => {
    const projectId = await api.createProject(owner);
    const outsider = await api.createUser();
    const added = await addPublic(projectId, { owner: 'octokit-fixture-org', name: 'hello-world', skip_onboarding: true });
    for (const [method, path, body] of [
      ['GET', `/api/v1/projects/${projectId}/repos`, undefined],
      ['GET', `/api/v1/projects/${projectId}/repos/available`, undefined],
      ['POST', `/api/v1/projects/${projectId}/repos/add-public`, { owner: 'a', name: 'b' }],
      ['POST', `/api/v1/projects/${projectId}/repos`, { repository_id: added.body.repository.id }],
      ['DELETE', `/api/v1/projects/${projectId}/repos/${added.body.repository.id}`, undefined],
    ] as const) {
      expect(await api.request(method, path, { key: outsider.key, body })).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    }
    expect((await api.request('GET', `/api/v1/projects/${projectId}/repos`, { key: owner.key })).body).toHaveLength(1);
  });
});

describe('repositories API in production mode (no local repositories)', () => {
  let api: TestApi;
  let user: TestUser;
  beforeAll(async () => {
    api = await createTestApi({ codeHosts: [new LocalGitCodeHost(), new GitHubCodeHost({ baseUrl: github.baseUrl })] });
    user = await api.createUser();
  });
  afterAll(() => api?.close());

  it('refuses file:// URLs with 400 before touching the file system', async () => {
    const projectId = await api.createProject(user);
    const res = await api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, { key: user.key, body: { url: 'file:///etc' } });
    expect(res).toMatchObject({
      status: 400,
      body: { error: 'local (file://) repositories are accepted only in embedded mode (or with CODEHEALTH_ALLOW_LOCAL_REPOS=1)' },
    });
  });
});
