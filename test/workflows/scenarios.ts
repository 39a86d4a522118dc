// The workflow scenarios both engines must pass (embedded runner and Temporal): onboarding with
// SSE progress replay, coalesced triggers and drift between runs, a clone failure ending failed.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngine } from '@codehealth/engine';
import { defaultCodeHosts, type TestStoreKind, type WorkflowStarter } from '@codehealth/service';
import { createActivities, EmbeddedRunner, RepositoryCheckouts, type Activities } from '@codehealth/worker';
import { createTestApi, type TestApi, type TestUser } from '../helpers/test-api.js';
import { deliver, example, WEBHOOK_SECRET } from '../../packages/http/src/fixtures/github-webhooks.js';
import { createGitRepo, type TestRepo } from '../helpers/git-repo.js';

export const SOURCES = {
  'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', license: 'MIT' }),
  'src/cart.ts': `export function total(items: { price: number; qty: number }[]): number {\n  return items.reduce((sum, item) => sum + item.price * item.qty, 0);\n}\n`,
  'src/run.ts': `import { total } from './cart.js';\nexport function runUserCode(code: string): unknown {\n  return eval(code);\n}\nexport const answer = total([]);\n`,
  'test/cart.test.ts': `import { total } from '../src/cart.js';\nif (total([]) !== 0) throw new Error('total');\n`,
};

/** A workflow engine under test: where starts go, how to wait until all work is done, how to stop. */
export interface EngineUnderTest {
  starter?: WorkflowStarter;
  awaitIdle(): Promise<void>;
  /** How a workflow ended, as the engine itself records it. */
  outcome(workflowId: string): Promise<{ status: 'completed' } | { status: 'failed'; error: string }>;
  stop(): Promise<void>;
}

export interface ScenarioContext {
  api: TestApi;
  owner: TestUser;
  repo: TestRepo;
  engine: EngineUnderTest;
  log: string[];
}

/** Builds the API, the activities and the engine under test; returns a context filled in beforeAll. */
export function useWorkflowEnvironment(
  store: TestStoreKind,
  start: (api: TestApi, activities: Activities, log: (line: string) => void) => Promise<EngineUnderTest>,
): ScenarioContext {
  const context = { log: [] as string[] } as ScenarioContext;
  let workDir = '';
  let engineUnderTest: EngineUnderTest | undefined;
  let api: TestApi | undefined;
  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'codehealth-workflows-'));
    const log = (line: string) => context.log.push(line);
    const starterBox: { starter?: WorkflowStarter } = {};
    // The starter is created by `start` after the API exists; services read it through this proxy.
    const starter: WorkflowStarter = { start: (request, options) => (starterBox.starter ?? api!.workflows).start(request, options) };
    api = await createTestApi({
      store,
      starter,
      codeHosts: defaultCodeHosts({ allowLocalRepos: true }),
      serviceOptions: { allowLocalRepos: true },
      app: { webhookSecret: WEBHOOK_SECRET },
    });
    const engine = await createEngine({ cacheDir: join(workDir, 'cache') });
    const activities = createActivities({ services: api.services, engine, checkouts: new RepositoryCheckouts({ workDir, allowLocal: true }), log });
    engineUnderTest = await start(api, activities, log);
    starterBox.starter = engineUnderTest.starter;
    Object.assign(context, { api, owner: await api.createUser(), repo: createGitRepo(SOURCES), engine: engineUnderTest });
  }, 120_000);
  afterAll(async () => {
    await engineUnderTest?.stop();
    await api?.close();
    rmSync(workDir, { recursive: true, force: true });
  });
  return context;
}

/** The embedded runner as the tests configure it: fast polling, two quick attempts. */
export function embeddedRunnerFor(api: TestApi, activities: Activities, log: (line: string) => void): EmbeddedRunner {
  return new EmbeddedRunner({
    db: api.db,
    starter: api.workflows,
    activities,
    pollIntervalMs: 100,
    retry: {
      maximumAttempts: 2,
      initialIntervalMs: 10,
      backoffCoefficient: 2,
      maximumIntervalMs: 50,
      nonRetryableErrorTypes: ['NonRetryableError', 'NotFoundError', 'InvalidInputError'],
    },
    log,
  });
}

/** The embedded runner as an engine under test (started here); outcomes read from its jobs table. */
export async function embeddedEngine(api: TestApi, runner: EmbeddedRunner): Promise<EngineUnderTest> {
  await runner.start();
  return {
    awaitIdle: () => runner.drain(),
    async outcome(workflowId) {
      const [job] = await api.db.query<{ status: 'completed' | 'failed'; error: string }>('SELECT status, error FROM jobs WHERE workflow_id = $1', [
        workflowId,
      ]);
      return job!.status === 'completed' ? { status: 'completed' } : { status: job!.status, error: job!.error };
    },
    stop: () => runner.stop(),
  };
}

