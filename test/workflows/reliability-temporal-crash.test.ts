// A SIGKILL of a Temporal worker (`codehealth worker` on real Postgres and Temporal) in the middle
// of an assessment loses nothing: Temporal notices the missing heartbeats and retries the activity
// on another worker, and the run completes exactly once, equal to a clean run of the same commit.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresDatabase } from '@codehealth/service';
import { freshPostgresDatabase, runCli, startServer, tempDirs, type ServerProcess } from '../../packages/cli/src/fixtures/cli-process.js';
import { generatedRepo, poll, selfHostedEnv, startWorker, type WorkerProcess } from './fixtures/processes.js';
import { apiOf, CRASH_REPO_MODULES, recorded } from './fixtures/reliability.js';

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
    const repo = dirs.track(generatedRepo(CRASH_REPO_MODULES).root);
    const projectId = (await api('POST', '/projects', { name: 'crash', key: 'crash' })).body.id as string;
    const added = await api('POST', `/projects/${projectId}/repos/add-public`, { url: `file://${repo}`, skip_onboarding: true });
    expect(added.status, JSON.stringify(added.body)).toBe(201);

    const trigger = await api('POST', `/projects/${projectId}/health/trigger`);
    const id = trigger.body.assessment_id as string;
    await poll(
      'assessment running',
      async () => (await api('GET', `/projects/${projectId}/health/assessments/${id}`)).body.status,
      (s) => s !== 'pending',
      60_000,
      50,
    );
    expect((await api('GET', `/projects/${projectId}/health/assessments/${id}`)).body.status, 'the kill must land mid-run').toBe('running');
    expect(await doomed.stop('SIGKILL')).toBeNull();

    const second = await startWorker(cwd, { ...env, CODEHEALTH_WORK_DIR: dirs.make('codehealth-worker-') });
    workers.push(second);
    const done = await poll(
      'assessment on the second worker',
      async () => (await api('GET', `/projects/${projectId}/health/assessments/${id}`)).body,
      (a) => a.status === 'completed' || a.status === 'failed',
      150_000,
    );
    // Temporal noticed the dead worker through the missing heartbeats, not the 30-minute attempt timeout:
    // the wait above gives up after 150 s (with Redis, the dead worker's assessment lock also has to expire: up to 60 s).
    expect(done.status).toBe('completed');
    // The second worker ran the assessment itself: the retried attempt, not a leftover of the first.
    expect(second.output()).toMatch(/assessed \S+: \d+ findings in \d+ ms/);

    // A clean run of the same commit, on the surviving worker, for comparison.
    const clean = await api('POST', `/projects/${projectId}/health/trigger`);
    expect(clean.body.assessment_id).not.toBe(id);
    const cleanDone = await poll(
      'clean assessment',
      async () => (await api('GET', `/projects/${projectId}/health/assessments/${clean.body.assessment_id}`)).body.status,
      (s) => s === 'completed' || s === 'failed',
      120_000,
    );
    expect(cleanDone).toBe('completed');

    const store = await PostgresDatabase.connect(db.url, { max: 1 });
    try {
      const { assessments, issues } = await recorded(store, projectId);
      expect(assessments.map((a) => [a.id, a.status])).toEqual([
        [id, 'completed'],
        [clean.body.assessment_id, 'completed'],
      ]);
      const written = issues.get(id)!;
      expect(written.rows).toBeGreaterThan(CRASH_REPO_MODULES);
      expect(written.rows).toBe(written.distinct_issues);
      expect(written.rows).toBe(issues.get(clean.body.assessment_id)!.rows);
    } finally {
      await store.close();
    }
  }, 300_000);
});
