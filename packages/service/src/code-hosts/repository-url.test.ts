import { describe, expect, it } from 'vitest';
import { parseRepositoryRef } from './repository-url.js';

const remote = { allowLocal: false };
const local = { allowLocal: true };

describe('parseRepositoryRef', () => {
  it('accepts GitHub web URLs with an optional .git or trailing slash', () => {
    expect(parseRepositoryRef({ url: 'https://github.com/octo-org/octo-repo' }, remote)).toEqual({ provider: 'github', owner: 'octo-org', name: 'octo-repo' });
    expect(parseRepositoryRef({ url: 'https://github.com/octo-org/octo.repo_1.git' }, remote)).toEqual({
      provider: 'github',
      owner: 'octo-org',
      name: 'octo.repo_1',
    });
    expect(parseRepositoryRef({ url: 'https://GitHub.com/a/b/' }, remote)).toEqual({ provider: 'github', owner: 'a', name: 'b' });
  });

  it('accepts owner and name, checked with GitHub’s character rules', () => {
    expect(parseRepositoryRef({ owner: 'Codertocat', name: 'Hello-World' }, remote)).toEqual({ provider: 'github', owner: 'Codertocat', name: 'Hello-World' });
    expect(() => parseRepositoryRef({ owner: '-bad', name: 'x' }, remote)).toThrow(/invalid GitHub owner '-bad'/);
    expect(() => parseRepositoryRef({ owner: 'a--b', name: 'x' }, remote)).toThrow(/invalid GitHub owner/);
    expect(() => parseRepositoryRef({ owner: 'a'.repeat(40), name: 'x' }, remote)).toThrow(/at most 39/);
    expect(() => parseRepositoryRef({ owner: 'a', name: '..' }, remote)).toThrow(/invalid GitHub repository name '..'/);
    expect(() => parseRepositoryRef({ owner: 'a', name: 'x/y' }, remote)).toThrow(/invalid GitHub repository name/);
    expect(() => parseRepositoryRef({ owner: 'a', name: 'n'.repeat(101) }, remote)).toThrow(/at most 100/);
  });

  it.each([
    ['http://github.com/a/b', /unsupported repository URL scheme 'http:'/],
    ['ssh://git@github.com/a/b.git', /unsupported repository URL scheme/],
    ['git@github.com:a/b.git', /not a URL/],
    ['https://gitlab.com/a/b', /unsupported code host 'gitlab.com'/],
    ['https://github.com.evil.example/a/b', /unsupported code host/],
    ['https://127.0.0.1/a/b', /unsupported code host '127.0.0.1'/],
    ['https://169.254.169.254/latest/meta-data', /unsupported code host/],
    ['https://token:x-oauth@github.com/a/b', /must not contain credentials/],
    ['https://github.com@evil.example/a/b', /must not contain credentials/],
    ['https://github.com:8443/a/b', /must not name a port/],
    ['https://github.com/a/b?ref=main', /query or a fragment/],
    ['https://github.com/a', /not a repository URL/],
    ['https://github.com/a/b/tree/main', /not a repository URL/],
    ['https://github.com/a/%2e%2e', /not a repository URL/],
    ['https://github.com/a/b%41', /invalid GitHub repository name 'b%41'/],
    ['https://github.com/a/b c', /spaces or control characters/],
    ['file:///etc', /accepted only in embedded mode/],
    ['FILE:///etc', /accepted only in embedded mode/],
  ])('refuses %s', (url, message) => {
    expect(() => parseRepositoryRef({ url }, remote)).toThrow(message);
  });

  it('refuses every failure as a 400 InvalidInputError', () => {
    try {
      parseRepositoryRef({ url: 'https://gitlab.com/a/b' }, remote);
      expect.unreachable();
    } catch (error) {
      expect((error as Error).name).toBe('InvalidInputError');
    }
  });

  it('accepts file:// URLs only when local repositories are allowed, normalised to an absolute path', () => {
    expect(parseRepositoryRef({ url: 'file:///srv/repos/app/' }, local)).toEqual({ provider: 'local', path: '/srv/repos/app', url: 'file:///srv/repos/app' });
    expect(parseRepositoryRef({ url: 'file:///srv/repos/x/../app' }, local)).toEqual({
      provider: 'local',
      path: '/srv/repos/app',
      url: 'file:///srv/repos/app',
    });
    expect(parseRepositoryRef({ url: 'file://localhost/srv/a%20b' }, local)).toEqual({ provider: 'local', path: '/srv/a b', url: 'file:///srv/a%20b' });
    expect(() => parseRepositoryRef({ url: 'file://server/share/repo' }, local)).toThrow(/must not name a host/);
    expect(() => parseRepositoryRef({ url: 'file:///srv/a%2Fb' }, local)).toThrow(/not a usable file:\/\/ URL/);
    // GitHub URLs still work in local mode; other hosts are still refused.
    expect(parseRepositoryRef({ url: 'https://github.com/a/b' }, local)).toMatchObject({ provider: 'github' });
    expect(() => parseRepositoryRef({ url: 'https://example.com/a/b' }, local)).toThrow(/unsupported code host/);
  });
});
