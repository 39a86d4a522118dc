// The embedded cache: one process, an LRU of JSON values with expiry, in-process mutexes and
// fixed-window counters. Same semantics as RedisCache (the shared contract suite runs on both).
import { randomUUID } from 'node:crypto';
import { LockBusyError, type Cache, type LockOptions, type RateDecision } from '../ports/cache.js';

interface Entry {
  /** Serialised, so callers never share (and mutate) a cached object. */
  json: string;
  expiresAt: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class MemoryCache implements Cache {
  private readonly entries = new Map<string, Entry>();
  private readonly locks = new Map<string, { token: string; expiresAt: number }>();
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly maxEntries = 10_000) {}

  async get<T>(key: string): Promise<T | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used last: the first key is the one to evict.
    this.entries.delete(key);
    this.entries.set(key, entry);
    try {
      return JSON.parse(entry.json) as T;
    } catch {
      // Unreachable for values written by set(); a miss is the safe answer.
      return undefined;
    }
  }

  async set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, { json: JSON.stringify(value), expiresAt: Date.now() + ttlSeconds * 1000 });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
  }

  async deleteByPrefix(prefix: string): Promise<number> {
    let n = 0;
    for (const map of [this.entries, this.windows]) {
      for (const key of [...map.keys()]) if (key.startsWith(prefix) && map.delete(key)) n++;
    }
    return n;
  }

  async withLock<T>(name: string, options: LockOptions, fn: () => Promise<T>): Promise<T> {
    const token = randomUUID();
    const deadline = Date.now() + (options.waitMs ?? 0);
    for (;;) {
      const held = this.locks.get(name);
      if (!held || held.expiresAt <= Date.now()) break;
      if (Date.now() >= deadline) throw new LockBusyError(name);
      await sleep(Math.min(50, Math.max(1, deadline - Date.now())));
    }
    this.locks.set(name, { token, expiresAt: Date.now() + options.ttlMs });
    const renew = setInterval(
      () => {
        const held = this.locks.get(name);
        if (held?.token === token) held.expiresAt = Date.now() + options.ttlMs;
      },
      Math.max(10, Math.floor(options.ttlMs / 3)),
    );
    try {
      return await fn();
    } finally {
      clearInterval(renew);
      if (this.locks.get(name)?.token === token) this.locks.delete(name);
    }
  }

  async consume(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    const now = Date.now();
    if (this.windows.size > this.maxEntries) for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
    let window = this.windows.get(bucket);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(bucket, window);
    }
    window.count++;
    const resetSeconds = Math.max(1, Math.ceil((window.resetAt - now) / 1000));
    return { allowed: window.count <= limit, limit, remaining: Math.max(0, limit - window.count), resetSeconds };
  }

  async check(): Promise<void> {}

  async close(): Promise<void> {
    this.entries.clear();
  }
}
