// The checks shared by the synchronous and asynchronous reads of a repository's files: what counts
// as a path inside the repository, why a read was refused (in words that never quote the file or a
// link's target), and whether an open descriptor is the file that was checked.
import { constants, lstatSync, readlinkSync, type Stats } from 'node:fs';
import { lstat, readlink } from 'node:fs/promises';
import { isAbsolute, sep } from 'node:path';

/** Why a file was not read; every refusal reads as an absent file to the caller. */
export type RepositoryFileRefusal = 'invalid-path' | 'absent' | 'outside-repository' | 'symbolic-link' | 'not-a-file' | 'too-large' | 'unreadable';

export interface RepositoryFileRefused {
  ok: false;
  /** The repository-relative path asked for. */
  path: string;
  reason: RepositoryFileRefusal;
  /** `<path>: <reason>`, safe to show: never the file's content, never where a link points. */
  message: string;
  /** The system error code of an `unreadable` file (`EACCES`), when there was one. */
  code?: string;
}

/**
 * Opened without following a last-component link, without waiting on a FIFO's writer and without
 * making a terminal the controlling one: what is opened is only inspected before it is read.
 */
export const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

const REASONS: Record<Exclude<RepositoryFileRefusal, 'too-large' | 'unreadable'>, string> = {
  'invalid-path': 'not a path inside the repository',
  absent: 'not found',
  'outside-repository': 'reached through a symbolic link that leads outside the repository; not read',
  'symbolic-link': 'a symbolic link; not followed here',
  'not-a-file': 'not a regular file; not read',
};

export function refusal(path: string, reason: RepositoryFileRefusal, detail?: string): RepositoryFileRefused {
  const text = reason === 'too-large' || reason === 'unreadable' ? (detail ?? reason) : REASONS[reason];
  return { ok: false, path, reason, message: `${path}: ${text}` };
}

/** The refusal for a failed system call: a missing file is absent, anything else unreadable (its error code only). */
export function refusalOf(path: string, error: unknown): RepositoryFileRefused {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return refusal(path, 'absent');
  return { ...refusal(path, 'unreadable', `unreadable (${code ?? 'unknown error'})`), ...(code ? { code } : {}) };
}

export function tooLarge(path: string, size: number, maxBytes: number): RepositoryFileRefused {
  return refusal(path, 'too-large', `${size} bytes, above the ${maxBytes}-byte limit; not read`);
}

/** A changed file between the check and the open: someone is swapping paths under the checkout. */
export function changedWhileOpened(path: string): RepositoryFileRefused {
  return refusal(path, 'unreadable', 'changed while it was opened; not read');
}

/** An empty, `.` or `..` segment anywhere in a POSIX path. */
const UNUSUAL_SEGMENT = /(?:^|\/)\.{0,2}(?:\/|$)/;

/**
 * A repository-relative path in its plain form (`./a/./b` is `a/b`), or undefined for anything
 * that could name a place outside the repository or the root itself: absolute paths, `..`, empty
 * segments, NUL bytes. Backslashes are part of a name on POSIX systems, separators elsewhere.
 */
export function repositoryRelativePath(path: string): string | undefined {
  if (path.includes('\0') || isAbsolute(path)) return undefined;
  const posix = sep === '/' ? path : path.replaceAll('\\', '/');
  // The common case, a path as git lists it, needs no splitting.
  if (!UNUSUAL_SEGMENT.test(posix)) return posix;
  const segments = posix.split('/').filter((s) => s !== '.');
  if (segments.length === 0 || segments.some((s) => s === '' || s === '..')) return undefined;
  return segments.join('/');
}

export function isInside(realRoot: string, realPath: string): boolean {
  const prefix = realRoot.endsWith(sep) ? realRoot : realRoot + sep;
  return realPath === realRoot || realPath.startsWith(prefix);
}

/** Where /proc says a descriptor points (Linux); the authoritative answer to what was opened. */
const FD_LINKS = process.platform === 'linux' ? '/proc/self/fd/' : undefined;

/**
 * True when `fd` is the regular file at `realPath`: on Linux by the kernel's own path of the
 * descriptor, elsewhere by device and inode of the path now.
 */
export function isOpenedFileSync(fd: number, realPath: string, stats: Stats): boolean {
  if (FD_LINKS) {
    try {
      return readlinkSync(FD_LINKS + fd) === realPath;
    } catch {
      // No /proc in this sandbox: fall through to the inode comparison.
    }
  }
  const now = lstatSync(realPath, { throwIfNoEntry: false });
  return now !== undefined && now.isFile() && now.dev === stats.dev && now.ino === stats.ino;
}

export async function isOpenedFile(fd: number, realPath: string, stats: Stats): Promise<boolean> {
  if (FD_LINKS) {
    const opened = await readlink(FD_LINKS + fd).catch(() => undefined);
    if (opened !== undefined) return opened === realPath;
  }
  const now = await lstat(realPath).catch(() => undefined);
  return now !== undefined && now.isFile() && now.dev === stats.dev && now.ino === stats.ino;
}