export function workflowScenarios(context: ScenarioContext): void {
  async function addRepository(ctx: ScenarioContext, projectId: string) {
    const response = await ctx.api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
      key: ctx.owner.key,
      body: { url: `file://${ctx.repo.root}` },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body as { repository: { id: string }; onboarding_session_id: string };
  }

  it('onboards a linked repository: clone, detection, initial assessment, architecture, with progress events', async () => {
    const projectId = await context.api.createProject(context.owner);
    const linked = await addRepository(context, projectId);
    await context.engine.awaitIdle();

    const [session] = await context.api.db.query<{ status: string; error: string | null }>('SELECT status, error FROM onboarding_sessions WHERE id = $1', [
      linked.onboarding_session_id,
    ]);
    expect(session).toEqual({ status: 'completed', error: null });
    const events = await context.api.services.onboarding.events(linked.onboarding_session_id);
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

    const repos = await context.api.request('GET', `/api/v1/projects/${projectId}/repos`, { key: context.owner.key });
    expect(repos.body[0].analyzers.length).toBeGreaterThan(0);
    expect(repos.body[0].analyzers[0]).toEqual({ language: expect.any(String), path: '.', enabled: true, description: expect.any(String) });

    const assessments = await context.api.request('GET', `/api/v1/projects/${projectId}/health/assessments`, { key: context.owner.key });
    expect(assessments.body.items).toHaveLength(1);
    expect(assessments.body.items[0]).toMatchObject({ status: 'completed', trigger_type: 'manual' });
    const issues = await context.api.request('GET', `/api/v1/projects/${projectId}/analysis/issues`, { key: context.owner.key });
    expect(issues.body.issues.map((i: { rule_id: string }) => i.rule_id)).toContain('security/no-eval');
    const overview = await context.api.request('GET', `/api/v1/projects/${projectId}/architecture/overview`, { key: context.owner.key });
    expect(overview.status).toBe(200);

    // The SSE stream replays the whole history to a late subscriber and ends after `completed`.
    const stream = await context.api.request('GET', `/api/v1/onboarding/${linked.onboarding_session_id}/events`, { key: context.owner.key });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const frames = String(stream.body).trim().split('\n\n');
    expect(frames).toHaveLength(9);
    expect(frames[0]).toMatch(/^id: 1\nevent: step_started\ndata: \{"seq":1,"type":"step_started","step":"clone","percent":0,/);
    expect(frames[8]).toMatch(/^id: 9\nevent: completed\n/);
    const resumed = await context.api.request('GET', `/api/v1/onboarding/${linked.onboarding_session_id}/events`, {
      key: context.owner.key,
      headers: { 'last-event-id': '7' },
    });
    expect(
      String(resumed.body)
        .trim()
        .split('\n\n')
        .map((f) => f.split('\n')[0]),
    ).toEqual(['id: 8', 'id: 9']);
    const outsider = await context.api.createUser();
    expect((await context.api.request('GET', `/api/v1/onboarding/${linked.onboarding_session_id}/events`, { key: outsider.key })).status).toBe(403);
  }, 120_000);

  it('runs triggered assessments to completion; concurrent triggers coalesce; drift is measured against the previous run', async () => {
    const projectId = await context.api.createProject(context.owner);
    await context.api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
      key: context.owner.key,
      body: { url: `file://${context.repo.root}`, skip_onboarding: true },
    });
    const triggers = await Promise.all(
      [1, 2, 3].map(() => context.api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: context.owner.key })),
    );
    expect(new Set(triggers.map((t) => t.body.assessment_id)).size).toBe(1);
    expect(triggers[0]!.body).toMatchObject({ status: 'queued', workflow_id: expect.any(String) });
    await context.engine.awaitIdle();
    const first = await context.api.request('GET', `/api/v1/projects/${projectId}/health/assessments/${triggers[0]!.body.assessment_id}`, {
      key: context.owner.key,
    });
    expect(first.body).toMatchObject({ status: 'completed', trigger_type: 'manual', completed_at: expect.any(String) });
    expect(first.body.security_score).toBeLessThan(100);

    context.repo.write({ 'src/run.ts': `import { total } from './cart.js';\nexport const answer = total([]);\n` });
    context.repo.commit('remove eval');
    const second = await context.api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: context.owner.key });
    expect(second.body.assessment_id).not.toBe(triggers[0]!.body.assessment_id);
    await context.engine.awaitIdle();
    const after = await context.api.request('GET', `/api/v1/projects/${projectId}/health/assessments/${second.body.assessment_id}`, { key: context.owner.key });
    expect(after.body.status).toBe('completed');
    expect(after.body.security_score).toBeGreaterThan(first.body.security_score);
    expect(await context.engine.outcome(triggers[0]!.body.workflow_id)).toEqual({ status: 'completed' });
    expect(await context.engine.outcome(second.body.workflow_id)).toEqual({ status: 'completed' });
  }, 120_000);

  it('ends a run whose repository cannot be cloned as failed with a reason, never stuck', async () => {
    const projectId = await context.api.createProject(context.owner);
    const broken = createGitRepo({ 'a.ts': 'export const a = 1;\n' });
    await context.api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
      key: context.owner.key,
      body: { url: `file://${broken.root}`, skip_onboarding: true },
    });
    rmSync(broken.root, { recursive: true, force: true });
    const trigger = await context.api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: context.owner.key });
    await context.engine.awaitIdle();
    const record = await context.api.request('GET', `/api/v1/projects/${projectId}/health/assessments/${trigger.body.assessment_id}`, {
      key: context.owner.key,
    });
    expect(record.body.status).toBe('failed');
    const [row] = await context.api.db.query<{ error: string }>('SELECT error FROM health_assessments WHERE id = $1', [trigger.body.assessment_id]);
    expect(row!.error).toMatch(/git clone failed/);
    expect(await context.engine.outcome(trigger.body.workflow_id)).toEqual({ status: 'failed', error: expect.stringMatching(/git clone failed/) });
  }, 120_000);

  it('analyses a pull request (refs/pull/N/head) end to end: classification, readiness, issues in PR context', async () => {
    const projectId = await context.api.createProject(context.owner);
    const prRepo = createGitRepo(SOURCES);
    const base = prRepo.git('rev-parse', 'HEAD');
    prRepo.git('checkout', '-q', '-b', 'feature/secret');
    prRepo.write({ 'src/config.ts': `export const awsKey = 'AKIAIOSFODNN7EXAMPLQ';\nexport const awsSecret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEQ';\n` });
    const head = prRepo.commit('feat: add cloud configuration');
    prRepo.git('update-ref', 'refs/pull/7/head', head);
    prRepo.git('checkout', '-q', 'main');
    const linked = await context.api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
      key: context.owner.key,
      body: { url: `file://${prRepo.root}`, skip_onboarding: true },
    });
    const repoId = linked.body.repository.id as string;
    const trigger = await context.api.request('POST', `/api/v1/projects/${projectId}/repos/${repoId}/prs/7/analyze`, { key: context.owner.key });
    expect(trigger.status, JSON.stringify(trigger.body)).toBe(201);
    expect(trigger.body).toMatchObject({ status: 'pending', pr_number: 7, workflow_id: expect.any(String) });
    await context.engine.awaitIdle();
    expect(await context.engine.outcome(trigger.body.workflow_id)).toEqual({ status: 'completed' });

    const analysis = await context.api.request('GET', `/api/v1/projects/${projectId}/repos/${repoId}/prs/7/analysis`, { key: context.owner.key });
    expect(analysis.status).toBe(200);
    expect(analysis.body).toMatchObject({ status: 'completed', head_sha: head, pr_number: 7 });
    expect(analysis.body.classification.primary_intent).toBe('feature');
    expect(analysis.body.merge_readiness.status).toBe('blocked');
    expect(analysis.body.merge_readiness.blocking_count).toBeGreaterThan(0);
    expect(analysis.body.health_impact.issues_added).toBeGreaterThan(0);
    expect(analysis.body.impact_zones.flatMap((z: { files: { path: string }[] }) => z.files.map((f) => f.path))).toContain('src/config.ts');
    const issues = await context.api.request(
      'GET',
      `/api/v1/projects/${projectId}/analysis/issues?context_type=pr_analysis&context_id=${analysis.body.analysis_run_id}`,
      { key: context.owner.key },
    );
    const secrets = issues.body.issues.filter(
      (i: { category: string; is_new: boolean; file_path: string }) => i.category === 'security' && i.file_path === 'src/config.ts',
    );
    expect(secrets.length).toBeGreaterThan(0);
    expect(secrets.every((i: { is_new: boolean }) => i.is_new)).toBe(true);
    expect(base).not.toBe(head);
  }, 120_000);

  it('never runs code a repository names: a config plugin is not imported by onboarding, a PR analysis or a webhook-triggered run', async () => {
    const traceDir = mkdtempSync(join(tmpdir(), 'codehealth-trace-'));
    const trace = join(traceDir, 'TRACE');
    // What an attacker commits: a config naming a plugin module, and the module writing a file as the server.
    const evil = `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(trace)}, String(process.pid));\nexport default { name: 'evil', analyzers: [] };\n`;
    const hostile = createGitRepo({
      ...SOURCES,
      'codehealth.config.json': JSON.stringify({ plugins: ['./tools/evil.mjs', 'evil-package'] }, null, 2),
      'tools/evil.mjs': evil,
      'node_modules/evil-package/package.json': JSON.stringify({ name: 'evil-package', type: 'module', main: 'index.js' }),
      'node_modules/evil-package/index.js': evil,
    });
    const base = hostile.git('rev-parse', 'HEAD');
    hostile.git('checkout', '-q', '-b', 'feature');
    hostile.write({ 'src/extra.ts': 'export const extra = 2;\n' });
    const head = hostile.commit('feat: extra');
    hostile.git('update-ref', 'refs/pull/2/head', head);
    hostile.git('checkout', '-q', 'main');

    // add-public with onboarding: clone, detection, assessment, architecture.
    const projectId = await context.api.createProject(context.owner);
    const added = await context.api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
      key: context.owner.key,
      body: { url: `file://${hostile.root}` },
    });
    expect(added.status).toBe(201);
    const repoId = added.body.repository.id as string;
    await context.engine.awaitIdle();
    const [session] = await context.api.db.query<{ status: string }>('SELECT status FROM onboarding_sessions WHERE id = $1', [
      added.body.onboarding_session_id,
    ]);
    expect(session!.status).toBe('completed');

    // A manual PR analysis.
    const manual = await context.api.request('POST', `/api/v1/projects/${projectId}/repos/${repoId}/prs/2/analyze`, { key: context.owner.key });
    expect(manual.status).toBe(201);
    await context.engine.awaitIdle();
    expect(await context.engine.outcome(manual.body.workflow_id)).toEqual({ status: 'completed' });

    // A signed webhook: the repository as GitHub would name it, a new head of the pull request and a default-branch push.
    hostile.git('checkout', '-q', 'feature');
    hostile.write({ 'src/extra.ts': 'export const extra = 3;\n' });
    const nextHead = hostile.commit('feat: extra 3');
    hostile.git('update-ref', 'refs/pull/2/head', nextHead);
    hostile.git('checkout', '-q', 'main');
    const opened = example('pull_request', (e) => e.action === 'opened');
    await context.api.db.query("UPDATE repositories SET provider = 'github', vcs_id = $1, full_name = $2 WHERE id = $3", [
      opened.repository.id,
      opened.repository.full_name,
      repoId,
    ]);
    opened.repository.default_branch = 'main';
    Object.assign(opened.pull_request.head, { sha: nextHead, ref: 'feature' });
    Object.assign(opened.pull_request.base, { sha: base, ref: 'main' });
    opened.pull_request.base.repo.default_branch = 'main';
    const delivered = await deliver(context.api, 'pull_request', opened);
    expect(delivered.response.status, JSON.stringify(delivered.response.body)).toBeLessThan(300);
    const started = delivered.response.body.actions.find((a: { type: string }) => a.type === 'pr_analysis');
    expect(started).toMatchObject({ head_sha: nextHead, created: true });
    const push = example('push', (e) => e.ref === 'refs/heads/main' || e.ref?.startsWith('refs/heads/'));
    Object.assign(push, { ref: 'refs/heads/main', after: base, deleted: false, created: false });
    push.repository = { ...push.repository, id: opened.repository.id, full_name: opened.repository.full_name, default_branch: 'main', master_branch: 'main' };
    const pushed = await deliver(context.api, 'push', push);
    expect(pushed.response.status, JSON.stringify(pushed.response.body)).toBeLessThan(300);
    expect(pushed.response.body.actions).toEqual([expect.objectContaining({ type: 'health_assessment', trigger_type: 'push', created: true })]);
    await context.engine.awaitIdle();
    expect(await context.engine.outcome(started.workflow_id)).toEqual({ status: 'completed' });
    expect(await context.engine.outcome(pushed.response.body.actions[0].workflow_id)).toEqual({ status: 'completed' });
    const assessments = await context.api.db.query<{ status: string; trigger_type: string }>(
      'SELECT status, trigger_type FROM health_assessments WHERE project_id = $1 ORDER BY created_at',
      [projectId],
    );
    expect(assessments.map((a) => a.trigger_type)).toContain('push');
    expect(assessments.every((a) => a.status === 'completed')).toBe(true);

    expect(existsSync(trace)).toBe(false);
    // The refusal is visible where the user reads results: an info issue on the config line.
    const issues = await context.api.request('GET', `/api/v1/projects/${projectId}/analysis/issues?limit=100`, { key: context.owner.key });
    const notices = issues.body.issues.filter((i: { rule_id: string }) => i.rule_id === 'config/plugin-not-installed');
    expect(notices.map((i: { file_path: string; severity: string }) => [i.file_path, i.severity])).toContainEqual(['codehealth.config.json', 'info']);
    rmSync(traceDir, { recursive: true, force: true });
  }, 180_000);
}
