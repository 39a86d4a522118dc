// The local code host: git repositories on this machine, addressed by `file://` URLs, for
// offline and embedded use. Pull requests follow GitHub's ref convention: `refs/pull/<N>/head`
// is pull request N, based on the repository's default branch.
//
// Git runs through the git helper process (never a shell) with hooks and fsmonitor disabled, no prompts, no
// system config and no repository discovery above the given directory: reading metadata never
// executes anything the repository's owner configured.
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CodeHost, PublicRepositoryRef, PullRequestMetadata, RepositoryMetadata } from '../ports/code-host.js';
import { InvalidInputError } from '../services/errors.js';
import { runGitCommand } from '@codehealth/engine';
import { failureDetail, succeeded } from '@codehealth/engine/internal';
import { parseLocalUrl, parseRepositoryRef } from './repository-url.js';

// Besides the runner's HARDENED_CONFIG: no credential helper.
const SAFE_CONFIG = ['-c', 'credential.helper='];
const GIT_TIMEOUT_MS = 30_000;

export class LocalGitError extends Error {
  override readonly name = 'LocalGitError';
}

/** Runs git in `dir` and returns its trimmed stdout; never looks for a repository above `dir`. */
export async function runLocalGit(dir: string, args: readonly string[]): Promise<string> {
  const result = await runGitCommand({
    cwd: dir,
    args: [...SAFE_CONFIG, ...args],
    environment: { repository: dir },
    timeoutMs: GIT_TIMEOUT_MS,
    maxBufferBytes: 64 * 1024 * 1024,
  });
  if (!succeeded(result)) throw new LocalGitError(`git ${args[0]} failed: ${failureDetail(result)}`);
  return result.stdout.toString('utf8').replace(/\n$/, '');
}

const tryGit = (dir: string, args: readonly string[]): Promise<string | undefined> => runLocalGit(dir, args).catch(() => undefined);

/** The branch HEAD names; for a detached HEAD, `main` or `master` when one exists. */
async function defaultBranchOf(dir: string): Promise<string | undefined> {
  const head = await tryGit(dir, ['symbolic-ref', '--quiet', '--short', 'HEAD']);
  if (head) return head;
  for (const candidate of ['main', 'master']) {
    if (await tryGit(dir, ['rev-parse', '--verify', '--quiet', `refs/heads/${candidate}`])) return candidate;
  }
  return undefined;
}

export class LocalGitCodeHost implements CodeHost {
  readonly provider = 'local';

  handles(ref: PublicRepositoryRef): boolean {
    return 'url' in ref && /^file:/i.test(ref.url);
  }

  async resolvePublic(ref: PublicRepositoryRef): Promise<RepositoryMetadata> {
    const location = parseRepositoryRef(ref, { allowLocal: true });
    if (location.provider !== 'local') throw new InvalidInputError('the local code host takes file:// URLs only');
    const dir = await this.repositoryRoot(location.path);
    const defaultBranch = await defaultBranchOf(dir);
    if (!defaultBranch) throw new InvalidInputError(`${dir} has a detached HEAD and neither a main nor a master branch`);
    if (!(await tryGit(dir, ['rev-parse', '--verify', '--quiet', `refs/heads/${defaultBranch}^{commit}`]))) {
      throw new InvalidInputError(`${dir} has no commits on its default branch '${defaultBranch}'`);
    }
    const name = basename(dir).replace(/(.)\.git$/, '$1');
    const owner = basename(dirname(dir)) || 'local';
    const url = pathToFileURL(dir).href;
    return {
      provider: this.provider,
      vcsId: 0,
      installationId: 0,
      owner,
      name,
      fullName: `${owner}/${name}`,
      url,
      cloneUrl: url,
      description: '',
      defaultBranch,
      private: false,
    };
  }

  /** Each `refs/pull/<N>/head` is open pull request N against the default branch. */
  async listPullRequests(repository: RepositoryMetadata): Promise<PullRequestMetadata[]> {
    const dir = await this.repositoryRoot(parseLocalUrl(repository.cloneUrl).path);
    const refs = await runLocalGit(dir, ['for-each-ref', '--format=%(refname)%00%(objectname)', 'refs/pull/']);
    const base = `refs/heads/${repository.defaultBranch}`;
    const baseTip = await tryGit(dir, ['rev-parse', '--verify', '--quiet', `${base}^{commit}`]);
    const pulls: PullRequestMetadata[] = [];
    for (const line of refs.split('\n')) {
      const [ref, sha] = line.split('\0');
      const match = /^refs\/pull\/([1-9][0-9]{0,8})\/head$/.exec(ref ?? '');
      if (!match || !sha) continue;
      const headSha = await tryGit(dir, ['rev-parse', '--verify', '--quiet', `${sha}^{commit}`]);
      if (!headSha) continue; // a ref to a tag or tree is no pull request
      const log = await runLocalGit(dir, ['log', '-1', '--no-show-signature', '--format=%an%x00%s%x00%b', headSha]);
      const [author = '', title = '', body = ''] = log.split('\0');
      // Unrelated histories have no merge base; the base branch tip is then the best base.
      const mergeBase = baseTip ? ((await tryGit(dir, ['merge-base', headSha, baseTip])) ?? baseTip) : '';
      pulls.push({
        number: Number(match[1]),
        title,
        body: body.trimEnd(),
        state: 'open',
        merged: false,
        author,
        baseBranch: repository.defaultBranch,
        headBranch: `pull/${match[1]}`,
        baseSha: mergeBase,
        headSha,
      });
    }
    return pulls.sort((a, b) => a.number - b.number);
  }

  /** Commits of `refs/pull/<N>/head` not on the default branch (the head itself always); undefined without that ref. */
  async listPullRequestCommits(repository: RepositoryMetadata, prNumber: number): Promise<string[] | undefined> {
    const dir = await this.repositoryRoot(parseLocalUrl(repository.cloneUrl).path);
    const head = await tryGit(dir, ['rev-parse', '--verify', '--quiet', `refs/pull/${prNumber}/head^{commit}`]);
    if (!head) return undefined;
    const base = await tryGit(dir, ['rev-parse', '--verify', '--quiet', `refs/heads/${repository.defaultBranch}^{commit}`]);
    const own = await runLocalGit(dir, ['rev-list', '--max-count=250', head, ...(base ? ['--not', base] : [])]);
    return [...new Set([head, ...own.split('\n').filter(Boolean)])];
  }

  /** The real path of the repository at `path`; InvalidInputError unless it is a repository's root. */
  private async repositoryRoot(path: string): Promise<string> {
    const info = await stat(path).catch(() => undefined);
    if (!info) throw new InvalidInputError(`local repository ${path} does not exist`);
    if (!info.isDirectory()) throw new InvalidInputError(`local repository ${path} is not a directory`);
    const dir = await realpath(path);
    const probe = await tryGit(dir, ['rev-parse', '--is-bare-repository', '--absolute-git-dir']);
    if (probe === undefined) throw new InvalidInputError(`${path} is not a git repository`);
    const [bare, gitDir] = probe.split('\n');
    const root = bare === 'true' ? gitDir : await tryGit(dir, ['rev-parse', '--show-toplevel']);
    if (!root || (await realpath(root)) !== dir) {
      throw new InvalidInputError(`${path} is not the root of a git repository${root ? ` (its root is ${root})` : ''}`);
    }
    return dir;
  }
}
