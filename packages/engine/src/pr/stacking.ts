// Stacked pull requests: which open PRs a PR is built on and which are built on it. A PR is
// stacked on another when its base branch is the other's head branch, or when its own commits
// (those not yet on the mainline) include the other's head commit. The pure detector works on
// PR metadata and commit lists; `listUnmergedCommits` is the one helper that asks git for them.
import type { StackedPrs } from './result.js';
import { git } from './diff-git.js';
import type { PullRequestInfo } from './types.js';

export interface StackCandidate {
  pr: PullRequestInfo;
  /**
   * Commits of the PR that are not on the mainline (`git rev-list <head> --not <mainline>`), any
   * order. Undefined when unknown: the PR then takes part through its branches only.
   */
  commits?: readonly string[];
}

export interface StackingInput {
  /** The PR under analysis. */
  prNumber: number;
  /** Every open PR of the repository, the analysed one included. */
  openPrs: readonly StackCandidate[];
}

type Evidence = 'branch' | 'ancestry';

/** child → (parent → why), over all open PRs: stacks are read whole, not only around one PR. */
function parentLinks(openPrs: readonly StackCandidate[]): Map<number, Map<number, Evidence>> {
  const links = new Map<number, Map<number, Evidence>>();
  for (const child of openPrs) {
    const parents = new Map<number, Evidence>();
    const commits = child.commits ? new Set(child.commits) : undefined;
    for (const parent of openPrs) {
      if (parent.pr.number === child.pr.number) continue;
      // The same head twice is one branch opened as two PRs, not a stack.
      if (parent.pr.headSha === child.pr.headSha) continue;
      if (child.pr.baseBranch !== '' && child.pr.baseBranch === parent.pr.headBranch) parents.set(parent.pr.number, 'branch');
      else if (commits?.has(parent.pr.headSha)) parents.set(parent.pr.number, 'ancestry');
    }
    links.set(child.pr.number, parents);
  }
  return links;
}

/** Nearest-first closure of a relation: breadth-first, ties by PR number. */
function closure(start: number, next: (n: number) => Iterable<number>): number[] {
  const order: number[] = [];
  const seen = new Set([start]);
  let frontier = [start];
  while (frontier.length > 0) {
    const level: number[] = [];
    for (const node of frontier)
      for (const n of next(node))
        if (!seen.has(n)) {
          seen.add(n);
          level.push(n);
        }
    level.sort((a, b) => a - b);
    order.push(...level);
    frontier = level;
  }
  return order;
}

/**
 * Parent links reduced to the nearest parent: a PR whose commits hold both #1's and #2's heads,
 * where #2 is itself built on #1, has #2 as its direct parent and #1 as a grandparent.
 */
function directParents(links: Map<number, Map<number, Evidence>>): Map<number, number[]> {
  const direct = new Map<number, number[]>();
  for (const [child, parents] of links) {
    const all = [...parents.keys()];
    const transitive = new Set<number>();
    for (const parent of all) for (const ancestor of closure(parent, (n) => links.get(n)?.keys() ?? [])) transitive.add(ancestor);
    direct.set(
      child,
      all.filter((p) => !transitive.has(p) || links.get(child)?.get(p) === 'branch').sort((a, b) => a - b),
    );
  }
  return direct;
}

export function detectStackedPrs(input: StackingInput): StackedPrs {
  const { prNumber, openPrs } = input;
  const links = parentLinks(openPrs);
  if (!links.has(prNumber)) links.set(prNumber, new Map());
  const direct = directParents(links);
  const children = new Map<number, number[]>();
  for (const [child, parents] of direct) for (const parent of parents) children.set(parent, [...(children.get(parent) ?? []), child]);

  const parent_prs = closure(prNumber, (n) => direct.get(n) ?? []);
  const child_prs = closure(prNumber, (n) => children.get(n) ?? []);
  if (parent_prs.length === 0 && child_prs.length === 0) {
    return {
      is_stacked: false,
      stacked_prs: [],
      parent_prs: [],
      child_prs: [],
      summary: `PR #${prNumber} is not stacked: no open PR is its base, and none is built on it.`,
    };
  }
  // Bottom to top: the farthest ancestor first, then this PR, then its descendants nearest first.
  const stacked_prs = [...new Set([...parent_prs].reverse().concat(prNumber, child_prs))];
  return { is_stacked: true, stacked_prs, parent_prs, child_prs, summary: describe(prNumber, links, direct, parent_prs, child_prs, children) };
}

