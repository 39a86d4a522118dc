// Rate limiting per API key through the real app: headers on every answer, 429 with Retry-After
// over the limit, keys counted apart, and the count shared by replicas through Redis.
import { describe, expect, it } from 'vitest';
import { RedisCache } from '@codehealth/service';
import { createTestApi } from '../../../test/helpers/test-api.js';
import { DEFAULT_RATE_LIMIT, rateLimitFromEnv } from './rate-limit.js';

describe('rate limiting', () => {
  it('counts requests per key, answers 429 with Retry-After over the limit, and keeps keys apart', async () => {
    const api = await createTestApi({ app: { rateLimit: { limit: 3, windowSeconds: 60 } } });
    try {
      const [ada, bob] = [await api.createUser(), await api.createUser()];
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await api.request('GET', '/api/v1/projects', { key: ada.key }));
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429]);
      expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
      expect(answers[0]!.headers.get('x-ratelimit-limit')).toBe('3');
      const refused = answers[3]!;
      expect(refused.body).toEqual({ error: 'rate limit exceeded' });
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      // Another key has its own window; a refused key counts against its address, not a key
      // (unauthenticated-limits.test.ts).
      expect((await api.request('GET', '/api/v1/projects', { key: bob.key })).status).toBe(200);
      expect((await api.request('GET', '/api/v1/projects', { key: 'chk_wrong' })).status).toBe(401);
      // A refused request changed nothing: a write over the limit is not carried out.
      const create = await api.request('POST', '/api/v1/projects', { key: ada.key, body: { name: 'late', key: 'late' } });
      expect(create.status).toBe(429);
      const [{ n }] = await api.db.query<{ n: number }>("SELECT count(*)::int AS n FROM projects WHERE key = 'late'");
      expect(n).toBe(0);
    } finally {
      await api.close();
    }
  });

  it('documents 429 on every authenticated operation', async () => {
    const api = await createTestApi();
    try {
      const doc = (await api.request('GET', '/api/v1/openapi.json')).body;
      const operations = Object.values(doc.paths as Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>).flatMap((p) =>
        Object.values(p),
      );
      const authenticated = operations.filter((op) => !(Array.isArray(op.security) && op.security.length === 0));
      expect(authenticated.length).toBeGreaterThan(40);
      expect(authenticated.every((op) => '429' in op.responses)).toBe(true);
      expect(doc.info.description).toContain('Rate limit: 600 requests per minute per API key');
    } finally {
      await api.close();
    }
  });

  it('reads RATE_LIMIT_PER_MINUTE: default 600, 0 turns it off, nonsense is an error', () => {
    expect(rateLimitFromEnv(undefined)).toEqual(DEFAULT_RATE_LIMIT);
    expect(rateLimitFromEnv('120')).toEqual({ limit: 120, windowSeconds: 60 });
    expect(rateLimitFromEnv('0')).toBe(false);
    expect(() => rateLimitFromEnv('lots')).toThrow(/RATE_LIMIT_PER_MINUTE must be a whole number/);
  });
});

const url = process.env.TEST_REDIS_URL;
describe.skipIf(!url)('rate limiting across replicas (Redis)', () => {
  it('counts one key across two servers sharing the cache', async () => {
    const [cacheA, cacheB] = [new RedisCache(url!), new RedisCache(url!)];
    const a = await createTestApi({ cache: cacheA, app: { rateLimit: { limit: 2, windowSeconds: 30 } } });
    const b = await createTestApi({ cache: cacheB, app: { rateLimit: { limit: 2, windowSeconds: 30 } } });
    try {
      // Same key id on both servers: one user's key, stored in each server's database alike.
      const user = await a.createUser();
      const [row] = await a.db.query<Record<string, unknown>>(
        'SELECT u.id AS user_id, u.email, u.name, k.id AS key_id, k.key_prefix, k.key_hash, k.name AS key_name FROM users u JOIN api_keys k ON k.user_id = u.id WHERE u.id = $1',
        [user.userId],
      );
      await b.db.query('INSERT INTO users (id, email, name) VALUES ($1, $2, $3)', [row!.user_id, row!.email, row!.name]);
      await b.db.query('INSERT INTO api_keys (id, user_id, name, key_prefix, key_hash) VALUES ($1, $2, $3, $4, $5)', [
        row!.key_id,
        row!.user_id,
        row!.key_name,
        row!.key_prefix,
        row!.key_hash,
      ]);
      const statuses = [
        (await a.request('GET', '/api/v1/projects', { key: user.key })).status,
        (await b.request('GET', '/api/v1/projects', { key: user.key })).status,
        (await a.request('GET', '/api/v1/projects', { key: user.key })).status,
      ];
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await a.close();
      await b.close();
      await cacheA.deleteByPrefix('rate:');
      await cacheA.close();
      await cacheB.close();
    }
  });
});
