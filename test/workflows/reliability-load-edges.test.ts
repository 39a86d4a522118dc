// Reliability of the embedded runner on both stores: 20 concurrent triggers across 3 projects
// complete with exact counts, and odd repositories (nothing analysable, a 50 MB file, no commits,
// a branch deleted after linking) each end with a clear status, never a stuck run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createEngine } from '@codehealth/engine';
import { describeStores } from '../helpers/test-api.js';
import { createGitRepo } from '../helpers/git-repo.js';
import { embeddedEngine, embeddedRunnerFor, SOURCES, useWorkflowEnvironment, type ScenarioContext } from './scenarios.js';

async function linkedProject(context: ScenarioContext, root: string, onboarding = false): Promise<{ projectId: string; sessionId: string | null }> {
  const projectId = await context.api.createProject(context.owner);
  const added = await context.api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
    key: context.owner.key,
    body: { url: `file://${root}`, skip_onboarding: !onboarding },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(201);
  return { projectId, sessionId: added.body.onboarding_session_id ?? null };
}

async function assessment(context: ScenarioContext, projectId: string, id: string) {
  return (await context.api.request('GET', `/api/v1/projects/${projectId}/health/assessments/${id}`, { key: context.owner.key })).body;
}

async function issueCount(context: ScenarioContext, assessmentId: string): Promise<number> {
  const [row] = await context.api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM issues WHERE context_id = $1', [assessmentId]);
  return row!.n;
}

/** Runs `work` while sampling this process's resident memory; resolves with how far it rose above the start. */
async function peakRssGrowth(work: () => Promise<void>): Promise<number> {
  const start = process.memoryUsage().rss;
  let peak = start;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, process.memoryUsage().rss) - start;
}

async function unfinishedJobs(context: ScenarioContext): Promise<number> {
  const [row] = await context.api.db.query<{ n: number }>("SELECT count(*)::int AS n FROM jobs WHERE status IN ('queued', 'running')");
  return row!.n;
}

