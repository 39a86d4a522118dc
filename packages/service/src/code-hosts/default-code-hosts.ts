// The code hosts a process offers: GitHub always (public repositories; installations once the
// App's auth strategy is configured), local git repositories only when they are allowed
// (embedded mode or CODEHEALTH_ALLOW_LOCAL_REPOS=1). Hosts pass the result to `Services`. Every
// GitHub call goes to VCS_API_URL (GitHub Enterprise Server's API root) when it is set.
import type { CodeHost } from '../ports/code-host.js';
import { GitHubCodeHost, type GitHubCodeHostOptions } from './github-code-host.js';
import { LocalGitCodeHost } from './local-git-code-host.js';

export interface DefaultCodeHostOptions {
  allowLocalRepos: boolean;
  github?: GitHubCodeHostOptions;
  /** The environment read for VCS_API_URL; default process.env. An explicit `github.baseUrl` wins. */
  env?: Record<string, string | undefined>;
}

export function defaultCodeHosts(options: DefaultCodeHostOptions): CodeHost[] {
  return [
    ...(options.allowLocalRepos ? [new LocalGitCodeHost()] : []),
    new GitHubCodeHost({ baseUrl: githubApiUrl(options.env ?? process.env), ...options.github }),
  ];
}

/** VCS_API_URL without a trailing slash, or undefined (the public API) when unset or empty. */
export function githubApiUrl(env: Record<string, string | undefined>): string | undefined {
  const url = env.VCS_API_URL?.trim();
  return url ? url.replace(/\/+$/, '') : undefined;
}
