// Git access of the PR pipeline: one command runner and a batch blob reader. Git runs through the
// git helper process (git-process/git-helper.ts; never a shell) with hooks, fsmonitor, external diff drivers and textconv filters
// off, no prompts, no system config and no repository discovery above the given directory, so
// reading a diff never executes anything the repository's owner configured.
import { runGitCommand } from '../git-process/git-helper.js';
import { failureDetail, succeeded } from '../git-process/spawn-git.js';

// Besides the runner's HARDENED_CONFIG: no credential helper, and paths printed as they are.
const SAFE_CONFIG = ['-c', 'credential.helper=', '-c', 'core.quotePath=false'];
const TIMEOUT_MS = 120_000;
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

export class PrGitError extends Error {
  override readonly name = 'PrGitError';
}

/** Runs git in `dir` (a work tree or a bare repository) and returns its stdout untouched. */
export async function git(dir: string, args: readonly string[]): Promise<string> {
  const result = await runGitCommand({
    cwd: dir,
    args: [...SAFE_CONFIG, ...args],
    environment: { repository: dir },
    timeoutMs: TIMEOUT_MS,
    maxBufferBytes: MAX_OUTPUT_BYTES,
  });
  if (!succeeded(result)) throw new PrGitError(`git ${args[0]} failed: ${failureDetail(result)}`);
  return result.stdout.toString('utf8');
}

export const tryGit = (dir: string, args: readonly string[]): Promise<string | undefined> => git(dir, args).catch(() => undefined);

/** A full 40-hex commit id for a revision; PrGitError when it does not name a commit. */
export async function resolveCommit(dir: string, rev: string): Promise<string> {
  if (rev.startsWith('-')) throw new PrGitError(`invalid revision '${rev}'`);
  const sha = (await tryGit(dir, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]))?.trim();
  if (!sha) throw new PrGitError(`revision '${rev}' is not a commit of ${dir}`);
  return sha;
}

/** Full commit ids of several revisions with one git process; the first that names no commit fails as in `resolveCommit`. */
export async function resolveCommits(dir: string, revs: readonly string[]): Promise<string[]> {
  for (const rev of revs) if (rev.startsWith('-')) throw new PrGitError(`invalid revision '${rev}'`);
  const shas = (await tryGit(dir, ['rev-parse', ...revs.map((rev) => `${rev}^{commit}`)]))?.split('\n').filter(Boolean);
  if (shas?.length === revs.length && shas.every((sha) => /^[0-9a-f]{40,64}$/.test(sha))) return shas;
  // A range or a missing revision: one at a time, for the error naming it.
  const resolved: string[] = [];
  for (const rev of revs) resolved.push(await resolveCommit(dir, rev));
  return resolved;
}

/**
 * Reads many blobs (`<commit>:<path>`) with one `git cat-file --batch` process instead of one
 * process per file. Missing objects (and paths git cannot take on one line) read as undefined.
 */
export async function readBlobs(dir: string, specs: readonly string[]): Promise<Map<string, Buffer | undefined>> {
  const out = new Map<string, Buffer | undefined>();
  const wanted = specs.filter((spec) => !spec.includes('\n'));
  for (const spec of specs) out.set(spec, undefined);
  if (wanted.length === 0) return out;
  const input = wanted.map((spec) => `${spec}\n`).join('');
  const result = await runGitCommand({
    cwd: dir,
    args: [...SAFE_CONFIG, 'cat-file', '--batch'],
    environment: { repository: dir },
    input,
    timeoutMs: TIMEOUT_MS,
    maxBufferBytes: MAX_OUTPUT_BYTES,
  });
  if (!succeeded(result)) throw new PrGitError(`git cat-file failed: ${failureDetail(result)}`);
  const buffer = result.stdout;
  let offset = 0;
  for (const spec of wanted) {
    const end = buffer.indexOf(0x0a, offset);
    if (end === -1) break;
    const header = buffer.subarray(offset, end).toString('utf8');
    offset = end + 1;
    // `<sha> <type> <size>` or `<spec> missing` / `<spec> ambiguous`.
    const match = /^[0-9a-f]{40,64} (\w+) (\d+)$/.exec(header);
    if (!match) continue;
    const size = Number(match[2]);
    if (match[1] === 'blob') out.set(spec, buffer.subarray(offset, offset + size));
    offset += size + 1;
  }
  return out;
}
