import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngine, type AssessmentResult } from '@codehealth/engine';
import { ArchitectureReviewService, buildArchitectureOverview } from '@codehealth/service';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';

// A small multi-directory repository: web → core (3 imports), core → web (1 import) closes a
// cycle between components; core/a ↔ core/b is a run-time import cycle; tests beside the code.
const SMALL_REPO: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'small', type: 'module' }),
  'src/web/page.ts':
    "import { a } from '../core/a.js';\nimport { b } from '../core/b.js';\nexport const TITLE = 'page';\nexport const render = () => a(1) + b(2);\n",
  'src/web/nav.ts': "import { a } from '../core/a.js';\nexport const nav = () => a(3);\n",
  'src/core/a.ts': "import { b } from './b.js';\nexport function a(n: number): number {\n  return n > 0 ? b(n - 1) : 0;\n}\n",
  'src/core/b.ts':
    "import { a } from './a.js';\nimport { TITLE } from '../web/page.js';\nexport function b(n: number): number {\n  return n > 0 ? a(n - 1) : TITLE.length;\n}\n",
  'src/main.ts': "import { render } from './web/page.js';\nimport { nav } from './web/nav.js';\nconsole.log(render(), nav());\n",
  'src/core/a.test.ts': "import { a } from './a.js';\nif (a(0) !== 0) throw new Error('a');\n",
};

let small: AssessmentResult;
let own: AssessmentResult;

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'codehealth-arch-api-'));
  for (const [path, content] of Object.entries(SMALL_REPO)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  const engine = await createEngine({ cacheDir: false, workers: 0 });
  small = await engine.analyze(root);
  own = await engine.analyze(fileURLToPath(new URL('../../../engine/src', import.meta.url)));
});

const UNKNOWN = '7b0c7a8e-1c1a-4f5e-9d55-2d5d4f0a9b11';

