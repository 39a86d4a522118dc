import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HEALTH_CATEGORIES, healthKeyOf, toWireAssessment, type Finding } from '@codehealth/engine';
import { AssessmentRecorder, HealthService, refactoringInterpretation, type Database } from '@codehealth/service';
import { assessPythonRepo, assessTwoVersions, type AssessedRepo, type AssessedVersion } from '../../../../test/helpers/assessed-repo.js';
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';
import { openApiValidator } from '../fixtures/openapi-validator.js';

let assessed: AssessedRepo;
let python: AssessedVersion;
beforeAll(async () => {
  assessed = await assessTwoVersions();
  python = await assessPythonRepo();
});

const round1 = (n: number) => Math.round(n * 10) / 10;
const SPEC_KEYS = ['security', 'runtime_risks', 'test_coverage', 'code_smell', 'duplication', 'dead_code', 'consistency', 'compliance'];

describeStores('health API', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  const base = (projectId: string) => `/api/v1/projects/${projectId}/health`;

  beforeAll(async () => {
    api = await createTestApi({ store });
    owner = await api.createUser();
    member = await api.createUser();
    outsider = await api.createUser();
  });
  afterAll(() => api?.close());

  async function projectWithRepo(): Promise<{ projectId: string; repositoryId: string }> {
    const projectId = await api.createProject(owner);
    const repositoryId = randomUUID();
    await api.db.query(
      `INSERT INTO repositories (id, provider, owner, name, full_name, url, clone_url) VALUES ($1, 'local', 'acme', 'shop', 'acme/shop', $2, $2)`,
      [repositoryId, `file:///tmp/${repositoryId}`],
    );
    await api.db.query('INSERT INTO project_repositories (project_id, repository_id) VALUES ($1, $2)', [projectId, repositoryId]);
    await api.db.query("INSERT INTO project_members (id, project_id, user_id, role) VALUES ($1, $2, $3, 'member')", [randomUUID(), projectId, member.userId]);
    return { projectId, repositoryId };
  }

  /** Triggers through the API and completes the run the way the workflow activities do. */
  async function completedRun(projectId: string, repositoryId: string, version: 'first' | 'second'): Promise<string> {
    const triggered = await api.request('POST', `${base(projectId)}/trigger`, { key: owner.key });
    expect(triggered.status).toBe(200);
    const id = triggered.body.assessment_id as string;
    await api.services.assessments.markRunning(id);
    const { sha, result } = assessed[version];
    await api.services.assessments.complete(id, [{ repositoryId, repository: { name: 'shop', full_name: 'acme/shop' }, commitSha: sha, result }]);
    return id;
  }

  it('lists the 8 health categories with display metadata', async () => {
    const { projectId } = await projectWithRepo();
    const response = await api.request('GET', `${base(projectId)}/categories`, { key: member.key });
    expect(response.status).toBe(200);
    expect(response.body.map((c: { key: string }) => c.key)).toEqual(SPEC_KEYS);
    expect(response.body[0]).toEqual({ name: 'Security', key: 'security', icon: 'shield', color: '#dc2626' });
    for (const category of response.body) expect(Object.values(category).every((v) => typeof v === 'string' && v.length > 0)).toBe(true);
  });

  it('refuses to trigger an assessment of a project without a linked repository (409)', async () => {
    const projectId = await api.createProject(owner);
    const response = await api.request('POST', `${base(projectId)}/trigger`, { key: owner.key });
    expect(response).toMatchObject({ status: 409, body: { error: 'link a repository first' } });
    expect(await api.db.query('SELECT id FROM health_assessments WHERE project_id = $1', [projectId])).toEqual([]);
  });

  it('queues a manual assessment as a pending record with a durable job; a second trigger returns the same run', async () => {
    const { projectId } = await projectWithRepo();
    const first = await api.request('POST', `${base(projectId)}/trigger`, { key: member.key });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      status: 'queued',
      assessment_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      workflow_id: `health-assessment-${first.body.assessment_id}`,
    });
    const jobs = await api.db.query<{ kind: string; input: unknown }>('SELECT kind, input FROM jobs WHERE workflow_id = $1', [first.body.workflow_id]);
    expect(jobs).toEqual([{ kind: 'health-assessment', input: { projectId, assessmentId: first.body.assessment_id } }]);

    const got = await api.request('GET', `${base(projectId)}/assessments/${first.body.assessment_id}`, { key: member.key });
    expect(got.body).toMatchObject({
      id: first.body.assessment_id,
      project_id: projectId,
      status: 'pending',
      trigger_type: 'manual',
      overall_score: 0,
      overall_grade: 'F',
      critical_count: 0,
      completed_at: null,
      actual_coverage_percent: null,
    });

    const second = await api.request('POST', `${base(projectId)}/trigger`, { key: owner.key });
    expect(second.body).toEqual(first.body);
    await api.services.assessments.markRunning(first.body.assessment_id);
    expect((await api.request('POST', `${base(projectId)}/trigger`, { key: owner.key })).body).toEqual(first.body);
    const count = await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM health_assessments WHERE project_id = $1', [projectId]);
    expect(count[0]!.n).toBe(1);
  });

  it('makes one assessment of many concurrent triggers', async () => {
    const { projectId } = await projectWithRepo();
    const responses = await Promise.all(Array.from({ length: 6 }, () => api.request('POST', `${base(projectId)}/trigger`, { key: owner.key })));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(responses.map((r) => r.body.assessment_id)).size).toBe(1);
    const rows = await api.db.query('SELECT id FROM health_assessments WHERE project_id = $1', [projectId]);
    expect(rows).toHaveLength(1);
    const jobs = await api.db.query("SELECT id FROM jobs WHERE kind = 'health-assessment' AND input->>'projectId' = $1", [projectId]);
    expect(jobs).toHaveLength(1);

    // Widen the race: every transaction pauses after looking for a run under way. Without the
    // project row lock, concurrent triggers (on Postgres' connection pool) would each insert one.
    const racing = await projectWithRepo();
    const slow: Database = {
      kind: api.db.kind,
      query: (text, params) => api.db.query(text, params),
      exec: (script) => api.db.exec(script),
      close: () => Promise.resolve(),
      transaction: (fn) =>
        api.db.transaction((tx) =>
          fn({
            exec: (script) => tx.exec(script),
            async query<T extends object>(text: string, params?: readonly unknown[]) {
              const rows = await tx.query<T>(text, params);
              if (text.includes("status IN ('pending', 'running')")) await new Promise((done) => setTimeout(done, 150));
              return rows;
            },
          }),
        ),
    };
    const service = new HealthService(slow, api.services.access, api.workflows, new AssessmentRecorder(slow));
    const runs = await Promise.all(Array.from({ length: 4 }, () => service.enqueue(racing.projectId, 'push')));
    expect(new Set(runs.map((r) => r.assessmentId)).size).toBe(1);
    expect(runs.filter((r) => r.created)).toHaveLength(1);
    expect(await api.db.query('SELECT id FROM health_assessments WHERE project_id = $1', [racing.projectId])).toHaveLength(1);
  });

  it('answers 503 and fails the new run when the workflow engine refuses it; the next trigger starts afresh', async () => {
    const { projectId } = await projectWithRepo();
    const down = new HealthService(api.db, api.services.access, { start: () => Promise.reject(new Error('connection refused')) }, api.services.assessments);
    const actor = { userId: owner.userId };
    await expect(down.trigger(actor as never, projectId)).rejects.toMatchObject({ name: 'UnavailableError' });
    const [failed] = await api.db.query<{ id: string; status: string }>('SELECT id, status FROM health_assessments WHERE project_id = $1', [projectId]);
    expect(failed!.status).toBe('failed');
    const next = await api.request('POST', `${base(projectId)}/trigger`, { key: owner.key });
    expect(next.status).toBe(200);
    expect(next.body.assessment_id).not.toBe(failed!.id);
  });

  it('shows a dashboard with a stable shape before the first completed assessment', async () => {
    const { projectId } = await projectWithRepo();
    await api.request('POST', `${base(projectId)}/trigger`, { key: owner.key });
    const response = await api.request('GET', base(projectId), { key: member.key });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      latest_assessment: null,
      category_breakdown: [],
      trend_data: [],
      drift_alerts: [],
      codebase_dynamics: null,
      convention_consistency: null,
      test_quality: null,
      repo_stats: [],
    });
  });

  it('builds the dashboard from two real runs: latest, breakdown of active issues, trend, drift, dynamics', async () => {
    const { projectId, repositoryId } = await projectWithRepo();
    const firstId = await completedRun(projectId, repositoryId, 'first');
    // Dismissed issues leave the breakdown but stay in the assessment's counts.
    await api.db.query("INSERT INTO dismiss_rules (id, project_id, rule_pattern) VALUES ($1, $2, 'code-smell/magic-numbers')", [randomUUID(), projectId]);
    const secondId = await completedRun(projectId, repositoryId, 'second');
    const r1 = assessed.first.result;
    const r2 = assessed.second.result;
    const w1 = toWireAssessment(r1);
    const w2 = toWireAssessment(r2);

    const { status, body } = await api.request('GET', base(projectId), { key: member.key });
    expect(status).toBe(200);
    expect(body.latest_assessment).toEqual({
      ...w2,
      id: secondId,
      project_id: projectId,
      trigger_type: 'manual',
      created_at: expect.stringMatching(/Z$/),
      completed_at: expect.stringMatching(/Z$/),
    });

    const active = r2.findings.filter((f: Finding) => f.ruleId !== 'code-smell/magic-numbers');
    expect(active.length).toBeLessThan(r2.findings.length);
    expect(body.category_breakdown.map((c: { category: string }) => c.category)).toEqual(SPEC_KEYS);
    for (const row of body.category_breakdown) {
      const mine = active.filter((f) => healthKeyOf(f.category) === row.category);
      expect(row, row.category).toEqual({
        category: row.category,
        count: mine.length,
        ...Object.fromEntries(['critical', 'high', 'medium', 'low', 'info'].map((s) => [s, mine.filter((f) => f.severity === s).length])),
      });
    }
    expect(body.category_breakdown.find((c: { category: string }) => c.category === 'security')).toMatchObject({ count: 1, critical: 1 });

    expect(body.trend_data.map((p: { id: string }) => p.id)).toEqual([firstId, secondId]);
    expect(body.trend_data[0]).toMatchObject({
      overall_score: w1.overall_score,
      overall_grade: w1.overall_grade,
      security_score: w1.security_score,
      critical_count: w1.critical_count,
      total_lines_of_code: w1.total_lines_of_code,
      churn_rate: r1.metrics.churn.churnRate,
      status: 'completed',
    });
    expect(body.trend_data[1]).toMatchObject({ low_count: w2.low_count, churn_rate: r2.metrics.churn.churnRate });

    const categories = body.drift_alerts.map((a: { category: string }) => a.category);
    expect(categories).toEqual(expect.arrayContaining(['overall', 'security', 'duplication']));
    expect(body.drift_alerts.every((a: { assessment_id: string; dismissed: boolean }) => a.assessment_id === secondId && !a.dismissed)).toBe(true);
    expect(body.drift_alerts.find((a: { category: string }) => a.category === 'security')).toMatchObject({
      drift_type: 'score',
      previous_value: w1.security_score,
      current_value: w2.security_score,
      affected_files: ['src/extra.ts'],
    });

    const churn = r2.metrics.churn;
    const rate = round1((churn.linesDeleted30d / (churn.linesAdded30d + churn.linesDeleted30d)) * 100);
    expect(rate).toBeGreaterThan(0);
    const consistency = (r: typeof r2) =>
      round1(r.conventions.reduce((s, p) => s + p.consistency * p.totalCount, 0) / r.conventions.reduce((s, p) => s + p.totalCount, 0));
    expect(body.codebase_dynamics).toEqual({
      churn_rate: churn.churnRate,
      churn_change: round1(churn.churnRate - r1.metrics.churn.churnRate),
      hot_files_count: churn.hotFiles.length,
      duplication_index: round1(r2.metrics.duplicationIndex!),
      duplication_change: round1(round1(r2.metrics.duplicationIndex!) - round1(r1.metrics.duplicationIndex!)),
      refactoring_rate: rate,
      refactoring_interpretation: refactoringInterpretation(rate, churn.linesAdded30d + churn.linesDeleted30d),
      convention_consistency: consistency(r2),
      convention_change: round1(consistency(r2) - consistency(r1)),
      deviations_count: r2.conventions.reduce((s, p) => s + p.deviationCount, 0),
    });
    expect(body.convention_consistency).toEqual({
      overall_consistency: consistency(r2),
      patterns: r2.conventions.map((p) => ({
        name: p.name,
        consistency: round1(p.consistency),
        dominant_value: p.dominantValue,
        total_count: p.totalCount,
        deviation_count: p.deviationCount,
      })),
    });
    expect(body.test_quality).toEqual({
      structural_coverage: w2.structural_coverage_pct,
      coverage_change: round1(w2.structural_coverage_pct - w1.structural_coverage_pct),
      assertion_density: round1(r2.metrics.assertionDensity!),
      test_code_ratio: Math.round(r2.metrics.testCodeRatio! * 1000) / 1000,
      mock_usage_pct: w2.mock_usage_pct,
    });
    expect(body.repo_stats).toEqual([
      {
        id: repositoryId,
        name: 'shop',
        full_name: 'acme/shop',
        language: 'typescript',
        total_loc: w2.total_lines_of_code,
        test_loc: w2.test_lines_of_code,
        lines_added_30d: churn.linesAdded30d,
        lines_deleted_30d: churn.linesDeleted30d,
        pr_count: 0,
      },
    ]);

    // A trigger after completion starts a new run.
    const next = await api.request('POST', `${base(projectId)}/trigger`, { key: owner.key });
    expect([firstId, secondId]).not.toContain(next.body.assessment_id);
  });

  it('lists assessments newest first with pagination and reads one; 404 and 400 for bad ids and limits', async () => {
    const { projectId, repositoryId } = await projectWithRepo();
    const firstId = await completedRun(projectId, repositoryId, 'first');
    const secondId = await completedRun(projectId, repositoryId, 'second');
    const pending = (await api.request('POST', `${base(projectId)}/trigger`, { key: owner.key })).body.assessment_id;
    const all = await api.request('GET', `${base(projectId)}/assessments`, { key: member.key });
    expect(all.body).toMatchObject({ total_count: 3, limit: 20, offset: 0 });
    expect(all.body.items.map((i: { id: string }) => i.id)).toEqual([pending, secondId, firstId]);
    const w1 = toWireAssessment(assessed.first.result);
    expect(all.body.items[2]).toEqual({
      id: firstId,
      overall_score: w1.overall_score,
      overall_grade: w1.overall_grade,
      trigger_type: 'manual',
      status: 'completed',
      critical_count: w1.critical_count,
      high_count: w1.high_count,
      created_at: expect.stringMatching(/Z$/),
      completed_at: expect.stringMatching(/Z$/),
      graded: true,
      not_graded_reason: null,
    });
    expect(all.body.items[0]).toMatchObject({
      id: pending,
      status: 'pending',
      overall_score: 0,
      overall_grade: 'F',
      graded: false,
      not_graded_reason: 'the assessment has not started',
    });
    const page = await api.request('GET', `${base(projectId)}/assessments?limit=1&offset=1`, { key: member.key });
    expect(page.body).toMatchObject({ items: [{ id: secondId }], total_count: 3, limit: 1, offset: 1 });
    expect((await api.request('GET', `${base(projectId)}/assessments?limit=101`, { key: member.key })).status).toBe(400);
    expect((await api.request('GET', `${base(projectId)}/assessments?offset=-1`, { key: member.key })).status).toBe(400);

    const one = await api.request('GET', `${base(projectId)}/assessments/${secondId}`, { key: member.key });
    expect(one.body).toMatchObject({
      ...toWireAssessment(assessed.second.result, { ledger: true }),
      id: secondId,
      project_id: projectId,
      created_at: expect.any(String),
      completed_at: expect.any(String),
    });
    expect(await api.request('GET', `${base(projectId)}/assessments/${randomUUID()}`, { key: member.key })).toMatchObject({
      status: 404,
      body: { error: 'assessment not found' },
    });
    const other = await projectWithRepo();
    expect((await api.request('GET', `${base(other.projectId)}/assessments/${secondId}`, { key: owner.key })).status).toBe(404);
    expect(await api.request('GET', `${base(projectId)}/assessments/nope`, { key: member.key })).toMatchObject({
      status: 400,
      body: { error: 'invalid path parameter: assessmentId: assessmentId must be a UUID' },
    });
  });

  it('reads a repository of Python files as ungraded: placeholders named in the extension, the spec fields valid, no drift against it', async () => {
    const { projectId, repositoryId } = await projectWithRepo();
    const firstId = await completedRun(projectId, repositoryId, 'first');
    const triggered = await api.request('POST', `${base(projectId)}/trigger`, { key: owner.key });
    const id = triggered.body.assessment_id as string;
    await api.services.assessments.markRunning(id);
    await api.services.assessments.complete(id, [
      { repositoryId, repository: { name: 'shop', full_name: 'acme/shop' }, commitSha: python.sha, result: python.result },
    ]);

    const reason = 'no TypeScript or JavaScript files: 3 Python files are not analysed';
    // The test API validates every response against the zod schema; this checks the served document too.
    const errorsOf = openApiValidator((await api.request('GET', '/api/v1/openapi.json')).body);
    const one = await api.request('GET', `${base(projectId)}/assessments/${id}`, { key: member.key });
    expect(one.status).toBe(200);
    expect(errorsOf('HealthAssessment', one.body)).toEqual([]);
    expect(errorsOf('HealthAssessment', { ...one.body, overall_score: null })).not.toEqual([]);
    expect(one.body).toMatchObject({ overall_score: 0, overall_grade: 'F', security_score: 0, graded: false, not_graded_reason: reason });
    expect(one.body.not_assessed).toEqual(Object.fromEntries(SPEC_KEYS.map((key) => [key, reason])));
    expect(one.body.score_ledger.overall).toEqual([]);
    expect(one.body.score_ledger.categories.security).toEqual({ assessed: false, not_assessed_reason: reason, evidence: [], ledger: [] });

    const list = await api.request('GET', `${base(projectId)}/assessments`, { key: member.key });
    expect(list.body.items[0]).toMatchObject({ id, graded: false, not_graded_reason: reason });
    expect(errorsOf('AssessmentList', list.body)).toEqual([]);
    const dashboard = await api.request('GET', base(projectId), { key: member.key });
    expect(errorsOf('HealthDashboard', dashboard.body)).toEqual([]);
    expect(dashboard.body.latest_assessment).toMatchObject({ id, graded: false, not_assessed: { compliance: reason } });
    expect(dashboard.body.trend_data.map((p: { id: string; graded: boolean }) => [p.id, p.graded])).toEqual([
      [firstId, true],
      [id, false],
    ]);
    // Nothing was assessed: nothing dropped.
    const alerts = await api.db.query('SELECT category FROM drift_alerts WHERE assessment_id = $1', [id]);
    expect(alerts).toEqual([]);
  });

  it('reads the score ledger of one assessment: category costs add up to 100 − overall, rule costs to 100 − each score', async () => {
    const { projectId, repositoryId } = await projectWithRepo();
    const id = await completedRun(projectId, repositoryId, 'second');
    const { body } = await api.request('GET', `${base(projectId)}/assessments/${id}`, { key: member.key });
    expect(openApiValidator((await api.request('GET', '/api/v1/openapi.json')).body)('HealthAssessment', body)).toEqual([]);
    const tenths = (entries: Array<{ cost: number }>) => entries.reduce((sum, e) => sum + Math.round(e.cost * 10), 0);
    expect(body.graded).toBe(true);
    expect(tenths(body.score_ledger.overall)).toBe(Math.round((100 - body.overall_score) * 10));
    for (const key of SPEC_KEYS) {
      const category = body.score_ledger.categories[key];
      if (!category.assessed) continue;
      expect(tenths(category.ledger), key).toBe(Math.round((100 - body[`${key}_score`]) * 10));
    }
    expect(body.score_ledger.categories.security.ledger[0]).toMatchObject({ kind: 'rule', id: expect.stringMatching(/^security\//), findings: 1 });
    // The list and the dashboard carry no ledger.
    const dashboard = await api.request('GET', base(projectId), { key: member.key });
    expect(dashboard.body.latest_assessment.score_ledger).toBeUndefined();
  });

  it('lists drift alerts active first and dismisses them', async () => {
    const { projectId, repositoryId } = await projectWithRepo();
    await completedRun(projectId, repositoryId, 'first');
    await completedRun(projectId, repositoryId, 'second');
    const listed = await api.request('GET', `${base(projectId)}/drift-alerts`, { key: member.key });
    expect(listed.status).toBe(200);
    const alerts = listed.body as Array<{ id: string; dismissed: boolean }>;
    expect(alerts.length).toBeGreaterThanOrEqual(3);
    const target = alerts[0]!;
    const dismissed = await api.request('POST', `${base(projectId)}/drift-alerts/${target.id}/dismiss`, { key: member.key });
    expect(dismissed).toMatchObject({ status: 200, body: { status: 'dismissed' } });
    expect((await api.request('POST', `${base(projectId)}/drift-alerts/${target.id}/dismiss`, { key: member.key })).body).toEqual({ status: 'dismissed' });

    const after = (await api.request('GET', `${base(projectId)}/drift-alerts`, { key: member.key })).body as Array<{ id: string; dismissed: boolean }>;
    expect(after).toHaveLength(alerts.length);
    expect(after[after.length - 1]).toMatchObject({ id: target.id, dismissed: true });
    expect(after.slice(0, -1).every((a) => !a.dismissed)).toBe(true);
    const active = (await api.request('GET', `${base(projectId)}/drift-alerts?dismissed=false`, { key: member.key })).body as Array<{ id: string }>;
    expect(active.map((a) => a.id)).not.toContain(target.id);
    expect((await api.request('GET', `${base(projectId)}/drift-alerts?dismissed=true`, { key: member.key })).body.map((a: { id: string }) => a.id)).toEqual([
      target.id,
    ]);
    expect((await api.request('GET', `${base(projectId)}/drift-alerts?limit=1&offset=1`, { key: member.key })).body).toEqual([after[1]]);
    const dashboard = await api.request('GET', base(projectId), { key: member.key });
    expect(dashboard.body.drift_alerts.map((a: { id: string }) => a.id)).not.toContain(target.id);
    expect(dashboard.body.drift_alerts).toHaveLength(alerts.length - 1);

    expect(await api.request('POST', `${base(projectId)}/drift-alerts/${randomUUID()}/dismiss`, { key: member.key })).toMatchObject({
      status: 404,
      body: { error: 'drift alert not found' },
    });
    const other = await projectWithRepo();
    expect((await api.request('POST', `${base(other.projectId)}/drift-alerts/${target.id}/dismiss`, { key: owner.key })).status).toBe(404);
    expect((await api.request('GET', `${base(projectId)}/drift-alerts?dismissed=maybe`, { key: member.key })).status).toBe(400);
    expect((await api.request('GET', `${base(projectId)}/drift-alerts?limit=0`, { key: member.key })).status).toBe(400);
  });

  it('answers 401 without a key and 403 to an outsider on every health route', async () => {
    const { projectId } = await projectWithRepo();
    const id = randomUUID();
    const routes: Array<[string, string]> = [
      ['GET', base(projectId)],
      ['GET', `${base(projectId)}/assessments`],
      ['GET', `${base(projectId)}/assessments/${id}`],
      ['POST', `${base(projectId)}/trigger`],
      ['GET', `${base(projectId)}/drift-alerts`],
      ['POST', `${base(projectId)}/drift-alerts/${id}/dismiss`],
      ['GET', `${base(projectId)}/categories`],
    ];
    for (const [method, path] of routes) {
      expect(await api.request(method, path, { key: outsider.key }), `${method} ${path}`).toMatchObject({ status: 403, body: { error: 'forbidden' } });
      expect(await api.request(method, path), `${method} ${path}`).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    }
    expect((await api.request('GET', `/api/v1/projects/${randomUUID()}/health`, { key: owner.key })).status).toBe(404);
    expect(HEALTH_CATEGORIES.map((c) => c.key)).toEqual(SPEC_KEYS);
  });
});
