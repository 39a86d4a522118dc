// Runs git for the snapshot: never through a shell, never prompting, never taking optional locks
// (a read-only tool must not block a user's concurrent `git commit`).
import { runGitCommand } from '../git-process/git-helper.js';
import { failureDetail, succeeded } from '../git-process/spawn-git.js';

export class GitCommandError extends Error {
  constructor(
    message: string,
    readonly args: readonly string[],
    /** Exit code, or the spawn error code (`ENOENT` when git is not installed). */
    readonly code: number | string | undefined,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'GitCommandError';
  }
}

// History of a large repository over 90 days can run to hundreds of MB of numstat.
const MAX_OUTPUT_BYTES = 1024 * 1024 * 1024;
// The same history can take minutes to walk; a hung git (a network mount) must not hang the run.
const TIMEOUT_MS = 30 * 60_000;

export async function runGit(cwd: string, args: readonly string[]): Promise<string> {
  // The directory the user pointed at, as their own git sees it (system config, GIT_* variables).
  const result = await runGitCommand({
    cwd,
    args,
    environment: { inheritGitVariables: true, systemConfig: true },
    maxBufferBytes: MAX_OUTPUT_BYTES,
    timeoutMs: TIMEOUT_MS,
  });
  if (succeeded(result)) return result.stdout.toString('utf8');
  throw new GitCommandError(`git ${args[0]} failed: ${failureDetail(result)}`, args, result.errorCode ?? result.exitCode ?? undefined, result.stderr);
}

/** Resolves to undefined instead of rejecting: for probes whose failure is an answer. */
export function tryGit(cwd: string, args: readonly string[]): Promise<string | undefined> {
  return runGit(cwd, args).catch(() => undefined);
}

/**
 * True when `root` lies in a git work tree whose rules apply to it. A directory that the enclosing
 * repository ignores (a fixture under `.cache/`, say) is treated as a plain directory, otherwise
 * `git ls-files` would report it empty.
 */
export async function isGitWorkTree(root: string): Promise<boolean> {
  const probe = await tryGit(root, ['rev-parse', '--is-inside-work-tree', '--show-prefix']);
  if (probe === undefined) return false;
  const [inside, prefix = ''] = probe.split('\n');
  if (inside !== 'true') return false;
  if (prefix === '') return true;
  // check-ignore exits 0 when the path is ignored, 1 when it is not.
  return (await tryGit(root, ['check-ignore', '-q', '--', '.'])) === undefined;
}
