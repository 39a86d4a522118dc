// End to end on the embedded workflow engine: REST triggers → jobs → the real activities (git
// checkout, engine, recorders) → records, with restart recovery, failures and cancellation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngine } from '@codehealth/engine';
import { defaultCodeHosts } from '@codehealth/engine/server';
import { EmbeddedRunner, RepositoryCheckouts, type Activities } from '@codehealth/worker';
import { architectureActivities } from '../../packages/worker/src/activities/architecture-activities.js';
import { healthActivities } from '../../packages/worker/src/activities/health-activities.js';
import { repositoryActivities, type ActivityDeps } from '../../packages/worker/src/activities/repository-activities.js';

// Until the PR pipeline's activities land, the suite composes the others (it triggers no PR analysis).
const createActivities = (deps: ActivityDeps) =>
  ({ ...repositoryActivities(deps), ...healthActivities(deps), ...architectureActivities(deps) }) as Activities;
import { createTestApi, describeStores, type TestApi, type TestUser } from '../../packages/http/src/fixtures/test-api.js';
import { createGitRepo, type TestRepo } from '../helpers/git-repo.js';

const SOURCES = {
  'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', license: 'MIT' }),
  'src/cart.ts': `export function total(items: { price: number; qty: number }[]): number {\n  return items.reduce((sum, item) => sum + item.price * item.qty, 0);\n}\n`,
  'src/run.ts': `import { total } from './cart.js';\nexport function runUserCode(code: string): unknown {\n  return eval(code);\n}\nexport const answer = total([]);\n`,
  'test/cart.test.ts': `import { total } from '../src/cart.js';\nif (total([]) !== 0) throw new Error('total');\n`,
};

