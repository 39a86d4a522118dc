// The cache port: derived data that can always be rebuilt from the relational store (cached reads),
// plus the two coordination primitives several processes need — a mutex and a rate counter.
// Embedded: an in-process LRU (`MemoryCache`); self-hosted: Redis (`RedisCache`, `CACHE_URL`).

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in the current window (0 when refused). */
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
}

export interface LockOptions {
  /** The lock lapses this long after its holder stops renewing it (a crashed process). */
  ttlMs: number;
  /** How long to wait for a held lock before giving up with LockBusyError (default 0: no wait). */
  waitMs?: number;
}

export interface Cache {
  /** A JSON value, or undefined when absent or expired. */
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  delete(keys: readonly string[]): Promise<void>;
  /** Deletes every key starting with `prefix`; returns how many. */
  deleteByPrefix(prefix: string): Promise<number>;
  /**
   * Runs `fn` holding the named mutex, across every process sharing the cache. The lock is renewed
   * while `fn` runs and released after it; LockBusyError when another holder keeps it past `waitMs`.
   */
  withLock<T>(name: string, options: LockOptions, fn: () => Promise<T>): Promise<T>;
  /** Counts one event in a fixed window of `windowSeconds` and says whether it is within `limit`. */
  consume(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision>;
  /** Resolves when the cache answers (health checks). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** Every key the product writes starts with this, so `codehealth cache clear` removes only ours. */
export const CACHE_KEY_PREFIX = 'codehealth:';

/** The named lock is held elsewhere (another worker runs the same thing). Retryable. */
export class LockBusyError extends Error {
  override readonly name = 'LockBusyError';
  constructor(readonly lock: string) {
    super(`${lock} is held by another process`);
  }
}
