// Churn and ownership facts from git history, for hotspot scoring and drift.
//
// - One `git log --numstat` over the last 90 days gives lines, commits, authors and last change;
//   a second `git log --name-only` over all history (no diffs of content, so cheap) gives
//   `commitsTotal` and the last change of files untouched for 90 days.
// - Windows use the committer date (the date `--since` filters on) and are measured back from
//   `now`; commits dated after `now` (clock skew) still count.
// - Merge commits are left out: their diffs repeat changes already counted on the merged branch.
//   `--full-history` keeps every commit that changed a file, even on a side of a merge whose
//   changes the merge later dropped (git's default simplification would hide them).
// - `--no-renames`: a rename counts as a deletion of the old path and an addition of the new one,
//   so a renamed file's history starts at the rename.
// - Binary changes (`-\t-` in numstat) count as commits with no lines.
// - Authors are the mailmap-resolved names (the email when a name is empty) of the last 90 days.
// - In a shallow clone the history stops at the boundary; `shallow` says so. Boundary commits
//   have their parents cut off, so git shows them adding every file of the tree: they count as
//   commits, but their changes (unknowable) are not attributed to files.
// - Paths are relative to `root`, which may be a subdirectory of the work tree.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { FileChurn, GitFacts } from './types.js';
import { isGitWorkTree, runGit, tryGit } from './git-command.js';

