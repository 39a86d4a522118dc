// The large model slot wired through the worker's activities, end to end on a real local
// repository, a PGlite store, the real engine and a local OpenAI-compatible server: a PR analysis
// records the model's validated findings as new `llm_agent` issues in PR context (and drops the
// hallucinated ones), completes without them when the model fails, and an architecture review
// stores the model's narrative as its summary.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '@codehealth/engine';
import { defaultCodeHosts, type LlmSlot } from '@codehealth/service';
import { createTestApi, type TestApi, type TestUser } from '../../../../test/helpers/test-api.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { startFakeOpenAi, type FakeOpenAi } from '../../../../test/infra/fake-openai.js';
import { architectureActivities } from './architecture-activities.js';
import { prActivities, type PrActivityDeps } from './pr-activities.js';
import { RepositoryCheckouts } from './repository-checkout.js';

const SOURCES = {
  'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', license: 'MIT', type: 'module' }),
  'src/cart.ts':
    'export function total(items: { price: number; qty: number }[]): number {\n  return items.reduce((sum, item) => sum + item.price * item.qty, 0);\n}\n',
  'src/index.ts': "import { total } from './cart.js';\nexport const UNCHANGED_INDEX = total([]);\n",
};
const BUGGY_LINE = '  return items.reduce((sum, item) => sum + item.price, 0);';

let api: TestApi;
let owner: TestUser;
let repo: TestRepo;
let workDir: string;
let llm: FakeOpenAi;
let deps: PrActivityDeps;
let largeModel: LlmSlot;
const log: string[] = [];

