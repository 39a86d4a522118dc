// The self-hosted cache on Redis (`CACHE_URL`, ioredis): JSON values with TTLs, a mutex that holds
// across processes (SET NX PX with a random token, renewed while held, released by a
// compare-and-delete script), fixed-window rate counters (one atomic script) and prefix deletes
// with SCAN + UNLINK (never KEYS). Every key lives under `codehealth:`. ioredis is loaded when a
// RedisCache is constructed (a dynamic import), so a host on the in-process cache never loads it.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { UnavailableError } from '../services/errors.js';
import { CACHE_KEY_PREFIX, LockBusyError, type Cache, type LockOptions, type RateDecision } from '../ports/cache.js';

const RELEASE = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end";
const RENEW = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end";
const CONSUME = "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return {n, redis.call('PTTL', KEYS[1])}";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** SCAN's MATCH is a glob: a literal prefix must not carry glob syntax. */
const globEscape = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');

export interface RedisCacheOptions {
  /** Connection problems, once per change of state; never the URL (it may hold a password). */
  log?: (line: string) => void;
}

export class RedisCache implements Cache {
  /** The client, once ioredis is loaded; it connects as soon as it exists. */
  private readonly client: Promise<Redis>;
  private lastError = '';

  constructor(url: string, options: RedisCacheOptions = {}) {
    this.client = import('ioredis').then(({ Redis }) => {
      const redis = new Redis(url, {
        lazyConnect: false,
        connectTimeout: 3_000,
        commandTimeout: 3_000,
        maxRetriesPerRequest: 1,
        retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
      });
      redis.on('error', (error: Error) => {
        const message = error.message.replace(/\w+:\/\/\S+/g, '<url>');
        if (message !== this.lastError) options.log?.(`cache: ${message}`);
        this.lastError = message;
      });
      redis.on('ready', () => (this.lastError = ''));
      return redis;
    });
    // A client that cannot be loaded fails every call with the loader's error; said once here too, never unhandled.
    this.client.catch((error: unknown) => options.log?.(`cache: ioredis could not be loaded: ${(error as Error).message}`));
  }

  async get<T>(key: string): Promise<T | undefined> {
    const json = await (await this.client).get(CACHE_KEY_PREFIX + key);
    if (json === null) return undefined;
    try {
      return JSON.parse(json) as T;
    } catch {
      // Not written by us (or cut short): a miss, recomputed and overwritten.
      return undefined;
    }
  }

  async set(key: string, value: unknown, ttlSeconds: number): Promise<void> {
    await (await this.client).set(CACHE_KEY_PREFIX + key, JSON.stringify(value), 'EX', Math.max(1, Math.round(ttlSeconds)));
  }

  async delete(keys: readonly string[]): Promise<void> {
    if (keys.length > 0) await (await this.client).unlink(...keys.map((k) => CACHE_KEY_PREFIX + k));
  }

  async deleteByPrefix(prefix: string): Promise<number> {
    const redis = await this.client;
    let cursor = '0';
    let deleted = 0;
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${globEscape(CACHE_KEY_PREFIX + prefix)}*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.unlink(...keys);
    } while (cursor !== '0');
    return deleted;
  }

  async withLock<T>(name: string, options: LockOptions, fn: () => Promise<T>): Promise<T> {
    const redis = await this.client;
    const key = `${CACHE_KEY_PREFIX}lock:${name}`;
    const token = randomUUID();
    const deadline = Date.now() + (options.waitMs ?? 0);
    while ((await redis.set(key, token, 'PX', options.ttlMs, 'NX')) !== 'OK') {
      if (Date.now() >= deadline) throw new LockBusyError(name);
      await sleep(Math.min(200, Math.max(10, deadline - Date.now())));
    }
    const renew = setInterval(
      () => {
        redis.eval(RENEW, 1, key, token, String(options.ttlMs)).catch(() => {
          // A missed renewal is retried at the next tick; the TTL covers two of them.
        });
      },
      Math.max(10, Math.floor(options.ttlMs / 3)),
    );
    try {
      return await fn();
    } finally {
      clearInterval(renew);
      await redis.eval(RELEASE, 1, key, token).catch(() => {
        // Unreleased, the lock lapses after ttlMs.
      });
    }
  }

  async consume(bucket: string, limit: number, windowSeconds: number): Promise<RateDecision> {
    const [count, ttlMs] = (await (await this.client).eval(CONSUME, 1, `${CACHE_KEY_PREFIX}rate:${bucket}`, String(windowSeconds * 1000))) as [number, number];
    const resetSeconds = Math.max(1, Math.ceil((ttlMs > 0 ? ttlMs : windowSeconds * 1000) / 1000));
    return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds };
  }

  async check(): Promise<void> {
    const redis = await this.client;
    try {
      await redis.ping();
    } catch {
      throw new UnavailableError(`Redis does not answer${this.lastError ? `: ${this.lastError}` : ''}`);
    }
  }

  async close(): Promise<void> {
    const redis = await this.client.catch(() => undefined);
    await redis?.quit().catch(() => redis.disconnect());
  }
}
