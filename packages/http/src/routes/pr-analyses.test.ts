import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalGitCodeHost, PrAnalysisService, UnavailableError } from '@codehealth/service';
import { createPrRepository, linkLocalRepository, pushPullRequestCommits, type PrRepository } from '../fixtures/pull-requests.js';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const NO_SUCH_ID = '7b0c7a8e-1c1a-4f5e-9d55-2d5d4f0a9b11';

describeStores('PR analyses API: trigger, latest, list', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let outsider: TestUser;
  let pr: PrRepository;

  beforeAll(async () => {
    api = await createTestApi({ store, codeHosts: [new LocalGitCodeHost()], serviceOptions: { allowLocalRepos: true } });
    owner = await api.createUser();
    outsider = await api.createUser();
    pr = createPrRepository();
  });
  afterAll(() => api?.close());

  /** A project with a fresh link to its own copy of the PR repository (no PR metadata synced yet). */
  async function setup(): Promise<{ projectId: string; repoId: string; base: string; repo: PrRepository }> {
    const projectId = await api.createProject(owner);
    const repo = createPrRepository();
    const repoId = await linkLocalRepository(api.db, projectId, repo.repo.root);
    return { projectId, repoId, base: `/api/v1/projects/${projectId}/repos/${repoId}/prs`, repo };
  }
  const pushCommits = pushPullRequestCommits;
  const analyze = (path: string, body?: unknown, by: TestUser = owner) => api.request('POST', `${path}/analyze`, { key: by.key, body });
  const jobsOf = async (analysisId: string) =>
    api.db.query<{ kind: string; input: Record<string, unknown>; workflow_id: string }>('SELECT kind, input, workflow_id FROM jobs WHERE input->>$1 = $2', [
      'analysisId',
      analysisId,
    ]);

  it('analyzes the synced head when head_sha is omitted: syncs PRs from the code host, creates a pending run and starts its workflow', async () => {
    const { projectId, repoId, base } = await setup();
    const heads = (await api.db.query<{ head_sha: string }>('SELECT head_sha FROM pull_requests WHERE repository_id = $1', [repoId])).length;
    expect(heads).toBe(0);

    const started = await analyze(`${base}/1`);
    expect(started.status).toBe(201);
    expect(started.body).toEqual({ id: expect.stringMatching(UUID), status: 'pending', workflow_id: `pr-analysis-${started.body.id}`, pr_number: 1 });
    expect(await jobsOf(started.body.id)).toEqual([
      { kind: 'pr-analysis', input: { projectId, analysisId: started.body.id }, workflow_id: started.body.workflow_id },
    ]);
    const synced = await api.db.query<{ pr_number: number; head_sha: string; title: string; state: string }>(
      'SELECT pr_number, head_sha, title, state FROM pull_requests WHERE repository_id = $1 ORDER BY pr_number',
      [repoId],
    );
    expect(synced.map((row) => row.pr_number)).toEqual([1, 2]);
    expect(synced[0]).toMatchObject({ title: 'feat: charge customers', state: 'open' });

    const got = await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses/${started.body.id}`, { key: owner.key });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      id: started.body.id,
      project_id: projectId,
      repository_id: repoId,
      pr_number: 1,
      head_sha: synced[0]!.head_sha,
      classification: { primary_intent: 'unknown', secondary_intents: [], change_categories: [], risk_signals: [], summary: '' },
      merge_readiness: {
        status: 'needs_review',
        blocking_count: 0,
        advisory_count: 0,
        info_count: 0,
        confidence: 0,
        reasons: ['the analysis is pending: no verdict yet'],
        confidence_reasons: ['the analysis is pending: no verdict yet'],
      },
      health_impact: { overall_delta: 0, issues_added: 0, issues_fixed: 0, impact_rating: 'unknown' },
      health_projection: {
        current_overall: 0,
        projected_overall: 0,
        overall_delta: 0,
        current_grade: 'F',
        projected_grade: 'F',
        category_deltas: [],
        issues_added: 0,
        issues_fixed: 0,
        impact_rating: 'unknown',
      },
      graph_impact: { changed_symbols: [], dependents_count: 0, dependent_files: [], depth: 0, summary: '' },
      scope_drift: [],
      impact_zones: [],
      conflicts: { conflicts: [], checked_prs: [], summary: '' },
      stacked_prs: { is_stacked: false, stacked_prs: [], parent_prs: [], child_prs: [], summary: '' },
      analysis_run_id: expect.stringMatching(UUID),
      status: 'pending',
      failure_reason: null,
      feedback: null,
      created_at: expect.stringMatching(TIMESTAMP),
      started_at: null,
      completed_at: null,
    });
    expect(got.body.analysis_run_id).not.toBe(got.body.id);
    // The synced merge base belongs to the synced head, so the run records it.
    const [row] = await api.db.query<{ base_sha: string | null }>('SELECT base_sha FROM pr_analyses WHERE id = $1', [started.body.id]);
    expect(row!.base_sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it('analyzes a given head_sha (normalised to lower case) and reuses a run of the same head while pending or running', async () => {
    const { projectId, base, repo } = await setup();
    // An earlier commit of PR #2, written in upper case.
    const OTHER_SHA = pushCommits(repo.repo, 2, 1)[0]!.toUpperCase();
    const first = await analyze(`${base}/2`, { head_sha: OTHER_SHA });
    expect(first).toMatchObject({ status: 201, body: { status: 'pending', pr_number: 2 } });
    const stored = await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses/${first.body.id}`, { key: owner.key });
    expect(stored.body.head_sha).toBe(OTHER_SHA.toLowerCase());

    const again = await analyze(`${base}/2`, { head_sha: OTHER_SHA.toLowerCase() });
    expect(again).toMatchObject({ status: 201, body: { id: first.body.id, status: 'pending', workflow_id: first.body.workflow_id, pr_number: 2 } });
    expect(await jobsOf(first.body.id)).toHaveLength(1);

    await api.services.prAnalysisRecorder.markRunning(first.body.id);
    expect((await analyze(`${base}/2`, { head_sha: OTHER_SHA })).body).toEqual({ ...first.body, status: 'running' });

    // Another head of the same PR is a new run; so is a retry after a failure.
    const synced = await analyze(`${base}/2`);
    expect(synced.body.id).not.toBe(first.body.id);
    await api.services.prAnalysisRecorder.fail(synced.body.id, 'checkout failed');
    const retried = await analyze(`${base}/2`);
    expect(retried.body).toMatchObject({ status: 'pending' });
    expect(retried.body.id).not.toBe(synced.body.id);
    const count = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM pr_analyses WHERE project_id = $1', [projectId]);
    expect(count[0]!.count).toBe(3);

    // Concurrent triggers of one head (the first of them syncing the PRs) create one run.
    const fresh = await setup();
    const racing = await Promise.all([1, 2, 3, 4].map(() => analyze(`${fresh.base}/1`, { head_sha: fresh.repo.heads[1] })));
    expect(racing.map((response) => response.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(racing.map((response) => response.body.id)).size).toBe(1);
    const raced = await api.db.query('SELECT id FROM pr_analyses WHERE project_id = $1', [fresh.projectId]);
    expect(raced).toHaveLength(1);
  });

  it('re-triggering a completed head starts a new pending run (a config change, a dismiss rule, an upgrade); code-host events reuse it', async () => {
    const { projectId, repoId, base, repo } = await setup();
    const OTHER_SHA = pushCommits(repo.repo, 2, 1)[0]!.toUpperCase();
    const first = await analyze(`${base}/2`, { head_sha: OTHER_SHA });
    await api.services.prAnalysisRecorder.markRunning(first.body.id);
    await api.db.query("UPDATE pr_analyses SET status = 'completed', completed_at = now() WHERE id = $1", [first.body.id]);

    const again = await analyze(`${base}/2`, { head_sha: OTHER_SHA });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ id: expect.stringMatching(UUID), status: 'pending', workflow_id: `pr-analysis-${again.body.id}`, pr_number: 2 });
    expect(again.body.id).not.toBe(first.body.id);
    expect(await jobsOf(again.body.id)).toEqual([
      { kind: 'pr-analysis', input: { projectId, analysisId: again.body.id }, workflow_id: again.body.workflow_id },
    ]);
    // The PR's latest analysis is the new run; the completed one stays readable.
    const latest = await api.request('GET', `${base}/2/analysis`, { key: owner.key });
    expect(latest.body).toMatchObject({ id: again.body.id, status: 'pending', head_sha: OTHER_SHA.toLowerCase() });
    expect((await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses/${first.body.id}`, { key: owner.key })).body.status).toBe('completed');

    // While the re-run is pending, triggers coalesce with it.
    expect((await analyze(`${base}/2`, { head_sha: OTHER_SHA })).body.id).toBe(again.body.id);

    // A pull_request event for an analysed head (the webhook path) reuses the completed analysis.
    await api.db.query("UPDATE pr_analyses SET status = 'completed', completed_at = now() WHERE id = $1", [again.body.id]);
    const event = await api.services.prAnalyses.enqueue(projectId, repoId, 2, OTHER_SHA.toLowerCase());
    expect(event).toMatchObject({ analysisId: again.body.id, status: 'completed', created: false });
    const count = await api.db.query<{ count: number }>('SELECT count(*)::int AS count FROM pr_analyses WHERE project_id = $1', [projectId]);
    expect(count[0]!.count).toBe(2);
  });

  it('refuses bad input with 400, unknown PRs and unlinked repositories with 404, an unknown head with 409', async () => {
    const { projectId, repoId, base } = await setup();
    for (const head_sha of ['abc', 'z'.repeat(40), `${'a'.repeat(40)}0`, 42]) {
      const bad = await analyze(`${base}/1`, { head_sha });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatch(/^invalid request body: head_sha: /);
    }
    expect((await analyze(`${base}/1`, { head_sha: 'a'.repeat(40), extra: true })).status).toBe(400);
    expect(await api.request('POST', `${base}/1/analyze`, { key: owner.key, rawBody: '{"head_sha":' })).toMatchObject({
      status: 400,
      body: { error: 'request body is not valid JSON' },
    });
    for (const number of ['0', '-1', 'abc', '1.5', '01', '1e3', '99999999999', '2147483648']) {
      const bad = await analyze(`${base}/${number}`);
      expect(bad.status, number).toBe(400);
      expect(bad.body.error).toMatch(/^invalid path parameter: number: number must be/);
      expect((await api.request('GET', `${base}/${number}/analysis`, { key: owner.key })).status).toBe(400);
    }
    expect((await api.request('GET', `/api/v1/projects/${projectId}/repos/not-a-uuid/prs/1/analysis`, { key: owner.key })).body).toEqual({
      error: 'invalid path parameter: repoId: repoId must be a UUID',
    });

    expect(await analyze(`${base}/99`)).toMatchObject({ status: 404, body: { error: 'pull request #99 not found' } });
    expect(await analyze(`${base}/99`, { head_sha: 'a'.repeat(40) })).toMatchObject({ status: 404, body: { error: 'pull request #99 not found' } });
    const elsewhere = `/api/v1/projects/${projectId}/repos/${NO_SUCH_ID}/prs/1`;
    expect(await analyze(elsewhere)).toMatchObject({ status: 404, body: { error: 'repository not found' } });
    expect(await api.request('GET', `${elsewhere}/analysis`, { key: owner.key })).toMatchObject({ status: 404, body: { error: 'repository not found' } });

    await api.db.query("INSERT INTO pull_requests (id, repository_id, pr_number, head_sha) VALUES (gen_random_uuid(), $1, 7, '')", [repoId]);
    expect(await analyze(`${base}/7`)).toMatchObject({ status: 409, body: { error: 'the head commit of pull request #7 is not known yet: pass head_sha' } });
    // A PR the code host does not list cannot be checked: its given head is taken.
    expect((await analyze(`${base}/7`, { head_sha: 'b'.repeat(40) })).status).toBe(201);
  });

  it("refuses with 400 a head_sha that is not a commit of the PR (another PR's, the base branch's, unknown), creating no run; a commit of the PR is analysed", async () => {
    const { projectId, base, repo } = await setup();
    for (const head_sha of [repo.heads[2], repo.mainSha, 'b'.repeat(40)]) {
      expect(await analyze(`${base}/1`, { head_sha })).toMatchObject({
        status: 400,
        body: { error: `head_sha ${head_sha} is not a commit of pull request #1` },
      });
    }
    expect(await api.db.query('SELECT id FROM pr_analyses WHERE project_id = $1', [projectId])).toEqual([]);
    const [older] = pushCommits(repo.repo, 1, 2);
    expect(await analyze(`${base}/1`, { head_sha: older })).toMatchObject({ status: 201, body: { status: 'pending' } });
  });

  it('a manual trigger re-syncs the PR from the code host first: a push since the last sync is the head analysed', async () => {
    const { repoId, base, repo } = await setup();
    const first = await analyze(`${base}/1`);
    const pushed = pushCommits(repo.repo, 1, 1).at(-1)!;
    const second = await analyze(`${base}/1`);
    expect(second.body.id).not.toBe(first.body.id);
    const heads = await api.db.query<{ head_sha: string }>('SELECT head_sha FROM pr_analyses WHERE repository_id = $1 ORDER BY created_at, id', [repoId]);
    expect(heads.map((row) => row.head_sha).sort()).toEqual([repo.heads[1], pushed].sort());
    expect(await api.db.query('SELECT head_sha FROM pull_requests WHERE repository_id = $1 AND pr_number = 1', [repoId])).toEqual([{ head_sha: pushed }]);
  });

  it('gives 403 to outsiders, 401 without a key, 503 when no code host can list pull requests', async () => {
    const { projectId, base } = await setup();
    const paths: Array<[string, string]> = [
      ['GET', `/api/v1/projects/${projectId}/pr-analyses`],
      ['GET', `/api/v1/projects/${projectId}/pr-analyses/stats`],
      ['GET', `/api/v1/projects/${projectId}/pr-analyses/${NO_SUCH_ID}`],
      ['GET', `${base}/1/analysis`],
      ['POST', `${base}/1/analyze`],
    ];
    for (const [method, path] of paths) {
      expect(await api.request(method, path, { key: outsider.key }), path).toMatchObject({ status: 403, body: { error: 'forbidden' } });
      expect(await api.request(method, path), path).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    }
    expect(await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses/${NO_SUCH_ID}`, { key: owner.key })).toMatchObject({
      status: 404,
      body: { error: 'PR analysis not found' },
    });

    const bare = await createTestApi({ store, serviceOptions: { allowLocalRepos: true } });
    try {
      const user = await bare.createUser();
      const project = await bare.createProject(user);
      const repoId = await linkLocalRepository(bare.db, project, pr.repo.root);
      const refused = await bare.request('POST', `/api/v1/projects/${project}/repos/${repoId}/prs/1/analyze`, { key: user.key });
      expect(refused.status).toBe(503);
      expect(refused.body.error).toMatch(/code host/);
    } finally {
      await bare.close();
    }
  });

  it('marks a new run failed and answers 503 when the workflow engine refuses it', async () => {
    const { projectId, repoId } = await setup();
    const refusing = { start: () => Promise.reject(new Error('connection refused')) };
    const service = new PrAnalysisService(api.db, api.services.access, refusing, api.services.repositories, api.services.prAnalysisRecorder);
    await expect(service.enqueue(projectId, repoId, 1)).rejects.toBeInstanceOf(UnavailableError);
    const rows = await api.db.query<{ status: string; error: string }>('SELECT status, error FROM pr_analyses WHERE repository_id = $1', [repoId]);
    expect(rows).toEqual([{ status: 'failed', error: 'the workflow engine did not accept the run' }]);
    // That run is now the PR's latest analysis: it says why it failed, and has no verdict.
    const latest = await api.request('GET', `/api/v1/projects/${projectId}/repos/${repoId}/prs/1/analysis`, { key: owner.key });
    expect(latest.body).toMatchObject({ status: 'failed', failure_reason: 'the workflow engine did not accept the run' });
    expect(latest.body.merge_readiness).toMatchObject({
      status: 'needs_review',
      confidence: 0,
      reasons: ['the analysis failed: the workflow engine did not accept the run'],
    });
  });

  it('returns the latest analysis of a PR, 404 when none, and 404 once the repository is unlinked (data kept)', async () => {
    const { projectId, repoId, base, repo } = await setup();
    const [a, b] = pushCommits(repo.repo, 1, 1);
    expect(await api.request('GET', `${base}/1/analysis`, { key: owner.key })).toMatchObject({
      status: 404,
      body: { error: 'analysis of pull request #1 not found' },
    });
    const older = await analyze(`${base}/1`, { head_sha: a });
    const newer = await analyze(`${base}/1`, { head_sha: b });
    await analyze(`${base}/2`);
    await api.db.query("UPDATE pr_analyses SET created_at = created_at - interval '1 hour' WHERE id = $1", [older.body.id]);
    const latest = await api.request('GET', `${base}/1/analysis`, { key: owner.key });
    expect(latest.status).toBe(200);
    expect(latest.body).toMatchObject({ id: newer.body.id, pr_number: 1, head_sha: b, repository_id: repoId, status: 'pending' });

    await api.db.query('DELETE FROM project_repositories WHERE project_id = $1 AND repository_id = $2', [projectId, repoId]);
    expect(await api.request('GET', `${base}/1/analysis`, { key: owner.key })).toMatchObject({ status: 404, body: { error: 'repository not found' } });
    expect((await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses/${newer.body.id}`, { key: owner.key })).status).toBe(200);
    expect((await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses`, { key: owner.key })).body.total).toBe(3);
  });

  it('lists list items only, newest first, paginated (default 20, maximum 100)', async () => {
    const { projectId, base, repo } = await setup();
    const heads = pushCommits(repo.repo, 1, 4);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const created = await analyze(`${base}/1`, { head_sha: heads[i] });
      ids.push(created.body.id);
      // Distinct creation times, in creation order (the last one created is the newest).
      await api.db.query(`UPDATE pr_analyses SET created_at = now() - make_interval(mins => $2) WHERE id = $1`, [created.body.id, 10 - i]);
    }
    const newestFirst = [...ids].reverse();
    const all = await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses`, { key: owner.key });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 5, limit: 20, offset: 0 });
    expect(all.body.analyses.map((a: { id: string }) => a.id)).toEqual(newestFirst);
    expect(Object.keys(all.body.analyses[0]).sort()).toEqual(
      [
        'classification',
        'completed_at',
        'created_at',
        'failure_reason',
        'head_sha',
        'id',
        'merge_readiness',
        'pr_number',
        'project_id',
        'repository_id',
        'status',
      ].sort(),
    );
    expect(all.body.analyses[0]).toMatchObject({ project_id: projectId, pr_number: 1, head_sha: heads[4], completed_at: null });

    const page = await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses?limit=2&offset=1`, { key: owner.key });
    expect(page.body).toMatchObject({ total: 5, limit: 2, offset: 1 });
    expect(page.body.analyses.map((a: { id: string }) => a.id)).toEqual(newestFirst.slice(1, 3));
    const tail = await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses?limit=100&offset=4`, { key: owner.key });
    expect(tail.body.analyses.map((a: { id: string }) => a.id)).toEqual([ids[0]]);
    for (const query of ['limit=101', 'limit=0', 'offset=-1', 'limit=abc']) {
      const bad = await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses?${query}`, { key: owner.key });
      expect(bad.status, query).toBe(400);
      expect(bad.body.error).toMatch(/^invalid query parameter: (limit|offset)/);
    }
    // Another project sees none of them.
    const other = await api.createProject(owner);
    expect((await api.request('GET', `/api/v1/projects/${other}/pr-analyses`, { key: owner.key })).body).toEqual({
      analyses: [],
      total: 0,
      limit: 20,
      offset: 0,
    });
  });
});
