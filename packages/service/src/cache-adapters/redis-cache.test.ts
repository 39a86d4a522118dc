// RedisCache against a real Redis (test/infra/redis.sh; CI sets TEST_REDIS_URL).
import { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { LockBusyError } from '../ports/cache.js';
import { cacheContract } from './cache-contract.js';
import { RedisCache } from './redis-cache.js';

const url = process.env.TEST_REDIS_URL;
if (!url) console.warn('Redis cache suite skipped: TEST_REDIS_URL is not set (start a server with test/infra/redis.sh)');

cacheContract('RedisCache', async () => new RedisCache(url!), { skip: !url });

describe.skipIf(!url)('RedisCache across processes', () => {
  it('keeps a lock exclusive between two connections (two workers)', async () => {
    const a = new RedisCache(url!);
    const b = new RedisCache(url!);
    try {
      const lock = `two-workers-${Date.now()}`;
      let release: (() => void) | undefined;
      const held = a.withLock(lock, { ttlMs: 2_000 }, () => new Promise<void>((resolve) => (release = resolve)));
      await vi.waitFor(() => expect(release).toBeDefined(), { timeout: 10_000, interval: 10 });
      await expect(b.withLock(lock, { ttlMs: 2_000 }, async () => 'b')).rejects.toBeInstanceOf(LockBusyError);
      release!();
      await held;
      await expect(b.withLock(lock, { ttlMs: 2_000 }, async () => 'b')).resolves.toBe('b');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('lets a lock whose holder died lapse after its TTL', async () => {
    const raw = new Redis(url!);
    const cache = new RedisCache(url!);
    try {
      const lock = `dead-holder-${Date.now()}`;
      // What a crashed holder leaves: the key with its TTL, and nobody renewing it.
      // The TTL's expiry in Redis is what is under test here, so the test waits for it (about a second).
      await raw.set(`codehealth:lock:${lock}`, 'dead-token', 'PX', 1_000);
      // While the key lives the lock is busy; once it lapses the waiting caller takes it, under its own token.
      await expect(cache.withLock(lock, { ttlMs: 2_000 }, async () => 'too early')).rejects.toBeInstanceOf(LockBusyError);
      const holder = cache.withLock(lock, { ttlMs: 2_000, waitMs: 5_000 }, async () => raw.get(`codehealth:lock:${lock}`));
      const token = await holder;
      expect(token).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      raw.disconnect();
      await cache.close();
    }
  });

  it('fails its health check against a closed port without naming the URL', async () => {
    const lines: string[] = [];
    const cache = new RedisCache('redis://:s3cret@127.0.0.1:9/0', { log: (line) => lines.push(line) });
    try {
      const error = await cache.check().then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error).toBeInstanceOf(Error);
      expect(`${error?.message} ${lines.join(' ')}`).not.toContain('s3cret');
    } finally {
      await cache.close();
    }
  }, 15_000);
});
