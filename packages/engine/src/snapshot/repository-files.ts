// Reads the files of a repository checkout without ever leaving it. Everything the analysis reads
// from a checkout (source files, config, manifests, coverage reports, SARIF logs, installed
// packages' licences) comes through here: a symbolic link is followed only when its real path stays
// inside the repository's real root, anything but a regular file (directory, FIFO, device, socket)
// is refused, sizes are capped, and the descriptor read is checked to be the file whose path was
// checked (no swap between check and open). A refusal reads as an absent file, with a reason.
import { closeSync, fstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { open, realpath, type FileHandle } from 'node:fs/promises';
import { join, sep } from 'node:path';
import {
  OPEN_FLAGS,
  changedWhileOpened,
  isInside,
  isOpenedFile,
  isOpenedFileSync,
  refusal,
  refusalOf,
  repositoryRelativePath,
  tooLarge,
  type RepositoryFileRefused,
} from './repository-path.js';

export type { RepositoryFileRefusal, RepositoryFileRefused } from './repository-path.js';

/** The cap of a read that names none: larger than any file the analysis has a use for. */
export const DEFAULT_MAX_READ_BYTES = 64 * 1024 * 1024;

export interface RepositoryReadOptions {
  /** Larger files are refused (`too-large`); default 64 MiB. */
  maxBytes?: number;
  /**
   * `inside` (default): a symbolic link is followed when its real path stays inside the repository.
   * `never`: no component of the path may be a link (what git and the inventory list as a file).
   */
  links?: 'inside' | 'never';
}

export interface RepositoryFileContent {
  ok: true;
  path: string;
  /** The real path read, inside the repository's real root. */
  realPath: string;
  bytes: Buffer;
  mtimeMs: number;
}

export type RepositoryFileRead = RepositoryFileContent | RepositoryFileRefused;

/** An open descriptor on a checked regular file; the caller closes it. */
export interface OpenedRepositoryFile {
  ok: true;
  fd: number;
  stats: Stats;
  realPath: string;
}

export interface RepositoryFiles {
  readonly root: string;
  read(path: string, options?: RepositoryReadOptions): Promise<RepositoryFileRead>;
  /** The same read, blocking: for the inventory and the snapshot, which read many small files in batches. */
  readSync(path: string, options?: RepositoryReadOptions): RepositoryFileRead;
  /** The checked descriptor alone, for a caller that reads part of a file (the inventory's first bytes). */
  openSync(path: string, options?: Pick<RepositoryReadOptions, 'links'>): OpenedRepositoryFile | RepositoryFileRefused;
}

const utf8 = new TextDecoder('utf-8');

/** UTF-8 text of read bytes, a byte-order mark dropped (line and column numbers then match editors). */
export function decodeText(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/** Where the checks of a path lead before anything is opened: the candidate to open, or a refusal. */
type Located = { ok: true; candidate: string; realRoot: string } | RepositoryFileRefused;

/** `dir`/`relative` without path.join's normalising: both are already plain (a hot path of the inventory). */
const under = (dir: string, relative: string): string => (sep !== '/' ? join(dir, relative) : dir.endsWith('/') ? dir + relative : `${dir}/${relative}`);

/** The lexical parent directory and name of a repository-relative path under the real root. */
function split(realRoot: string, relative: string): { dir: string; name: string } {
  const slash = relative.lastIndexOf('/');
  return slash < 0 ? { dir: realRoot, name: relative } : { dir: under(realRoot, relative.slice(0, slash)), name: relative.slice(slash + 1) };
}

function locate(path: string, realRoot: string, realDir: string | RepositoryFileRefused, lexicalDir: string, links: 'inside' | 'never', name: string): Located {
  if (typeof realDir !== 'string') return realDir;
  if (!isInside(realRoot, realDir)) return refusal(path, 'outside-repository');
  if (links === 'never' && realDir !== lexicalDir) return refusal(path, 'symbolic-link');
  return { ok: true, candidate: under(realDir, name), realRoot };
}

/**
 * A reader of the repository at `root`. The real paths of the root and of directories are
 * remembered for the reader's life (one snapshot's run): a run reads many files per directory.
 */
export function repositoryFiles(root: string): RepositoryFiles {
  const realDirs = new Map<string, string>();
  let realRoot: string | undefined;

  const realDirSync = (path: string, dir: string): string | RepositoryFileRefused => {
    let real = realDirs.get(dir);
    if (real === undefined) {
      try {
        real = realpathSync.native(dir);
      } catch (error) {
        return refusalOf(path, error);
      }
      realDirs.set(dir, real);
    }
    return real;
  };
  const realDirAsync = async (path: string, dir: string): Promise<string | RepositoryFileRefused> => {
    const known = realDirs.get(dir);
    if (known !== undefined) return known;
    try {
      const real = await realpath(dir);
      realDirs.set(dir, real);
      return real;
    } catch (error) {
      return refusalOf(path, error);
    }
  };

  function prepareSync(path: string, links: 'inside' | 'never'): Located {
    const relative = repositoryRelativePath(path);
    if (relative === undefined) return refusal(path, 'invalid-path');
    if (realRoot === undefined) {
      try {
        realRoot = realpathSync.native(root);
      } catch (error) {
        return refusalOf(path, error);
      }
    }
    const { dir, name } = split(realRoot, relative);
    return locate(path, realRoot, realDirSync(path, dir), dir, links, name);
  }

  async function prepare(path: string, links: 'inside' | 'never'): Promise<Located> {
    const relative = repositoryRelativePath(path);
    if (relative === undefined) return refusal(path, 'invalid-path');
    if (realRoot === undefined) {
      try {
        realRoot = await realpath(root);
      } catch (error) {
        return refusalOf(path, error);
      }
    }
    const { dir, name } = split(realRoot, relative);
    return locate(path, realRoot, await realDirAsync(path, dir), dir, links, name);
  }

  function openChecked(path: string, links: 'inside' | 'never'): OpenedRepositoryFile | RepositoryFileRefused {
    const located = prepareSync(path, links);
    if (!located.ok) return located;
    let target = located.candidate;
    let fd: number;
    try {
      fd = openSync(target, OPEN_FLAGS);
    } catch (error) {
      // ELOOP: the last component is a link (O_NOFOLLOW); followed only to a place inside.
      if ((error as NodeJS.ErrnoException).code !== 'ELOOP') return refusalOf(path, error);
      if (links === 'never') return refusal(path, 'symbolic-link');
      try {
        target = realpathSync.native(target);
        if (!isInside(located.realRoot, target)) return refusal(path, 'outside-repository');
        fd = openSync(target, OPEN_FLAGS);
      } catch (again) {
        return refusalOf(path, again);
      }
    }
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile()) return closed(fd, refusal(path, 'not-a-file'));
      if (!isOpenedFileSync(fd, target, stats)) return closed(fd, changedWhileOpened(path));
      return { ok: true, fd, stats, realPath: target };
    } catch (error) {
      return closed(fd, refusalOf(path, error));
    }
  }

  return {
    root,
    openSync: (path, options = {}) => openChecked(path, options.links ?? 'inside'),

    readSync(path, options = {}) {
      const opened = openChecked(path, options.links ?? 'inside');
      if (!opened.ok) return opened;
      const maxBytes = options.maxBytes ?? DEFAULT_MAX_READ_BYTES;
      try {
        if (opened.stats.size > maxBytes) return tooLarge(path, opened.stats.size, maxBytes);
        const bytes = Buffer.allocUnsafe(opened.stats.size);
        let length = 0;
        // A file that grew since fstat is read as it was then; one that shrank, as far as it goes.
        for (let n = 1; length < bytes.length && n > 0; length += n) n = readSync(opened.fd, bytes, length, bytes.length - length, length);
        return { ok: true, path, realPath: opened.realPath, bytes: bytes.subarray(0, length), mtimeMs: opened.stats.mtimeMs };
      } catch (error) {
        return refusalOf(path, error);
      } finally {
        closeSync(opened.fd);
      }
    },

    async read(path, options = {}) {
      const links = options.links ?? 'inside';
      const located = await prepare(path, links);
      if (!located.ok) return located;
      let target = located.candidate;
      let handle: FileHandle;
      try {
        handle = await open(target, OPEN_FLAGS);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOOP') return refusalOf(path, error);
        if (links === 'never') return refusal(path, 'symbolic-link');
        try {
          target = await realpath(target);
          if (!isInside(located.realRoot, target)) return refusal(path, 'outside-repository');
          handle = await open(target, OPEN_FLAGS);
        } catch (again) {
          return refusalOf(path, again);
        }
      }
      try {
        const stats = await handle.stat();
        if (!stats.isFile()) return refusal(path, 'not-a-file');
        if (!(await isOpenedFile(handle.fd, target, stats))) return changedWhileOpened(path);
        const maxBytes = options.maxBytes ?? DEFAULT_MAX_READ_BYTES;
        if (stats.size > maxBytes) return tooLarge(path, stats.size, maxBytes);
        const bytes = Buffer.allocUnsafe(stats.size);
        let length = 0;
        for (let n = 1; length < bytes.length && n > 0; length += n) ({ bytesRead: n } = await handle.read(bytes, length, bytes.length - length, length));
        return { ok: true, path, realPath: target, bytes: bytes.subarray(0, length), mtimeMs: stats.mtimeMs };
      } catch (error) {
        return refusalOf(path, error);
      } finally {
        await handle.close();
      }
    },
  };
}

function closed(fd: number, refused: RepositoryFileRefused): RepositoryFileRefused {
  closeSync(fd);
  return refused;
}

/** Reads one file of the repository at `root` (see `repositoryFiles`). */
export function readRepositoryFile(root: string, path: string, options?: RepositoryReadOptions): Promise<RepositoryFileRead> {
  return repositoryFiles(root).read(path, options);
}

/** The UTF-8 text of one file of the repository at `root`, or undefined when it is refused or absent. */
export async function readRepositoryText(root: string, path: string, options?: RepositoryReadOptions): Promise<string | undefined> {
  const read = await repositoryFiles(root).read(path, options);
  return read.ok ? decodeText(read.bytes) : undefined;
}
