// The repository-rules phase: analyzers as units of work shared with a worker through one
// counter, every rule run once, outcomes merged in rule order whoever ran them, a failed worker's
// groups run here, and publishing as each rule's own calls would have published.
import { describe, expect, it } from 'vitest';
import type { RepositoryRule } from '../contracts/analyzer.js';
import type { ActiveRepositoryRule } from '../plugins/rule-set.js';
import type { RepoSnapshot } from '../snapshot/types.js';
import type { CodeGraph } from '../graph/types.js';
import { groupsOf, publishOutcomes, runRepositoryRules, runRule, type RemoteRules, type RuleInputs, type RuleOutcome } from './repository-rules.js';

/** A rule that records each run and publishes its id as a metric, a report and a convention. */
function rule(analyzerId: string, id: string, runs: string[], behaviour: Partial<RepositoryRule> = {}): ActiveRepositoryRule {
  return {
    analyzerId,
    qualifiedId: `${analyzerId}/${id}`,
    options: undefined,
    rule: {
      kind: 'repository',
      meta: { id, description: id, category: 'maintainability', severity: 'low', docs: { whyItMatters: 'w', suggestedAction: 's' } },
      analyze(context) {
        runs.push(`${analyzerId}/${id}`);
        context.progress(`inside ${id}`);
        context.metric(id, runs.length);
        context.report({ filePath: `${id}.ts`, lineStart: 1, title: id, description: id });
        context.conventions([{ name: id, pattern: id, adoption: 100, files: 1 } as never]);
      },
      ...behaviour,
    } as RepositoryRule,
  };
}

const inputs = { snapshot: {} as RepoSnapshot, summaries: [], graph: {} as CodeGraph, signal: new AbortController().signal } satisfies RuleInputs;
const noop = { progress: () => undefined, checkpoint: () => undefined };

/** A remote that claims groups as a worker would, running them with the same rule objects. */
function fakeRemote(rules: ActiveRepositoryRule[], options: { claims?: number; failAfter?: number } = {}): RemoteRules & { ran: number[] } {
  const ran: number[] = [];
  return {
    ran,
    async run(groups, claim, onGroup) {
      for (let n = 0; n < (options.claims ?? Infinity); n++) {
        const group = Atomics.add(claim, 0, 1);
        if (group >= groups.length) return;
        if (options.failAfter !== undefined && n >= options.failAfter) throw new Error('worker died');
        const outcomes: RuleOutcome[] = [];
        for (const id of groups[group]) {
          const progress: string[] = [];
          outcomes.push({ ...(await runRule(rules.find((r) => r.qualifiedId === id)!, inputs, (m) => progress.push(m))), progress });
        }
        ran.push(group);
        onGroup(group, outcomes);
      }
    },
  };
}

describe('repository rules phase', () => {
  it('groups consecutive rules of one analyzer', () => {
    const runs: string[] = [];
    const rules = [rule('a', 'x', runs), rule('a', 'y', runs), rule('b', 'x', runs), rule('c', 'x', runs), rule('c', 'y', runs)];
    expect(groupsOf(rules)).toEqual([[0, 1], [2], [3, 4]]);
  });

  it('runs every rule once, shares analyzers with the remote and returns outcomes in rule order', async () => {
    const runs: string[] = [];
    const rules = [rule('a', 'x', runs), rule('b', 'y', runs), rule('b', 'z', runs), rule('c', 'w', runs)];
    // The remote claims first (it is already waiting), then the main thread takes what is left.
    const remote = fakeRemote(rules, { claims: 1 });
    const progress: string[] = [];
    const outcomes = await runRepositoryRules(rules, inputs, { ...noop, remote, progress: (m) => progress.push(m) });
    expect(remote.ran).toEqual([0]);
    expect([...runs].sort()).toEqual(['a/x', 'b/y', 'b/z', 'c/w']);
    expect(outcomes.map((o) => o.reports[0].title)).toEqual(['x', 'y', 'z', 'w']);
    // Rules run here report live; the remote's are replayed when its group arrives.
    expect(progress).toEqual(expect.arrayContaining(['Running a/x', 'inside x', 'Running b/y', 'inside y', 'Running c/w']));
    expect(progress.filter((m) => m.startsWith('Running'))).toHaveLength(4);
  });

  it('runs here the groups a failed remote left unanswered', async () => {
    const runs: string[] = [];
    const rules = [rule('a', 'x', runs), rule('b', 'y', runs), rule('c', 'z', runs)];
    // The remote claims two groups and dies on the second: that one must still run.
    const remote = fakeRemote(rules, { claims: 2, failAfter: 1 });
    const outcomes = await runRepositoryRules(rules, inputs, { ...noop, remote });
    expect(remote.ran).toEqual([0]);
    expect([...runs].sort()).toEqual(['a/x', 'b/y', 'c/z']);
    expect(outcomes.map((o) => o.reports[0].title)).toEqual(['x', 'y', 'z']);
  });

  it('fails with the error of a rule that throws, and stops at the checkpoint', async () => {
    const runs: string[] = [];
    const broken = rule('b', 'y', runs, {
      analyze: () => {
        throw new Error('rule exploded');
      },
    });
    await expect(runRepositoryRules([rule('a', 'x', runs), broken], inputs, noop)).rejects.toThrow('rule exploded');
    let checks = 0;
    const checkpoint = () => {
      if (++checks === 2) throw new Error('analysis aborted');
    };
    await expect(runRepositoryRules([rule('a', 'x', runs), rule('b', 'y', runs)], inputs, { ...noop, checkpoint })).rejects.toThrow('analysis aborted');
  });

  it('publishes outcomes as the rules would have: later metric values win, reports outside the scope are dropped', async () => {
    const rules = [rule('dup', 'd', []), rule('sarif', 's', [])];
    const outcomes: RuleOutcome[] = [
      {
        reports: [{ filePath: 'src/a.ts', lineStart: 2, lineEnd: 3, title: 'T', description: 'D' }],
        metrics: [
          ['duplicationIndex', 5],
          ['clones', 2],
          ['duplicationIndex', 7],
          ['ignored', null],
        ],
        conventions: [{ name: 'n1' } as never],
      },
      {
        reports: [
          { filePath: 'src/b.ts', lineStart: 1, title: 'S', description: 'D', origin: { ruleId: 'eslint/no-x', analyzerName: 'eslint' } },
          { filePath: 'out/c.ts', lineStart: 1, title: 'C', description: 'D' },
        ],
        metrics: [['actualCoveragePercent', null]],
        conventions: [{ name: 'n2' } as never],
      },
    ];
    const files: Record<string, string> = { 'src/a.ts': 'one\ntwo\nthree\n', 'src/b.ts': 'bee\n' };
    const read = async (path: string) => files[path] ?? Promise.reject(new Error('missing'));
    const published = await publishOutcomes(rules, outcomes, read, (path) => path.startsWith('src/'));
    expect(published.wellKnown).toEqual({ duplicationIndex: 7, actualCoveragePercent: null });
    expect(published.analyzerMetrics).toEqual({ 'dup.clones': 2 });
    expect(published.conventions.map((c) => c.name)).toEqual(['n1', 'n2']);
    expect(published.findings.map((f) => [f.ruleId, f.filePath, f.anchor.lineStart, f.anchor.codeSnippet, f.analyzerName])).toEqual([
      ['dup/d', 'src/a.ts', 2, 'two\nthree', 'dup'],
      ['eslint/no-x', 'src/b.ts', 1, 'bee', 'eslint'],
    ]);
  });
});
