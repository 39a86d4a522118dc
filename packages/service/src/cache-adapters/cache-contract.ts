// The behaviour every Cache adapter shares, written once: MemoryCache runs it always, RedisCache
// against the real server of the test infrastructure (TEST_REDIS_URL).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LockBusyError, type Cache } from '../ports/cache.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function cacheContract(name: string, make: () => Promise<Cache>, options: { skip?: boolean } = {}): void {
  describe.skipIf(options.skip)(`cache contract: ${name}`, () => {
    let cache: Cache;
    // Keys unique per run: a shared Redis keeps other runs' keys.
    const ns = `test-${Date.now()}-${Math.random().toString(36).slice(2, 8)}:`;
    beforeAll(async () => {
      cache = await make();
    });
    afterAll(async () => {
      await cache.deleteByPrefix(ns);
      await cache.close();
    });

    it('stores JSON values and hands out copies', async () => {
      const value = { score: 71.5, grades: ['A', 'B'], nested: { ok: true } };
      await cache.set(`${ns}v`, value, 60);
      const read = await cache.get<typeof value>(`${ns}v`);
      expect(read).toEqual(value);
      read!.grades.push('C');
      expect(await cache.get(`${ns}v`)).toEqual(value);
      expect(await cache.get(`${ns}missing`)).toBeUndefined();
    });

    it('expires values after their TTL', async () => {
      await cache.set(`${ns}short`, 1, 1);
      expect(await cache.get(`${ns}short`)).toBe(1);
      await sleep(1_100);
      expect(await cache.get(`${ns}short`)).toBeUndefined();
    });

    it('deletes keys, and by prefix only the keys under it (glob characters taken literally)', async () => {
      await cache.set(`${ns}p:a`, 1, 60);
      await cache.set(`${ns}p:b`, 2, 60);
      await cache.set(`${ns}p*x`, 3, 60);
      await cache.set(`${ns}q:a`, 4, 60);
      await cache.delete([`${ns}p:a`]);
      expect(await cache.get(`${ns}p:a`)).toBeUndefined();
      expect(await cache.deleteByPrefix(`${ns}p*`)).toBe(1);
      expect(await cache.get(`${ns}p:b`)).toBe(2);
      expect(await cache.deleteByPrefix(`${ns}p`)).toBe(1);
      expect(await cache.get(`${ns}p:b`)).toBeUndefined();
      expect(await cache.get(`${ns}q:a`)).toBe(4);
    });

    it('lets one holder at a time run under a lock, renews it while held and releases it after', async () => {
      const lock = `${ns}lock-a`;
      const order: string[] = [];
      const first = cache.withLock(lock, { ttlMs: 300 }, async () => {
        order.push('first:start');
        await sleep(900); // three TTLs: only renewal keeps it
        order.push('first:end');
        return 'first';
      });
      await sleep(50);
      await expect(cache.withLock(lock, { ttlMs: 300 }, async () => 'intruder')).rejects.toBeInstanceOf(LockBusyError);
      const second = cache.withLock(lock, { ttlMs: 300, waitMs: 5_000 }, async () => {
        order.push('second');
        return 'second';
      });
      expect(await Promise.all([first, second])).toEqual(['first', 'second']);
      expect(order).toEqual(['first:start', 'first:end', 'second']);
    });

    it('releases a lock when the work throws', async () => {
      const lock = `${ns}lock-b`;
      await expect(cache.withLock(lock, { ttlMs: 5_000 }, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
      await expect(cache.withLock(lock, { ttlMs: 5_000 }, async () => 'free')).resolves.toBe('free');
    });

    it('counts requests in a fixed window and refuses those over the limit', async () => {
      const bucket = `${ns}key-1`;
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await cache.consume(bucket, 3, 2));
      expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
      ]);
      expect(decisions[3]!.resetSeconds).toBeGreaterThanOrEqual(1);
      expect(decisions[3]!.resetSeconds).toBeLessThanOrEqual(2);
      expect((await cache.consume(`${ns}key-2`, 3, 2)).allowed).toBe(true);
      await sleep(2_100);
      expect(await cache.consume(bucket, 3, 2)).toMatchObject({ allowed: true, remaining: 2 });
    });

    it('answers its health check', async () => {
      await expect(cache.check()).resolves.toBeUndefined();
    });
  });
}
