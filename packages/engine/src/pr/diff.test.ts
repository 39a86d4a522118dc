// The diff reader on real git repositories: statuses, renames, counts, hunks, binary and
// generated files, symbols on both sides, the merge base, and paths git would quote.
import { describe, expect, it } from 'vitest';
import { createGitRepo } from '../../../../test/helpers/git-repo.js';
import { readPullRequestChange, readPullRequestDiff } from './diff.js';
import { resolveCommits } from './diff-git.js';

const MATH = `export function add(a: number, b: number) {
  return a + b;
}

export function sub(a: number, b: number) {
  return a - b;
}

function internal() {
  return 1;
}

export class Calc {
  total = 0;
  plus(n: number) {
    this.total += n;
    return this;
  }
}
`;

function repoWithBranch() {
  const repo = createGitRepo({
    'package.json': JSON.stringify({ name: 'x', dependencies: { lodash: '4.17.20' } }, null, 2),
    'src/math.ts': MATH,
    'src/old-name.ts': 'export const greeting = "hello";\nexport const other = 2;\nexport const third = 3;\nexport const fourth = 4;\n',
    'src/gone.ts': 'export function gone() {\n  return 0;\n}\n',
    'docs/guide.md': '# Guide\n',
    'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 0, 0]),
  });
  const base = repo.git('rev-parse', 'HEAD');
  repo.git('checkout', '-q', '-b', 'feature');
  repo.write({
    // sub's body changes, add untouched, a method body gains a line, a new export appears.
    'src/math.ts': MATH.replace('return a - b;', 'return a - b - 0;')
      .replace('this.total += n;', 'this.total += n;\n    this.total -= 0;')
      .concat('\nexport function mul(a: number, b: number) {\n  return a * b;\n}\n'),
    'assets/logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9, 9, 9, 0, 0, 0]),
    'dist/bundle.js': 'var a=1;\n',
    'docs/guide.md': '# Guide\n\nMore words.\n',
    'src/a file "quoted".ts': 'export const q = 1;\n',
    'package.json': JSON.stringify({ name: 'x', dependencies: { lodash: '4.17.21' } }, null, 2),
  });
  repo.git('mv', 'src/old-name.ts', 'src/new-name.ts');
  repo.git('rm', '-q', 'src/gone.ts');
  repo.commit('feat: multiply');
  repo.write({ 'docs/guide.md': '# Guide\n\nMore words, again.\n' });
  const head = repo.commit('docs: guide');
  return { repo, base, head };
}

describe('readPullRequestDiff', () => {
  it('lists every changed file with status, counts, kind and the symbols its hunks touch', async () => {
    const { repo, base, head } = repoWithBranch();
    const diff = await readPullRequestDiff(repo.root, base, head);
    expect(diff.mergeBaseSha).toBe(base);
    expect(diff.commits.map((c) => c.subject)).toEqual(['feat: multiply', 'docs: guide']);
    const byPath = new Map(diff.files.map((f) => [f.path, f]));
    expect([...byPath.keys()].sort()).toEqual(
      ['assets/logo.png', 'dist/bundle.js', 'docs/guide.md', 'package.json', 'src/a file "quoted".ts', 'src/gone.ts', 'src/math.ts', 'src/new-name.ts'].sort(),
    );

    const renamed = byPath.get('src/new-name.ts')!;
    expect(renamed).toMatchObject({ status: 'renamed', oldPath: 'src/old-name.ts', additions: 0, deletions: 0, hunks: [], symbols: [] });

    const logo = byPath.get('assets/logo.png')!;
    expect(logo).toMatchObject({ binary: true, kind: 'asset', additions: 0, deletions: 0 });
    expect(byPath.get('dist/bundle.js')).toMatchObject({ status: 'added', generated: true, kind: 'generated', symbols: [] });
    expect(byPath.get('docs/guide.md')).toMatchObject({ kind: 'documentation', status: 'modified' });
    expect(byPath.get('src/a file "quoted".ts')).toMatchObject({ status: 'added', additions: 1, kind: 'source' });

    const gone = byPath.get('src/gone.ts')!;
    expect(gone).toMatchObject({ status: 'deleted', deletions: 3, kind: 'source' });
    expect(gone.symbols).toEqual([{ name: 'gone', kind: 'function', exported: true, side: 'base', lineStart: 1, lineEnd: 3, change: 'removed' }]);

    const math = byPath.get('src/math.ts')!;
    expect(math.additions).toBe(6);
    expect(math.deletions).toBe(1);
    expect(math.hunks[0]).toEqual({ oldStart: 6, oldLines: 1, newStart: 6, newLines: 1 });
    const touched = math.symbols.map((s) => `${s.side}:${s.name}:${s.change}:${s.exported}`).sort();
    expect(touched).toEqual(
      [
        'base:Calc.plus:modified:true',
        'base:Calc:modified:true',
        'base:sub:modified:true',
        'head:Calc.plus:modified:true',
        'head:Calc:modified:true',
        'head:mul:added:true',
        'head:sub:modified:true',
      ].sort(),
    );
    expect(math.symbols.some((s) => s.name === 'add' || s.name === 'internal')).toBe(false);
  });

  it('diffs from the merge base, not from the base branch tip', async () => {
    const { repo, base, head } = repoWithBranch();
    repo.git('checkout', '-q', 'main');
    repo.write({ 'src/main-only.ts': 'export const m = 1;\n' });
    const mainTip = repo.commit('main moves on');
    const diff = await readPullRequestDiff(repo.root, mainTip, head);
    expect(diff.baseSha).toBe(mainTip);
    expect(diff.mergeBaseSha).toBe(base);
    expect(diff.files.some((f) => f.path === 'src/main-only.ts')).toBe(false);
  });

  it('keeps both sides of changed manifests and code files, and the parse health of code files', async () => {
    const { repo, base, head } = repoWithBranch();
    const change = await readPullRequestChange(repo.root, base, head);
    expect(JSON.parse(change.texts.get('package.json')!.base!).dependencies.lodash).toBe('4.17.20');
    expect(JSON.parse(change.texts.get('package.json')!.head!).dependencies.lodash).toBe('4.17.21');
    const math = change.sides.get('src/math.ts')!;
    expect(math.base!.cleanRatio).toBe(1);
    expect(math.head!.facts.exports.map((e) => e.name)).toContain('mul');
    expect(change.sides.get('src/gone.ts')!.head).toBeUndefined();
    expect(change.texts.get('src/math.ts')!.head).toContain('export function mul');
    expect(change.texts.has('docs/guide.md')).toBe(false);
  });

  it('refuses revisions that are not commits', async () => {
    const { repo, base } = repoWithBranch();
    await expect(readPullRequestDiff(repo.root, base, 'no-such-branch')).rejects.toThrow(/not a commit/);
    await expect(readPullRequestDiff(repo.root, '--output=/tmp/x', base)).rejects.toThrow(/invalid revision/);
  });

  it('resolves several revisions with one git process, and names the one that is no commit', async () => {
    const { repo, base, head } = repoWithBranch();
    expect(await resolveCommits(repo.root, ['main', 'feature'])).toEqual([base, head]);
    await expect(resolveCommits(repo.root, ['main', 'no-such-branch'])).rejects.toThrow(/revision 'no-such-branch' is not a commit/);
    await expect(resolveCommits(repo.root, ['main..feature', 'main'])).rejects.toThrow(/revision 'main..feature' is not a commit/);
    const tree = repo.git('rev-parse', 'main^{tree}');
    await expect(resolveCommits(repo.root, [tree, 'main'])).rejects.toThrow(/is not a commit/);
  });
});
