import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir, hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirLock, DataDirLockedError, readLockOwner } from './data-dir-lock.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'codehealth-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('DataDirLock', () => {
  it('is exclusive while held and free again after release', () => {
    const dir = tempDir();
    const lock = DataDirLock.acquire(dir, 'codehealth serve --embedded');
    expect(statSync(join(dir, 'codehealth.lock')).mode & 0o777).toBe(0o600);
    let error: unknown;
    try {
      DataDirLock.acquire(dir, 'codehealth keys create');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DataDirLockedError);
    expect((error as Error).message).toContain(`in use by 'codehealth serve --embedded' (process ${process.pid}`);
    lock.release();
    expect(existsSync(join(dir, 'codehealth.lock'))).toBe(false);
    DataDirLock.acquire(dir, 'again').release();
  });

  it('takes over the lock of a process that no longer exists', () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
    writeFileSync(join(dir, 'codehealth.lock'), JSON.stringify({ pid: dead, hostname: hostname(), command: 'old', startedAt: '' }));
    const lock = DataDirLock.acquire(dir, 'new owner');
    expect(readLockOwner(dir)).toMatchObject({ pid: process.pid, command: 'new owner' });
    lock.release();
  });

  it('advertises how to reach the holder without losing ownership', () => {
    const dir = tempDir();
    const lock = DataDirLock.acquire(dir, 'serve');
    lock.advertise({ url: 'http://127.0.0.1:8080', adminToken: 'secret-token' });
    expect(JSON.parse(readFileSync(join(dir, 'codehealth.lock'), 'utf8'))).toMatchObject({
      pid: process.pid,
      url: 'http://127.0.0.1:8080',
      adminToken: 'secret-token',
    });
    expect(statSync(join(dir, 'codehealth.lock')).mode & 0o777).toBe(0o600);
    lock.release();
  });
});
