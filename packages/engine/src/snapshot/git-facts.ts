// Churn and ownership facts from git history, for hotspot scoring and drift.
//
// - One `git log --numstat` over the last 90 days gives lines, commits, authors and last change;
//   a second `git log --name-only` over all history (no diffs of content, so cheap) gives
//   `commitsTotal` and the last change of files untouched for 90 days.
// - Windows use the committer date (the date `--since` filters on) and are measured back from
//   `now`; commits dated after `now` (clock skew) still count. `now` defaults to the head commit's
//   committer date, not the wall clock: the same commit gets the same facts on any day.
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
import { join, resolve } from 'node:path';
import type { FileChurn, GitFacts } from './types.js';
import { GitCommandError, isGitWorkTree, runGit, tryGit } from './git-command.js';

export interface GitFactsOptions {
  /**
   * The reference time in milliseconds since the epoch; defaults to the head commit's committer
   * date (the wall clock only for a repository without commits).
   */
  now?: number;
  /** Receives what the facts were counted from, so that a later commit's facts can be derived (`extendGitFacts`). */
  onHistory?: (history: GitHistory) => void;
}

/**
 * What a commit's git facts are counted from, kept so that the facts of a descendant commit can be
 * derived by reading only the commits in between: the 90-day window's commits (as of `now`) and
 * each file's all-history commit count and last change.
 */
