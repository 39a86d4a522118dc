// Issue identity across a pull request's edits (issue 18 §1), on real git repositories through
// the whole PR pipeline with the real engine: a prettier-style re-format keeps every issue (none
// new, none fixed, none worse); a long function one line shorter is the same issue, improved; an
// edit at the top of a complex function leaves its unchanged complexity unchanged; a complexity
// that goes up is one worsened issue, which the counts and readiness see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo } from '../../../../test/helpers/git-repo.js';
import { createEngine, type Engine } from '../di/create-engine.js';
import { issueFingerprint as fingerprintOf, legacyIssueFingerprint } from '../report/issue-id.js';
import { identityRepoFiles, type IdentityVersionOptions } from '../../../../test/helpers/identity-code.js';
import { localCheckouts, type CommitCheckout } from './local-checkouts.js';
import { PrAnalysisPipeline, type PrPipelineOutput } from './pipeline.js';
import { issueWeight } from './readiness.js';
import type { PullRequestInfo } from './types.js';

let engine: Engine;
const open: CommitCheckout[] = [];
beforeAll(async () => {
  engine = await createEngine({ cacheDir: false, workers: 0 });
});
afterAll(async () => {
  for (const checkout of open) await checkout.dispose();
});

/** A repository at the base version and a PR branch with the head version of src/orders.ts. */
async function pullRequest(title: string, head: IdentityVersionOptions, base: IdentityVersionOptions = {}): Promise<PrPipelineOutput> {
  const repo = createGitRepo(identityRepoFiles(base));
  const baseSha = repo.git('rev-parse', 'HEAD');
  repo.git('checkout', '-q', '-b', 'topic');
  repo.write({ 'src/orders.ts': identityRepoFiles(head)['src/orders.ts']! });
  const headSha = repo.commit(title);
  repo.git('checkout', '-q', 'main');
  const pr: PullRequestInfo = { number: 7, title, body: '', baseBranch: 'main', headBranch: 'topic', baseSha, headSha, author: 'Test' };
  const checkouts = localCheckouts(repo.root);
  const checkout = await checkouts.checkout(headSha);
  open.push(checkout);
  return new PrAnalysisPipeline({ engine }).run({ headDir: checkout.path, checkouts, pr });
}

/** The recorded change of the run's finding of `rule` (one per rule in these repositories). */
function recorded(output: PrPipelineOutput, rule: string): { change: string; previousValue?: number; now: unknown } {
  const finding = output.findings.find((f) => f.ruleId === rule);
  if (!finding) throw new Error(`no ${rule} finding in the PR's issues`);
  // Keyed by the fingerprint the recorder stores for the finding (issue-records.ts).
  const change = output.issueChanges[fingerprintOf(finding)]!;
  return {
    change: change.change,
    ...(change.previousValue !== undefined ? { previousValue: change.previousValue } : {}),
    now: finding.data?.[finding.metric?.values[0] ?? ''],
  };
}

describe('issue identity across a pull request', () => {
  it('a prettier-style re-format keeps every issue: none new, none fixed, none worse, the PR ready', async () => {
    const output = await pullRequest('style: prettier', { style: 'prettier' });
    const rules = output.findings.map((f) => f.ruleId).sort();
    expect(rules).toEqual(
      expect.arrayContaining([
        'code-smell/cognitive-complexity',
        'code-smell/long-function',
        'code-smell/too-many-parameters',
        'security/command-injection',
        'security/no-eval',
      ]),
    );
    expect(output.newFingerprints.size).toBe(0);
    expect(output.result.health_impact).toMatchObject({ issues_added: 0, issues_fixed: 0 });
    expect(Object.values(output.issueChanges).map((c) => c.change)).toEqual(output.findings.map(() => 'unchanged'));
    expect(output.result.merge_readiness.status).toBe('ready');
    // The long function's line count moved with the rewrap (its header now spans lines): still unchanged.
    const long = recorded(output, 'code-smell/long-function');
    expect(long.now).not.toBe(long.previousValue);
    expect(long.change).toBe('unchanged');
    // The former fingerprint (the symbol's first lines) saw the same edit as fixed + new.
    const eval_ = output.findings.find((f) => f.ruleId === 'security/no-eval')!;
    const before = identityRepoFiles()['src/orders.ts']!.split('\n');
    const evalLine = before.findIndex((line) => line.includes('eval(')) + 1;
    expect(legacyIssueFingerprint(eval_)).not.toBe(legacyIssueFingerprint({ ...eval_, anchor: { ...eval_.anchor, codeSnippet: before[evalLine - 1]! } }));
  }, 60_000);

  it('a long function made one line shorter is the same issue, improved — not a new long function', async () => {
    const output = await pullRequest('refactor: one line less', { reportSteps: 89 });
    expect(recorded(output, 'code-smell/long-function')).toEqual({ change: 'improved', previousValue: 94, now: 93 });
    expect(output.newFingerprints.size).toBe(0);
    expect(output.result.health_impact).toMatchObject({ issues_added: 0, issues_fixed: 0 });
    expect(output.result.merge_readiness.status).toBe('ready');
  }, 60_000);

  it('an edit at the top of a complex function leaves its unchanged complexity unchanged', async () => {
    const output = await pullRequest('feat: log when routing starts', { routePrologue: true });
    expect(recorded(output, 'code-smell/cognitive-complexity')).toEqual({ change: 'unchanged', previousValue: 19, now: 19 });
    expect(recorded(output, 'code-smell/too-many-parameters').change).toBe('unchanged');
    expect(output.newFingerprints.size).toBe(0);
    expect(output.result.health_impact.issues_added).toBe(0);
    expect(output.result.merge_readiness.status).toBe('ready');
  }, 60_000);

  it('a complexity that goes up is one worsened issue, counted with the new ones and weighed by readiness', async () => {
    const output = await pullRequest('feat: tag rules', { routeExtra: 2 });
    const complexity = recorded(output, 'code-smell/cognitive-complexity');
    expect(complexity).toEqual({ change: 'worsened', previousValue: 19, now: 49 });
    const fresh = output.findings.filter((f) => output.newFingerprints.has(fingerprintOf(f)));
    expect(fresh.map((f) => f.ruleId)).not.toContain('code-smell/cognitive-complexity');
    // New: the deeply nested branches; worsened: the complexity. issues_added counts both kinds.
    expect(output.result.health_impact.issues_added).toBe(fresh.length + 1);
    expect(output.result.health_impact.issues_fixed).toBe(0);
    // Readiness weighs the worsened issue with the new ones, and says how it got worse.
    const { blocking_count, advisory_count, info_count } = output.result.merge_readiness;
    expect(blocking_count + advisory_count + info_count).toBe(fresh.length + 1);
    const worse = output.findings.find((f) => f.ruleId === 'code-smell/cognitive-complexity')!;
    const reason = output.readinessReasons.find((line) => line.includes('(code-smell/cognitive-complexity)'));
    if (issueWeight(worse) === 'info') expect(reason).toBeUndefined();
    else
      expect(reason).toBe(
        `${issueWeight(worse)}: worsened ${worse.severity} code_smell issue '${worse.title}' (complexity 19 -> 49) (code-smell/cognitive-complexity) at src/orders.ts:9`,
      );
  }, 60_000);
});
