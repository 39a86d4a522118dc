// Issue 18 §2 on a real git repository through the whole pipeline: the base side and the head side
// compare the same kinds of issue. Issues recorded with the base assessment after its scoring (the
// architecture review's import cycles) are never produced by head's run; they must not read as
// fixed, and the PR's current score is the assessment's score of the base commit.
import { describe, expect, it } from 'vitest';
import { pipelineHarness, topicPullRequest } from '../../../../test/helpers/pipeline-harness.js';
import { toWireFinding, architectureIssueOf } from '../services/architecture-findings.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { localCheckouts } from '@codehealth/engine/internal';
import { PrAnalysisPipeline, type PrPipelineOutput } from '@codehealth/engine/internal';
import { baselineOfResult, type PrBaseline } from '@codehealth/engine/internal';
import type { PullRequestInfo } from '@codehealth/engine/internal';

const BASE = {
  'package.json': JSON.stringify({ name: 'ring', version: '1.0.0', type: 'module' }, null, 2),
  'src/a.ts': "import { b } from './b.js';\n\nexport function a(n: number): number {\n  return n > 0 ? b(n - 1) : 0;\n}\n",
  'src/b.ts': "import { a } from './a.js';\n\nexport function b(n: number): number {\n  return n > 0 ? a(n - 1) : eval('1');\n}\n",
};

const harness = pipelineHarness();

/** The base commit's assessment as the worker reads it back: its findings, then the architecture review's cycle recorded after scoring. */
async function storedAssessment(repo: TestRepo): Promise<{ baseline: PrBaseline; score: number }> {
  const checkout = await localCheckouts(repo.root).checkout(repo.git('rev-parse', 'main'));
  harness.track(checkout);
  const result = await harness.engine.analyze(checkout.path, { allowCodeConfig: false });
  const cycle = toWireFinding(
    {
      rule: 'architecture/import-cycle',
      severity: 'medium',
      title: 'Import cycle: src/a.ts -> src/b.ts -> src/a.ts',
      description: 'a and b import each other',
      filePath: 'src/a.ts',
      line: 1,
      snippet: "import { b } from './b.js';",
      components: ['src'],
      modules: ['src/a.ts', 'src/b.ts'],
    },
    null,
  );
  const baseline = { ...baselineOfResult(result, repo.git('rev-parse', 'main')), assessmentId: '00000000-0000-4000-8000-000000000018' };
  return { baseline: { ...baseline, findings: [...baseline.findings, architectureIssueOf(cycle)] }, score: result.scores.overall! };
}

async function analyse(repo: TestRepo, pr: PullRequestInfo, baseline: PrBaseline): Promise<PrPipelineOutput> {
  const checkouts = localCheckouts(repo.root);
  const head = await checkouts.checkout(pr.headSha);
  harness.track(head);
  return new PrAnalysisPipeline({ engine: harness.engine }).run({ headDir: head.path, checkouts, pr, baseAssessment: { ...baseline, commitSha: pr.baseSha } });
}

describe('like for like', () => {
  it('an import cycle recorded after scoring is no phantom fix, and the current score is the base assessment’s', async () => {
    const repo = createGitRepo(BASE);
    const { baseline, score } = await storedAssessment(repo);
    const out = await analyse(repo, topicPullRequest(repo, 'Count down by two', { 'src/a.ts': BASE['src/a.ts'].replace('b(n - 1)', 'b(n - 2)') }), baseline);
    expect(out.baselineAssessmentId).toBe(baseline.assessmentId);
    expect(out.result.health_projection.current_overall).toBe(score);
    expect(out.result.health_impact).toMatchObject({ issues_fixed: 0, issues_added: 0, impact_rating: 'neutral' });
  });

  it('a real fix beside it is still a fix', async () => {
    const repo = createGitRepo(BASE);
    const { baseline, score } = await storedAssessment(repo);
    const out = await analyse(repo, topicPullRequest(repo, 'No eval', { 'src/b.ts': BASE['src/b.ts'].replace("eval('1')", '1') }), baseline);
    expect(out.result.health_projection.current_overall).toBe(score);
    expect(out.result.health_impact.issues_fixed).toBe(1);
    expect(out.result.health_impact.issues_added).toBe(0);
  });
});
