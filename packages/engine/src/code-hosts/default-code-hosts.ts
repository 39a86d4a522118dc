// The code hosts a process offers: GitHub always (public repositories; installations once the
// App's auth strategy is configured), local git repositories only when they are allowed
// (embedded mode or CODEHEALTH_ALLOW_LOCAL_REPOS=1). Hosts pass the result to `Services`.
import type { CodeHost } from '../ports/code-host.js';
import { GitHubCodeHost, type GitHubCodeHostOptions } from './github-code-host.js';
import { LocalGitCodeHost } from './local-git-code-host.js';

export interface DefaultCodeHostOptions {
  allowLocalRepos: boolean;
  github?: GitHubCodeHostOptions;
}

export function defaultCodeHosts(options: DefaultCodeHostOptions): CodeHost[] {
  return [...(options.allowLocalRepos ? [new LocalGitCodeHost()] : []), new GitHubCodeHost(options.github)];
}
