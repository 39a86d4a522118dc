// `codehealth cache clear` against the real Redis of the test infrastructure: only our keys go.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { main } from '../main.js';
import { fakeIo } from '../fixtures/fake-io.js';

describe('codehealth cache clear', () => {
  it('refuses without CACHE_URL, or with another kind of URL', async () => {
    const missing = fakeIo();
    expect(await main(['cache', 'clear'], missing.io)).toBe(2);
    expect(missing.stderr()).toBe('codehealth: CACHE_URL is not set: nothing to clear (the embedded cache lives in the server process)\n');
    const wrong = fakeIo({ env: { CACHE_URL: 'http://cache:6379' } });
    expect(await main(['cache', 'clear'], wrong.io)).toBe(2);
    expect(wrong.stderr()).toBe('codehealth: CACHE_URL must be a redis:// or rediss:// URL\n');
    const usage = fakeIo({ env: { CACHE_URL: 'redis://127.0.0.1:9' } });
    expect(await main(['cache', 'flush'], usage.io)).toBe(2);
    expect(usage.stderr()).toContain('usage: codehealth cache clear');
  });

  it('names an unreachable Redis without printing its URL', async () => {
    const down = fakeIo({ env: { CACHE_URL: 'redis://:hunter2@127.0.0.1:9' } });
    expect(await main(['cache', 'clear'], down.io)).toBe(2);
    expect(down.stderr()).toMatch(/^codehealth: cannot clear the cache: Redis does not answer/);
    expect(down.stderr()).not.toContain('hunter2');
  }, 15_000);

  // Database 15 of the test Redis: other suites use database 0 at the same time, and clearing
  // their keys (locks, rate windows) under them would break them.
  const url = process.env.TEST_REDIS_URL && Object.assign(new URL(process.env.TEST_REDIS_URL), { pathname: '/15' }).toString();
  it.skipIf(!url)('deletes every codehealth: key and nothing else', async () => {
    const redis = new Redis(url!);
    try {
      const other = `someone-else:${Date.now()}`;
      await redis.set(other, 'keep');
      await redis.set('codehealth:project:x:generation', 'g1');
      await redis.set('codehealth:rate:key:y', '3');
      const io = fakeIo({ env: { CACHE_URL: url! } });
      expect(await main(['cache', 'clear'], io.io)).toBe(0);
      expect(io.stdout()).toMatch(/^Cleared \d+ cache key\(s\); they are rebuilt from the database on use\n$/);
      expect(await redis.keys('codehealth:*')).toEqual([]);
      expect(await redis.get(other)).toBe('keep');
      await redis.del(other);
    } finally {
      redis.disconnect();
    }
  });
});
