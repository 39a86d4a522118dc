// Owner records for the scratch paths a process creates in a work directory (checkouts, partial
// mirror clones), so that what a killed process left behind is removed at the next start and a path
// in use is never removed. Beside each path `<path>.owner` names its process (machine, boot, pid
// and the pid's start time: a reused pid is not the owner) and is written before the path exists.
// Several processes may share a work directory (a worker and `codehealth graph rebuild`, replicas on
// a shared volume): an owner on this machine is checked directly; one on another machine cannot be,
// so its record carries a heartbeat (the file's mtime, refreshed each minute) and is stale only
// once that lease has run out.
import { readFileSync } from 'node:fs';
import { open, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface OwnerRecord {
  host: string;
  /** The kernel's boot id ('' where unknown): after a reboot no owner of before is alive. */
  boot: string;
  pid: number;
  /** The process's start time in clock ticks since boot (Linux), or null where unknown. */
  started: string | null;
}

export interface OwnedPath {
  path: string;
  /** Removes the path, then its owner record. */
  release(): Promise<void>;
}

export interface SweepOptions {
  /** Which entries of the directory are scratch paths (default: all). */
  select?: (name: string) => boolean;
  /** How long the heartbeat of an owner on another machine (or of a path without owner) lasts. */
  leaseMs?: number;
  now?: number;
}

const SUFFIX = '.owner';
export const HEARTBEAT_MS = 60_000;
/** Far above the heartbeat: a busy event loop may delay it, and removing a path in use is worse than keeping a leftover. */
export const DEFAULT_LEASE_MS = 60 * 60_000;

/** /proc/<pid>/stat field 22, read after the command name (which may hold spaces and parentheses). */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function bootId(): string {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return '';
  }
}

let self: OwnerRecord | undefined;
/** This process's record (computed once). */
export function currentOwner(): OwnerRecord {
  self ??= { host: hostname(), boot: bootId(), pid: process.pid, started: startTimeOf(process.pid) };
  return self;
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** 'dead' and 'alive' are certain on this machine; another machine's owner is 'unknown'. */
export function ownerState(record: OwnerRecord, me: OwnerRecord = currentOwner()): 'alive' | 'dead' | 'unknown' {
  if (record.host !== me.host) return 'unknown';
  if (record.boot !== me.boot) return 'dead';
  if (!processExists(record.pid)) return 'dead';
  const started = startTimeOf(record.pid);
  return record.started !== null && started !== null && started !== record.started ? 'dead' : 'alive';
}

function parseRecord(text: string): OwnerRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<OwnerRecord>;
    if (
      typeof value.host === 'string' &&
      typeof value.boot === 'string' &&
      Number.isSafeInteger(value.pid) &&
      (typeof value.started === 'string' || value.started === null)
    ) {
      return value as OwnerRecord;
    }
  } catch {
    // A record cut short by a kill while it was written: its age decides.
  }
  return undefined;
}

const heartbeats = new Set<string>();
let heartbeatTimer: NodeJS.Timeout | undefined;

function beat(): void {
  const now = new Date();
  for (const file of heartbeats) void utimes(file, now, now).catch(() => {});
}

function track(file: string, on: boolean): void {
  if (on) heartbeats.add(file);
  else heartbeats.delete(file);
  if (heartbeats.size > 0 && !heartbeatTimer) {
    heartbeatTimer = setInterval(beat, HEARTBEAT_MS);
    heartbeatTimer.unref();
  } else if (heartbeats.size === 0 && heartbeatTimer) {
    clearInterval(heartbeatTimer);
    heartbeatTimer = undefined;
  }
}

/** Records this process as the owner of `path`, which must not exist yet; create it afterwards. */
export async function claimPath(path: string): Promise<OwnedPath> {
  const file = `${path}${SUFFIX}`;
  const handle = await open(file, 'wx');
  try {
    await handle.writeFile(JSON.stringify(currentOwner()));
  } finally {
    await handle.close();
  }
  track(file, true);
  return {
    path,
    async release() {
      await rm(path, { recursive: true, force: true });
      track(file, false);
      await rm(file, { force: true });
    },
  };
}

async function ageMs(path: string, now: number): Promise<number | undefined> {
  try {
    return now - (await stat(path)).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * Removes the scratch paths of `dir` that no live process owns: an owner on this machine that is
 * gone (or the machine rebooted since), or an owner elsewhere, an unreadable record or no record
 * at all whose heartbeat is older than the lease. Returns the paths removed.
 */
export async function removeStalePaths(dir: string, options: SweepOptions = {}): Promise<string[]> {
  const select = options.select ?? (() => true);
  const lease = options.leaseMs ?? DEFAULT_LEASE_MS;
  const now = options.now ?? Date.now();
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return []; // no such directory yet
  }
  const bases = new Set(names.map((name) => (name.endsWith(SUFFIX) ? name.slice(0, -SUFFIX.length) : name)).filter(select));
  const removed: string[] = [];
  for (const base of bases) {
    const path = join(dir, base);
    const file = `${path}${SUFFIX}`;
    const hasRecord = names.includes(`${base}${SUFFIX}`);
    const record = hasRecord ? parseRecord(await readFile(file, 'utf8').catch(() => '')) : undefined;
    const state = record ? ownerState(record) : 'unknown';
    if (state === 'alive') continue;
    if (state === 'unknown') {
      const age = await ageMs(hasRecord ? file : path, now);
      if (age === undefined || age < lease) continue;
    }
    await rm(path, { recursive: true, force: true });
    if (hasRecord) await rm(file, { force: true });
    removed.push(path);
  }
  return removed;
}
