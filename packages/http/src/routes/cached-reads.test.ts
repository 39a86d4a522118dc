// The project aggregates (dashboard, issue statistics) are served from the cache, and every write
// to the project — through the API or by a workflow's recorder — replaces them at once.
import { beforeAll, describe, expect, it } from 'vitest';
import { analyseSnippetRepository, createRepository, recordRun, type AnalysedRuns } from '../fixtures/issue-runs.js';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

describeStores('cached project aggregates', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let runs: AnalysedRuns;
  beforeAll(async () => {
    api = await createTestApi({ store });
    owner = await api.createUser();
    runs = await analyseSnippetRepository();
  }, 60_000);

  const get = async (path: string) => {
    const response = await api.request('GET', path, { key: owner.key });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body;
  };

  it('serves issue statistics from the cache until an API write to the project', async () => {
    const projectId = await api.createProject(owner);
    await recordRun(api.db, projectId, runs.v1, { repositoryId: await createRepository(api.db) });
    const stats = `/api/v1/projects/${projectId}/analysis/issues/stats`;
    const before = await get(stats);
    expect(before.total).toBe(runs.v1.length);

    // A change no service made (nothing invalidates): the cached answer stands.
    const [victim] = await api.db.query<{ id: string }>('SELECT id FROM issues WHERE project_id = $1 ORDER BY id LIMIT 1', [projectId]);
    await api.db.query(
      'DELETE FROM issues WHERE id <> $1 AND project_id = $2 AND id = (SELECT id FROM issues WHERE project_id = $2 AND id <> $1 ORDER BY id LIMIT 1)',
      [victim!.id, projectId],
    );
    expect(await get(stats)).toEqual(before);

    // A write through the API replaces it: both the deletion and the dismissal show.
    const dismissed = await api.request('POST', `/api/v1/projects/${projectId}/analysis/issues/${victim!.id}/dismiss`, {
      key: owner.key,
      body: { reason: 'test' },
    });
    expect(dismissed.status).toBe(200);
    const after = await get(stats);
    // What the store holds now (a dismissal also dismisses the copies with the same fingerprint).
    const [now] = await api.db.query<{ total: number; dismissed: number }>(
      'SELECT count(*)::int AS total, (count(*) FILTER (WHERE is_dismissed))::int AS dismissed FROM issues WHERE project_id = $1',
      [projectId],
    );
    expect(now!.total).toBe(runs.v1.length - 1);
    expect(now!.dismissed).toBeGreaterThan(before.dismissed);
    expect({ total: after.total, dismissed: after.dismissed }).toEqual(now);
  });

  it('serves the dashboard from the cache until a run of the project changes', async () => {
    const projectId = await api.createProject(owner);
    const assessmentId = await recordRun(api.db, projectId, runs.v1);
    await api.db.query('UPDATE health_assessments SET overall_score = 80, overall_grade = $2 WHERE id = $1', [assessmentId, 'B']);
    const dashboard = `/api/v1/projects/${projectId}/health`;
    expect((await get(dashboard)).latest_assessment.overall_score).toBe(80);

    await api.db.query('UPDATE health_assessments SET overall_score = 55 WHERE id = $1', [assessmentId]);
    expect((await get(dashboard)).latest_assessment.overall_score).toBe(80);

    // A workflow's recorder (here: a new run marked running) invalidates the project.
    const pending = await api.services.assessments.create(projectId, 'manual');
    await api.services.assessments.markRunning(pending.id);
    expect((await get(dashboard)).latest_assessment.overall_score).toBe(55);
  });

  it('keeps projects apart', async () => {
    const [a, b] = [await api.createProject(owner), await api.createProject(owner)];
    await recordRun(api.db, a, runs.v1);
    await recordRun(api.db, b, runs.v2);
    expect((await get(`/api/v1/projects/${a}/analysis/issues/stats`)).total).toBe(runs.v1.length);
    expect((await get(`/api/v1/projects/${b}/analysis/issues/stats`)).total).toBe(runs.v2.length);
  });
});

describe('cached aggregates and access', () => {
  it('checks access before answering from the cache', async () => {
    const api = await createTestApi();
    const [owner, outsider] = [await api.createUser(), await api.createUser()];
    const projectId = await api.createProject(owner);
    expect((await api.request('GET', `/api/v1/projects/${projectId}/health`, { key: owner.key })).status).toBe(200);
    expect((await api.request('GET', `/api/v1/projects/${projectId}/health`, { key: outsider.key })).status).toBe(403);
    await api.close();
  });
});
