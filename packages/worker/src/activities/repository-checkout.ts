// Repository checkouts for the activities: a bare mirror per repository in the worker's cache
// (fetched, never re-cloned), and a throw-away working copy at the wanted commit for each run.
// Working copies and partial clones carry owner records: those a killed process left behind are
// removed at the next start (removeLeftovers), those in use never.
// Git runs through the engine's hardened runner (no shell, hooks/fsmonitor/ext:: off, GIT_* variables
// of this process scrubbed, no prompts, timeout and output limit); credentials, when a code host
// needs them, travel in git's environment, never on the command line or on disk.
import { runGitCommand } from '@codehealth/engine';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { NonRetryableError } from '../workflows/retry.js';
import { claimPath, removeStalePaths } from './checkout-owners.js';

export interface CheckoutOptions {
  /** Where mirrors and working copies live (e.g. `<data dir>/repos`). */
  workDir: string;
  /** Accept `file://` clone URLs (embedded mode). */
  allowLocal: boolean;
  /** Extra HTTP header for a repository's remote (an installation token), passed via git's env config. */
  authHeader?: (repositoryId: string) => Promise<string | undefined>;
  /** Timeout of one git command (default 10 minutes). */
  timeoutMs?: number;
}

export interface Checkout {
  path: string;
  sha: string;
  dispose(): Promise<void>;
}

/** A mirror being cloned: `<id>.git.partial-<random>`, renamed to `<id>.git` once complete. */
const PARTIAL = '.partial-';

// Besides the runner's hardened settings: no credential helper.
const SAFE_CONFIG = ['-c', 'credential.helper='];
const MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

function checkCloneUrl(url: string, allowLocal: boolean): void {
  if (/^https:\/\/github\.com\/[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+(\.git)?$/.test(url)) return;
  if (allowLocal && url.startsWith('file:///')) return;
  throw new NonRetryableError(`refusing to fetch from ${url.startsWith('file:') ? 'a local path' : 'this URL'}: not an allowed repository location`);
}

export class RepositoryCheckouts {
  constructor(private readonly options: CheckoutOptions) {}

  private async git(args: string[], cwd?: string, repositoryId?: string): Promise<string> {
    const set: Record<string, string> = { GIT_ASKPASS: '/bin/false' };
    const header = repositoryId ? await this.options.authHeader?.(repositoryId) : undefined;
    if (header) Object.assign(set, { GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'http.extraHeader', GIT_CONFIG_VALUE_0: header });
    const result = await runGitCommand({
      cwd: cwd ?? process.cwd(),
      args: [...SAFE_CONFIG, ...args],
      environment: { set },
      timeoutMs: this.options.timeoutMs ?? 600_000,
      maxBufferBytes: MAX_OUTPUT_BYTES,
    });
    if (result.exitCode === 0 && result.errorCode === undefined) return result.stdout.toString('utf8').trim();
    const full = result.stderr.trim();
    const stderr = full.split('\n').filter(Boolean).slice(-3).join(' ');
    const how =
      result.errorCode === 'ETIMEDOUT' ? 'timed out' : result.errorCode === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' ? 'output too large' : result.errorMessage;
    const message = `git ${args[0]} failed: ${(result.errorCode === undefined && stderr) || how || stderr || `exit status ${result.exitCode}`}`;
    // A repository that does not exist or is not a repository will not appear on retry.
    if (/not found|does not appear to be a git repository|not a git repository|Repository not found/i.test(full)) {
      throw new NonRetryableError(message);
    }
    throw new Error(message);
  }

  private mirrorOf(repositoryId: string): string {
    return join(this.options.workDir, 'mirrors', `${repositoryId}.git`);
  }

  /** Clones (first time) or fetches the mirror; returns the sha of `ref` (default: the remote HEAD). */
  async fetch(repositoryId: string, cloneUrl: string, ref?: string): Promise<string> {
    checkCloneUrl(cloneUrl, this.options.allowLocal);
    const mirror = this.mirrorOf(repositoryId);
    if (!existsSync(join(mirror, 'HEAD'))) {
      await mkdir(join(this.options.workDir, 'mirrors'), { recursive: true });
      const partial = await claimPath(`${mirror}${PARTIAL}${randomBytes(6).toString('hex')}`);
      try {
        await this.git(['clone', '--mirror', '--quiet', cloneUrl, partial.path], undefined, repositoryId);
        await rm(mirror, { recursive: true, force: true });
        await rename(partial.path, mirror);
      } finally {
        await partial.release();
      }
    } else {
      await this.git(['--git-dir', mirror, 'remote', 'set-url', 'origin', cloneUrl]);
      await this.git(['--git-dir', mirror, 'fetch', '--prune', '--quiet', 'origin', '+refs/*:refs/*'], undefined, repositoryId);
    }
    return this.resolve(repositoryId, ref ?? 'HEAD');
  }

  async resolve(repositoryId: string, ref: string): Promise<string> {
    if (!/^[A-Za-z0-9_./-]+$/.test(ref) || ref.startsWith('-')) throw new NonRetryableError(`invalid git ref '${ref}'`);
    try {
      return await this.git(['--git-dir', this.mirrorOf(repositoryId), 'rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    } catch {
      throw new NonRetryableError(`commit or ref '${ref}' not found in the repository`);
    }
  }

  /** A working copy at `sha` with its history (for churn), removed by dispose(). */
  async checkout(repositoryId: string, sha: string): Promise<Checkout> {
    if (!/^[0-9a-f]{40}$/.test(sha)) throw new NonRetryableError(`invalid commit sha '${sha}'`);
    await mkdir(join(this.options.workDir, 'checkouts'), { recursive: true });
    const owned = await claimPath(join(this.options.workDir, 'checkouts', `${repositoryId.slice(0, 8)}-${randomBytes(6).toString('hex')}`));
    const path = owned.path;
    try {
      await mkdir(path);
      await this.git(['clone', '--shared', '--no-checkout', '--quiet', this.mirrorOf(repositoryId), path]);
      await this.git(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--detach', sha], path);
    } catch (error) {
      await owned.release();
      throw error;
    }
    return { path, sha, dispose: () => owned.release() };
  }

  /**
   * Removes the working copies and partial mirror clones that no live process owns (left by a
   * killed or crashed process); call it when a host or worker starts. Returns the paths removed.
   */
  async removeLeftovers(): Promise<string[]> {
    const { workDir } = this.options;
    return [
      ...(await removeStalePaths(join(workDir, 'checkouts'))),
      ...(await removeStalePaths(join(workDir, 'mirrors'), { select: (name) => name.includes(PARTIAL) })),
    ];
  }
}
