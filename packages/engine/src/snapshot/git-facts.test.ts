import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, TempDir, TempRepo } from './fixtures/temp-repo.js';
import { parseNumstatLog, readGitFacts } from './git-facts.js';
import type { FileChurn, GitFacts } from './types.js';

const NOW = Date.UTC(2025, 5, 30, 12);
const day = (daysAgo: number): Date => new Date(NOW - daysAgo * DAY_MS);
const ALICE = { name: 'Alice', email: 'alice@example.com' };
const BOB = { name: 'Bob', email: 'bob@example.com' };
const CAROL = { name: 'Carol', email: 'carol@example.com' };
const DAVE = { name: 'Dave', email: 'dave@example.com' };
const ERIN = { name: 'Erin', email: 'erin@example.com' };
const BINARY_V1 = Buffer.from([0, 1, 2, 3]);
const BINARY_V2 = Buffer.from([0, 1, 2, 3, 4]);

const lines = (values: string[]): string => values.map((v) => `${v}\n`).join('');
const A_V1 = Array.from({ length: 10 }, (_, i) => `a ${i + 1}`);

/**
 * c1 (-200d, Alice)  add a.ts (10 lines), b.ts (5), old.ts (3)
 * c2 (-60d, Bob)     a.ts +4 -2; add bin.png; add dir/naïve file.ts (2)
 * c3 (-20d, Alice)   a.ts +1 -1; b.ts +3
 * c4 (-5d, Carol)    git mv b.ts c.ts (8 lines); bin.png changed
 * c5 (-3d, Dave)     on branch feature, forked at c3: a.ts +2
 * M  (-2d, Erin)     merge of feature into main; differs from both parents, so git shows it
 */
function buildHistory(repo: TempRepo): Record<'c1' | 'c2' | 'c3' | 'c4' | 'c5' | 'merge', string> {
  repo.write('a.ts', lines(A_V1)).write('b.ts', TempDir.lines(5, 'b')).write('old.ts', TempDir.lines(3, 'old'));
  const c1 = repo.commit('c1', ALICE, day(200));
  const a2 = ['changed 1', 'changed 2', ...A_V1.slice(2), 'a 11', 'a 12'];
  repo.write('a.ts', lines(a2)).write('bin.png', BINARY_V1).write('dir/naïve file.ts', TempDir.lines(2, 'n'));
  const c2 = repo.commit('c2', BOB, day(60));
  const a3 = a2.map((v) => (v === 'a 5' ? 'five' : v));
  repo.write('a.ts', lines(a3)).write('b.ts', TempDir.lines(8, 'b'));
  const c3 = repo.commit('c3', ALICE, day(20));
  repo.git(['branch', 'feature']);
  repo.git(['mv', 'b.ts', 'c.ts']);
  repo.write('bin.png', BINARY_V2);
  const c4 = repo.commit('c4', CAROL, day(5));
  repo.git(['checkout', '--quiet', 'feature']);
  repo.write('a.ts', lines([...a3, 'a 13', 'a 14']));
  const c5 = repo.commit('c5', DAVE, day(3));
  repo.git(['checkout', '--quiet', 'main']);
  const merge = repo.merge('feature', ERIN, day(2));
  return { c1, c2, c3, c4, c5, merge };
}

const churn = (values: Partial<FileChurn>): FileChurn => ({
  linesAdded30d: 0,
  linesDeleted30d: 0,
  linesAdded90d: 0,
  linesDeleted90d: 0,
  commits30d: 0,
  commits90d: 0,
  commitsTotal: 0,
  authors: [],
  ...values,
});

