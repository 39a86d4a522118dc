// Killed processes lose nothing: a SIGKILL of the embedded server, or of a Temporal worker, in the
// middle of an assessment. After a restart (or with another worker) the run ends `completed` —
// exactly one assessment row, issues written once — and equals a clean run of the same commit.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, PostgresDatabase, type Database } from '@codehealth/engine/server';
import { freshPostgresDatabase, runCli, startServer, tempDirs, type ServerProcess } from '../../packages/cli/src/fixtures/cli-process.js';
import { generatedRepo, poll, selfHostedEnv, startWorker, type WorkerProcess } from './fixtures/processes.js';

/** Modules of the generated repository: a few seconds of assessment, long enough to be killed in. */
const MODULES = 500;

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

function apiOf(url: () => string, key: string): Api {
  return async (method, path, body) => {
    const response = await fetch(`${url()}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as any };
  };
}

/** What the store holds for one project: its assessments and, per assessment, issue rows vs distinct issues. */
async function recorded(db: Database, projectId: string) {
  const assessments = await db.query<{ id: string; status: string; error: string | null }>('SELECT id, status, error FROM health_assessments WHERE project_id = $1 ORDER BY created_at', [projectId]);
  const issues = await db.query<{ context_id: string; rows: number; distinct_issues: number }>(
    `SELECT context_id, count(*)::int AS rows, count(DISTINCT (fingerprint, file_path, line_start, rule_id))::int AS distinct_issues
       FROM issues WHERE project_id = $1 AND context_type = 'health_assessment' GROUP BY context_id`,
    [projectId],
  );
  const jobs = await db.query<{ status: string; n: number }>("SELECT status, count(*)::int AS n FROM jobs WHERE status IN ('queued', 'running') GROUP BY status");
  return { assessments, issues: new Map(issues.map((i) => [i.context_id, i])), pendingJobs: jobs };
}

describe('a SIGKILLed embedded server resumes the assessment it was running', () => {
  const dirs = tempDirs();
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    dirs.cleanup();
  });

  it('completes it after the restart: one assessment row, no duplicate issues, equal to a clean run', async () => {
    const repo = dirs.track(generatedRepo(MODULES).root);
    const cwd = dirs.make();
    const env = { CODEHEALTH_DATA_DIR: 'data', HOST: '127.0.0.1' };
    server = await startServer(['--embedded'], { cwd, env });
    const { key } = JSON.parse((await runCli(['keys', 'create', '--email', 'ops@example.com'], { cwd, env })).stdout);
    const api = apiOf(() => server!.url, key);
    const project = await api('POST', '/projects', { name: 'crash', key: 'crash' });
    const projectId = project.body.id as string;
    const added = await api('POST', `/projects/${projectId}/repos/add-public`, { url: `file://${repo}`, skip_onboarding: true });
    expect(added.status, JSON.stringify(added.body)).toBe(201);

    const trigger = await api('POST', `/projects/${projectId}/health/trigger`);
    const id = trigger.body.assessment_id as string;
    await poll('assessment running', async () => (await api('GET', `/projects/${projectId}/health/assessments/${id}`)).body.status, (s) => s !== 'pending', 60_000, 50);
    const state = (await api('GET', `/projects/${projectId}/health/assessments/${id}`)).body.status;
    expect(state, 'the kill must land mid-run: make the generated repository larger').toBe('running');
    expect(await server.stop('SIGKILL')).toBeNull();

    server = await startServer(['--embedded'], { cwd, env });
    expect(server.stdout() + server.stderr()).toMatch(new RegExp(`resuming ${trigger.body.workflow_id}`));
    const done = await poll('assessment after restart', async () => (await api('GET', `/projects/${projectId}/health/assessments/${id}`)).body, (a) => a.status !== 'running' && a.status !== 'pending', 120_000);
    expect(done.status).toBe('completed');

    // A clean run of the same commit for comparison.
    const clean = await api('POST', `/projects/${projectId}/health/trigger`);
    expect(clean.body.assessment_id).not.toBe(id);
    await poll('clean assessment', async () => (await api('GET', `/projects/${projectId}/health/assessments/${clean.body.assessment_id}`)).body.status, (s) => s === 'completed' || s === 'failed');
    expect(await server.stop('SIGTERM')).toBe(0);
    server = undefined;

    const store = await openStore({ kind: 'embedded', dataDir: join(cwd, 'data'), command: 'crash-recovery test' });
    try {
      const { assessments, issues, pendingJobs } = await recorded(store.db, projectId);
      expect(assessments.map((a) => [a.id, a.status])).toEqual([
        [id, 'completed'],
        [clean.body.assessment_id, 'completed'],
      ]);
      const resumed = issues.get(id)!;
      expect(resumed.rows).toBeGreaterThan(MODULES); // every module has issues
      expect(resumed.rows).toBe(resumed.distinct_issues);
      expect(resumed.rows).toBe(issues.get(clean.body.assessment_id)!.rows);
      expect(pendingJobs).toEqual([]);
    } finally {
      await store.close();
    }
  }, 300_000);
});