describeStores('embedded workflows', (store) => {
  let api: TestApi;
  let owner: TestUser;
  let runner: EmbeddedRunner;
  let repo: TestRepo;
  let workDir: string;
  const log: string[] = [];

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'codehealth-workflows-'));
    api = await createTestApi({ store, codeHosts: defaultCodeHosts({ allowLocalRepos: true }), serviceOptions: { allowLocalRepos: true } });
    owner = await api.createUser();
    repo = createGitRepo(SOURCES);
    const engine = await createEngine({ cacheDir: join(workDir, 'cache') });
    const activities = createActivities({
      services: api.services,
      engine,
      checkouts: new RepositoryCheckouts({ workDir, allowLocal: true }),
      log: (line) => log.push(line),
    });
    runner = new EmbeddedRunner({ db: api.db, starter: api.workflows, activities, pollIntervalMs: 100, retry: { maximumAttempts: 2, initialIntervalMs: 10, backoffCoefficient: 2, maximumIntervalMs: 50, nonRetryableErrorTypes: ['NonRetryableError', 'NotFoundError', 'InvalidInputError'] }, log: (line) => log.push(line) });
    await runner.start();
  }, 60_000);

  afterAll(async () => {
    await runner?.stop();
    await api?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  async function addRepository(projectId: string, url = `file://${repo.root}`) {
    const response = await api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, { key: owner.key, body: { url } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as { repository: { id: string }; onboarding_session_id: string };
  }

  it('onboards a linked repository: clone, detection, initial assessment, architecture, with progress events', async () => {
    const projectId = await api.createProject(owner);
    const linked = await addRepository(projectId);
    await runner.drain();

    const [session] = await api.db.query<{ status: string; error: string | null }>('SELECT status, error FROM onboarding_sessions WHERE id = $1', [linked.onboarding_session_id]);
    expect(session).toEqual({ status: 'completed', error: null });
    const events = await api.services.onboarding.events(linked.onboarding_session_id);
    expect(events.map((e) => `${e.type}:${(e.data as { step?: string }).step ?? ''}`)).toEqual([
      'step_started:clone',
      'step_finished:clone',
      'step_started:detect_analyzers',
      'step_finished:detect_analyzers',
      'step_started:initial_assessment',
      'step_finished:initial_assessment',
      'step_started:architecture_documentation',
      'step_finished:architecture_documentation',
      'completed:',
    ]);
    expect(events.map((e) => (e.data as { percent: number }).percent)).toEqual([0, 25, 25, 35, 35, 85, 85, 100, 100]);

    const repos = await api.request('GET', `/api/v1/projects/${projectId}/repos`, { key: owner.key });
    expect(repos.body[0].analyzers.length).toBeGreaterThan(0);
    expect(repos.body[0].analyzers[0]).toEqual({ language: expect.any(String), path: '.', enabled: true, description: expect.any(String) });

    const assessments = await api.request('GET', `/api/v1/projects/${projectId}/health/assessments`, { key: owner.key });
    expect(assessments.body.items).toHaveLength(1);
    expect(assessments.body.items[0]).toMatchObject({ status: 'completed', trigger_type: 'manual' });
    const issues = await api.request('GET', `/api/v1/projects/${projectId}/analysis/issues`, { key: owner.key });
    expect(issues.body.issues.map((i: { rule_id: string }) => i.rule_id)).toContain('security/no-eval');
    const overview = await api.request('GET', `/api/v1/projects/${projectId}/architecture/overview`, { key: owner.key });
    expect(overview.status).toBe(200);

    // The SSE stream replays the whole history to a late subscriber and ends after `completed`.
    const stream = await api.request('GET', `/api/v1/onboarding/${linked.onboarding_session_id}/events`, { key: owner.key });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const frames = String(stream.body).trim().split('\n\n');
    expect(frames).toHaveLength(9);
    expect(frames[0]).toMatch(/^id: 1\nevent: step_started\ndata: \{"seq":1,"type":"step_started","step":"clone","percent":0,/);
    expect(frames[8]).toMatch(/^id: 9\nevent: completed\n/);
    const resumed = await api.request('GET', `/api/v1/onboarding/${linked.onboarding_session_id}/events`, { key: owner.key, headers: { 'last-event-id': '7' } });
    expect(String(resumed.body).trim().split('\n\n').map((f) => f.split('\n')[0])).toEqual(['id: 8', 'id: 9']);
    const outsider = await api.createUser();
    expect((await api.request('GET', `/api/v1/onboarding/${linked.onboarding_session_id}/events`, { key: outsider.key })).status).toBe(403);
  }, 120_000);

  it('runs triggered assessments to completion; concurrent triggers coalesce; drift is measured against the previous run', async () => {
    const projectId = await api.createProject(owner);
    await api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, { key: owner.key, body: { url: `file://${repo.root}`, skip_onboarding: true } });
    const triggers = await Promise.all([1, 2, 3].map(() => api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: owner.key })));
    expect(new Set(triggers.map((t) => t.body.assessment_id)).size).toBe(1);
    expect(triggers[0]!.body).toMatchObject({ status: 'queued', workflow_id: expect.any(String) });
    await runner.drain();
    const first = await api.request('GET', `/api/v1/projects/${projectId}/health/assessments/${triggers[0]!.body.assessment_id}`, { key: owner.key });
    expect(first.body).toMatchObject({ status: 'completed', trigger_type: 'manual', completed_at: expect.any(String) });
    expect(first.body.security_score).toBeLessThan(100);

    repo.write({ 'src/run.ts': `import { total } from './cart.js';\nexport const answer = total([]);\n` });
    repo.commit('remove eval');
    const second = await api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: owner.key });
    expect(second.body.assessment_id).not.toBe(triggers[0]!.body.assessment_id);
    await runner.drain();
    const after = await api.request('GET', `/api/v1/projects/${projectId}/health/assessments/${second.body.assessment_id}`, { key: owner.key });
    expect(after.body.status).toBe('completed');
    expect(after.body.security_score).toBeGreaterThan(first.body.security_score);
    const jobs = await api.db.query<{ status: string }>("SELECT status FROM jobs WHERE kind = 'health-assessment' AND input->>'projectId' = $1", [projectId]);
    expect(jobs.map((j) => j.status)).toEqual(['completed', 'completed']);
  }, 120_000);

  it('ends a run whose repository cannot be cloned as failed with a reason, never stuck', async () => {
    const projectId = await api.createProject(owner);
    const broken = createGitRepo({ 'a.ts': 'export const a = 1;\n' });
    await api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, { key: owner.key, body: { url: `file://${broken.root}`, skip_onboarding: true } });
    rmSync(broken.root, { recursive: true, force: true });
    const trigger = await api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: owner.key });
    await runner.drain();
    const record = await api.request('GET', `/api/v1/projects/${projectId}/health/assessments/${trigger.body.assessment_id}`, { key: owner.key });
    expect(record.body.status).toBe('failed');
    const [row] = await api.db.query<{ error: string }>('SELECT error FROM health_assessments WHERE id = $1', [trigger.body.assessment_id]);
    expect(row!.error).toMatch(/git clone failed/);
    const [job] = await api.db.query<{ status: string; error: string }>('SELECT status, error FROM jobs WHERE workflow_id = $1', [trigger.body.workflow_id]);
    expect(job).toMatchObject({ status: 'failed', error: expect.stringMatching(/git clone failed/) });
  }, 120_000);

  it('resumes a run left `running` by a dead process, and cancels queued work', async () => {
    const projectId = await api.createProject(owner);
    await api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, { key: owner.key, body: { url: `file://${repo.root}`, skip_onboarding: true } });
    await runner.stop();
    const trigger = await api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: owner.key });
    // What a crash mid-run leaves behind: the job claimed by a process that no longer exists.
    await api.db.query("UPDATE jobs SET status = 'running', locked_by = 'embedded-dead', attempts = 1 WHERE workflow_id = $1", [trigger.body.workflow_id]);
    await api.db.query("UPDATE health_assessments SET status = 'running', started_at = now() WHERE id = $1", [trigger.body.assessment_id]);

    const other = await api.createProject(owner);
    await api.request('POST', `/api/v1/projects/${other}/repos/add-public`, { key: owner.key, body: { url: `file://${repo.root}`, skip_onboarding: true } });
    const cancelled = await api.request('POST', `/api/v1/projects/${other}/health/trigger`, { key: owner.key });
    expect(await runner.cancel(cancelled.body.workflow_id)).toBe(true);

    await runner.start();
    await runner.drain();
    const resumed = await api.request('GET', `/api/v1/projects/${projectId}/health/assessments/${trigger.body.assessment_id}`, { key: owner.key });
    expect(resumed.body.status).toBe('completed');
    expect(log.some((line) => line.includes(`resuming ${trigger.body.workflow_id}`))).toBe(true);
    const issues = await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM issues WHERE context_id = $1', [trigger.body.assessment_id]);
    const distinct = await api.db.query<{ n: number }>('SELECT count(DISTINCT id)::int AS n FROM issues WHERE context_id = $1', [trigger.body.assessment_id]);
    expect(issues[0]!.n).toBe(distinct[0]!.n);
    const gone = await api.request('GET', `/api/v1/projects/${other}/health/assessments/${cancelled.body.assessment_id}`, { key: owner.key });
    expect(gone.body.status).toBe('failed');
    const [job] = await api.db.query<{ status: string }>('SELECT status FROM jobs WHERE workflow_id = $1', [cancelled.body.workflow_id]);
    expect(job!.status).toBe('cancelled');
  }, 120_000);
});