describe('readGitFacts on a repository with a known history', () => {
  let repo: TempRepo;
  let shas: ReturnType<typeof buildHistory>;
  let facts: GitFacts;

  beforeAll(async () => {
    repo = new TempRepo();
    shas = buildHistory(repo);
    facts = await readGitFacts(repo.root, { now: NOW });
  });
  afterAll(() => repo.remove());

  it('reads head, branch and shallowness', () => {
    expect(facts.available).toBe(true);
    expect(facts.headSha).toBe(shas.merge);
    expect(facts.branch).toBe('main');
    expect(facts.shallow).toBe(false);
  });

  it('counts lines, commits and authors per file in 30 and 90 days, leaving the merge out', () => {
    expect(facts.files.get('a.ts')).toEqual(
      churn({
        linesAdded90d: 7,
        linesDeleted90d: 3,
        linesAdded30d: 3,
        linesDeleted30d: 1,
        commits90d: 3,
        commits30d: 2,
        commitsTotal: 4,
        authors: ['Alice', 'Bob', 'Dave'],
        lastModified: day(3).toISOString(),
      }),
    );
  });

  it('treats a rename as a deletion and an addition (--no-renames)', () => {
    expect(facts.files.get('b.ts')).toEqual(
      churn({
        linesAdded90d: 3,
        linesDeleted90d: 8,
        linesAdded30d: 3,
        linesDeleted30d: 8,
        commits90d: 2,
        commits30d: 2,
        commitsTotal: 3,
        authors: ['Alice', 'Carol'],
        lastModified: day(5).toISOString(),
      }),
    );
    expect(facts.files.get('c.ts')).toEqual(
      churn({ linesAdded90d: 8, linesAdded30d: 8, commits90d: 1, commits30d: 1, commitsTotal: 1, authors: ['Carol'], lastModified: day(5).toISOString() }),
    );
  });

  it('counts binary changes as commits without lines', () => {
    expect(facts.files.get('bin.png')).toEqual(
      churn({ commits90d: 2, commits30d: 1, commitsTotal: 2, authors: ['Bob', 'Carol'], lastModified: day(5).toISOString() }),
    );
  });

  it('keeps files untouched for 90 days, with their total and last change only', () => {
    expect(facts.files.get('old.ts')).toEqual(churn({ commitsTotal: 1, lastModified: day(200).toISOString() }));
  });

  it('keeps unusual paths intact', () => {
    expect(facts.files.get('dir/naïve file.ts')).toMatchObject({ linesAdded90d: 2, commits90d: 1, commits30d: 0, authors: ['Bob'] });
    expect([...facts.files.keys()].sort()).toEqual(['a.ts', 'b.ts', 'bin.png', 'c.ts', 'dir/naïve file.ts', 'old.ts']);
  });

  it('totals commits, lines and distinct authors per window', () => {
    expect(facts.totals).toEqual({
      linesAdded90d: 20,
      linesDeleted90d: 11,
      linesAdded30d: 14,
      linesDeleted30d: 9,
      commits90d: 4,
      commits30d: 3,
      authors90d: 4,
      authors30d: 3,
    });
  });

  it('measures the windows back from the injected now', async () => {
    const later = await readGitFacts(repo.root, { now: NOW + 40 * DAY_MS });
    expect(later.totals).toMatchObject({ commits90d: 3, commits30d: 0, authors90d: 3, authors30d: 0, linesAdded90d: 14 });
    expect(later.files.get('a.ts')).toMatchObject({ linesAdded90d: 3, linesDeleted90d: 1, commits90d: 2, commits30d: 0, commitsTotal: 4 });
  });

  it('reads a subdirectory with paths relative to it, counting only commits that touch it', async () => {
    const sub = await readGitFacts(join(repo.root, 'dir'), { now: NOW });
    expect([...sub.files.keys()]).toEqual(['naïve file.ts']);
    expect(sub.totals).toMatchObject({ commits90d: 1, authors90d: 1, linesAdded90d: 2 });
  });

  it('leaves the branch out on a detached HEAD', async () => {
    const clone = new TempDir();
    try {
      repo.git(['clone', '--quiet', repo.root, clone.root]);
      repo.git(['checkout', '--quiet', '--detach', shas.c3], {}, clone.root);
      const detached = await readGitFacts(clone.root, { now: NOW });
      expect(detached.headSha).toBe(shas.c3);
      expect(detached.branch).toBeUndefined();
      expect(detached.totals.commits90d).toBe(2);
    } finally {
      clone.remove();
    }
  });

  it('does not take the boundary of a shallow clone for a commit adding every file', async () => {
    const clone = new TempDir();
    try {
      // Depth 3 from the merge reaches c4 and c5, and c3 as the boundary.
      repo.git(['clone', '--quiet', '--depth', '3', `file://${repo.root}`, clone.root]);
      const shallow = await readGitFacts(clone.root, { now: NOW });
      expect(shallow.shallow).toBe(true);
      expect([...shallow.files.keys()].sort()).toEqual(['a.ts', 'b.ts', 'bin.png', 'c.ts']);
      expect(shallow.files.get('a.ts')).toMatchObject({ linesAdded90d: 2, linesDeleted90d: 0, commits90d: 1, commitsTotal: 1, authors: ['Dave'] });
      expect(shallow.files.get('b.ts')).toMatchObject({ linesAdded90d: 0, linesDeleted90d: 8, commitsTotal: 1 });
      expect(shallow.totals).toMatchObject({ commits90d: 3, authors90d: 3, linesAdded90d: 10, linesDeleted90d: 8 });
    } finally {
      clone.remove();
    }
  });
});

