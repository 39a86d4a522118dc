// Issue comparison (exact, renamed files, renamed and moved symbols), the impact rating rules,
// and the projection scored with the real DefaultScoringModel.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../domain/types.js';
import { DefaultScoringModel } from '../scoring/default-scoring-model.js';
import { HEALTH_CATEGORY_KEYS } from '../domain/types.js';
import { issueFingerprint, legacyIssueFingerprint } from '../report/issue-id.js';
import { compareFindings, impactRating, projectHealth, type FindingScope } from './projection.js';

function finding(over: Partial<Finding> & { filePath: string }): Finding {
  return {
    source: 'static_analyzer',
    severity: 'medium',
    category: 'code_smell',
    fileGroup: 'src',
    anchor: { lineStart: 1, lineEnd: 1, codeSnippet: 'function calc(x) {', validated: true },
    title: 'Complex function',
    description: '',
    whyItMatters: '',
    suggestedAction: '',
    ruleId: 'smells/complexity',
    analyzerName: 'smells',
    confidence: 90,
    autoFixable: false,
    symbol: 'calc',
    ...over,
  };
}

const scope = (over: Partial<FindingScope> = {}): FindingScope => ({
  changed: new Set(['src/a.ts']),
  neighbours: new Set(),
  renamedFrom: new Map(),
  deleted: new Set(),
  symbolRenames: [],
  ...over,
});

