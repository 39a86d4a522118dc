import { describe, expect, it } from 'vitest';
import { defaultCodeHosts } from './default-code-hosts.js';

describe('defaultCodeHosts', () => {
  it('offers the local git host only when local repositories are allowed', () => {
    expect(defaultCodeHosts({ allowLocalRepos: false }).map((host) => host.provider)).toEqual(['github']);
    expect(defaultCodeHosts({ allowLocalRepos: true }).map((host) => host.provider)).toEqual(['local', 'github']);
  });

  it('passes the GitHub options through (an App makes installation sync possible)', () => {
    const [github] = defaultCodeHosts({ allowLocalRepos: false, github: { app: { authStrategy: () => ({}) as never, auth: { appId: 1 } } } });
    expect((github as unknown as { hasApp: boolean }).hasApp).toBe(true);
  });
});
