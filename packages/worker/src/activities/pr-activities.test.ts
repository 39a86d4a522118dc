// The PR analysis activity on a real local repository with refs/pull/N/head pull requests, a
// PGlite store and the real engine: a stored assessment at the merge base as the baseline, the
// small model slot wired through (a local OpenAI-compatible server), issues in PR context with
// is_new, idempotent repetition, and failure recording.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '@codehealth/engine';
import { defaultCodeHosts } from '@codehealth/service';
import { createTestApi, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../../test/infra/fake-openai.js';
import { healthActivities } from './health-activities.js';
import { prActivities, storedBaseline, type PrActivityDeps } from './pr-activities.js';
import { RepositoryCheckouts } from './repository-checkout.js';

const SOURCES = {
  'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', license: 'MIT', type: 'module' }),
  'src/cart.ts':
    'export function total(items: { price: number; qty: number }[]): number {\n  return items.reduce((sum, item) => sum + item.price * item.qty, 0);\n}\n',
  'src/index.ts': "import { total } from './cart.js';\nexport const empty = total([]);\n",
  'test/cart.test.ts': "import { total } from '../src/cart.js';\nif (total([]) !== 0) throw new Error('total');\n",
};
const AWS_KEY = 'AKIA' + 'QX7PLM2ZK4RTV9WN';

let api: TestApi;
let owner: TestUser;
let repo: TestRepo;
let workDir: string;
let llm: FakeOpenAi;
let deps: PrActivityDeps;
const log: string[] = [];

/** A commit on a side branch published as pull request `number`. */
function pullRequest(number: number, message: string, files: Record<string, string>): string {
  repo.git('checkout', '-q', '-b', `topic-${number}`, 'main');
  repo.write(files);
  const sha = repo.commit(message);
  repo.git('update-ref', `refs/pull/${number}/head`, sha);
  repo.git('checkout', '-q', 'main');
  return sha;
}

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'codehealth-pr-activities-'));
  api = await createTestApi({ codeHosts: defaultCodeHosts({ allowLocalRepos: true }), serviceOptions: { allowLocalRepos: true } });
  owner = await api.createUser();
  repo = createGitRepo(SOURCES);
  llm = await startFakeOpenAi();
  const engine = await createEngine({ cacheDir: join(workDir, 'cache'), workers: 0 });
  deps = { services: api.services, engine, checkouts: new RepositoryCheckouts({ workDir, allowLocal: true }), log: (line) => log.push(line), smallModel: null };
}, 120_000);
afterAll(async () => {
  await api?.close();
  await llm?.close();
  rmSync(workDir, { recursive: true, force: true });
});

async function linkedProject(): Promise<{ projectId: string; repositoryId: string }> {
  const projectId = await api.createProject(owner);
  const linked = await api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
    key: owner.key,
    body: { url: `file://${repo.root}`, skip_onboarding: true },
  });
  expect(linked.status, JSON.stringify(linked.body)).toBe(201);
  return { projectId, repositoryId: linked.body.repository.id };
}

async function trigger(projectId: string, repositoryId: string, number: number): Promise<string> {
  const response = await api.request('POST', `/api/v1/projects/${projectId}/repos/${repositoryId}/prs/${number}/analyze`, { key: owner.key, body: {} });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.id;
}