describe('compareFindings', () => {
  it('reports added and fixed by fingerprint within the scope only', () => {
    const kept = finding({ filePath: 'src/a.ts' });
    const gone = finding({ filePath: 'src/a.ts', ruleId: 'smells/long', symbol: 'old' });
    const fresh = finding({ filePath: 'src/a.ts', ruleId: 'security/eval', severity: 'critical', category: 'security', symbol: 'run' });
    const outside = finding({ filePath: 'src/far.ts' });
    const c = compareFindings(
      [kept, gone, outside],
      [{ ...kept, anchor: { ...kept.anchor, lineStart: 9 } }, fresh, finding({ filePath: 'src/far.ts', symbol: 'new' })],
      scope(),
    );
    expect(c.added).toEqual([fresh]);
    expect(c.fixed).toEqual([gone]);
    expect(c.kept).toHaveLength(1);
    expect([...c.baseScope]).toEqual(['src/a.ts']);
    expect(c.prFindings.map((f) => f.ruleId).sort()).toEqual(['security/eval', 'smells/complexity']);
  });

  it('follows renamed files, renamed symbols and moves instead of reporting them as new', () => {
    const base = [
      finding({ filePath: 'src/util.ts' }),
      finding({ filePath: 'src/a.ts', symbol: 'helper', anchor: { lineStart: 3, lineEnd: 3, codeSnippet: 'function helper() {', validated: true } }),
    ];
    const head = [
      finding({ filePath: 'src/helpers.ts', symbol: 'compute', anchor: { lineStart: 1, lineEnd: 1, codeSnippet: 'function compute(x) {', validated: true } }),
      finding({ filePath: 'src/b.ts', symbol: 'helper', anchor: { lineStart: 30, lineEnd: 30, codeSnippet: 'function helper() {', validated: true } }),
    ];
    const c = compareFindings(
      base,
      head,
      scope({
        changed: new Set(['src/helpers.ts', 'src/a.ts', 'src/b.ts']),
        renamedFrom: new Map([['src/helpers.ts', 'src/util.ts']]),
        symbolRenames: [{ file: 'src/helpers.ts', from: 'calc', to: 'compute' }],
      }),
    );
    expect(c.added).toEqual([]);
    expect(c.fixed).toEqual([]);
    expect(c.kept).toHaveLength(2);
    expect(c.newFingerprints.size).toBe(0);
  });

  it('matches stored base findings by their stored fingerprint', () => {
    const head = finding({ filePath: 'src/a.ts' });
    const stored = { ...finding({ filePath: 'src/a.ts', symbol: undefined }), fingerprint: issueFingerprint(head) };
    const c = compareFindings([stored], [head], scope());
    expect(c.added).toEqual([]);
    expect(c.fixed).toEqual([]);
  });

  it('matches issues stored before identity v2 by their legacy fingerprint', () => {
    const head = finding({ filePath: 'src/a.ts' });
    const old = legacyIssueFingerprint(head);
    const stored = { ...finding({ filePath: 'src/a.ts', symbol: undefined }), fingerprint: old, legacyFingerprint: old };
    const c = compareFindings([stored], [head, finding({ filePath: 'src/a.ts', symbol: 'other' })], scope());
    expect(c.kept).toEqual([head]);
    expect(c.added.map((f) => f.symbol)).toEqual(['other']);
    expect(c.fixed).toEqual([]);
  });

  it('keeps a finding about a file as a whole (no symbol) when the first lines it is anchored at changed', () => {
    const unused = (codeSnippet: string, over: Partial<Finding> = {}) =>
      finding({
        filePath: 'src/a.ts',
        symbol: undefined,
        ruleId: 'dead-code/unused-file',
        title: 'Unused file a.ts',
        anchor: { lineStart: 1, lineEnd: 1, codeSnippet, validated: true },
        ...over,
      });
    const c = compareFindings([unused("import { a } from './x.js';")], [unused("import { a, b } from './x.js';")], scope());
    expect([c.added, c.fixed, c.kept.length]).toEqual([[], [], 1]);
    // Another title (another subject), or a finding of a symbol, is not the same issue.
    const other = unused("import { a, b } from './x.js';", { title: 'Unused file b.ts' });
    expect(compareFindings([unused('import a')], [other], scope()).added).toEqual([other]);
    const ofSymbol = unused('function calc() {', { symbol: 'calc' });
    const moved = compareFindings([unused('function calc(x) {', { symbol: 'calc' })], [ofSymbol], scope());
    expect(moved.added).toEqual([ofSymbol]);
  });

  describe('metric issues', () => {
    const complexity = (value: number, over: Partial<Finding> = {}) =>
      finding({ filePath: 'src/a.ts', metric: { values: ['complexity'] }, data: { complexity: value, threshold: 15 }, title: `Complexity ${value}`, ...over });

    it('are unchanged, worsened or improved by their value, never new + fixed', () => {
      const base = [complexity(22), complexity(43, { symbol: 'run' }), complexity(30, { symbol: 'pay' })];
      // Head: the first lines of every function edited (the snippet changed), values moved or not.
      const edit = (f: Finding) => ({ ...f, anchor: { ...f.anchor, codeSnippet: `${f.anchor.codeSnippet} // edited`, lineStart: 7 } });
      const head = [edit(complexity(22)), edit(complexity(71, { symbol: 'run' })), edit(complexity(18, { symbol: 'pay' }))];
      const c = compareFindings(base, head, scope());
      expect(c.added).toEqual([]);
      expect(c.fixed).toEqual([]);
      expect(c.worsened.map((f) => f.symbol)).toEqual(['run']);
      expect(c.improved.map((f) => f.symbol)).toEqual(['pay']);
      expect(c.changes.get(issueFingerprint(head[0]!))).toEqual({ change: 'unchanged', previousValue: 22 });
      expect(c.changes.get(issueFingerprint(head[1]!))).toEqual({ change: 'worsened', previousValue: 43 });
      expect(c.changes.get(issueFingerprint(head[2]!))).toEqual({ change: 'improved', previousValue: 30 });
    });

    it('a new metric issue is new; a worse one in a neighbour belongs to the PR, an unchanged one does not', () => {
      const neighbour = (value: number) => complexity(value, { filePath: 'src/n.ts' });
      const c = compareFindings(
        [neighbour(20), complexity(16, { filePath: 'src/m.ts' })],
        [complexity(25), neighbour(26), complexity(16, { filePath: 'src/m.ts' })],
        scope({ neighbours: new Set(['src/n.ts', 'src/m.ts']) }),
      );
      expect(c.added.map((f) => f.filePath)).toEqual(['src/a.ts']);
      expect(c.changes.get(issueFingerprint(c.added[0]!))).toEqual({ change: 'new' });
      expect(c.prFindings.map((f) => f.filePath)).toEqual(['src/a.ts', 'src/n.ts']);
    });

    it('issues of one fingerprint (long callbacks of one test file) keep a change each, by their order', () => {
      const callback = (lines: number, line: number) =>
        finding({
          filePath: 'src/a.ts',
          ruleId: 'smells/long',
          symbol: 'describe callback',
          metric: { values: ['lines'] },
          data: { lines },
          anchor: { lineStart: line, lineEnd: line + lines, codeSnippet: "describe('x', () => {", validated: true },
        });
      const head = [callback(90, 1), callback(95, 100), callback(120, 200)];
      const c = compareFindings([callback(90, 1), callback(95, 100)], head, scope());
      expect(c.added).toEqual([head[2]]);
      const fp = issueFingerprint(head[0]!);
      expect([...c.changes.entries()]).toEqual([
        [fp, { change: 'unchanged', previousValue: 90 }],
        [`${fp}#1`, { change: 'unchanged', previousValue: 95 }],
        [`${fp}#2`, { change: 'new' }],
      ]);
      expect(c.changeOf.get(head[2]!)).toEqual({ change: 'new' });
    });

    it('a worsened issue counts as introduced in the projection and the impact', () => {
      const c = compareFindings([complexity(43, { severity: 'high' })], [complexity(71, { severity: 'high' })], scope());
      const metrics = { sourceLoc: 1000, testLoc: 100 };
      const p = projectHealth({
        scoring: new DefaultScoringModel(),
        baseline: { commitSha: 'b', findings: [complexity(43, { severity: 'high' })], metrics },
        head: { findings: [complexity(71, { severity: 'high' })], metrics },
        comparison: c,
        headScope: new Set(['src/a.ts']),
        assessed: new Set(HEALTH_CATEGORY_KEYS),
      });
      expect(p.healthImpact.issues_added).toBe(1);
      expect(p.healthImpact.issues_fixed).toBe(0);
      expect(p.healthImpact.impact_rating).toBe('minor_regression');
    });
  });

  it("counts a deleted file's findings as fixed and a neighbour's new finding as part of the PR", () => {
    const c = compareFindings(
      [finding({ filePath: 'src/gone.ts' })],
      [finding({ filePath: 'src/user.ts', ruleId: 'dead/unused-export', category: 'dead_code', severity: 'low' })],
      scope({ changed: new Set(), neighbours: new Set(['src/user.ts']), deleted: new Set(['src/gone.ts']) }),
    );
    expect(c.fixed.map((f) => f.filePath)).toEqual(['src/gone.ts']);
    expect(c.added.map((f) => f.filePath)).toEqual(['src/user.ts']);
    expect(c.prFindings).toHaveLength(1);
  });
});

