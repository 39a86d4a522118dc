// A SIGKILL of the embedded server in the middle of an assessment loses nothing: after a restart on
// the same data directory the run is resumed and ends `completed` — exactly one assessment row,
// issues written once — and finds what a clean run of the same commit finds.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '@codehealth/service';
import { runCli, startServer, tempDirs, type ServerProcess } from '../../packages/cli/src/fixtures/cli-process.js';
import { generatedRepo, poll } from './fixtures/processes.js';
import { apiOf, CRASH_REPO_MODULES, recorded } from './fixtures/reliability.js';

describe('a SIGKILLed embedded server resumes the assessment it was running', () => {
  const dirs = tempDirs();
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    dirs.cleanup();
  });

  it('completes it after the restart: one assessment row, no duplicate issues, equal to a clean run', async () => {
    const repo = dirs.track(generatedRepo(CRASH_REPO_MODULES).root);
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
    await poll(
      'assessment running',
      async () => (await api('GET', `/projects/${projectId}/health/assessments/${id}`)).body.status,
      (s) => s !== 'pending',
      60_000,
      50,
    );
    const state = (await api('GET', `/projects/${projectId}/health/assessments/${id}`)).body.status;
    expect(state, 'the kill must land mid-run: make the generated repository larger').toBe('running');
    expect(await server.stop('SIGKILL')).toBeNull();

    server = await startServer(['--embedded'], { cwd, env });
    expect(server.stdout() + server.stderr()).toMatch(new RegExp(`resuming ${trigger.body.workflow_id}`));
    const done = await poll(
      'assessment after restart',
      async () => (await api('GET', `/projects/${projectId}/health/assessments/${id}`)).body,
      (a) => a.status !== 'running' && a.status !== 'pending',
      120_000,
    );
    expect(done.status).toBe('completed');

    // A clean run of the same commit for comparison.
    const clean = await api('POST', `/projects/${projectId}/health/trigger`);
    expect(clean.body.assessment_id).not.toBe(id);
    await poll(
      'clean assessment',
      async () => (await api('GET', `/projects/${projectId}/health/assessments/${clean.body.assessment_id}`)).body.status,
      (s) => s === 'completed' || s === 'failed',
    );
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
      expect(resumed.rows).toBeGreaterThan(CRASH_REPO_MODULES); // every module has issues
      expect(resumed.rows).toBe(resumed.distinct_issues);
      expect(resumed.rows).toBe(issues.get(clean.body.assessment_id)!.rows);
      expect(pendingJobs).toEqual([]);
    } finally {
      await store.close();
    }
  }, 300_000);
});