beforeAll(async () => {
  workDir = mkdtempSync(join(tmpdir(), 'codehealth-llm-activities-'));
  api = await createTestApi({ codeHosts: defaultCodeHosts({ allowLocalRepos: true }), serviceOptions: { allowLocalRepos: true } });
  owner = await api.createUser();
  repo = createGitRepo(SOURCES);
  repo.git('checkout', '-q', '-b', 'topic-1');
  repo.write({ 'src/cart.ts': SOURCES['src/cart.ts'].replace('  return items.reduce((sum, item) => sum + item.price * item.qty, 0);', BUGGY_LINE) });
  repo.git('update-ref', 'refs/pull/1/head', repo.commit('fix: simpler total'));
  repo.git('checkout', '-q', 'main');
  llm = await startFakeOpenAi();
  largeModel = { slot: 'large', provider: 'fake', model: 'big-1', apiKey: 'sk-large-secret-999', baseUrl: llm.baseUrl };
  const engine = await createEngine({ cacheDir: join(workDir, 'cache'), workers: 0 });
  deps = {
    services: api.services,
    engine,
    checkouts: new RepositoryCheckouts({ workDir, allowLocal: true }),
    log: (line) => log.push(line),
    smallModel: null,
    largeModel,
  };
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

async function analysePr(): Promise<{ runId: string; projectId: string }> {
  const { projectId, repositoryId } = await linkedProject();
  const trigger = await api.request('POST', `/api/v1/projects/${projectId}/repos/${repositoryId}/prs/1/analyze`, { key: owner.key, body: {} });
  expect(trigger.status, JSON.stringify(trigger.body)).toBe(201);
  await expect(prActivities(deps).analyzePullRequest({ projectId, analysisId: trigger.body.id })).resolves.toEqual({ status: 'completed' });
  const analysis = (await api.request('GET', `/api/v1/projects/${projectId}/pr-analyses/${trigger.body.id}`, { key: owner.key })).body;
  expect(analysis.status).toBe('completed');
  return { runId: analysis.analysis_run_id, projectId };
}

const llmIssuesOf = (runId: string) =>
  api.db.query<{
    rule_id: string;
    analyzer_name: string;
    is_new: boolean;
    context_type: string;
    file_path: string;
    line_start: number;
    validated: boolean;
    code_snippet: string;
    confidence: number;
  }>(
    `SELECT rule_id, analyzer_name, is_new, context_type, file_path, line_start, validated, code_snippet, confidence FROM issues WHERE context_id = $1 AND source = 'llm_agent'`,
    [runId],
  );

describe('the large model slot in the worker activities', () => {
  it('records the validated findings of the diff review as new llm_agent issues of the PR analysis', async () => {
    const finding = {
      file: 'src/cart.ts',
      line_start: 2,
      line_end: 2,
      severity: 'high',
      category: 'runtime',
      title: 'Quantity ignored in total',
      description: 'The total adds each price once, whatever the quantity.',
      why_it_matters: 'Orders with several units are undercharged.',
      suggested_action: 'Multiply by item.qty again.',
      confidence: 90,
      quoted_code: BUGGY_LINE.trim(),
    };
    llm.script([{ content: JSON.stringify({ findings: [finding, { ...finding, file: 'src/payments.ts', title: 'Hallucinated' }] }) }]);
    const before = llm.requests.length;
    const { runId } = await analysePr();

    expect(await llmIssuesOf(runId)).toEqual([
      {
        rule_id: 'llm/runtime',
        analyzer_name: 'llm-agent',
        is_new: true,
        context_type: 'pr_analysis',
        file_path: 'src/cart.ts',
        line_start: 2,
        validated: true,
        code_snippet: BUGGY_LINE,
        confidence: 90,
      },
    ]);
    expect(llm.requests.length - before).toBe(1);
    const user = (llm.requests[before]!.body.messages as Array<{ content: string }>)[1]!.content;
    expect(user).toContain(`2 + ${BUGGY_LINE}`);
    expect(user).not.toContain('UNCHANGED_INDEX');
    expect(log.some((line) => /^llm large: pr_diff_review -> fake\/big-1 at 127\.0\.0\.1:\d+\/v1/.test(line))).toBe(true);
    expect(log).toContain(
      'llm diff review: 1 findings kept (1 quote-validated), 1 dropped, 1 hunks of 1 files sent (' + user.length + ' chars), 0 files or parts skipped',
    );
    expect(log.join('\n')).not.toContain('sk-large-secret');
  }, 120_000);

  it('completes the PR analysis without model findings when the model answers nonsense', async () => {
    llm.script([{ content: 'Looks good to me!' }]);
    const { runId } = await analysePr();
    expect(await llmIssuesOf(runId)).toEqual([]);
    expect(log.some((line) => line.startsWith('llm diff review: no findings from fake/big-1 (invalid_json: the answer is not JSON'))).toBe(true);
  }, 120_000);

  it('stores the model narrative as the summary of an architecture review', async () => {
    const { projectId } = await linkedProject();
    const trigger = await api.request('POST', `/api/v1/projects/${projectId}/architecture/reviews/trigger`, { key: owner.key });
    expect(trigger.status).toBe(201);
    const narrative =
      'The code forms one small component whose modules depend on each other in a single direction, and the review found none of the problems it looks for.';
    llm.script([{ content: JSON.stringify({ narrative }) }]);
    const before = llm.requests.length;
    await expect(architectureActivities(deps).reviewArchitecture({ reviewId: trigger.body.id })).resolves.toEqual({ status: 'completed' });
    const review = (await api.request('GET', `/api/v1/projects/${projectId}/architecture/reviews/${trigger.body.id}`, { key: owner.key })).body;
    expect(review).toMatchObject({
      status: 'completed',
      summary: `${narrative} (Narrative by the large model fake/big-1 from the review's computed findings and metrics.)`,
    });
    const sent = JSON.parse((llm.requests[before]!.body.messages as Array<{ content: string }>)[1]!.content);
    expect(sent.metrics.modules).toBe(review.metrics.modules);
    expect(JSON.stringify(sent)).not.toContain('items.reduce');

    // Without a large slot the computed summary is stored.
    const again = await api.request('POST', `/api/v1/projects/${projectId}/architecture/reviews/trigger`, { key: owner.key });
    await architectureActivities({ ...deps, largeModel: null }).reviewArchitecture({ reviewId: again.body.id });
    const plain = (await api.request('GET', `/api/v1/projects/${projectId}/architecture/reviews/${again.body.id}`, { key: owner.key })).body;
    expect(plain.summary).toMatch(/^Reviewed \d+ source modules? in \d+ components?: /);
  }, 120_000);
});