describeStores('embedded runner under load and on odd repositories', (store) => {
  const context = useWorkflowEnvironment(store, async (api, activities, log) => embeddedEngine(api, embeddedRunnerFor(api, activities, log)));

  it('completes 20 concurrent triggers across 3 projects with exact counts', async () => {
    const variants = [0, 1, 2].map((n) =>
      createGitRepo({
        ...SOURCES,
        [`src/extra-${n}.ts`]: Array.from({ length: n + 1 }, (_, i) => `export function f${i}(x: any) {\n  return eval(x);\n}\n`).join(''),
      }),
    );
    // A reference run per repository, alone: what every concurrent run of the same commit must find.
    const reference: number[] = [];
    for (const repo of variants) {
      const { projectId } = await linkedProject(context, repo.root);
      const run = await context.api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: context.owner.key });
      await context.engine.awaitIdle();
      expect((await assessment(context, projectId, run.body.assessment_id)).status).toBe('completed');
      reference.push(await issueCount(context, run.body.assessment_id));
    }
    const projects = await Promise.all(variants.map((repo) => linkedProject(context, repo.root)));
    const triggers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        context.api.request('POST', `/api/v1/projects/${projects[i % 3]!.projectId}/health/trigger`, { key: context.owner.key }),
      ),
    );
    expect(triggers.map((t) => t.status)).toEqual(Array(20).fill(200));
    await context.engine.awaitIdle();

    for (const [n, { projectId }] of projects.entries()) {
      const returned = new Set(triggers.filter((_, i) => i % 3 === n).map((t) => t.body.assessment_id as string));
      const rows = await context.api.db.query<{ id: string; status: string }>('SELECT id, status FROM health_assessments WHERE project_id = $1', [projectId]);
      // Every trigger answered with an assessment that exists, and no row exists that no trigger returned.
      expect(new Set(rows.map((r) => r.id))).toEqual(returned);
      expect(rows.every((r) => r.status === 'completed')).toBe(true);
      // Each run of the same commit found exactly the same issues, written once.
      const counts = await context.api.db.query<{ context_id: string; n: number; distinct_ids: number }>(
        "SELECT context_id, count(*)::int AS n, count(DISTINCT (fingerprint, file_path, line_start, rule_id))::int AS distinct_ids FROM issues WHERE project_id = $1 AND context_type = 'health_assessment' GROUP BY context_id",
        [projectId],
      );
      expect(counts).toHaveLength(rows.length);
      expect(counts.map((c) => c.n)).toEqual(Array(rows.length).fill(reference[n]));
      expect(counts.every((c) => c.n === c.distinct_ids)).toBe(true);
      // The variants differ by one `eval` per extra function: the counts tell the projects apart.
      const evals = await context.api.db.query<{ n: number }>("SELECT count(*)::int AS n FROM issues WHERE context_id = $1 AND rule_id = 'security/no-eval'", [
        rows[0]!.id,
      ]);
      expect(evals[0]!.n).toBe(n + 2);
    }
    expect(await unfinishedJobs(context)).toBe(0);
    for (const repo of variants) rmSync(repo.root, { recursive: true, force: true });
  }, 180_000);

  it('completes an assessment of a repository with nothing to analyse: no code, only repository-level findings', async () => {
    const repo = createGitRepo({
      'README.md': '# Just docs\n\nNothing to analyse here.\n',
      'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
    });
    const { projectId } = await linkedProject(context, repo.root);
    const trigger = await context.api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: context.owner.key });
    await context.engine.awaitIdle();
    const record = await assessment(context, projectId, trigger.body.assessment_id);
    // Nothing was seen, so nothing is graded: the spec's score fields hold placeholders and the
    // extension says why (never an A for code nobody analysed).
    expect(record).toMatchObject({
      status: 'completed',
      total_lines_of_code: 0,
      test_lines_of_code: 0,
      graded: false,
      not_graded_reason: 'no TypeScript or JavaScript files',
    });
    expect(record.not_assessed).toMatchObject({ security: 'no TypeScript or JavaScript files', runtime_risks: 'no TypeScript or JavaScript files' });
    // The one finding is the repository's own: no license file.
    const issues = await context.api.db.query<{ rule_id: string; file_path: string }>('SELECT rule_id, file_path FROM issues WHERE context_id = $1', [
      trigger.body.assessment_id,
    ]);
    expect(issues).toEqual([{ rule_id: 'compliance/license-file', file_path: '.' }]);
    expect(await unfinishedJobs(context)).toBe(0);
    rmSync(repo.root, { recursive: true, force: true });
  }, 120_000);

  it('completes an assessment of a repository holding a 50 MB file, which is skipped, not parsed', async () => {
    const repo = createGitRepo({ 'src/small.ts': 'export const answer = 42;\n' });
    const line = 'export const value = "0123456789012345678901234567890123456789012345678901234567890123456789";\n';
    writeFileSync(join(repo.root, 'src/huge.ts'), line.repeat(Math.ceil((50 * 1024 * 1024) / line.length)));
    repo.commit('add a 50 MB generated file');
    const { projectId } = await linkedProject(context, repo.root);
    const started = Date.now();
    let assessmentId = '';
    const growth = await peakRssGrowth(async () => {
      const trigger = await context.api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: context.owner.key });
      assessmentId = trigger.body.assessment_id;
      await context.engine.awaitIdle();
    });
    const elapsed = Date.now() - started;
    const record = await assessment(context, projectId, assessmentId);
    expect(record.status).toBe('completed');
    // Only the small file counts: the huge one was skipped by size, not read into the parser.
    expect(record.total_lines_of_code).toBe(1);
    const [stored] = await context.api.db.query<{ files_analysed: number }>(
      "SELECT (metrics->>'files_analysed')::int AS files_analysed FROM health_assessments WHERE id = $1",
      [assessmentId],
    );
    expect(stored!.files_analysed).toBe(1);
    const [huge] = await context.api.db.query<{ n: number }>("SELECT count(*)::int AS n FROM issues WHERE context_id = $1 AND file_path = 'src/huge.ts'", [
      assessmentId,
    ]);
    expect(huge!.n).toBe(0);
    // The engine records why (the stored assessment keeps counts only): larger than maxFileBytes.
    const result = await (await createEngine({ cacheDir: join(repo.root, '.git', 'codehealth-cache') })).analyze(repo.root, { allowCodeConfig: false });
    expect(result.skipped).toEqual([{ path: 'src/huge.ts', reason: 'file is 50.0 MB, above the 2.0 MB limit' }]);
    // Bounded: a parse of 50 MB would take gigabytes; reading it once to hash is allowed. (Its time is reported, not asserted.)
    expect(growth).toBeLessThan(300 * 1024 * 1024);
    console.info(`50 MB file: run ${elapsed} ms, peak RSS growth ${Math.round(growth / 1024 / 1024)} MB`);
    rmSync(repo.root, { recursive: true, force: true });
  }, 150_000);

  it('refuses a repository without commits when it is added, with a clear reason and nothing recorded', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'codehealth-empty-repo-'));
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: empty });
    const projectId = await context.api.createProject(context.owner);
    const jobsBefore = await context.api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs');
    const added = await context.api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
      key: context.owner.key,
      body: { url: `file://${empty}` },
    });
    expect(added.status).toBe(400);
    expect(added.body.error).toBe(`${empty} has no commits on its default branch 'main'`);
    const repos = await context.api.request('GET', `/api/v1/projects/${projectId}/repos`, { key: context.owner.key });
    expect(repos.body).toEqual([]);
    const sessions = await context.api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM onboarding_sessions WHERE project_id = $1', [projectId]);
    expect(sessions[0]!.n).toBe(0);
    expect((await context.api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM jobs'))[0]!.n).toBe(jobsBefore[0]!.n);
    rmSync(empty, { recursive: true, force: true });
  });

  it('fails an assessment whose repository lost its default branch after linking, with the reason, never stuck', async () => {
    const repo = createGitRepo(SOURCES);
    const { projectId } = await linkedProject(context, repo.root);
    // HEAD now names a branch without commits, and `main` is gone: nothing left to check out.
    repo.git('checkout', '-q', '--orphan', 'gone');
    repo.git('branch', '-q', '-D', 'main');
    const trigger = await context.api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: context.owner.key });
    await context.engine.awaitIdle();
    const record = await assessment(context, projectId, trigger.body.assessment_id);
    expect(record.status).toBe('failed');
    const [row] = await context.api.db.query<{ error: string }>('SELECT error FROM health_assessments WHERE id = $1', [trigger.body.assessment_id]);
    console.info(`branch deleted: ${row!.error}`);
    expect(await issueCount(context, trigger.body.assessment_id)).toBe(0);
    expect(await unfinishedJobs(context)).toBe(0);
    rmSync(repo.root, { recursive: true, force: true });
  }, 120_000);
});