export interface GitHistory {
  headSha: string;
  shallow: boolean;
  now: number;
  boundaries: string[];
  recent: NumstatCommit[];
  /** `[path, commitsTotal, lastModified]` in order of first appearance in the history walk. */
  history: Array<[string, number, string]>;
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
    const entries = body
      .split('\0')
      .map((e) => (e.startsWith('\n') ? e.slice(1) : e))
      .filter((e) => e !== '');
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

type HistoryCounts = Map<string, { commitsTotal: number; lastModified?: string }>;

/** `commitsTotal` and `lastModified` per file, from commits given as `[sha, time, paths]`. */
function countHistory(counts: HistoryCounts, commits: Iterable<[string, number, Iterable<string>]>, boundaries: ReadonlySet<string>): HistoryCounts {
  for (const [sha, time, paths] of commits) {
    if (boundaries.has(sha)) continue;
    for (const path of new Set(paths)) {
      let count = counts.get(path);
      if (!count) counts.set(path, (count = { commitsTotal: 0 }));
      count.commitsTotal++;
      count.lastModified = laterOf(count.lastModified, time);
    }
  }
  return counts;
}

function* historyRecords(allHistory: string): Generator<[string, number, string[]]> {
  for (const { fields, entries } of records(allHistory)) yield [fields[0], Number(fields[1]) * 1000, entries];
}

/** Adds the all-history counts to the window's per-file facts. */
function applyHistory(files: Map<string, FileChurn>, counts: HistoryCounts): void {
  for (const [path, { commitsTotal, lastModified }] of counts) {
    const churn = churnOf(files, path);
    churn.commitsTotal += commitsTotal;
    if (lastModified !== undefined) churn.lastModified = laterOf(churn.lastModified, Date.parse(lastModified));
  }
}

/** git's first `fatal:`/`error:` line, without the command's arguments: what to tell the user. */
function historyErrorOf(error: GitCommandError): string {
  const line = (error.stderr ?? '')
    .split('\n')
    .find((l) => /^(?:fatal|error):/.test(l))
    ?.trim();
  return `the history could not be read (${(line ?? error.message).slice(0, 200)}): churn, ages and commit counts are left out`;
}

/** The commits whose parents a shallow clone cut off, listed in `$GIT_DIR/shallow`. */
async function shallowBoundaries(root: string): Promise<Set<string>> {
  const file = (await runGit(root, ['rev-parse', '--git-path', 'shallow'])).trim();
  const content = await readFile(resolve(root, file), 'utf8').catch(() => '');
  return new Set(content.split('\n').filter((sha) => sha !== ''));
}

/** The committer time (ms) of a commit, or undefined when there is no such commit. */
async function commitTime(root: string, rev: string): Promise<number | undefined> {
  const seconds = Number((await tryGit(root, ['log', '-1', '--no-show-signature', '--format=%ct', rev, '--']))?.trim());
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

export async function readGitFacts(root: string, options: GitFactsOptions = {}): Promise<GitFacts> {
  if (!(await isGitWorkTree(root))) return { available: false, files: new Map(), totals: emptyTotals() };

  const [head, branch, shallow] = await Promise.all([
    tryGit(root, ['log', '-1', '--no-show-signature', '--format=%H%x1f%ct', 'HEAD', '--']),
    tryGit(root, ['symbolic-ref', '--short', '--quiet', 'HEAD']),
    tryGit(root, ['rev-parse', '--is-shallow-repository']),
  ]);
  const [headSha, headSeconds] = (head?.trim() ?? '').split(FIELD);
  const headTime = Number(headSeconds) > 0 ? Number(headSeconds) * 1000 : undefined;
  const now = options.now ?? headTime ?? Date.now();
  const facts: GitFacts = {
    available: true,
    headSha: headSha || undefined,
    ...(headTime !== undefined ? { headTime } : {}),
    referenceTime: now,
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
  let recentLog: string, allHistory: string, boundaries: Set<string>;
  try {
    [recentLog, allHistory, boundaries] = await Promise.all([
      runGit(root, ['log', ...LOG_FLAGS, '--numstat', '--format=%x1e%H%x1f%ct%x1f%aN%x1f%aE', `--since=${since}`, facts.headSha, '--', '.']),
      runGit(root, ['log', ...LOG_FLAGS, '--name-only', '--format=%x1e%H%x1f%ct', facts.headSha, '--', '.']),
      facts.shallow ? shallowBoundaries(root) : new Set<string>(),
    ]);
  } catch (error) {
    // A clone with missing objects (`fatal: unable to read <sha>`) still has a head to analyse.
    if (!(error instanceof GitCommandError)) throw error;
    return { ...facts, historyError: historyErrorOf(error) };
  }
  const recent = parseNumstatLog(recentLog);
  const { files, totals } = countRecent(recent, boundaries, now);
  const counts = countHistory(new Map(), historyRecords(allHistory), boundaries);
  applyHistory(files, counts);
  options.onHistory?.({
    headSha: facts.headSha,
    shallow: facts.shallow ?? false,
    now,
    boundaries: [...boundaries],
    recent,
    history: [...counts].map(([path, c]) => [path, c.commitsTotal, c.lastModified ?? '']),
  });
  return { ...facts, files, totals };
}

/**
 * The git facts of `headSha`, a descendant of `base.headSha`, as `readGitFacts` would read them in
 * a work tree at `headSha`: the commits in between are read (one `git log`) and added to the base's.
 * Exact because the history of head is the base's plus those commits, and the base's window
 * (90 days before its `now`) holds every older commit that head's window (from a later `now`) can.
 * Undefined when `now` is earlier than the base's.
 */
export async function extendGitFacts(root: string, base: GitHistory, headSha: string, options: GitFactsOptions = {}): Promise<GitFacts | undefined> {
  const [headTime, log] = await Promise.all([
    commitTime(root, headSha),
    runGit(root, ['log', ...LOG_FLAGS, '--numstat', '--format=%x1e%H%x1f%ct%x1f%aN%x1f%aE', `${base.headSha}..${headSha}`, '--', '.']),
  ]);
  const now = options.now ?? headTime ?? Date.now();
  if (now < base.now) return undefined;
  const added = parseNumstatLog(log);
  const boundaries = new Set(base.boundaries);
  const recent = [...added, ...base.recent];
  const { files, totals } = countRecent(recent, boundaries, now);
  const counts = countHistory(
    new Map(),
    added.map((c) => [c.sha, c.time, c.changes.map(([path]) => path)]),
    boundaries,
  );
  for (const [path, commitsTotal, lastModified] of base.history) {
    const count = counts.get(path);
    if (!count) counts.set(path, { commitsTotal, ...(lastModified ? { lastModified } : {}) });
    else {
      count.commitsTotal += commitsTotal;
      if (lastModified) count.lastModified = laterOf(count.lastModified, Date.parse(lastModified));
    }
  }
  applyHistory(files, counts);
  const branch = await readBranch(root);
  options.onHistory?.({
    headSha,
    shallow: base.shallow,
    now,
    boundaries: base.boundaries,
    recent,
    history: [...counts].map(([path, c]) => [path, c.commitsTotal, c.lastModified ?? '']),
  });
  return {
    available: true,
    headSha,
    ...(headTime !== undefined ? { headTime } : {}),
    referenceTime: now,
    ...(branch ? { branch } : {}),
    shallow: base.shallow,
    files,
    totals,
  };
}

/** The checked-out branch as `git symbolic-ref --short HEAD` names it, read from the HEAD file (no process); undefined when detached. */
async function readBranch(root: string): Promise<string | undefined> {
  let gitDir = resolve(root, '.git');
  const pointer = await readFile(gitDir, 'utf8').catch(() => undefined);
  // A linked work tree or submodule: `.git` is a file naming the git directory.
  if (pointer?.startsWith('gitdir: ')) gitDir = resolve(root, pointer.slice(8).trim());
  const head = await readFile(join(gitDir, 'HEAD'), 'utf8').catch(() => '');
  const match = /^ref: refs\/heads\/(.+)$/m.exec(head);
  return match?.[1];
}