describe('prActivities', () => {
  it('analyses a PR against the stored assessment at its merge base and records issues in PR context', async () => {
    const secretSha = pullRequest(1, 'feat: upload receipts', { 'src/upload.ts': `export const ACCESS_KEY_ID = '${AWS_KEY}';\n` });
    pullRequest(2, 'docs: explain totals', { 'README.md': '# shop\n\nTotals.\n' });
    const { projectId, repositoryId } = await linkedProject();
    // The baseline: a completed health assessment of main, which is the PRs' merge base.
    const assessment = await api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: owner.key });
    await healthActivities(deps).assessHealth({ projectId, assessmentId: assessment.body.assessment_id });

    const analysisId = await trigger(projectId, repositoryId, 1);
    const activities = prActivities(deps);
    await expect(activities.analyzePullRequest({ projectId, analysisId })).resolves.toEqual({ status: 'completed' });
    expect(log.some((line) => line.includes(`baseline assessment ${assessment.body.assessment_id}`))).toBe(true);

    const analysis = (await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses/${analysisId}`, { key: owner.key })).body;
    expect(analysis).toMatchObject({ status: 'completed', head_sha: secretSha, pr_number: 1 });
    expect(analysis.classification.primary_intent).toBe('feature');
    expect(analysis.merge_readiness.status).toBe('blocked');
    expect(analysis.health_impact.impact_rating).toBe('critical_regression');
    expect(analysis.conflicts.checked_prs).toEqual([2]);
    expect(analysis.impact_zones.map((z: { name: string }) => z.name)).toEqual(['src']);

    const issues = await api.db.query<{ rule_id: string; is_new: boolean; context_type: string; file_path: string }>(
      'SELECT rule_id, is_new, context_type, file_path FROM issues WHERE context_id = $1 ORDER BY rule_id',
      [analysis.analysis_run_id],
    );
    const secret = issues.find((i) => i.rule_id.endsWith('hard-coded-secret'));
    expect(secret).toMatchObject({ is_new: true, context_type: 'pr_analysis', file_path: 'src/upload.ts' });
    expect(issues.filter((i) => i.is_new).length).toBe(analysis.health_impact.issues_added);
    // The head lines the change touched, for feedback annotations on changed lines only.
    const [stored] = await api.db.query<{ changed_lines: unknown }>('SELECT changed_lines FROM pr_analyses WHERE id = $1', [analysisId]);
    expect(stored!.changed_lines).toEqual({ 'src/upload.ts': [[1, 1]] });

    // Repeating the completed activity writes nothing again.
    await expect(activities.analyzePullRequest({ projectId, analysisId })).resolves.toEqual({ status: 'already_finished' });
    const again = await api.db.query<{ n: number }>('SELECT count(*)::int AS n FROM issues WHERE context_id = $1', [analysis.analysis_run_id]);
    expect(again[0]!.n).toBe(issues.length);
  }, 120_000);

  it('classifies with the configured small model and analyses the base itself when no assessment matches', async () => {
    pullRequest(3, 'Totals with tax', {
      'src/cart.ts': `${SOURCES['src/cart.ts']}\nexport function withTax(amount: number): number {\n  return amount * 1.2;\n}\n`,
    });
    const { projectId, repositoryId } = await linkedProject();
    llm.script([
      { content: JSON.stringify({ primary_intent: 'feature', secondary_intents: [], summary: 'Adds withTax() to the cart', additional_risk_signals: [] }) },
    ]);
    const analysisId = await trigger(projectId, repositoryId, 3);
    const smallModel = { slot: 'small' as const, provider: 'fake', model: 'tiny-1', apiKey: 'sk-test', baseUrl: llm.baseUrl };
    await prActivities({ ...deps, smallModel }).analyzePullRequest({ projectId, analysisId });
    const analysis = (await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses/${analysisId}`, { key: owner.key })).body;
    expect(analysis.classification.summary).toBe('Adds withTax() to the cart. Classified by the small model fake/tiny-1.');
    expect(analysis.merge_readiness.status).not.toBe('blocked');
    expect(analysis.conflicts.checked_prs).toEqual([1, 2]);
    expect(log.some((line) => line.includes('baseline analysed at the merge base'))).toBe(true);
    expect(log.some((line) => /^llm small: pr_classification -> fake\/tiny-1/.test(line) && !line.includes('sk-test'))).toBe(true);
  }, 120_000);

  it('takes no baseline from an assessment whose stored issues are not all its findings (capped per rule, or pruned)', async () => {
    const { projectId, repositoryId } = await linkedProject();
    const assessment = await api.request('POST', `/api/v1/projects/${projectId}/health/trigger`, { key: owner.key });
    const assessmentId: string = assessment.body.assessment_id;
    await healthActivities(deps).assessHealth({ projectId, assessmentId });
    const main = repo.git('rev-parse', 'main');
    expect(await storedBaseline(api.services, projectId, repositoryId, main)).toMatchObject({ assessmentId });

    await api.db.query(`UPDATE health_assessments SET metrics = metrics || '{"issues_not_listed": 12}'::jsonb WHERE id = $1`, [assessmentId]);
    expect(await storedBaseline(api.services, projectId, repositoryId, main)).toBeUndefined();
    await api.db.query(`UPDATE health_assessments SET metrics = metrics || '{"issues_not_listed": 0}'::jsonb, issues_pruned_at = now() WHERE id = $1`, [
      assessmentId,
    ]);
    expect(await storedBaseline(api.services, projectId, repositoryId, main)).toBeUndefined();
  }, 120_000);

  it('records a failure with its message, and leaves a completed run alone', async () => {
    const { projectId, repositoryId } = await linkedProject();
    const analysisId = await trigger(projectId, repositoryId, 2);
    await prActivities(deps).failPrAnalysis({ analysisId, message: 'git fetch failed: https://user:secret@host/x' });
    const failed = (await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses/${analysisId}`, { key: owner.key })).body;
    expect(failed.status).toBe('failed');
    // Read as the PR's latest analysis, it says why it failed (credentials masked) and gives no verdict.
    expect(failed.failure_reason).toBe('git fetch failed: https://***@host/x');
    expect(failed.merge_readiness.reasons).toEqual(['the analysis failed: git fetch failed: https://***@host/x']);
    const latest = (await api.request('GET', `/api/v1/projects/${projectId}/repos/${repositoryId}/prs/2/analysis`, { key: owner.key })).body;
    expect(latest).toMatchObject({ id: analysisId, status: 'failed', failure_reason: failed.failure_reason });
    await expect(prActivities(deps).analyzePullRequest({ projectId, analysisId })).resolves.toEqual({ status: 'already_finished' });
  }, 120_000);
});