describe('impactRating', () => {
  const high = finding({ filePath: 'x', severity: 'high' });
  it('takes the worse of the score movement and the worst new issue', () => {
    expect(impactRating(0, [], [])).toBe('neutral');
    expect(impactRating(0.5, [], [])).toBe('improves');
    expect(impactRating(0, [], [high])).toBe('improves');
    expect(impactRating(-0.5, [], [])).toBe('minor_regression');
    expect(impactRating(0, [high], [])).toBe('minor_regression');
    expect(impactRating(-2, [], [])).toBe('major_regression');
    expect(impactRating(0, [{ ...high, severity: 'critical' }], [])).toBe('major_regression');
    expect(impactRating(-5, [], [])).toBe('critical_regression');
    expect(impactRating(1, [{ ...high, severity: 'critical', category: 'security' }], [])).toBe('critical_regression');
  });
});

describe('projectHealth', () => {
  it('scores base and base-with-head-scope with the scoring model and reports per-category deltas', () => {
    const scoring = new DefaultScoringModel();
    const assessed = new Set(HEALTH_CATEGORY_KEYS);
    const base = [finding({ filePath: 'src/a.ts' }), finding({ filePath: 'src/far.ts', symbol: 'far' })];
    const secret = finding({ filePath: 'src/a.ts', severity: 'critical', category: 'security', ruleId: 'security/hard-coded-secret', symbol: 'key' });
    const head = [base[0]!, secret];
    const s = scope();
    const comparison = compareFindings(base, head, s);
    const metrics = { sourceLoc: 2000, testLoc: 100 };
    const p = projectHealth({
      scoring,
      baseline: { commitSha: 'x', findings: base, metrics },
      head: { findings: head, metrics },
      comparison,
      headScope: s.changed,
      assessed,
    });
    const expected = scoring.score([...base, secret], metrics, assessed);
    expect(p.healthProjection.projected_overall).toBe(expected.overall);
    expect(p.healthProjection.current_overall).toBe(scoring.score(base, metrics, assessed).overall);
    expect(p.healthProjection.overall_delta).toBeLessThan(0);
    // The kept issue of the changed file is pre-existing, not the PR's own (an extension of health_impact).
    expect(p.healthImpact).toEqual({
      overall_delta: p.healthProjection.overall_delta,
      issues_added: 1,
      issues_fixed: 0,
      impact_rating: 'critical_regression',
      issues_new: 1,
      issues_worsened: 0,
      issues_pre_existing: 1,
      issues_improved: 0,
    });
    const security = p.healthProjection.category_deltas.find((d) => d.category === 'security')!;
    expect(security).toEqual({
      category: 'security',
      current_score: 100,
      projected_score: expected.categories.security.score,
      delta: expected.categories.security.score - 100,
      issues_in_pr: 1,
    });
    expect(p.healthProjection.category_deltas.find((d) => d.category === 'code_smell')).toMatchObject({ delta: 0, issues_in_pr: 1 });
    expect(p.healthProjection.category_deltas).toHaveLength(8);
  });
});
