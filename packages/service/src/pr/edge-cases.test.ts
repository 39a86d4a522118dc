// Issue 18 §4 on real git repositories through the whole pipeline: an empty PR (head = base) and a
// PR whose head is already merged complete with a clear result instead of failing in git's diff
// reader; a PR next to them with one real change is still analysed as before. A PR stacked on
// another is compared with its parent's head, and a conflict belongs to the PR that made the change.
import { describe, expect, it } from 'vitest';
import { PrAnalysisResultSchema } from '../api/pr-analyses.js';
import { pipelineHarness } from '../../../../test/helpers/pipeline-harness.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { localCheckouts } from '@codehealth/engine/internal';
import { PrAnalysisPipeline, type PrPipelineOutput } from '@codehealth/engine/internal';
import type { PullRequestInfo } from '@codehealth/engine/internal';

const BASE = {
  'package.json': JSON.stringify({ name: 'calc', version: '1.0.0', type: 'module' }, null, 2),
  'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'src/math.test.ts': "import { add } from './math.js';\nif (add(1, 1) !== 2) throw new Error('broken');\n",
};

const harness = pipelineHarness();

const pr = (baseSha: string, headSha: string, title = 'Change'): PullRequestInfo => ({
  number: 7,
  title,
  body: '',
  baseBranch: 'main',
  headBranch: 'topic',
  baseSha,
  headSha,
  author: 'Test',
});

async function analyse(repo: TestRepo, info: PullRequestInfo, otherOpenPrs: PullRequestInfo[] = []): Promise<PrPipelineOutput> {
  const checkouts = localCheckouts(repo.root);
  const head = await checkouts.checkout(info.headSha);
  harness.track(head);
  const output = await new PrAnalysisPipeline({ engine: harness.engine }).run({ headDir: head.path, checkouts, pr: info, otherOpenPrs });
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
    expect(out.result.health_impact).toEqual({
      overall_delta: 0,
      issues_added: 0,
      issues_fixed: 0,
      impact_rating: 'neutral',
      issues_new: 0,
      issues_worsened: 0,
      issues_pre_existing: 0,
      issues_improved: 0,
    });
    expect(out.readinessReasons).toEqual([`no changes: head ${sha.slice(0, 12)} is the base commit`]);
    expect(out.result.merge_readiness).toMatchObject({ reasons: out.readinessReasons, confidence: 100, confidence_reasons: [] });
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

  it('a PR stacked on another is compared with its parent’s head: the parent’s eval and README edit are not its own', async () => {
    const repo = createGitRepo({ ...BASE, 'README.md': '# calc\n\nAdds numbers.\n' });
    const main = repo.git('rev-parse', 'HEAD');
    const open = (number: number, branch: string, from: string, title: string, files: Record<string, string>): PullRequestInfo => {
      repo.git('checkout', '-q', '-b', branch, from);
      repo.write(files);
      const headSha = repo.commit(title);
      repo.git('checkout', '-q', 'main');
      // Every PR targets main: B is stacked on A only through its commits.
      return { number, title, body: '', baseBranch: 'main', headBranch: branch, baseSha: main, headSha, author: 'Test' };
    };
    const a = open(1, 'a', main, 'feat: evaluate', {
      'src/evaluate.ts': 'export function evaluate(s: string): number {\n  return eval(s);\n}\n',
      'README.md': '# calc\n\nAdds and evaluates.\n',
    });
    const b = open(2, 'b', a.headSha, 'feat: sub', {
      'src/math.ts': `${BASE['src/math.ts']}\nexport function sub(a: number, b: number): number {\n  return a - b;\n}\n`,
    });
    const c = open(3, 'c', main, 'docs: describe calc', { 'README.md': '# calc\n\nAdds numbers quickly.\n' });

    const stacked = await analyse(repo, b, [a, c]);
    // Before: B's diff from main held A's files, B was blocked by A's eval and conflicted with C over A's README line.
    expect(stacked.diff.files.map((f) => f.path)).toEqual(['src/math.ts']);
    expect(stacked.diff.mergeBaseSha).toBe(a.headSha);
    expect(stacked.result.merge_readiness.status).not.toBe('blocked');
    expect(stacked.result.stacked_prs).toMatchObject({ is_stacked: true, parent_prs: [1] });
    expect(stacked.result.conflicts.conflicts.map((x) => x.pr_number)).toEqual([]);

    // The parent owns its change: A is still blocked by its eval and conflicts with C on the README.
    const parent = await analyse(repo, a, [b, c]);
    expect(parent.diff.files.map((f) => f.path).sort()).toEqual(['README.md', 'src/evaluate.ts']);
    expect(parent.result.merge_readiness.status).toBe('blocked');
    expect(parent.result.conflicts.conflicts.map((x) => x.pr_number)).toEqual([3]);
    // And C sees its conflict with A, not with B (whose own diff no longer holds A's README line).
    const docs = await analyse(repo, c, [a, b]);
    expect(docs.result.conflicts.conflicts.map((x) => x.pr_number)).toEqual([1]);
  });
});
