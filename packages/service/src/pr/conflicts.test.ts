import { describe, expect, it } from 'vitest';
import { PrConflictsSchema } from '../api/pr-analyses.js';
import { detectConflicts } from '@codehealth/engine/internal';
import { both, changed, graphOf, hunk, pullRequest } from './fixtures/graph.js';

const me = pullRequest(10, { title: 'fix(auth): reject expired sessions' });

describe('detectConflicts', () => {
  it('reports both PRs editing the same function as a semantic conflict, with a merge order and whom to ask', () => {
    const mine = [changed('src/auth.ts', { additions: 30, deletions: 10, hunks: [hunk(12, 3)], symbols: both('login', 10, 20) })];
    const theirs = [changed('src/auth.ts', { additions: 3, deletions: 1, hunks: [hunk(15, 1, 15, 3)], symbols: both('login', 10, 20) })];
    const result = PrConflictsSchema.parse(
      detectConflicts({ pr: me, files: mine, others: [{ pr: pullRequest(7, { title: 'Login audit', author: 'ana' }), files: theirs }] }),
    );
    expect(result.checked_prs).toEqual([7]);
    expect(result.conflicts).toHaveLength(1);
    const [conflict] = result.conflicts;
    expect(conflict).toMatchObject({ pr_number: 7, title: 'Login audit', overlapping_files: ['src/auth.ts'] });
    expect(conflict.semantic_conflict).toContain('Both PRs change `login` in src/auth.ts');
    // #7 is smaller (4 changed lines against 40): it goes first, and its author is named.
    expect(conflict.resolution_suggestion).toContain('@ana (#7)');
    expect(conflict.resolution_suggestion).toContain('merge #7 first (the smaller change: 4 vs 40 changed lines), then rebase this PR');
    expect(result.summary).toBe('Checked 1 open PR (#7): 1 edit the same symbols (#7).');
  });

  it('treats edits to different functions of one file as an overlap without semantic conflict', () => {
    const mine = [changed('src/auth.ts', { hunks: [hunk(12, 3)], symbols: both('login', 10, 20) })];
    const theirs = [changed('src/auth.ts', { hunks: [hunk(40, 2)], symbols: both('logout', 38, 45) })];
    const [conflict] = detectConflicts({ pr: me, files: mine, others: [{ pr: pullRequest(8), files: theirs }] }).conflicts;
    expect(conflict.overlapping_files).toEqual(['src/auth.ts']);
    expect(conflict.semantic_conflict).toBe('None: the PRs edit different regions of src/auth.ts (here lines 12-14; #8: lines 40-41).');
    expect(conflict.resolution_suggestion).toMatch(/^No coordination needed/);
  });

  it('flags overlapping hunks outside any symbol as a textual conflict', () => {
    const mine = [changed('config/app.json', { hunks: [hunk(4, 2)] })];
    // An insertion right after line 5 touches the lines this PR rewrites.
    const theirs = [changed('config/app.json', { hunks: [hunk(5, 0, 6, 3)] })];
    const [conflict] = detectConflicts({ pr: me, files: mine, others: [{ pr: pullRequest(9), files: theirs }] }).conflicts;
    expect(conflict.semantic_conflict).toBe(
      'None at symbol level, but the edits overlap textually: config/app.json (here lines 4-5; #9: after line 5); git will stop with a conflict.',
    );
    expect(conflict.resolution_suggestion).toContain('resolve config/app.json by hand');
  });

  it('does not call two different methods of one class a shared edit', () => {
    const mine = [
      changed('src/cart.ts', { hunks: [hunk(5, 1)], symbols: [...both('Cart', 1, 40, true, 'class'), ...both('Cart.add', 4, 8, false, 'method')] }),
    ];
    const theirs = [
      changed('src/cart.ts', { hunks: [hunk(30, 1)], symbols: [...both('Cart', 1, 40, true, 'class'), ...both('Cart.total', 28, 35, false, 'method')] }),
    ];
    const [conflict] = detectConflicts({ pr: me, files: mine, others: [{ pr: pullRequest(4), files: theirs }] }).conflicts;
    expect(conflict.semantic_conflict).toMatch(/^None: the PRs edit different regions/);
  });

  it('matches a renamed file with edits to its old path, and asks to regenerate lockfiles', () => {
    const mine = [
      changed('src/session-store.ts', { oldPath: 'src/sessions.ts', status: 'renamed', hunks: [hunk(3, 1)], symbols: both('save', 2, 6) }),
      changed('package-lock.json', { kind: 'generated', generated: true, hunks: [hunk(100, 4)] }),
    ];
    const theirs = [
      changed('src/sessions.ts', { hunks: [hunk(4, 1)], symbols: both('save', 2, 6) }),
      changed('package-lock.json', { kind: 'generated', generated: true, hunks: [hunk(900, 2)] }),
    ];
    const [conflict] = detectConflicts({ pr: me, files: mine, others: [{ pr: pullRequest(5), files: theirs }] }).conflicts;
    expect(conflict.overlapping_files).toEqual(['package-lock.json', 'src/session-store.ts']);
    expect(conflict.semantic_conflict).toContain('`save` in src/session-store.ts');
    expect(conflict.resolution_suggestion).toContain('do not hand-merge package-lock.json');
  });

  it('finds a PR editing a file that uses a symbol this PR changes, without any shared file', () => {
    const graph = graphOf({
      'src/order.ts': 'export function total(items: number[]): number {\n  return items.reduce((a, b) => a + b, 0);\n}\nexport const VERSION = 1;\n',
      'src/cart.ts': "import { total } from './order.js';\nexport const sum = (xs: number[]) => total(xs);\n",
      'src/view.ts': "import { VERSION } from './order.js';\nexport const v = VERSION;\n",
    });
    const mine = [changed('src/order.ts', { symbols: both('total', 1, 3) })];
    const others = [
      { pr: pullRequest(3, { author: 'bo' }), files: [changed('src/cart.ts', { symbols: both('sum', 2, 2) })] },
      { pr: pullRequest(6), files: [changed('src/view.ts')] },
    ];
    const result = detectConflicts({ pr: me, files: mine, others, graph });
    expect(result.checked_prs).toEqual([3, 6]);
    expect(result.conflicts.map((c) => c.pr_number)).toEqual([3]);
    expect(result.conflicts[0]).toMatchObject({ overlapping_files: [] });
    expect(result.conflicts[0].semantic_conflict).toContain('#3 edits src/cart.ts, which uses `total` that this PR changes in src/order.ts');
    expect(result.conflicts[0].resolution_suggestion).toContain('Tell @bo (#3) that `total` changes; after either PR merges, rebase the other');
    expect(result.summary).toBe('Checked 2 open PRs (#3, #6): 1 edit code that uses a symbol the other changes (#3); 1 have no overlap.');
  });

  it('orders conflicts by severity, skips the PR itself and names the stack order for stacked PRs', () => {
    const mine = [changed('src/a.ts', { hunks: [hunk(1, 1)], symbols: both('a', 1, 3) }), changed('src/b.ts', { hunks: [hunk(1, 1)] })];
    const others = [
      { pr: me, files: mine },
      { pr: pullRequest(2), files: [changed('src/b.ts', { hunks: [hunk(50, 1)] })] },
      { pr: pullRequest(3), files: [changed('src/a.ts', { hunks: [hunk(2, 1)], symbols: both('a', 1, 3) })] },
    ];
    const result = detectConflicts({ pr: me, files: mine, others, stack: [3, 10] });
    expect(result.checked_prs).toEqual([2, 3]);
    expect(result.conflicts.map((c) => c.pr_number)).toEqual([3, 2]);
    expect(result.conflicts[0].resolution_suggestion).toContain("#3 is in this PR's stack: merge in stack order (#3, then #10)");
  });

  it('says so when there is nothing to compare with', () => {
    expect(detectConflicts({ pr: me, files: [changed('src/a.ts')], others: [] })).toEqual({
      conflicts: [],
      checked_prs: [],
      summary: 'No other open pull requests to compare with.',
    });
  });
});
