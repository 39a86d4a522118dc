import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

describeStores('projects API', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    api = await createTestApi({ store });
    owner = await api.createUser();
    outsider = await api.createUser();
  });
  afterAll(() => api?.close());

  it('creates a project owned by the caller with every spec field', async () => {
    const created = await api.request('POST', '/api/v1/projects', {
      key: owner.key,
      body: { name: 'Payments', key: 'payments', description: 'the payment service' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Payments',
      key: 'payments',
      description: 'the payment service',
      settings: {},
      user_role: 'owner',
      created_at: expect.stringMatching(/Z$/),
      updated_at: expect.stringMatching(/Z$/),
    });
    const listed = await api.request('GET', '/api/v1/projects', { key: owner.key });
    expect(listed.body.map((p: { key: string }) => p.key)).toContain('payments');
    const others = await api.request('GET', '/api/v1/projects', { key: outsider.key });
    expect(others.body.map((p: { key: string }) => p.key)).not.toContain('payments');
  });

  it('refuses a duplicate key with 409 and a bad key with 400', async () => {
    await api.request('POST', '/api/v1/projects', { key: owner.key, body: { name: 'A', key: 'dup' } });
    const again = await api.request('POST', '/api/v1/projects', { key: owner.key, body: { name: 'B', key: 'dup' } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error: "a project with key 'dup' already exists" });
    const bad = await api.request('POST', '/api/v1/projects', { key: owner.key, body: { name: 'B', key: 'Not Safe!' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^invalid request body: key: key must be URL-safe/);
    const missing = await api.request('POST', '/api/v1/projects', { key: owner.key, body: { key: 'x1' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/name/);
  });

  it('patches only provided fields and keeps the rest', async () => {
    const id = await api.createProject(owner, 'patchme');
    const patched = await api.request('PATCH', `/api/v1/projects/${id}`, { key: owner.key, body: { settings: { scan: { schedule_hours: 24 } } } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Test project', key: 'patchme', settings: { scan: { schedule_hours: 24 } } });
    const renamed = await api.request('PATCH', `/api/v1/projects/${id}`, { key: owner.key, body: { name: 'Renamed' } });
    expect(renamed.body).toMatchObject({ name: 'Renamed', settings: { scan: { schedule_hours: 24 } } });
    expect(Date.parse(renamed.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(renamed.body.created_at));
  });

  it('gives 403 to an outsider, 404 for an unknown project and 400 for a non-UUID id', async () => {
    const id = await api.createProject(owner);
    expect(await api.request('GET', `/api/v1/projects/${id}`, { key: outsider.key })).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect(await api.request('DELETE', `/api/v1/projects/${id}`, { key: outsider.key })).toMatchObject({ status: 403 });
    const unknown = await api.request('GET', '/api/v1/projects/7b0c7a8e-1c1a-4f5e-9d55-2d5d4f0a9b11', { key: owner.key });
    expect(unknown).toMatchObject({ status: 404, body: { error: 'project not found' } });
    const notUuid = await api.request('GET', '/api/v1/projects/123', { key: owner.key });
    expect(notUuid).toMatchObject({ status: 400, body: { error: 'invalid path parameter: id: id must be a UUID' } });
  });

  it('deletes a project (owner) with 204, after which it is gone', async () => {
    const id = await api.createProject(owner);
    const deleted = await api.request('DELETE', `/api/v1/projects/${id}`, { key: owner.key });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
    expect((await api.request('GET', `/api/v1/projects/${id}`, { key: owner.key })).status).toBe(404);
  });
});

describe('request edge cases', () => {
  let api: TestApi;
  let user: TestUser;
  beforeAll(async () => {
    api = await createTestApi();
    user = await api.createUser();
  });
  afterAll(() => api?.close());

  it('answers malformed JSON, wrong types and oversized bodies with 4xx JSON errors', async () => {
    const malformed = await api.request('POST', '/api/v1/projects', { key: user.key, rawBody: '{"name": ' });
    expect(malformed).toMatchObject({ status: 400, body: { error: 'request body is not valid JSON' } });
    const wrongType = await api.request('POST', '/api/v1/projects', { key: user.key, body: { name: 42, key: 'k' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error).toMatch(/name: Invalid input: expected string/);
    const array = await api.request('POST', '/api/v1/projects', { key: user.key, body: [1, 2] });
    expect(array.status).toBe(400);
    const unknownField = await api.request('POST', '/api/v1/projects', { key: user.key, body: { name: 'n', key: 'k2', owner: 'x' } });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error).toMatch(/owner/);
    const huge = await api.request('POST', '/api/v1/projects', { key: user.key, body: { name: 'x', key: 'big', description: 'x'.repeat(1024 * 1024 + 10) } });
    expect(huge).toMatchObject({ status: 413, body: { error: 'request body exceeds the 1 MB limit' } });
    const text = await api.request('POST', '/api/v1/projects', { key: user.key, rawBody: 'name=x', headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(415);
  });

  it('returns JSON 404 for unknown paths and 405 for a wrong method', async () => {
    const missing = await api.request('GET', '/api/v1/nothing-here', { key: user.key });
    expect(missing).toMatchObject({ status: 404, body: { error: 'not found: GET /api/v1/nothing-here' } });
    const wrongMethod = await api.request('PUT', '/api/v1/projects', { key: user.key, body: {} });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toContain('POST');
    expect(wrongMethod.body.error).toMatch(/PUT/);
  });
});

// Found by the API fuzzer (test/infra/fuzz) and probing after it: Postgres refuses U+0000 in text
// and jsonb, and deeply nested JSON overflows the stack; both were 500s after validation passed.
describeStores('input the store cannot hold', (store) => {
  let api: TestApi;
  let owner: TestUser;
  beforeAll(async () => {
    api = await createTestApi({ store });
    owner = await api.createUser();
  });
  afterAll(() => api?.close());

  it('refuses a NUL in a body string, a nested jsonb value or key, and a query value with 400, changing nothing', async () => {
    const created = await api.request('POST', '/api/v1/projects', { key: owner.key, body: { name: 'n', key: 'nul-text', description: 'a\u0000b' } });
    expect(created).toMatchObject({ status: 400, body: { error: 'invalid request body: description: must not contain the NUL character (\\u0000)' } });
    expect((await api.request('GET', '/api/v1/projects', { key: owner.key })).body).toEqual([]);

    const id = await api.createProject(owner);
    const before = await api.request('GET', `/api/v1/projects/${id}`, { key: owner.key });
    const nestedValue = await api.request('PATCH', `/api/v1/projects/${id}`, {
      key: owner.key,
      body: { name: 'renamed', settings: { a: [{ b: 'x\u0000' }] } },
    });
    expect(nestedValue).toMatchObject({ status: 400, body: { error: 'invalid request body: settings.a.0.b: must not contain the NUL character (\\u0000)' } });
    const nestedKey = await api.request('PATCH', `/api/v1/projects/${id}`, { key: owner.key, body: { settings: { 'k\u0000': 1 } } });
    expect(nestedKey).toMatchObject({
      status: 400,
      body: { error: 'invalid request body: settings.k\u0000: names must not contain the NUL character (\\u0000)' },
    });
    expect((await api.request('GET', `/api/v1/projects/${id}`, { key: owner.key })).body).toEqual(before.body);

    const query = await api.request('GET', `/api/v1/projects/${id}/health/assessments?limit=1%00`, { key: owner.key });
    expect(query).toMatchObject({ status: 400, body: { error: 'invalid query parameter: limit: must not contain the NUL character (\\u0000)' } });
  });

  it('keeps settings nested up to 64 levels and refuses deeper JSON with 400 (it was a 500 from the store)', async () => {
    const id = await api.createProject(owner);
    const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    // The body object is level 1, settings level 2: 63 levels inside settings is the most allowed.
    const deepest = await api.request('PATCH', `/api/v1/projects/${id}`, { key: owner.key, rawBody: `{"settings":${nested(63)}}` });
    expect(deepest.status).toBe(200);
    let level = deepest.body.settings;
    for (let depth = 1; depth < 63; depth++) level = level.a;
    expect(level).toEqual({ a: 1 });

    for (const levels of [64, 5_000, 20_000]) {
      const deeper = await api.request('PATCH', `/api/v1/projects/${id}`, { key: owner.key, rawBody: `{"name":"deep","settings":${nested(levels)}}` });
      expect(deeper).toMatchObject({ status: 400, body: { error: 'invalid request body: nested deeper than 64 levels' } });
    }
    const unchanged = await api.request('GET', `/api/v1/projects/${id}`, { key: owner.key });
    expect(unchanged.body.name).toBe('Test project');
    expect(unchanged.body.settings).toEqual(deepest.body.settings);
  });
});
