import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../../../../test/helpers/test-api.js';

describe('root health checks', () => {
  let healthy: TestApi;
  let broken: TestApi;
  beforeAll(async () => {
    healthy = await createTestApi();
    expect(healthy.app).toBeDefined();
    broken = await createTestApi();
  });
  afterAll(async () => {
    await healthy?.close();
    await broken?.close();
  });

  it('healthz is 200 when every component answers, 503 naming the one that does not', async () => {
    const { createApp } = await import('../app.js');
    const up = createApp({ services: healthy.services, components: [{ name: 'database', check: async () => void (await healthy.db.query('SELECT 1')) }] });
    const ok = await up.request('/healthz');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ status: 'ok' });

    const down = createApp({
      services: broken.services,
      components: [
        { name: 'database', check: async () => void (await broken.db.query('SELECT 1')) },
        { name: 'cache', check: async () => Promise.reject(new Error('connect ECONNREFUSED redis://secret@127.0.0.1:6390')) },
      ],
    });
    const failing = await down.request('/healthz');
    expect(failing.status).toBe(503);
    expect(await failing.json()).toEqual({ error: 'unavailable: cache' });

    const detailed = await down.request('/health/detailed');
    expect(detailed.status).toBe(200);
    const body = (await detailed.json()) as { components: unknown[] };
    expect(body).toMatchObject({ status: 'degraded', version: expect.any(String), uptime_seconds: expect.any(Number) });
    expect(body.components).toEqual([
      { name: 'database', status: 'up', latency_ms: expect.any(Number) },
      { name: 'cache', status: 'down', latency_ms: expect.any(Number), error: 'connect ECONNREFUSED <url>' },
    ]);
    expect(JSON.stringify(body)).not.toContain('secret');
  });

  it('needs no API key', async () => {
    expect((await healthy.request('GET', '/healthz')).status).toBe(200);
    expect((await healthy.request('GET', '/health/detailed')).status).toBe(200);
  });
});