describe('readGitFacts edge cases', () => {
  it('reports a plain directory as unavailable', async () => {
    const dir = new TempDir().write('a.ts', 'x\n');
    try {
      const facts = await readGitFacts(dir.root, { now: NOW });
      expect(facts).toEqual({
        available: false,
        files: new Map(),
        totals: { linesAdded30d: 0, linesDeleted30d: 0, linesAdded90d: 0, linesDeleted90d: 0, commits30d: 0, commits90d: 0, authors30d: 0, authors90d: 0 },
      });
    } finally {
      dir.remove();
    }
  });

  it('handles a repository without commits', async () => {
    const repo = new TempRepo();
    try {
      repo.write('a.ts', 'x\n');
      const facts = await readGitFacts(repo.root, { now: NOW });
      expect(facts).toMatchObject({ available: true, branch: 'main', headSha: undefined, shallow: false });
      expect(facts.files.size).toBe(0);
      expect(facts.totals.commits90d).toBe(0);
    } finally {
      repo.remove();
    }
  });

  it('keeps the head and says why when older objects are missing (a damaged or partial clone)', async () => {
    const repo = new TempRepo();
    try {
      const alice = { name: 'Alice', email: 'alice@example.com' };
      repo.write('a.ts', 'x\n');
      const first = repo.commit('first', alice, day(20));
      repo.write('b.ts', 'y\n');
      const head = repo.commit('second', alice, day(10));
      // The first commit's tree object is gone: `git log -1 HEAD` works, the history walk does not.
      const tree = repo.git(['rev-parse', `${first}^{tree}`]).trim();
      rmSync(join(repo.root, '.git', 'objects', tree.slice(0, 2), tree.slice(2)));
      const facts = await readGitFacts(repo.root, { now: NOW });
      expect(facts).toMatchObject({ available: true, headSha: head, files: new Map() });
      expect(facts.historyError).toMatch(/^the history could not be read \(fatal: .*\): churn, ages and commit counts are left out$/);
      expect(facts.totals.commits90d).toBe(0);
    } finally {
      repo.remove();
    }
  });

  it('places commits in windows by committer date, the date --since filters on', async () => {
    const repo = new TempRepo();
    try {
      repo.write('a.ts', 'x\n');
      repo.git(['add', '-A']);
      repo.git(['commit', '--quiet', '-m', 'rebased'], {
        GIT_AUTHOR_NAME: 'Alice',
        GIT_AUTHOR_EMAIL: 'alice@example.com',
        GIT_AUTHOR_DATE: day(100).toISOString(),
        GIT_COMMITTER_NAME: 'Bob',
        GIT_COMMITTER_EMAIL: 'bob@example.com',
        GIT_COMMITTER_DATE: day(10).toISOString(),
      });
      const facts = await readGitFacts(repo.root, { now: NOW });
      expect(facts.files.get('a.ts')).toMatchObject({ commits30d: 1, linesAdded30d: 1, authors: ['Alice'], lastModified: day(10).toISOString() });
    } finally {
      repo.remove();
    }
  });
});

describe('parseNumstatLog', () => {
  it('parses -z numstat records, binary entries and paths with tabs', () => {
    const output =
      '\x1eabc\x1f1700000000\x1fAl\x1fal@x\0\n2\t1\ta.ts\0-\t-\timg.png\0' +
      '\x1edef\x1f1700000100\x1f\x1fanon@x\0\n3\t0\twith\ttab.ts\0' +
      '\x1eeee\x1f1700000200\x1fE\x1fe@x\0';
    expect(parseNumstatLog(output)).toEqual([
      {
        sha: 'abc',
        time: 1_700_000_000_000,
        author: 'Al',
        changes: [
          ['a.ts', 2, 1],
          ['img.png', 0, 0],
        ],
      },
      { sha: 'def', time: 1_700_000_100_000, author: 'anon@x', changes: [['with\ttab.ts', 3, 0]] },
      { sha: 'eee', time: 1_700_000_200_000, author: 'E', changes: [] },
    ]);
  });
});