const pg = process.env.TEST_DATABASE_URL;
const temporal = process.env.TEST_TEMPORAL_ADDRESS;
if (!pg || !temporal) console.warn('Temporal worker crash test skipped: needs TEST_DATABASE_URL and TEST_TEMPORAL_ADDRESS (test/infra/*.sh start)');

describe.skipIf(!pg || !temporal)('a SIGKILLed Temporal worker: another worker finishes its assessment', () => {
  const dirs = tempDirs();
  const workers: WorkerProcess[] = [];
  let server: ServerProcess | undefined;
  let db: { url: string; drop(): Promise<void> } | undefined;
  afterAll(async () => {
    for (const worker of workers) await worker.stop('SIGKILL');
    await server?.stop();
    await db?.drop();
    dirs.cleanup();
  });

  it('is retried after the heartbeat timeout and completes exactly once', async () => {
    db = await freshPostgresDatabase(pg!);
    const cwd = dirs.make();
    const env = selfHostedEnv(cwd, { databaseUrl: db.url, temporal: temporal!, taskQueue: `codehealth-crash-${randomUUID()}` });
    expect((await runCli(['migrate', 'up'], { cwd, env })).code).toBe(0);
    server = await startServer([], { cwd, env });
    const doomed = await startWorker(cwd, { ...env, CODEHEALTH_WORK_DIR: dirs.make('codehealth-worker-') });
    workers.push(doomed);
    const { key } = JSON.parse((await runCli(['keys', 'create', '--email', 'ops@example.com'], { cwd, env })).stdout);
    const api = apiOf(() => server!.url, key);
    const repo = dirs.track(generatedRepo(MODULES).root);
    const projectId = (await api('POST', '/projects', { name: 'crash', key: 'crash' })).body.id as string;
    const added = await api('POST', `/projects/${projectId}/repos/add-public`, { url: `file://${repo}`, skip_onboarding: true });
    expect(added.status, JSON.stringify(added.body)).toBe(201);

    const trigger = await api('POST', `/projects/${projectId}/health/trigger`);
    const id = trigger.body.assessment_id as string;
    await poll('assessment running', async () => (await api('GET', `/projects/${projectId}/health/assessments/${id}`)).body.status, (s) => s !== 'pending', 60_000, 50);
    expect((await api('GET', `/projects/${projectId}/health/assessments/${id}`)).body.status, 'the kill must land mid-run').toBe('running');
    expect(await doomed.stop('SIGKILL')).toBeNull();

    const started = Date.now();
    workers.push(await startWorker(cwd, { ...env, CODEHEALTH_WORK_DIR: dirs.make('codehealth-worker-') }));
    const done = await poll('assessment on the second worker', async () => (await api('GET', `/projects/${projectId}/health/assessments/${id}`)).body, (a) => a.status === 'completed' || a.status === 'failed', 150_000);
    expect(done.status).toBe('completed');
    // Temporal noticed the dead worker through the missing heartbeats, not the 30-minute attempt timeout.
    expect(Date.now() - started).toBeLessThan(120_000);

    const store = await PostgresDatabase.connect(db.url, { max: 1 });
    try {
      const { assessments, issues } = await recorded(store, projectId);
      expect(assessments.map((a) => [a.id, a.status])).toEqual([[id, 'completed']]);
      const written = issues.get(id)!;
      expect(written.rows).toBeGreaterThan(MODULES);
      expect(written.rows).toBe(written.distinct_issues);
    } finally {
      await store.close();
    }
  }, 300_000);
});
