// Inputs are refused where the documented range ends, not read leniently: query integers are plain
// decimal digits within their range on every paginated operation (before, `limit=0x10`, `1e2` and
// `+5` were read as numbers), `settings.schedule.assessment_interval_hours` is 1-720 (0 and 1e9
// were stored and then ignored by the scheduler), and a JSON number beyond the double range is a
// 400 anywhere in a body (`1e400` was stored as null), as a string holding U+0000 is.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../test/helpers/test-api.js';
import { fullPathOf } from './route.js';
import { ALL_ROUTES } from './routes/index.js';

const paginated = ALL_ROUTES.filter((route) => route.method === 'GET' && route.query && 'limit' in route.query.shape);
const maxLimitOf = (operationId: string) => (operationId === 'listIssues' ? 500 : 100);

describeStores('input ranges', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let projectId: string;

  beforeAll(async () => {
    api = await createTestApi({ store });
    owner = await api.createUser();
    projectId = await api.createProject(owner);
  });
  afterAll(() => api?.close());

  const list = (path: string, query: string) =>
    api.request('GET', `${fullPathOf({ path, root: false }).replace('{id}', projectId)}?${query}`, { key: owner.key });
  const patch = (rawBody: string) => api.request('PATCH', `/api/v1/projects/${projectId}`, { key: owner.key, rawBody });
  const settings = async () => (await api.request('GET', `/api/v1/projects/${projectId}`, { key: owner.key })).body.settings;

  it('covers every paginated operation', () => {
    expect(paginated.map((route) => route.operationId).sort()).toEqual(
      ['listAdrs', 'listArchitectureReviews', 'listHealthAssessments', 'listDriftAlerts', 'listIssues', 'listPrAnalyses'].sort(),
    );
  });

  it('refuses limit and offset that are not plain decimal digits within range, on every paginated operation', async () => {
    for (const route of paginated) {
      const max = maxLimitOf(route.operationId);
      const badLimits = ['0x10', '1e2', '+5', '-5', '1.0', '5%20', '', '0', String(max + 1), '99999999999999999999999', 'Infinity', '%EF%BC%95'];
      for (const value of badLimits) {
        const answer = await list(route.path, `limit=${value}`);
        expect(answer.status, `${route.operationId} limit=${value}`).toBe(400);
        expect(answer.body).toEqual({ error: `invalid query parameter: limit: limit must be a whole number from 1 to ${max}, written in decimal digits` });
      }
      for (const value of ['-1', '1e2', '0x1', '2147483648', '+0']) {
        const answer = await list(route.path, `offset=${value}`);
        expect(answer.status, `${route.operationId} offset=${value}`).toBe(400);
        expect(answer.body).toEqual({
          error: 'invalid query parameter: offset: offset must be a whole number from 0 to 2147483647, written in decimal digits',
        });
      }
      for (const query of ['limit=16', `limit=${max}`, 'limit=007&offset=0', 'offset=2147483647']) {
        const answer = await list(route.path, query);
        expect(answer.status, `${route.operationId} ${query}`).toBe(200);
        if ('limit' in answer.body) expect(answer.body.limit).toBe(Number(new URLSearchParams(query).get('limit') ?? 20));
      }
    }
  });

  it('refuses assessment_interval_hours outside 1-720 (or not a number) and keeps the settings unchanged', async () => {
    expect((await patch('{"settings":{"team":"payments","schedule":{"assessment_interval_hours":24}}}')).status).toBe(200);
    const kept = await settings();
    for (const value of ['0', '1e9', '721', '0.5', '-1', '"24"', 'null', 'true']) {
      const answer = await patch(`{"settings":{"schedule":{"assessment_interval_hours":${value}}}}`);
      expect(answer.status, value).toBe(400);
      expect(answer.body.error, value).toMatch(/^invalid request body: settings\.schedule\.assessment_interval_hours: /);
    }
    const unknownKey = await patch('{"settings":{"schedule":{"assesment_interval_hours":24}}}');
    expect(unknownKey).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^invalid request body: settings\.schedule: .*assesment_interval_hours/) },
    });
    expect(await settings()).toEqual(kept);

    for (const value of [1, 720, 1.5]) {
      const answer = await patch(JSON.stringify({ settings: { schedule: { assessment_interval_hours: value } } }));
      expect(answer.status).toBe(200);
      expect(answer.body.settings).toEqual({ schedule: { assessment_interval_hours: value } });
    }
    // Other keys stay free-form; a schedule without an interval schedules nothing.
    expect((await patch('{"settings":{"schedule":{},"dashboard":{"pinned":["a"]}}}')).body.settings).toEqual({ schedule: {}, dashboard: { pinned: ['a'] } });
  });

  it('takes pr_feedback.enabled as a boolean only (PR feedback through the GitHub App)', async () => {
    expect((await patch('{"settings":{"pr_feedback":{"enabled":false}}}')).body.settings).toEqual({ pr_feedback: { enabled: false } });
    for (const value of ['"no"', '0', 'null']) {
      const answer = await patch(`{"settings":{"pr_feedback":{"enabled":${value}}}}`);
      expect(answer.status, value).toBe(400);
      expect(answer.body.error, value).toMatch(/^invalid request body: settings\.pr_feedback\.enabled: /);
    }
    expect((await patch('{"settings":{"pr_feedback":{"enable":true}}}')).status).toBe(400);
    expect(await settings()).toEqual({ pr_feedback: { enabled: false } });
  });

  it('refuses a number beyond the double range anywhere in a body instead of storing null', async () => {
    expect((await patch('{"settings":{"limits":{"lines":1}}}')).status).toBe(200);
    for (const [body, field] of [
      ['{"settings":{"schedule":{"assessment_interval_hours":1e400}}}', 'settings.schedule.assessment_interval_hours'],
      ['{"settings":{"limits":{"lines":1e400}}}', 'settings.limits.lines'],
      ['{"settings":{"limits":[-1e999]}}', 'settings.limits.0'],
    ]) {
      const answer = await patch(body!);
      expect(answer).toMatchObject({
        status: 400,
        body: { error: `invalid request body: ${field}: number out of range (at most about 1.8e308 in magnitude)` },
      });
    }
    expect(await settings()).toEqual({ limits: { lines: 1 } });
  });

  it('refuses U+0000 in a string and a number beyond the double range in the body of every operation that takes one', async () => {
    const withBody = ALL_ROUTES.filter((route) => route.body);
    expect(withBody.length).toBeGreaterThanOrEqual(15);
    for (const route of withBody) {
      const path = fullPathOf(route)
        .replace('{id}', projectId)
        .replace('{number}', '1')
        .replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      for (const [rawBody, error] of [
        ['{"name":"a\\u0000b"}', 'invalid request body: name: must not contain the NUL character (\\u0000)'],
        ['{"note":[1e400]}', 'invalid request body: note.0: number out of range (at most about 1.8e308 in magnitude)'],
      ]) {
        const answer = await api.request(route.method, path, { key: owner.key, rawBody });
        expect({ operation: route.operationId, status: answer.status, body: answer.body }).toEqual({
          operation: route.operationId,
          status: 400,
          body: { error },
        });
      }
    }
  });

  it('documents each range in the OpenAPI document', async () => {
    const doc = (await api.request('GET', '/api/v1/openapi.json')).body;
    for (const route of paginated) {
      const parameters = doc.paths[fullPathOf(route)].get.parameters as { name: string; schema: Record<string, unknown> }[];
      const limit = { type: 'integer', minimum: 1, maximum: maxLimitOf(route.operationId), default: route.operationId === 'listIssues' ? 50 : 20 };
      expect(parameters.find((p) => p.name === 'limit')!.schema).toMatchObject(limit);
      expect(parameters.find((p) => p.name === 'offset')!.schema).toMatchObject({ type: 'integer', minimum: 0, maximum: 2147483647, default: 0 });
    }
    const settingsSchema = doc.components.schemas.UpdateProjectRequest.properties.settings;
    expect(settingsSchema.properties.schedule.properties.assessment_interval_hours).toMatchObject({ type: 'number', minimum: 1, maximum: 720 });
  });
});
