import { createAppAuth } from '@octokit/auth-app';
import { describe, expect, it } from 'vitest';
import { startFakeGitHub } from '../../../../test/helpers/fake-github.js';
import { defaultCodeHosts, githubApiUrl } from './default-code-hosts.js';
import type { GitHubCodeHost } from './github-code-host.js';

describe('defaultCodeHosts', () => {
  it('offers the local git host only when local repositories are allowed', () => {
    expect(defaultCodeHosts({ allowLocalRepos: false }).map((host) => host.provider)).toEqual(['github']);
    expect(defaultCodeHosts({ allowLocalRepos: true }).map((host) => host.provider)).toEqual(['local', 'github']);
  });

  it('passes the GitHub options through (an App makes installation sync possible)', () => {
    const [github] = defaultCodeHosts({ allowLocalRepos: false, github: { app: { authStrategy: () => ({}) as never, auth: { appId: 1 } } } });
    expect((github as unknown as { hasApp: boolean }).hasApp).toBe(true);
  });

  it('sends every GitHub call, installation tokens included, to VCS_API_URL (GitHub Enterprise Server)', async () => {
    expect(githubApiUrl({})).toBeUndefined();
    expect(githubApiUrl({ VCS_API_URL: ' https://ghe.example.com/api/v3/ ' })).toBe('https://ghe.example.com/api/v3');
    const fake = await startFakeGitHub();
    try {
      const [github] = defaultCodeHosts({
        allowLocalRepos: false,
        env: { VCS_API_URL: `${fake.baseUrl}/` },
        github: { app: { authStrategy: createAppAuth, auth: { appId: fake.appId, privateKey: fake.privateKey } } },
      }) as [GitHubCodeHost];
      await github.resolvePublic({ owner: 'octokit-fixture-org', name: 'hello-world' });
      const token = await github.installationToken(957387);
      expect(token).toMatch(/^ghs_/);
      expect(fake.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
        'GET /repos/octokit-fixture-org/hello-world',
        'POST /app/installations/957387/access_tokens',
      ]);
    } finally {
      await fake.close();
    }
  });
});
