// The repository-rules phase: analyzers as units of work claimed by this thread and a worker (the
// worker first those that never read the graph), every rule run once, outcomes merged in rule
// order whoever ran them, a failed worker's groups run here, the graph read only by rules that
// read it, and publishing as each rule's own calls would have published.
import { describe, expect, it } from 'vitest';
import type { RepositoryRule } from '../contracts/analyzer.js';
import type { ActiveRepositoryRule } from '../plugins/rule-set.js';
import type { RepoSnapshot } from '../snapshot/types.js';
import type { CodeGraph } from '../graph/types.js';
import {
  claimGroup,
  claimOrders,
  groupsOf,
  publishOutcomes,
  runRepositoryRules,
  runRule,
  type RemoteRules,
  type RuleInputs,
  type RuleOutcome,
} from './repository-rules.js';

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
    async run(groups, claim, order, onGroup) {
      let n = 0;
      for (const group of order) {
        if (n >= (options.claims ?? Infinity)) return;
        if (!claimGroup(claim, group)) continue;
        if (options.failAfter !== undefined && n >= options.failAfter) throw new Error('worker died');
        n++;
        const outcomes: RuleOutcome[] = [];
        for (const id of groups[group]) {
          const progress: string[] = [];
          outcomes.push({
            ...(await runRule(
              rules.find((r) => r.qualifiedId === id)!,
              inputs,
              (m) => progress.push(m),
            )),
            progress,
          });
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

  it('gives the remote the analyzers that never read the graph first, and this thread the others', async () => {
    const runs: string[] = [];
    const free = (analyzerId: string, id: string) => ({ ...rule(analyzerId, id, runs), readsGraph: false });
    const rules = [rule('a', 'x', runs), free('b', 'y'), free('b', 'z'), rule('c', 'w', runs), free('d', 'v')];
    expect(claimOrders(rules, groupsOf(rules))).toEqual({ here: [0, 2, 1, 3], remote: [1, 3, 0, 2] });
    const remote = fakeRemote(rules, { claims: 1 });
    const outcomes = await runRepositoryRules(rules, inputs, { ...noop, remote });
    expect(remote.ran).toEqual([1]);
    // This thread: its own first, then what the remote left, each in rule order.
    expect(runs.filter((r) => !r.startsWith('b/'))).toEqual(['a/x', 'c/w', 'd/v']);
    expect([...runs].sort()).toEqual(['a/x', 'b/y', 'b/z', 'c/w', 'd/v']);
    expect(outcomes.map((o) => o.reports[0].title)).toEqual(['x', 'y', 'z', 'w', 'v']);
    // Each group is claimed once, whichever thread asks first.
    const claim = new Int32Array(new SharedArrayBuffer(8));
    expect([claimGroup(claim, 1), claimGroup(claim, 1), claimGroup(claim, 0)]).toEqual([true, false, true]);
    // Without a remote, in rule order.
    runs.length = 0;
    await runRepositoryRules(rules, inputs, noop);
    expect(runs).toEqual(['a/x', 'b/y', 'b/z', 'c/w', 'd/v']);
  });

  it('starts the remote before it makes inputs made on demand, and makes them once, only to run rules here', async () => {
    const runs: string[] = [];
    const events: string[] = [];
    const rules = [rule('a', 'x', runs), rule('b', 'y', runs), rule('c', 'z', runs)];
    const remote = fakeRemote(rules, { claims: 1 });
    const started: RemoteRules = { run: (...args) => (events.push('remote'), remote.run(...args)) };
    const make = async () => (events.push('inputs'), inputs);
    const outcomes = await runRepositoryRules(rules, make, { ...noop, remote: started });
    expect(events).toEqual(['remote', 'inputs']);
    expect([...runs].sort()).toEqual(['a/x', 'b/y', 'c/z']);
    expect(outcomes.map((o) => o.reports[0].title)).toEqual(['x', 'y', 'z']);
    // A remote that claims every group at once: nothing runs here, nothing is made.
    events.length = 0;
    const greedy: RemoteRules = {
      async run(groups, claim, order, onGroup) {
        const mine = order.filter((group) => claimGroup(claim, group));
        for (const group of mine)
          onGroup(
            group,
            await Promise.all(
              groups[group].map((id) =>
                runRule(
                  rules.find((r) => r.qualifiedId === id)!,
                  inputs,
                  () => undefined,
                ),
              ),
            ),
          );
      },
    };
    expect((await runRepositoryRules(rules, make, { ...noop, remote: greedy })).map((o) => o.reports[0].title)).toEqual(['x', 'y', 'z']);
    expect(events).toEqual([]);
  });

  it('hands a rule the graph only when it reads it', async () => {
    let reads = 0;
    const counting = {
      ...inputs,
      get graph() {
        reads++;
        return inputs.graph;
      },
    } satisfies RuleInputs;
    await runRule(rule('a', 'x', []), counting, () => undefined);
    expect(reads).toBe(0);
    const reader = rule('b', 'y', [], { analyze: (context) => void context.graph.modules });
    await runRule(reader, counting, () => undefined);
    expect(reads).toBe(1);
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
