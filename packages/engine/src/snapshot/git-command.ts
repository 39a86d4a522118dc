// Runs git for the snapshot: never through a shell, never prompting, never taking optional locks
// (a read-only tool must not block a user's concurrent `git commit`).
import { execFile } from 'node:child_process';

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

export function runGit(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      {
        cwd,
        maxBuffer: MAX_OUTPUT_BYTES,
        encoding: 'utf8',
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const code = (error as NodeJS.ErrnoException & { code?: number | string }).code;
        const detail = stderr.trim() || error.message;
        reject(new GitCommandError(`git ${args[0]} failed: ${detail}`, args, code, stderr));
      },
    );
  });
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
