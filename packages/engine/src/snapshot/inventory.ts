// The file inventory of a repository: which files exist (after .gitignore, `exclude` and the
// always-skipped directories), their language, kind and size, and why a file will not be analysed.
// In a git work tree git itself lists the files, so tracked-but-ignored files, global excludes and
// `.git/info/exclude` behave exactly as in `git status`; elsewhere the directory is walked.
import { closeSync, lstatSync, readSync } from 'node:fs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { join } from 'node:path';
import type { Ignore } from 'ignore';
import { safeIgnore } from '../patterns/safe-ignore.js';
import type { RepoFile } from './types.js';
import { ALWAYS_SKIPPED_DIRS, walkDirectory } from './directory-walk.js';
import { createClassifier, type ClassifyOptions, type Classifier } from './classify.js';
import { detectLanguage } from './languages.js';
import { isGitWorkTree, runGit } from './git-command.js';
import { repositoryFiles, type RepositoryFiles } from './repository-files.js';

export interface InventoryOptions extends ClassifyOptions {
  /** Gitignore-style patterns of paths to leave out entirely (config `exclude`). */
  exclude?: readonly string[];
  /** Larger files are listed with a `skipReason` (config `maxFileBytes`). */
  maxFileBytes?: number;
}

export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;

/** Enough to spot binary content (git looks at the first 8,000 bytes) and generator markers. */
const HEAD_BYTES = 8 * 1024;
/** Files inspected between two yields to the event loop: a few milliseconds of blocking I/O. */
const BATCH = 256;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Paths listed by git, relative to `root` (which may be a subdirectory of the work tree). */
async function listGitFiles(root: string): Promise<string[]> {
  const output = await runGit(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  // Conflicted files appear once per stage; nested repositories appear as `dir/` and are skipped.
  const paths = new Set(output.split('\0'));
  return [...paths].filter((p) => p !== '' && !p.endsWith('/'));
}

function isAlwaysSkipped(path: string): boolean {
  return path.split('/').some((segment) => ALWAYS_SKIPPED_DIRS.has(segment));
}

interface FileFacts {
  size: number;
  head?: string;
  binary?: boolean;
  /** Error code of a file that exists but cannot be read. */
  error?: string;
}

/**
 * The first bytes of a regular file reached through no symbolic link; undefined for anything else
 * (symlinks, submodules, tracked files deleted from the work tree). Synchronous on purpose: on a
 * warm disk cache it is 2-3 times faster than the thread pool, and `describeAll` yields to the
 * event loop every batch.
 */
function inspect(files: RepositoryFiles, path: string, buffer: Buffer): FileFacts | undefined {
  const opened = files.openSync(path, { links: 'never' });
  if (!opened.ok) {
    if (opened.reason !== 'unreadable') return undefined;
    // A file that exists but cannot be opened is listed, with why it is not analysed.
    let size: number | undefined;
    try {
      const stats = lstatSync(join(files.root, path));
      if (stats.isFile()) size = stats.size;
    } catch {
      // Gone, or its directory cannot be searched: not listed.
    }
    return size === undefined ? undefined : { size, error: opened.code ?? 'unknown error' };
  }
  const size = opened.stats.size;
  try {
    const bytesRead = readSync(opened.fd, buffer, 0, HEAD_BYTES, 0);
    const bytes = buffer.subarray(0, bytesRead);
    return bytes.includes(0) ? { size, binary: true } : { size, head: bytes.toString('utf8') };
  } catch (error) {
    return { size, error: (error as NodeJS.ErrnoException).code ?? 'unknown error' };
  } finally {
    closeSync(opened.fd);
  }
}

function describe(files: RepositoryFiles, path: string, classify: Classifier, maxBytes: number, buffer: Buffer): RepoFile | undefined {
  const facts = inspect(files, path, buffer);
  if (!facts) return undefined;
  const file: RepoFile = { path, language: detectLanguage(path), kind: classify(path, facts.head), sizeBytes: facts.size };
  if (facts.error) file.skipReason = `unreadable: ${facts.error}`;
  else if (facts.binary) file.skipReason = 'binary file';
  else if (facts.size > maxBytes) file.skipReason = `file is ${formatBytes(facts.size)}, above the ${formatBytes(maxBytes)} limit`;
  return file;
}

async function describeAll(root: string, paths: readonly string[], classify: Classifier, maxBytes: number): Promise<RepoFile[]> {
  const reader = repositoryFiles(root);
  const files: RepoFile[] = [];
  const buffer = Buffer.allocUnsafe(HEAD_BYTES);
  for (let start = 0; start < paths.length; start += BATCH) {
    if (start > 0) await yieldToEventLoop();
    for (const path of paths.slice(start, start + BATCH)) {
      const file = describe(reader, path, classify, maxBytes, buffer);
      if (file) files.push(file);
    }
  }
  return files;
}

/**
 * The inventory entries of given paths, as `listFiles` would describe them (same filters): a path
 * that is excluded, missing or not a regular file has none. For a run that knows the rest of the
 * inventory already (a PR's head: the base's, plus the changed paths).
 */
export function describePaths(root: string, paths: readonly string[], options: InventoryOptions = {}): Map<string, RepoFile | undefined> {
  const exclude: Ignore = safeIgnore().add([...(options.exclude ?? [])]);
  const classify = createClassifier(options);
  const buffer = Buffer.allocUnsafe(HEAD_BYTES);
  const reader = repositoryFiles(root);
  const described = new Map<string, RepoFile | undefined>();
  for (const path of paths) {
    const listed = !isAlwaysSkipped(path) && !exclude.ignores(path);
    described.set(path, listed ? describe(reader, path, classify, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, buffer) : undefined);
  }
  return described;
}

/** Every file of the repository at `root`, sorted by path (code-unit order, locale-independent). */
export async function listFiles(root: string, options: InventoryOptions = {}): Promise<RepoFile[]> {
  const exclude: Ignore = safeIgnore().add([...(options.exclude ?? [])]);
  const listed = (await isGitWorkTree(root)) ? await listGitFiles(root) : await walkDirectory(root, exclude);
  const paths = listed.filter((p) => !isAlwaysSkipped(p) && !exclude.ignores(p));
  paths.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const classify = createClassifier(options);
  return describeAll(root, paths, classify, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
}