describeStores('architecture API', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let projectId: string;

  const base = () => `/api/v1/projects/${projectId}/architecture`;
  async function linkRepository(project: string): Promise<string> {
    const id = randomUUID();
    const url = `file:///tmp/${id}`;
    await api.db.query(
      `INSERT INTO repositories (id, provider, owner, name, full_name, url, clone_url) VALUES ($1, 'local', 'acme', 'small', 'acme/small', $2, $2)`,
      [id, url],
    );
    await api.db.query('INSERT INTO project_repositories (project_id, repository_id) VALUES ($1, $2)', [project, id]);
    return id;
  }

  beforeAll(async () => {
    api = await createTestApi({ store });
    owner = await api.createUser();
    member = await api.createUser();
    outsider = await api.createUser();
    projectId = await api.createProject(owner);
    await api.db.query("INSERT INTO project_members (id, project_id, user_id, role) VALUES ($1, $2, $3, 'member')", [randomUUID(), projectId, member.userId]);
  });
  afterAll(() => api?.close());

  it('answers 404 until an overview exists, then serves the one computed from a real engine run', async () => {
    const none = await api.request('GET', `${base()}/overview`, { key: member.key });
    expect(none).toMatchObject({ status: 404, body: { error: 'no architecture overview yet; link a repository or trigger a review' } });
    const repositoryId = await linkRepository(projectId);
    await api.services.architecture.saveOverview(
      projectId,
      buildArchitectureOverview({ facts: small, repository: { id: repositoryId, fullName: 'acme/small' } }),
    );
    const got = await api.request('GET', `${base()}/overview`, { key: member.key });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ project_id: projectId, generated_at: expect.stringMatching(/Z$/) });
    const [repo] = got.body.repositories;
    expect(repo).toMatchObject({ repository_id: repositoryId, full_name: 'acme/small', source_files: 5, test_files: 1, git_available: false, head_sha: null });
    expect(repo.components.map((c: { path: string }) => c.path)).toEqual(['src', 'src/core', 'src/web']);
    expect(repo.layers.cycles).toEqual([['src/core', 'src/web']]);
    expect(repo.import_cycles).toMatchObject({ total: 1, runtime: 1 });
    expect(repo.entry_points[0]).toMatchObject({ path: 'src/main.ts', reachable_modules: 4 });
    expect(repo.test_layout).toMatchObject({ placement: 'colocated', test_files: 1, tested_modules_percent: 20 });
    expect(got.body.summary).toContain('5 source files with');
    // Saving again replaces the document.
    await api.services.architecture.saveOverview(projectId, { summary: 'replaced', repositories: [] });
    const replaced = await api.request('GET', `${base()}/overview`, { key: owner.key });
    expect(replaced.body).toMatchObject({ summary: 'replaced', repositories: [] });
    expect(Date.parse(replaced.body.generated_at)).toBeGreaterThanOrEqual(Date.parse(got.body.generated_at));
  });

  it('triggers a review (409 without a repository), returns the pending one while it runs and queues its workflow', async () => {
    const bare = await api.createProject(owner);
    const refused = await api.request('POST', `/api/v1/projects/${bare}/architecture/reviews/trigger`, { key: owner.key });
    expect(refused).toMatchObject({ status: 409, body: { error: 'link a repository to the project before triggering an architecture review' } });
    await linkRepository(bare);
    const first = await api.request('POST', `/api/v1/projects/${bare}/architecture/reviews/trigger`, { key: owner.key });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'pending', workflow_id: `architecture-review-${first.body.id}` });
    const [job] = await api.db.query<{ kind: string; input: unknown }>('SELECT kind, input FROM jobs WHERE workflow_id = $1', [first.body.workflow_id]);
    expect(job).toEqual({ kind: 'architecture-review', input: { projectId: bare, reviewId: first.body.id } });
    const again = await api.request('POST', `/api/v1/projects/${bare}/architecture/reviews/trigger`, { key: owner.key });
    expect(again.body).toEqual(first.body);
    await api.services.architectureReviewRecorder.start(first.body.id);
    const running = await api.request('POST', `/api/v1/projects/${bare}/architecture/reviews/trigger`, { key: owner.key });
    expect(running.body).toEqual({ ...first.body, status: 'running' });
    const pending = await api.request('GET', `/api/v1/projects/${bare}/architecture/reviews/${first.body.id}`, { key: owner.key });
    expect(pending.body).toEqual({
      id: first.body.id,
      project_id: bare,
      status: 'running',
      summary: '',
      finding_count: 0,
      workflow_id: first.body.workflow_id,
      error: null,
      created_at: expect.stringMatching(/Z$/),
      completed_at: null,
      findings: [],
      metrics: null,
    });
  });

  it('records a review computed from a real engine run: findings, metrics, issues and the overview together', async () => {
    const project = await api.createProject(owner);
    const repositoryId = await linkRepository(project);
    const trigger = await api.request('POST', `/api/v1/projects/${project}/architecture/reviews/trigger`, { key: owner.key });
    const reviewId: string = trigger.body.id;
    const source = { facts: small, repository: { id: repositoryId, fullName: 'acme/small' } };
    expect(await api.services.architectureReviewRecorder.run(reviewId, source)).toEqual({ status: 'completed' });
    const got = await api.request('GET', `/api/v1/projects/${project}/architecture/reviews/${reviewId}`, { key: owner.key });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ status: 'completed', error: null, completed_at: expect.stringMatching(/Z$/) });
    expect(got.body.findings.map((f: { rule_id: string; file_path: string }) => [f.rule_id, f.file_path])).toEqual([
      ['architecture/import-cycle', 'src/core/a.ts'],
      ['architecture/layering-violation', 'src/core/b.ts'],
    ]);
    expect(got.body.finding_count).toBe(2);
    expect(got.body.findings[1]).toMatchObject({ repository_id: repositoryId, components: ['src/core', 'src/web'], line_start: 2 });
    expect(got.body.metrics).toMatchObject({ repositories: 1, modules: 5, components: 3, import_cycles: 1, runtime_import_cycles: 1, layering_violations: 1 });
    expect(got.body.summary).toMatch(/^Reviewed 5 source modules in 3 components: 1 import cycle \(1 at run time\), 1 layering violation/);
    const issues = await api.db.query<{ source: string; rule_id: string; repository_id: string; is_new: boolean }>(
      "SELECT source, rule_id, repository_id, is_new FROM issues WHERE context_type = 'architecture_review' AND context_id = $1 ORDER BY rule_id",
      [reviewId],
    );
    expect(issues).toEqual([
      { source: 'architecture', rule_id: 'architecture/import-cycle', repository_id: repositoryId, is_new: false },
      { source: 'architecture', rule_id: 'architecture/layering-violation', repository_id: repositoryId, is_new: false },
    ]);
    const overview = await api.request('GET', `/api/v1/projects/${project}/architecture/overview`, { key: owner.key });
    expect(overview.body.repositories[0]).toMatchObject({ repository_id: repositoryId, source_files: 5 });
    // Finished reviews stay as they are.
    expect(await api.services.architectureReviewRecorder.run(reviewId, source)).toEqual({ status: 'already_finished' });

    // A second review, of this repository's engine sources: its issues are new against the first.
    const second = await api.request('POST', `/api/v1/projects/${project}/architecture/reviews/trigger`, { key: owner.key });
    expect(second.body.id).not.toBe(reviewId);
    await api.services.architectureReviewRecorder.run(second.body.id, { facts: own, repository: { id: repositoryId, fullName: 'acme/small' } });
    const sanity = await api.request('GET', `/api/v1/projects/${project}/architecture/reviews/${second.body.id}`, { key: owner.key });
    expect(sanity.body.metrics.import_cycles).toBe(own.metrics.graph.cycles);
    expect(sanity.body.metrics.modules).toBe(own.metrics.files.source);
    const [counts] = await api.db.query<{ total: number; fresh: number }>(
      'SELECT count(*)::int AS total, count(*) FILTER (WHERE is_new)::int AS fresh FROM issues WHERE context_id = $1',
      [second.body.id],
    );
    expect(counts).toEqual({ total: sanity.body.finding_count, fresh: sanity.body.finding_count });
    expect(sanity.body.finding_count).toBeGreaterThan(0);

    const list = await api.request('GET', `/api/v1/projects/${project}/architecture/reviews?limit=1`, { key: owner.key });
    expect(list.body).toMatchObject({ total_count: 2, limit: 1, offset: 0 });
    expect(list.body.items.map((r: { id: string }) => r.id)).toEqual([second.body.id]);
    expect(list.body.items[0]).not.toHaveProperty('findings');
    const next = await api.request('GET', `/api/v1/projects/${project}/architecture/reviews?limit=1&offset=1`, { key: owner.key });
    expect(next.body.items.map((r: { id: string; finding_count: number }) => [r.id, r.finding_count])).toEqual([[reviewId, 2]]);
  });

  it('marks a review failed with its message; a failed review is not completed later', async () => {
    const project = await api.createProject(owner);
    await linkRepository(project);
    const { body } = await api.request('POST', `/api/v1/projects/${project}/architecture/reviews/trigger`, { key: owner.key });
    await api.services.architectureReviewRecorder.fail(body.id, 'checkout failed: repository not found');
    const failed = await api.request('GET', `/api/v1/projects/${project}/architecture/reviews/${body.id}`, { key: owner.key });
    expect(failed.body).toMatchObject({
      status: 'failed',
      error: 'checkout failed: repository not found',
      completed_at: expect.stringMatching(/Z$/),
      metrics: null,
    });
    expect(await api.services.architectureReviewRecorder.run(body.id, small)).toEqual({ status: 'already_finished' });
    // The next trigger creates a new review.
    const next = await api.request('POST', `/api/v1/projects/${project}/architecture/reviews/trigger`, { key: owner.key });
    expect(next.body.id).not.toBe(body.id);
  });

  it('answers 503 and fails the new review when the workflow engine refuses it', async () => {
    const project = await api.createProject(owner);
    await linkRepository(project);
    const down = new ArchitectureReviewService(api.db, api.services.access, { start: () => Promise.reject(new Error('connection refused')) });
    await expect(down.trigger({ userId: owner.userId, email: owner.email }, project)).rejects.toMatchObject({
      name: 'UnavailableError',
      message: 'the workflow engine is unavailable; try again later',
    });
    const rows = await api.db.query('SELECT status, error FROM architecture_reviews WHERE project_id = $1', [project]);
    expect(rows).toEqual([{ status: 'failed', error: 'the workflow engine did not accept the review' }]);
  });

  it('validates review paths and pages', async () => {
    expect(await api.request('GET', `${base()}/reviews/${UNKNOWN}`, { key: owner.key })).toMatchObject({
      status: 404,
      body: { error: 'architecture review not found' },
    });
    expect((await api.request('GET', `${base()}/reviews/42`, { key: owner.key })).body).toEqual({
      error: 'invalid path parameter: reviewId: reviewId must be a UUID',
    });
    expect((await api.request('GET', `${base()}/reviews?limit=101`, { key: owner.key })).status).toBe(400);
    expect((await api.request('GET', `${base()}/reviews?offset=-1`, { key: owner.key })).status).toBe(400);
    const page = await api.request('GET', `${base()}/reviews`, { key: owner.key });
    expect(page.body).toEqual({ items: [], total_count: 0, limit: 20, offset: 0 });
    // A review of another project is not found through this one.
    const other = await api.createProject(owner);
    await linkRepository(other);
    const foreign = await api.request('POST', `/api/v1/projects/${other}/architecture/reviews/trigger`, { key: owner.key });
    expect((await api.request('GET', `${base()}/reviews/${foreign.body.id}`, { key: owner.key })).status).toBe(404);
  });

  it('gives 401 without a key and 403 to an outsider on every architecture route', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/overview'],
      ['GET', '/reviews'],
      ['GET', `/reviews/${UNKNOWN}`],
      ['POST', '/reviews/trigger'],
      ['GET', '/conventions'],
      ['PATCH', `/conventions/${UNKNOWN}`, { status: 'accepted' }],
      ['POST', '/conventions/detect'],
      ['GET', '/adrs'],
      ['POST', '/adrs', { title: 'x' }],
      ['GET', `/adrs/${UNKNOWN}`],
      ['PATCH', `/adrs/${UNKNOWN}`, { title: 'y' }],
    ];
    for (const [method, path, body] of routes) {
      expect(await api.request(method, base() + path, { body }), `${method} ${path}`).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
      expect(await api.request(method, base() + path, { key: outsider.key, body }), `${method} ${path}`).toMatchObject({
        status: 403,
        body: { error: 'forbidden' },
      });
    }
  });
});
