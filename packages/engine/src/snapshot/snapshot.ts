// The repository snapshot handed to the pipeline: the inventory (each file with its kind and role)
// up front, file contents and git facts on demand, each computed at most once per run.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { CodeHealthConfig } from '../config/schema.js';
import type { GitFacts, RepoFile, RepoSnapshot } from './types.js';
import { listFiles } from './inventory.js';
import { assignRoles } from './file-roles.js';
import { readGitFacts, type GitHistory } from './git-facts.js';
import { decodeText, repositoryFiles, type RepositoryFiles } from './repository-files.js';

export type SnapshotOptions = Pick<CodeHealthConfig, 'exclude' | 'tests' | 'generated' | 'maxFileBytes' | 'roles'> & {
  /** Reference time for churn windows, in ms since the epoch; defaults to `Date.now()`. */
  now?: number;
  /** Receives the history the git facts were counted from (see `readGitFacts`). */
  onGitHistory?: (history: GitHistory) => void;
};

export type SnapshotErrorCode = 'DIRECTORY_NOT_FOUND' | 'NOT_A_DIRECTORY' | 'FILE_NOT_IN_SNAPSHOT' | 'FILE_SKIPPED' | 'FILE_UNREADABLE';

export class SnapshotError extends Error {
  constructor(
    readonly code: SnapshotErrorCode,
    /** The absolute directory, or the repository-relative file path, concerned. */
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'SnapshotError';
  }
}

async function assertDirectory(root: string): Promise<void> {
  const stats = await stat(root).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return undefined;
    throw error;
  });
  if (!stats) throw new SnapshotError('DIRECTORY_NOT_FOUND', root, `directory not found: ${root}`);
  if (!stats.isDirectory()) throw new SnapshotError('NOT_A_DIRECTORY', root, `not a directory: ${root}`);
}

export async function createSnapshot(root: string, options: SnapshotOptions = {}): Promise<RepoSnapshot> {
  const absoluteRoot = resolve(root);
  await assertDirectory(absoluteRoot);
  const files = assignRoles(absoluteRoot, await listFiles(absoluteRoot, options), options);
  const byPath = new Map<string, RepoFile>(files.map((f) => [f.path, f]));
  const contents = new Map<string, Promise<string>>();
  const reader = repositoryFiles(absoluteRoot);
  let gitFacts: Promise<GitFacts> | undefined;

  return {
    root: absoluteRoot,
    files,
    readFile(path: string): Promise<string> {
      let content = contents.get(path);
      if (!content) {
        content = readListed(reader, byPath.get(path), path);
        contents.set(path, content);
      }
      return content;
    },
    git(): Promise<GitFacts> {
      gitFacts ??= readGitFacts(absoluteRoot, { now: options.now, onHistory: options.onGitHistory });
      return gitFacts;
    },
  };
}

/**
 * A snapshot over an inventory listed elsewhere, with its git facts already read: a worker thread
 * running repository rules sees the same files as the run that listed them, without listing again.
 */
export function snapshotOfInventory(root: string, files: RepoFile[], git: GitFacts): RepoSnapshot {
  return snapshotOfFiles(root, files, () => Promise.resolve(git));
}

/** A snapshot over an inventory made elsewhere, its git facts read by `readGit` at most once. */
export function snapshotOfFiles(root: string, files: RepoFile[], readGit: () => Promise<GitFacts>): RepoSnapshot {
  let gitFacts: Promise<GitFacts> | undefined;
  const byPath = new Map<string, RepoFile>(files.map((f) => [f.path, f]));
  const contents = new Map<string, Promise<string>>();
  const reader = repositoryFiles(root);
  return {
    root,
    files,
    readFile(path: string): Promise<string> {
      let content = contents.get(path);
      if (!content) contents.set(path, (content = readListed(reader, byPath.get(path), path)));
      return content;
    },
    git(): Promise<GitFacts> {
      gitFacts ??= readGit();
      return gitFacts;
    },
  };
}

/**
 * Only inventoried, analysable files are read, and only as the inventory saw them: regular files
 * reached through no symbolic link (a path cannot reach outside the root or into binaries).
 */
async function readListed(reader: RepositoryFiles, file: RepoFile | undefined, path: string): Promise<string> {
  if (!file) throw new SnapshotError('FILE_NOT_IN_SNAPSHOT', path, `not in the snapshot: ${path}`);
  if (file.skipReason) throw new SnapshotError('FILE_SKIPPED', path, `skipped: ${path} (${file.skipReason})`);
  // Synchronous on purpose, like the inventory's reads: on a warm page cache reading every file of
  // a large repository this way takes a third of the CPU of the thread pool's round trips (open,
  // stat, read, close each crossing threads); callers that read many files yield between batches.
  const read = reader.readSync(path, { links: 'never' });
  if (!read.ok) throw new SnapshotError('FILE_UNREADABLE', path, `not read: ${read.message}`);
  // Decoding drops a byte-order mark, so that line and column numbers match what editors show.
  return decodeText(read.bytes);
}
