import { createHash } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

describeStores('API keys', (store) => {
  let api: TestApi;
  let user: TestUser;
  beforeAll(async () => {
    api = await createTestApi({ store });
    user = await api.createUser();
  });
  afterAll(() => api?.close());

  it('creates a key shown once, stored only as a hash, listed by prefix', async () => {
    const created = await api.request('POST', '/api/v1/api-keys', { key: user.key, body: { name: 'ci', description: 'for CI' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'ci',
      description: 'for CI',
      key_prefix: created.body.key.slice(0, 12),
      scopes: [],
      key: expect.stringMatching(/^chk_[A-Za-z0-9_-]{43}$/),
      created_at: expect.any(String),
    });
    const rows = await api.db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE id = $1', [created.body.id]);
    expect(rows[0]!.key_hash).toBe(createHash('sha256').update(created.body.key).digest('hex'));
    expect(JSON.stringify(await api.db.query('SELECT * FROM api_keys'))).not.toContain(created.body.key);

    const listed = await api.request('GET', '/api/v1/api-keys', { key: created.body.key });
    const item = listed.body.keys.find((k: { id: string }) => k.id === created.body.id);
    expect(item).toEqual({
      id: created.body.id,
      name: 'ci',
      description: 'for CI',
      key_prefix: created.body.key_prefix,
      scopes: [],
      last_used_at: expect.any(String), // this very request used it
      created_at: created.body.created_at,
    });
    expect(item).not.toHaveProperty('key');
  });

  it("authenticates as the key's user: same projects, and the new key works at once", async () => {
    const projectId = await api.createProject(user);
    const second = await api.request('POST', '/api/v1/api-keys', { key: user.key, body: { name: 'second' } });
    const viaSecond = await api.request('GET', `/api/v1/projects/${projectId}`, { key: second.body.key });
    expect(viaSecond.status).toBe(200);
    expect(viaSecond.body.user_role).toBe('owner');
  });

  it("revokes: the revoked key gets 401, others keep working; another user's key is not found", async () => {
    const extra = await api.request('POST', '/api/v1/api-keys', { key: user.key, body: { name: 'temp' } });
    const revoked = await api.request('DELETE', `/api/v1/api-keys/${extra.body.id}`, { key: user.key });
    expect(revoked.status).toBe(204);
    expect(await api.request('GET', '/api/v1/projects', { key: extra.body.key })).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    expect((await api.request('GET', '/api/v1/projects', { key: user.key })).status).toBe(200);
    expect((await api.request('DELETE', `/api/v1/api-keys/${extra.body.id}`, { key: user.key })).status).toBe(404);
    const other = await api.createUser();
    const mine = await api.request('POST', '/api/v1/api-keys', { key: user.key, body: { name: 'mine' } });
    expect((await api.request('DELETE', `/api/v1/api-keys/${mine.body.id}`, { key: other.key })).status).toBe(404);
    const listed = await api.request('GET', '/api/v1/api-keys', { key: user.key });
    expect(listed.body.keys.map((k: { id: string }) => k.id)).not.toContain(extra.body.id);
  });

  it('answers 401 for missing, malformed, unknown and tampered keys', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer chk_notarealkey' },
      { authorization: `Bearer ${user.key.slice(0, -1)}${user.key.endsWith('A') ? 'B' : 'A'}` },
      { authorization: `Bearer ${user.key} extra` },
    ];
    for (const headers of cases) {
      const response = await api.request('GET', '/api/v1/projects', { headers });
      expect(response.status, JSON.stringify(headers)).toBe(401);
      expect(response.body).toEqual({ error: 'unauthorized' });
    }
  });

  it('requires a name', async () => {
    const response = await api.request('POST', '/api/v1/api-keys', { key: user.key, body: { description: 'x' } });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatch(/name/);
  });
});
