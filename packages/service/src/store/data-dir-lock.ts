// An exclusive lock on the embedded data dir. PGlite takes none, and two processes on one data
// dir silently lose committed data, so every command that opens it takes this lock first.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface LockOwner {
  pid: number;
  hostname: string;
  command: string;
  startedAt: string;
  /** Set by a running server: where commands such as `keys create` can reach it instead. */
  url?: string;
  adminToken?: string;
}

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(
      `the data directory ${dataDir} is in use by '${owner.command}' (process ${owner.pid} on ${owner.hostname}); ` +
        'stop that process first — two processes on one embedded data directory would lose data',
    );
  }
}

const LOCK_FILE = 'codehealth.lock';

/** Whether a process of this machine runs under that pid (EPERM: it does, as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLockOwner(dataDir: string): LockOwner | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, LOCK_FILE), 'utf8')) as LockOwner;
  } catch {
    return undefined;
  }
}

export class DataDirLock {
  private released = false;

  private constructor(
    readonly dataDir: string,
    private owner: LockOwner,
  ) {}

  /** Takes the lock or throws DataDirLockedError naming the live holder; a dead holder's lock is taken over. */
  static acquire(dataDir: string, command: string): DataDirLock {
    mkdirSync(dataDir, { recursive: true });
    const path = join(dataDir, LOCK_FILE);
    const owner: LockOwner = { pid: process.pid, hostname: hostname(), command, startedAt: new Date().toISOString() };
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        writeFileSync(path, JSON.stringify(owner), { flag: 'wx', mode: 0o600 });
        const lock = new DataDirLock(dataDir, owner);
        process.once('exit', () => lock.release());
        return lock;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = readLockOwner(dataDir);
        if (holder && (holder.hostname !== owner.hostname || isAlive(holder.pid))) {
          throw new DataDirLockedError(dataDir, holder);
        }
        rmSync(path, { force: true }); // stale: its process is gone
      }
    }
    throw new DataDirLockedError(dataDir, readLockOwner(dataDir) ?? owner);
  }

  /** Records how other commands can reach the holder (the running server's URL and admin token). */
  advertise(details: Pick<LockOwner, 'url' | 'adminToken'>): void {
    this.owner = { ...this.owner, ...details };
    writeFileSync(join(this.dataDir, LOCK_FILE), JSON.stringify(this.owner), { mode: 0o600 });
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    const holder = readLockOwner(this.dataDir);
    if (holder?.pid === process.pid) rmSync(join(this.dataDir, LOCK_FILE), { force: true });
  }
}
