// The GitHub adapter through Octokit against a loopback server with recorded GitHub payloads;
// App authentication uses the real @octokit/auth-app strategy (signed JWT, installation tokens).
import { createAppAuth } from '@octokit/auth-app';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recorded, startFakeGitHub, type FakeGitHub } from '../../../../test/helpers/fake-github.js';
import { GitHubCodeHost } from './github-code-host.js';

describe('GitHubCodeHost', () => {
  let github: FakeGitHub;
  let anonymous: GitHubCodeHost;
  let app: GitHubCodeHost;

  beforeAll(async () => {
    github = await startFakeGitHub();
    anonymous = new GitHubCodeHost({ baseUrl: github.baseUrl });
    app = new GitHubCodeHost({ baseUrl: github.baseUrl, app: { authStrategy: createAppAuth, auth: { appId: github.appId, privateKey: github.privateKey } } });
  });
  afterAll(() => github?.close());
  beforeEach(() => {
    github.requests.length = 0;
    github.rateLimited = false;
  });

  it('resolves a public repository from GET /repos/{owner}/{repo} (recorded response)', async () => {
    const meta = await anonymous.resolvePublic({ url: 'https://github.com/octokit-fixture-org/hello-world.git' });
    expect(meta).toEqual({
      provider: 'github',
      vcsId: 1000,
      installationId: 0,
      owner: 'octokit-fixture-org',
      name: 'hello-world',
      fullName: 'octokit-fixture-org/hello-world',
      url: 'https://github.com/octokit-fixture-org/hello-world',
      cloneUrl: 'https://github.com/octokit-fixture-org/hello-world.git',
      description: '',
      defaultBranch: recorded.publicRepository.default_branch,
      private: false,
    });
    expect(github.requests).toEqual([{ method: 'GET', path: '/repos/octokit-fixture-org/hello-world', authorization: undefined }]);
  });

  it('answers 404 for an unknown repository and 400 for a private one', async () => {
    await expect(anonymous.resolvePublic({ owner: 'octokit-fixture-org', name: 'nope' })).rejects.toMatchObject({
      name: 'NotFoundError',
      message: 'repository octokit-fixture-org/nope not found on GitHub',
    });
    const withToken = new GitHubCodeHost({ baseUrl: github.baseUrl, token: 'ghp_test' });
    await expect(withToken.resolvePublic({ owner: 'octo-org', name: 'octo-repo' })).rejects.toMatchObject({
      name: 'InvalidInputError',
      message: expect.stringMatching(/^repository octo-org\/octo-repo is private: install the code-host App/),
    });
    expect(github.requests.at(-1)!.authorization).toBe('token ghp_test');
  });

  it('keeps a NUL in a description, title or body GitHub returns as U+FFFD (the store cannot hold U+0000)', async () => {
    const key = 'octokit-fixture-org/hello-world';
    const repository = github.repositories.get(key)!;
    const pulls = github.pulls.get('codertocat/hello-world')!;
    github.repositories.set(key, { ...repository, description: 'a\u0000b' });
    github.pulls.set('codertocat/hello-world', [{ ...pulls[0]!, title: 'Fix\u0000it', body: '\u0000' }]);
    try {
      expect((await anonymous.resolvePublic({ url: `https://github.com/${key}` })).description).toBe('a\uFFFDb');
      const hello = await anonymous.resolvePublic({ owner: 'Codertocat', name: 'Hello-World' });
      expect((await anonymous.listPullRequests(hello)).map((pull) => [pull.title, pull.body])).toEqual([['Fix\uFFFDit', '\uFFFD']]);
    } finally {
      github.repositories.set(key, repository);
      github.pulls.set('codertocat/hello-world', pulls);
    }
  });

  it('refuses other hosts before any request', async () => {
    await expect(anonymous.resolvePublic({ url: 'https://example.com/a/b' })).rejects.toMatchObject({ name: 'InvalidInputError' });
    expect(github.requests).toEqual([]);
  });

  it('maps GitHub’s rate limit to 503 with the reset time', async () => {
    github.rateLimited = true;
    await expect(anonymous.resolvePublic({ owner: 'octokit-fixture-org', name: 'hello-world' })).rejects.toMatchObject({
      name: 'UnavailableError',
      message: expect.stringMatching(/^GitHub API rate limit exceeded \(resets at \d{4}-.*Z\); try again later$/),
    });
  });

  it('maps an unreachable API to 503', async () => {
    const down = new GitHubCodeHost({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 });
    await expect(down.resolvePublic({ owner: 'a', name: 'b' })).rejects.toMatchObject({
      name: 'UnavailableError',
      message: expect.stringMatching(/^GitHub is unavailable/),
    });
  });

  it('without App credentials, installation calls answer 503 naming the variables', async () => {
    await expect(anonymous.listInstallations()).rejects.toMatchObject({
      name: 'UnavailableError',
      message: 'no code-host App is configured (set VCS_APP_ID and VCS_PRIVATE_KEY_PATH)',
    });
    await expect(anonymous.listInstallationRepositories(957387)).rejects.toMatchObject({ name: 'UnavailableError' });
    expect(github.requests).toEqual([]);
  });

  it('lists the App’s installations with a signed App JWT', async () => {
    expect(await app.listInstallations()).toEqual([
      { provider: 'github', installationId: 957387, accountLogin: 'Codertocat', accountType: 'User', status: 'active' },
      { provider: 'github', installationId: 16598467, accountLogin: 'Codertocat', accountType: 'User', status: 'suspended' },
    ]);
    expect(github.requests).toHaveLength(1);
    expect(github.requests[0]).toMatchObject({ method: 'GET', path: '/app/installations?per_page=100', authorization: expect.stringMatching(/^bearer /) });
  });

  it('lists an installation’s repositories with an installation token', async () => {
    const repos = await app.listInstallationRepositories(957387);
    expect(repos.map((repo) => [repo.fullName, repo.vcsId, repo.installationId, repo.private, repo.cloneUrl])).toEqual([
      ['Codertocat/Hello-World', recorded.installedPublic.id, 957387, false, recorded.installedPublic.clone_url],
      ['Codertocat/hello-world-npm', recorded.installedPrivate.id, 957387, true, recorded.installedPrivate.clone_url],
    ]);
    expect(github.requests.map((request) => `${request.method} ${request.path.split('?')[0]}`)).toEqual([
      'POST /app/installations/957387/access_tokens',
      'GET /installation/repositories',
    ]);
    expect(github.requests[1]!.authorization).toMatch(/^token ghs_/);
    // The installation token is cached by the strategy: a second listing asks for no new one.
    await app.listInstallationRepositories(957387);
    expect(github.requests.filter((request) => request.path.includes('access_tokens'))).toHaveLength(1);
  });

  it('answers 503 when GitHub refuses a token for a suspended installation', async () => {
    await expect(app.listInstallationRepositories(16598467)).rejects.toMatchObject({ name: 'UnavailableError', message: expect.stringMatching(/403/) });
  });

  it('lists open pull requests (recorded pull_request objects)', async () => {
    const pulls = await anonymous.listPullRequests({
      provider: 'github',
      vcsId: recorded.installedPublic.id,
      installationId: 0,
      owner: 'Codertocat',
      name: 'Hello-World',
      fullName: 'Codertocat/Hello-World',
      url: 'https://github.com/Codertocat/Hello-World',
      cloneUrl: 'https://github.com/Codertocat/Hello-World.git',
      description: '',
      defaultBranch: 'master',
      private: false,
    });
    const pr = recorded.openPullRequest;
    expect(pulls).toEqual([
      {
        number: 2,
        title: 'Update the README with new information.',
        body: pr.body,
        state: 'open',
        merged: false,
        author: 'Codertocat',
        baseBranch: 'master',
        headBranch: 'changes',
        baseSha: pr.base.sha,
        headSha: pr.head.sha,
      },
    ]);
    expect(github.requests[0]!.path).toBe('/repos/Codertocat/Hello-World/pulls?state=open&per_page=100');
  });
});
