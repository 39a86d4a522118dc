// Requests without valid credentials are limited per client address, through a real node:http
// server (the address is the TCP peer, or what a trusted proxy on loopback forwards): failed
// authentications, public routes and unknown paths share one window per address; webhook deliveries
// whose signature fails count, correctly signed ones never do (GitHub sends every App's hooks from
// the same addresses). Before, none of these were limited at all.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sign } from '@octokit/webhooks-methods';
import { toNodeHandler } from 'h3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrustedProxies, TrustedProxiesError } from './client-address.js';
import { example, WEBHOOK_SECRET } from './fixtures/github-webhooks.js';
import { createTestApi, type TestApi, type TestUser } from '../../../test/helpers/test-api.js';
import { DEFAULT_UNAUTHENTICATED_RATE_LIMIT, rateLimitFromEnv } from './rate-limit.js';

const LIMIT = 3;

async function serve(api: TestApi): Promise<{ url: string; server: Server }> {
  const server = createServer(toNodeHandler(api.app));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('limits on requests without valid credentials', () => {
  let api: TestApi;
  let url: string;
  let server: Server;
  let user: TestUser;

  beforeAll(async () => {
    api = await createTestApi({
      app: { webhookSecret: WEBHOOK_SECRET, unauthenticatedRateLimit: { limit: LIMIT, windowSeconds: 60 }, trustedProxies: TrustedProxies.parse('loopback') },
    });
    ({ url, server } = await serve(api));
    user = await api.createUser();
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await api?.close();
  });

  /** A request as the trusted proxy on loopback forwards it for `client`. */
  const from = async (client: string, path: string, init: RequestInit = {}) => {
    const response = await fetch(url + path, { ...init, headers: { 'x-forwarded-for': client, ...(init.headers as Record<string, string>) } });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  const badKey = { headers: { authorization: 'Bearer chk_not-a-real-key-at-all' } };

  it('refuses an address over the limit with 429 and Retry-After, for failed authentications, public routes and unknown paths alike', async () => {
    const client = '203.0.113.1';
    const refused = [];
    for (let i = 0; i < LIMIT; i++) refused.push(await from(client, '/api/v1/projects', badKey));
    expect(refused.map((r) => r.status)).toEqual([401, 401, 401]);
    expect(refused.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0']);
    expect(refused[0]!.headers.get('www-authenticate')).toBe('Bearer');

    for (const [path, init] of [
      ['/api/v1/projects', badKey],
      ['/api/v1/projects', {}],
      ['/healthz', {}],
      ['/api/v1/openapi.json', {}],
      ['/nowhere', {}],
    ] as const) {
      const limited = await from(client, path, init);
      expect(limited.status, path).toBe(429);
      expect(limited.body).toEqual({ error: 'rate limit exceeded' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    }
    // Another address has its own window; a valid key is never limited by its address.
    expect((await from('203.0.113.2', '/api/v1/projects', badKey)).status).toBe(401);
    expect((await from('203.0.113.2', '/healthz')).status).toBe(200);
    expect((await from(client, '/api/v1/projects', { headers: { authorization: `Bearer ${user.key}` } })).status).toBe(200);
  });

  it('counts the address the trusted proxy saw, whatever a client writes into X-Forwarded-For itself', async () => {
    const statuses = [];
    for (const spoofed of ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4'])
      statuses.push((await from(`${spoofed}, 198.51.100.7`, '/api/v1/projects', badKey)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    // IPv6 clients count per /64: another address of the same prefix shares the window.
    for (const address of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:aaaa::3']) expect((await from(address, '/healthz')).status).toBe(200);
    expect((await from('2001:db8:1:2:ffff:ffff:ffff:ffff', '/healthz')).status).toBe(429);
    expect((await from('2001:db8:1:3::1', '/healthz')).status).toBe(200);
  });

  it('limits webhook deliveries whose signature fails, never correctly signed ones', async () => {
    const delivery = async (client: string, payload: unknown, secret: string | null) => {
      const body = JSON.stringify(payload);
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': crypto.randomUUID() };
      if (secret) headers['x-hub-signature-256'] = await sign(secret, body);
      return from(client, '/webhooks/github', { method: 'POST', headers, body });
    };
    const ping = example('ping');
    // A stream of genuine deliveries from one of GitHub's addresses: none is counted.
    const github = '192.0.2.10';
    for (let i = 0; i < LIMIT * 3; i++) expect((await delivery(github, { ...ping, n: i }, WEBHOOK_SECRET)).body).toEqual({ status: 'pong' });

    // Forgeries from the same address (a stranger's hook with another secret) are counted and refused ...
    const forged = [];
    for (let i = 0; i < LIMIT + 1; i++) forged.push(await delivery(github, ping, 'another secret'));
    expect(forged.map((r) => r.status)).toEqual([401, 401, 401, 429]);
    expect(forged[0]!.body).toEqual({ error: 'invalid signature' });
    expect(forged[3]!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await delivery(github, ping, null)).status).toBe(429);
    // ... while a correctly signed delivery from it is still processed.
    expect(await delivery(github, { ...ping, n: 'after' }, WEBHOOK_SECRET)).toMatchObject({ status: 200, body: { status: 'pong' } });
  });

  it('documents 429 on every operation, public ones included, and the per-address limit', async () => {
    const doc = (await api.request('GET', '/api/v1/openapi.json')).body;
    const operations = Object.values(doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>).flatMap((p) => Object.values(p));
    expect(operations.filter((op) => !('429' in op.responses))).toEqual([]);
    expect(doc.paths['/healthz'].get.responses).toHaveProperty('429');
    expect(doc.paths['/webhooks/github'].post.responses).toHaveProperty('429');
    expect(doc.info.description).toContain('count against the client address: 120 per minute by default');
  });
});

describe('client addresses without a trusted proxy', () => {
  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    const api = await createTestApi({ app: { unauthenticatedRateLimit: { limit: 2, windowSeconds: 60 } } });
    const { url, server } = await serve(api);
    try {
      const statuses = [];
      for (const spoofed of ['1.1.1.1', '2.2.2.2', '3.3.3.3'])
        statuses.push((await fetch(`${url}/healthz`, { headers: { 'x-forwarded-for': spoofed } })).status);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await api.close();
    }
  });
});

describe('configuration', () => {
  it('reads RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE (default 120, 0 off) and TRUSTED_PROXIES', () => {
    const read = (value: string | undefined) => rateLimitFromEnv(value, 'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE', DEFAULT_UNAUTHENTICATED_RATE_LIMIT);
    expect(read(undefined)).toEqual({ limit: 120, windowSeconds: 60 });
    expect(read('30')).toEqual({ limit: 30, windowSeconds: 60 });
    expect(read('0')).toBe(false);
    for (const bad of ['-1', '1e3', '12.5', 'many'])
      expect(() => read(bad)).toThrow('RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE must be a whole number (0 turns rate limiting off)');

    expect(TrustedProxies.parse(undefined)).toBeUndefined();
    expect(TrustedProxies.parse(' ')).toBeUndefined();
    const trusted = TrustedProxies.parse('loopback, 10.0.0.0/8, 192.168.1.5, fd00::/8')!;
    expect(['127.0.0.1', '::1', '10.20.30.40', '::ffff:10.1.1.1', '192.168.1.5', 'fd12::1'].every((address) => trusted.has(address))).toBe(true);
    expect(['192.168.1.6', '11.0.0.1', 'fe80::1', 'not-an-ip'].some((address) => trusted.has(address))).toBe(false);
    for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.1/8/1', '10.0.0.0/x']) expect(() => TrustedProxies.parse(bad)).toThrow(TrustedProxiesError);
  });
});
