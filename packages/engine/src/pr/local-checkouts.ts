// Throw-away working copies of a local git repository at given commits, for PR analyses run
// outside the worker (tests, the CLI, embedders): a `--shared` clone (objects borrowed from the
// source, nothing copied, the source repository untouched) checked out detached at the commit —
// in full, or sparse: only the paths some gitignore-style patterns select (a review that reads a
// few files of the merge base, analyze-change.ts, writes only those).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { git, resolveCommit } from './diff-git.js';

export interface CommitCheckout {
  path: string;
  sha: string;
  dispose(): Promise<void>;
}

export interface CheckoutOptions {
  /**
   * Write only the files these gitignore-style patterns select (git's non-cone sparse checkout):
   * the others stay in the index, marked skip-worktree, and are absent from the directory.
   */
  sparse?: readonly string[];
}

export interface CommitCheckouts {
  checkout(sha: string, options?: CheckoutOptions): Promise<CommitCheckout>;
}

export function localCheckouts(repoDir: string, workDir = tmpdir()): CommitCheckouts {
  const source = resolve(repoDir);
  return {
    async checkout(rev, options = {}) {
      const sha = await resolveCommit(source, rev);
      const path = await mkdtemp(join(workDir, 'codehealth-pr-'));
      try {
        await git(source, ['clone', '--shared', '--no-checkout', '--quiet', source, path]);
        // Patterns start with '/', '!' or '*' (never '-'): git reads none of them as an option.
        if (options.sparse) await git(path, ['sparse-checkout', 'set', '--no-cone', ...options.sparse]);
        await git(path, ['-c', 'advice.detachedHead=false', 'checkout', '--quiet', '--detach', sha]);
      } catch (error) {
        await rm(path, { recursive: true, force: true });
        throw error;
      }
      return { path, sha, dispose: () => rm(path, { recursive: true, force: true }) };
    },
  };
}
