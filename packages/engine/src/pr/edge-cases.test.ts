// Issue 18 §4 on real git repositories through the whole pipeline: an empty PR (head = base) and a
// PR whose head is already merged complete with a clear result instead of failing in git's diff
// reader; a PR next to them with one real change is still analysed as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrAnalysisResultSchema } from '../api/pr-analyses.js';
import { createEngine, type Engine } from '../di/create-engine.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { localCheckouts, type CommitCheckout } from './local-checkouts.js';
import { PrAnalysisPipeline, type PrPipelineOutput } from './pipeline.js';
import type { PullRequestInfo } from './types.js';

const BASE = {
  'package.json': JSON.stringify({ name: 'calc', version: '1.0.0', type: 'module' }, null, 2),
  'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'src/math.test.ts': "import { add } from './math.js';\nif (add(1, 1) !== 2) throw new Error('broken');\n",
};

let engine: Engine;
const open: CommitCheckout[] = [];
beforeAll(async () => {
  engine = await createEngine({ cacheDir: false, workers: 0 });
});
afterAll(async () => {
  for (const checkout of open) await checkout.dispose();
});

const pr = (baseSha: string, headSha: string, title = 'Change'): PullRequestInfo => ({ number: 7, title, body: '', baseBranch: 'main', headBranch: 'topic', baseSha, headSha, author: 'Test' });

async function analyse(repo: TestRepo, info: PullRequestInfo): Promise<PrPipelineOutput> {
  const checkouts = localCheckouts(repo.root);
  const head = await checkouts.checkout(info.headSha);
  open.push(head);
  const output = await new PrAnalysisPipeline({ engine }).run({ headDir: head.path, checkouts, pr: info });
  expect(PrAnalysisResultSchema.safeParse(output.result).success).toBe(true);
  return output;
}

describe('PR edge cases', () => {
  it('an empty PR (head = base) completes: nothing changed, ready, neutral', async () => {
    const repo = createGitRepo(BASE);
    const sha = repo.git('rev-parse', 'HEAD');
    const out = await analyse(repo, pr(sha, sha));
    expect(out.diff.files).toEqual([]);
    expect(out.result.merge_readiness).toMatchObject({ status: 'ready', blocking_count: 0, advisory_count: 0 });
    expect(out.result.health_impact).toEqual({ overall_delta: 0, issues_added: 0, issues_fixed: 0, impact_rating: 'neutral' });
    expect(out.readinessReasons).toEqual([`no changes: head ${sha.slice(0, 12)} is the base commit`]);
    expect(out.findings).toEqual([]);
  });

  it('a head already merged into base completes with the same clear result; a real change beside it is still analysed', async () => {
    const repo = createGitRepo(BASE);
    repo.git('checkout', '-q', '-b', 'topic');
    repo.write({ 'src/math.ts': `${BASE['src/math.ts']}\nexport function sub(a: number, b: number): number {\n  return a - b;\n}\n` });
    const head = repo.commit('feat: sub');
    repo.git('checkout', '-q', 'main');
    const before = repo.git('rev-parse', 'HEAD');
    repo.git('merge', '-q', '--no-ff', '-m', 'Merge pull request #7 from acme/topic', 'topic');
    const merged = repo.git('rev-parse', 'HEAD');
    const out = await analyse(repo, pr(merged, head, 'feat: sub'));
    expect(out.diff.files).toEqual([]);
    expect(out.result.merge_readiness.status).toBe('ready');
    expect(out.readinessReasons).toEqual([`no changes: head ${head.slice(0, 12)} is already merged into base ${merged.slice(0, 12)}`]);
    // The same head against the base it was opened on is a feature with one changed file.
    const live = await analyse(repo, pr(before, head, 'feat: sub'));
    expect(live.diff.files.map((f) => f.path)).toEqual(['src/math.ts']);
    expect(live.result.classification.primary_intent).toBe('feature');
    expect(live.result.graph_impact.changed_symbols).toEqual([{ name: 'sub', file: 'src/math.ts', kind: 'function' }]);
  });
});
