import { describe, expect, it } from 'vitest';
import { StackedPrsSchema } from '../api/pr-analyses.js';
import { pullRequest } from './fixtures/graph.js';
import { detectStackedPrs, type StackCandidate } from '@codehealth/engine/internal';

const sha = (n: number) => String(n).padStart(40, '0');

describe('detectStackedPrs', () => {
  it('reports a PR with no open parent or child as not stacked', () => {
    const openPrs: StackCandidate[] = [
      { pr: pullRequest(1), commits: [sha(1)] },
      { pr: pullRequest(2), commits: [sha(2)] },
    ];
    const result = detectStackedPrs({ prNumber: 1, openPrs });
    expect(StackedPrsSchema.parse(result)).toEqual({
      is_stacked: false,
      stacked_prs: [],
      parent_prs: [],
      child_prs: [],
      summary: expect.stringContaining('not stacked'),
    });
  });

  it('stacks a PR whose base branch is another open PR head branch, seen from both ends', () => {
    const openPrs: StackCandidate[] = [
      { pr: pullRequest(1, { headBranch: 'auth-core' }) },
      { pr: pullRequest(2, { baseBranch: 'auth-core' }) },
      { pr: pullRequest(3) },
    ];
    const child = detectStackedPrs({ prNumber: 2, openPrs });
    expect(child).toMatchObject({ is_stacked: true, stacked_prs: [1, 2], parent_prs: [1], child_prs: [] });
    expect(child.summary).toContain("its base branch is #1's head branch");
    expect(child.summary).toContain('Merge #1 before this PR');
    const parent = detectStackedPrs({ prNumber: 1, openPrs });
    expect(parent).toMatchObject({ is_stacked: true, stacked_prs: [1, 2], parent_prs: [], child_prs: [2] });
    expect(parent.summary).toContain('the base of #2');
    expect(detectStackedPrs({ prNumber: 3, openPrs }).is_stacked).toBe(false);
  });

  it('orders an ancestry stack nearest first and bottom to top', () => {
    // #3 holds #2's and #1's head commits; #2 holds #1's: a chain 1 <- 2 <- 3.
    const openPrs: StackCandidate[] = [
      { pr: pullRequest(3), commits: [sha(3), 'c'.repeat(40), sha(2), sha(1)] },
      { pr: pullRequest(1), commits: [sha(1)] },
      { pr: pullRequest(2), commits: [sha(2), sha(1)] },
    ];
    const top = detectStackedPrs({ prNumber: 3, openPrs });
    expect(top).toMatchObject({ is_stacked: true, parent_prs: [2, 1], child_prs: [], stacked_prs: [1, 2, 3] });
    expect(top.summary).toContain("#2 (its commits include #2's head commit)");
    expect(top.summary).toContain('which in turn builds on #1');
    const bottom = detectStackedPrs({ prNumber: 1, openPrs });
    expect(bottom).toMatchObject({ parent_prs: [], child_prs: [2, 3], stacked_prs: [1, 2, 3] });
    expect(detectStackedPrs({ prNumber: 2, openPrs })).toMatchObject({ parent_prs: [1], child_prs: [3], stacked_prs: [1, 2, 3] });
  });

  it('reduces mixed evidence to the nearest parent', () => {
    // #4's base branch is #3's head; its commits also hold #1's head, which #3 builds on through #2.
    const openPrs: StackCandidate[] = [
      { pr: pullRequest(1), commits: [sha(1)] },
      { pr: pullRequest(2), commits: [sha(2), sha(1)] },
      { pr: pullRequest(3, { headBranch: 'top' }), commits: [sha(3), sha(2)] },
      { pr: pullRequest(4, { baseBranch: 'top' }), commits: [sha(4), sha(1)] },
    ];
    expect(detectStackedPrs({ prNumber: 4, openPrs })).toMatchObject({ parent_prs: [3, 2, 1], stacked_prs: [1, 2, 3, 4] });
  });

  it('does not stack two PRs opened from the same head commit', () => {
    const openPrs: StackCandidate[] = [
      { pr: pullRequest(1, { headSha: sha(9) }), commits: [sha(9)] },
      { pr: pullRequest(2, { headSha: sha(9) }), commits: [sha(9)] },
    ];
    expect(detectStackedPrs({ prNumber: 2, openPrs }).is_stacked).toBe(false);
  });

  it('keeps siblings on a shared parent out of each other stack', () => {
    const openPrs: StackCandidate[] = [
      { pr: pullRequest(1), commits: [sha(1)] },
      { pr: pullRequest(2), commits: [sha(2), sha(1)] },
      { pr: pullRequest(3), commits: [sha(3), sha(1)] },
    ];
    expect(detectStackedPrs({ prNumber: 2, openPrs })).toMatchObject({ stacked_prs: [1, 2], parent_prs: [1], child_prs: [] });
    expect(detectStackedPrs({ prNumber: 1, openPrs })).toMatchObject({ stacked_prs: [1, 2, 3], child_prs: [2, 3] });
  });
});
