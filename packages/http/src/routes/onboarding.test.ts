// The onboarding event stream's `Last-Event-ID`: a sequence number resumes after that event; a
// value the stream never sent (above 2^31 - 1, negative, non-numeric, hex, exponent) is a 400
// with the error body — before, a value above the integer range reached the store and the stream
// was dropped without an answer.
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { LocalGitCodeHost } from '@codehealth/service';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createGitRepo } from '../../../../test/helpers/git-repo.js';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

describeStores('onboarding event stream', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let sessionId: string;

  beforeAll(async () => {
    api = await createTestApi({ store, codeHosts: [new LocalGitCodeHost()], serviceOptions: { allowLocalRepos: true } });
    owner = await api.createUser();
    const projectId = await api.createProject(owner);
    const repo = createGitRepo({ 'src/index.ts': 'export const a = 1;\n' }, 'codehealth-sse-');
    const added = await api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
      key: owner.key,
      body: { url: pathToFileURL(realpathSync(repo.root)).href },
    });
    expect(added.status).toBe(201);
    sessionId = added.body.onboarding_session_id;
    // The history a worker would have written: three events, the last one final.
    await api.services.onboarding.record(sessionId, 'step_started', { step: 'clone', percent: 0 });
    await api.services.onboarding.record(sessionId, 'step_finished', { step: 'clone', percent: 25 });
    await api.services.onboarding.record(sessionId, 'completed', { percent: 100 });
    await api.services.onboarding.finish(sessionId, 'completed');
  });
  afterAll(() => api?.close());

  const stream = (lastEventId?: string) =>
    api.request('GET', `/api/v1/onboarding/${sessionId}/events`, {
      key: owner.key,
      headers: lastEventId === undefined ? {} : { 'last-event-id': lastEventId },
    });
  const ids = (body: unknown) =>
    String(body)
      .trim()
      .split('\n\n')
      .map((frame) => frame.split('\n')[0]);

  it('resumes after a sequence number in range, and replays everything without one (or with 0 or an empty value)', async () => {
    for (const value of [undefined, '', '0']) expect(ids((await stream(value)).body)).toEqual(['id: 1', 'id: 2', 'id: 3']);
    expect(ids((await stream('2')).body)).toEqual(['id: 3']);
    // The largest integer a sequence number can be: nothing after it, the stream still says it is done.
    const last = await stream('2147483647');
    expect(last.status).toBe(200);
    expect(ids(last.body)).toEqual(['id: 2147483648']);
  });

  it('answers 400 with the error body for a Last-Event-ID the stream never sent', async () => {
    for (const value of ['2147483648', '9007199254740993', '99999999999999999999999', '-1', 'abc', '0x10', '1e2', '+5', '1.5', '7 8']) {
      const response = await stream(value);
      expect(response.status, value).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(response.body, value).toEqual({
        error: 'invalid header: Last-Event-ID: Last-Event-ID must be a whole number from 0 to 2147483647, written in decimal digits',
      });
    }
  });

  it('documents the header with its range', async () => {
    const doc = (await api.request('GET', '/api/v1/openapi.json')).body;
    const parameters = doc.paths['/api/v1/onboarding/{sessionId}/events'].get.parameters;
    expect(parameters).toContainEqual(
      expect.objectContaining({
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        schema: expect.objectContaining({ type: 'integer', minimum: 0, maximum: 2147483647 }),
      }),
    );
  });
});