function describe(
  prNumber: number,
  links: Map<number, Map<number, Evidence>>,
  direct: Map<number, number[]>,
  parents: number[],
  childList: number[],
  children: Map<number, number[]>,
): string {
  const why = (child: number, parent: number): string =>
    links.get(child)?.get(parent) === 'branch' ? `its base branch is #${parent}'s head branch` : `its commits include #${parent}'s head commit`;
  const parts: string[] = [];
  const nearestParents = direct.get(prNumber) ?? [];
  if (nearestParents.length > 0) {
    parts.push(`PR #${prNumber} is built on ${nearestParents.map((p) => `#${p} (${why(prNumber, p)})`).join(' and ')}`);
    if (parents.length > nearestParents.length)
      parts.push(
        `which in turn builds on ${parents
          .filter((p) => !nearestParents.includes(p))
          .map((p) => `#${p}`)
          .join(', ')}`,
      );
  }
  const nearestChildren = children.get(prNumber) ?? [];
  if (nearestChildren.length > 0) {
    const lead = parts.length > 0 ? 'and' : `PR #${prNumber} is`;
    parts.push(`${lead} the base of ${nearestChildren.map((c) => `#${c} (${why(c, prNumber)})`).join(' and ')}`);
    if (childList.length > nearestChildren.length) parts.push(`with ${childList.length - nearestChildren.length} more PR(s) stacked above`);
  }
  const order =
    parents.length > 0
      ? ` Merge ${[...parents]
          .reverse()
          .map((p) => `#${p}`)
          .join(', then ')} before this PR.`
      : '';
  return `${parts.join(', ')}.${order}`;
}

export interface UnmergedCommitsOptions {
  /** Mainline commits (the default branch tip): commits reachable from them are not a PR's own. Default: each PR's base sha. */
  mainline?: readonly string[];
  /** Per-PR cap; a parent deeper than this in a long PR is not seen by ancestry. */
  maxCommits?: number;
}

/**
 * Reads each PR's own commits from the repository at `dir` (`git rev-list <head> --not
 * <mainline>`): one git call per PR instead of a merge-base check per pair. Git runs as the PR
 * diff's does (diff-git.ts: the engine's hardened runner). A PR whose head is missing from the clone gets no
 * commit list (its stacking is then read from branches only).
 */
export async function listUnmergedCommits(dir: string, prs: readonly PullRequestInfo[], options: UnmergedCommitsOptions = {}): Promise<StackCandidate[]> {
  const maxCommits = options.maxCommits ?? 1000;
  const present = async (sha: string): Promise<boolean> =>
    /^[0-9a-f]{7,64}$/i.test(sha) &&
    (await git(dir, ['rev-parse', '--verify', '--quiet', `${sha}^{commit}`]).then(
      () => true,
      () => false,
    ));
  const mainline: string[] = [];
  for (const sha of options.mainline ?? []) if (await present(sha)) mainline.push(sha);
  const out: StackCandidate[] = [];
  for (const pr of prs) {
    const exclude = options.mainline ? mainline : (await present(pr.baseSha)) ? [pr.baseSha] : [];
    if (!(await present(pr.headSha))) {
      out.push({ pr });
      continue;
    }
    const listed = await git(dir, ['rev-list', `--max-count=${maxCommits}`, pr.headSha, '--not', ...exclude, '--']);
    out.push({ pr, commits: listed.split('\n').filter((line) => line !== '') });
  }
  return out;
}