export interface GitFactsOptions {
  /** The reference time in milliseconds since the epoch; defaults to `Date.now()`. */
  now?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const RECORD = '\x1e';
const FIELD = '\x1f';
// Keep the output parseable whatever the user's configuration says about colours and diffs.
const LOG_FLAGS = ['--no-merges', '--full-history', '--no-renames', '--no-color', '--no-show-signature', '--no-ext-diff', '--no-textconv', '--relative', '-z'];

export interface NumstatCommit {
  sha: string;
  /** Committer time, ms. */
  time: number;
  author: string;
  /** `[path, added, deleted]` per changed file. */
  changes: Array<[string, number, number]>;
}

function emptyTotals(): GitFacts['totals'] {
  return { linesAdded30d: 0, linesDeleted30d: 0, linesAdded90d: 0, linesDeleted90d: 0, commits30d: 0, commits90d: 0, authors30d: 0, authors90d: 0 };
}

function emptyChurn(): FileChurn {
  return { linesAdded30d: 0, linesDeleted30d: 0, linesAdded90d: 0, linesDeleted90d: 0, commits30d: 0, commits90d: 0, commitsTotal: 0, authors: [] };
}

/** Records of `--format=%x1e...` output: the header fields, then the NUL-separated file entries. */
function* records(output: string): Generator<{ fields: string[]; entries: string[] }> {
  for (const record of output.split(RECORD)) {
    if (record === '') continue;
    const headerEnd = record.indexOf('\0');
    const header = headerEnd === -1 ? record : record.slice(0, headerEnd);
    const body = headerEnd === -1 ? '' : record.slice(headerEnd + 1);
    const entries = body.split('\0').map((e) => (e.startsWith('\n') ? e.slice(1) : e)).filter((e) => e !== '');
    yield { fields: header.split(FIELD), entries };
  }
}

export function parseNumstatLog(output: string): NumstatCommit[] {
  const commits: NumstatCommit[] = [];
  for (const { fields, entries } of records(output)) {
    const [sha, committed, name, email] = fields;
    const changes: NumstatCommit['changes'] = [];
    for (const entry of entries) {
      const firstTab = entry.indexOf('\t');
      const secondTab = entry.indexOf('\t', firstTab + 1);
      if (firstTab === -1 || secondTab === -1) continue;
      const added = entry.slice(0, firstTab);
      const deleted = entry.slice(firstTab + 1, secondTab);
      // Binary files report '-' for both counts.
      changes.push([entry.slice(secondTab + 1), added === '-' ? 0 : Number(added), deleted === '-' ? 0 : Number(deleted)]);
    }
    commits.push({ sha, time: Number(committed) * 1000, author: name || email || 'unknown', changes });
  }
  return commits;
}

function churnOf(files: Map<string, FileChurn>, path: string): FileChurn {
  let churn = files.get(path);
  if (!churn) {
    churn = emptyChurn();
    files.set(path, churn);
  }
  return churn;
}

function laterOf(iso: string | undefined, time: number): string {
  const candidate = new Date(time).toISOString();
  return iso === undefined || candidate > iso ? candidate : iso;
}

/** Lines, commits and authors of the commits in the 90-day window. */
function countRecent(recent: readonly NumstatCommit[], boundaries: ReadonlySet<string>, now: number): Pick<GitFacts, 'files' | 'totals'> {
  const files = new Map<string, FileChurn>();
  const totals = emptyTotals();
  const fileAuthors = new Map<string, Set<string>>();
  const authors30d = new Set<string>();
  const authors90d = new Set<string>();
  const since30d = now - 30 * DAY_MS;
  const since90d = now - 90 * DAY_MS;

  for (const commit of recent) {
    // `--since` stops the walk a little late (it tolerates skewed clocks); the window is exact here.
    if (commit.time < since90d) continue;
    const in30d = commit.time >= since30d;
    totals.commits90d++;
    authors90d.add(commit.author);
    if (in30d) {
      totals.commits30d++;
      authors30d.add(commit.author);
    }
    if (boundaries.has(commit.sha)) continue;
    for (const [path, added, deleted] of commit.changes) {
      const churn = churnOf(files, path);
      churn.commits90d++;
      churn.linesAdded90d += added;
      churn.linesDeleted90d += deleted;
      if (in30d) {
        churn.commits30d++;
        churn.linesAdded30d += added;
        churn.linesDeleted30d += deleted;
      }
      const names = fileAuthors.get(path) ?? new Set<string>();
      fileAuthors.set(path, names.add(commit.author));
    }
  }
  for (const [path, churn] of files) {
    churn.authors = [...(fileAuthors.get(path) ?? [])].sort();
    totals.linesAdded90d += churn.linesAdded90d;
    totals.linesDeleted90d += churn.linesDeleted90d;
    totals.linesAdded30d += churn.linesAdded30d;
    totals.linesDeleted30d += churn.linesDeleted30d;
  }
  totals.authors30d = authors30d.size;
  totals.authors90d = authors90d.size;
  return { files, totals };
}

/** Adds `commitsTotal` and `lastModified` from the all-history `--name-only` output. */
function countHistory(files: Map<string, FileChurn>, allHistory: string, boundaries: ReadonlySet<string>): void {
  for (const { fields, entries } of records(allHistory)) {
    const [sha, committed] = fields;
    if (boundaries.has(sha)) continue;
    const time = Number(committed) * 1000;
    for (const path of new Set(entries)) {
      const churn = churnOf(files, path);
      churn.commitsTotal++;
      churn.lastModified = laterOf(churn.lastModified, time);
    }
  }
}

/** The commits whose parents a shallow clone cut off, listed in `$GIT_DIR/shallow`. */
async function shallowBoundaries(root: string): Promise<Set<string>> {
  const file = (await runGit(root, ['rev-parse', '--git-path', 'shallow'])).trim();
  const content = await readFile(resolve(root, file), 'utf8').catch(() => '');
  return new Set(content.split('\n').filter((sha) => sha !== ''));
}

export async function readGitFacts(root: string, options: GitFactsOptions = {}): Promise<GitFacts> {
  const now = options.now ?? Date.now();
  if (!(await isGitWorkTree(root))) return { available: false, files: new Map(), totals: emptyTotals() };

  const [head, branch, shallow] = await Promise.all([
    tryGit(root, ['rev-parse', '--verify', '--quiet', 'HEAD']),
    tryGit(root, ['symbolic-ref', '--short', '--quiet', 'HEAD']),
    tryGit(root, ['rev-parse', '--is-shallow-repository']),
  ]);
  const facts: GitFacts = {
    available: true,
    headSha: head?.trim() || undefined,
    // Detached HEAD has no branch.
    branch: branch?.trim() || undefined,
    shallow: shallow?.trim() === 'true',
    files: new Map(),
    totals: emptyTotals(),
  };
  // A repository without commits has a branch name but no history to read.
  if (!facts.headSha) return facts;

  const since = new Date(now - 90 * DAY_MS).toISOString();
  // The resolved sha, not HEAD: a commit landing meanwhile must not mix two histories.
  const [recentLog, allHistory, boundaries] = await Promise.all([
    runGit(root, ['log', ...LOG_FLAGS, '--numstat', '--format=%x1e%H%x1f%ct%x1f%aN%x1f%aE', `--since=${since}`, facts.headSha, '--', '.']),
    runGit(root, ['log', ...LOG_FLAGS, '--name-only', '--format=%x1e%H%x1f%ct', facts.headSha, '--', '.']),
    facts.shallow ? shallowBoundaries(root) : new Set<string>(),
  ]);
  const { files, totals } = countRecent(parseNumstatLog(recentLog), boundaries, now);
  countHistory(files, allHistory, boundaries);
  return { ...facts, files, totals };
}
