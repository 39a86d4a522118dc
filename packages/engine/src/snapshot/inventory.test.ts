import { chmodSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import ignore from 'ignore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkDirectory } from './directory-walk.js';
import { TempDir, TempRepo } from './fixtures/temp-repo.js';
import { formatBytes, listFiles } from './inventory.js';
import type { RepoFile } from './types.js';

const ALICE = { name: 'Alice', email: 'alice@example.com' };
const MINIFIED = `var a=${'[1,2,3],'.repeat(900)}0;\n`;

/** One tree for both modes: every ignore, skip and classification case the inventory knows. */
function writeProject(dir: TempDir): void {
  dir
    .write('.gitignore', '*.log\n/secret/\nbuild-output/\nignored-dir/\n')
    .write('local-notes.md', 'mine only\n')
    .write('app.log', 'noise\n')
    .write('debug.log', 'tracked despite the ignore rule\n')
    .write('secret/key.txt', 'k\n')
    .write('src/secret/ok.ts', 'export const ok = true;\n')
    .write('build-output/x.js', 'x\n')
    .write('packages/a/.gitignore', 'tmp/\n!keep.log\n')
    .write('packages/a/keep.log', 'kept by a nested negation\n')
    .write('packages/a/other.log', 'still ignored by the root rule\n')
    .write('packages/a/tmp/x.ts', 'x\n')
    .write('packages/a/src/index.ts', 'export {};\n')
    .write('packages/a/package.json', '{"name":"a"}\n')
    .write('src/app.ts', 'export const app = 1;\n')
    .write('src/app.test.ts', "import { app } from './app.js';\n")
    .write('src/naïve name.ts', 'export {};\n')
    .write('src/huge-table.ts', '// filler line.\n'.repeat((3 * 1024 * 1024) / 16))
    .write('test/helpers.ts', 'export {};\n')
    .write('dist/index.js', 'module.exports = {};\n')
    .write('package-lock.json', '{}\n')
    .write('node_modules/dep/index.js', 'module.exports = 1;\n')
    .write('vendor/lib.js', 'var lib;\n')
    .write('assets/logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0d, 0x0a]))
    .write('public/app.js', MINIFIED)
    .write('docs/guide.md', '# Guide\n');
  mkdirSync(join(dir.root, '.git', 'info'), { recursive: true });
  dir.write('.git/info/exclude', 'local-notes.md\n');
  symlinkSync(join(dir.root, 'src', 'app.ts'), join(dir.root, 'link.ts'));
  symlinkSync('/etc', join(dir.root, 'outside'));
}

const WALKED = [
  '.gitignore',
  'assets/logo.png',
  'dist/index.js',
  'docs/guide.md',
  'package-lock.json',
  'packages/a/.gitignore',
  'packages/a/keep.log',
  'packages/a/package.json',
  'packages/a/src/index.ts',
  'public/app.js',
  'src/app.test.ts',
  'src/app.ts',
  'src/huge-table.ts',
  'src/naïve name.ts',
  'src/secret/ok.ts',
  'test/helpers.ts',
  'vendor/lib.js',
];

const paths = (files: RepoFile[]): string[] => files.map((f) => f.path);
const byPath = (files: RepoFile[], path: string): RepoFile | undefined => files.find((f) => f.path === path);

describe('listFiles in a git work tree', () => {
  let repo: TempRepo;
  let files: RepoFile[];

  beforeAll(async () => {
    repo = new TempRepo();
    writeProject(repo);
    repo.write('src/removed.ts', 'export {};\n');
    repo.git(['add', '-A']);
    repo.git(['add', '--force', 'debug.log', 'node_modules/dep/index.js']);
    repo.commitStaged('initial', ALICE, new Date('2025-01-01T00:00:00Z'));
    rmSync(join(repo.root, 'src', 'removed.ts'));
    repo.write('src/untracked.ts', 'export {};\n');
    files = await listFiles(repo.root);
  });
  afterAll(() => repo.remove());

  it('lists what git lists: nested rules, info/exclude, tracked-but-ignored files, untracked files', () => {
    const expected = [...WALKED, 'debug.log', 'src/untracked.ts'].sort();
    expect(paths(files)).toEqual(expected);
  });

  it('sorts by path in code-unit order', () => {
    expect(paths(files).indexOf('src/app.test.ts')).toBe(paths(files).indexOf('src/app.ts') - 1);
    expect(paths(files)[0]).toBe('.gitignore');
  });

  it('never lists node_modules or symlinks, even when git would', () => {
    expect(paths(files).some((p) => p.includes('node_modules'))).toBe(false);
    expect(paths(files)).not.toContain('link.ts');
    expect(paths(files).some((p) => p.startsWith('outside'))).toBe(false);
  });

  it('records language, kind and size', () => {
    expect(byPath(files, 'src/app.ts')).toEqual({ path: 'src/app.ts', language: 'typescript', kind: 'source', sizeBytes: 22 });
    expect(byPath(files, 'src/app.test.ts')?.kind).toBe('test');
    expect(byPath(files, 'test/helpers.ts')?.kind).toBe('test');
    expect(byPath(files, 'dist/index.js')?.kind).toBe('generated');
    expect(byPath(files, 'package-lock.json')?.kind).toBe('generated');
    expect(byPath(files, 'vendor/lib.js')?.kind).toBe('vendored');
    expect(byPath(files, 'packages/a/package.json')?.kind).toBe('config');
    expect(byPath(files, 'docs/guide.md')).toMatchObject({ kind: 'documentation', language: 'markdown' });
  });

  it('detects a minified bundle by its content', () => {
    expect(byPath(files, 'public/app.js')).toMatchObject({ kind: 'generated', language: 'javascript', sizeBytes: MINIFIED.length });
  });

  it('gives binary and oversized files a skip reason', () => {
    expect(byPath(files, 'assets/logo.png')).toMatchObject({ kind: 'asset', sizeBytes: 8, skipReason: 'binary file' });
    expect(byPath(files, 'src/huge-table.ts')).toMatchObject({
      kind: 'source',
      sizeBytes: 3 * 1024 * 1024,
      skipReason: 'file is 3.0 MB, above the 2.0 MB limit',
    });
    expect(files.filter((f) => f.skipReason).map((f) => f.path)).toEqual(['assets/logo.png', 'src/huge-table.ts']);
  });

  it('applies exclude globs, the maximum size and extra test/generated globs from the options', async () => {
    const tuned = await listFiles(repo.root, {
      exclude: ['docs/', '*.log', 'packages/**/src'],
      maxFileBytes: 20,
      tests: ['src/secret/**'],
      generated: ['test/**', 'vendor/**'],
    });
    expect(paths(tuned)).not.toContain('docs/guide.md');
    expect(paths(tuned)).not.toContain('debug.log');
    expect(paths(tuned)).not.toContain('packages/a/keep.log');
    expect(paths(tuned)).not.toContain('packages/a/src/index.ts');
    expect(paths(tuned)).toContain('packages/a/package.json');
    expect(byPath(tuned, 'src/app.ts')?.skipReason).toBe('file is 22 bytes, above the 20 bytes limit');
    expect(byPath(tuned, 'src/secret/ok.ts')?.kind).toBe('test');
    expect(byPath(tuned, 'test/helpers.ts')?.kind).toBe('generated');
    // vendored comes first, whatever the generated globs say
    expect(byPath(tuned, 'vendor/lib.js')?.kind).toBe('vendored');
  });

  it('lists a subdirectory relative to itself, under the rules of the whole repository', async () => {
    const sub = await listFiles(join(repo.root, 'packages', 'a'));
    expect(paths(sub)).toEqual(['.gitignore', 'keep.log', 'package.json', 'src/index.ts']);
  });

  it('walks a directory that the enclosing repository ignores', async () => {
    repo.write('ignored-dir/.gitignore', '*.tmp\n').write('ignored-dir/a.ts', 'export {};\n').write('ignored-dir/b.tmp', 'x');
    expect(paths(await listFiles(join(repo.root, 'ignored-dir')))).toEqual(['.gitignore', 'a.ts']);
  });

  it.skipIf(process.getuid?.() === 0)('reports a file it cannot read', async () => {
    const file = join(repo.root, 'src', 'app.ts');
    chmodSync(file, 0o000);
    try {
      expect(byPath(await listFiles(repo.root), 'src/app.ts')?.skipReason).toBe('unreadable: EACCES');
    } finally {
      chmodSync(file, 0o644);
    }
  });
});

describe('listFiles outside git', () => {
  let dir: TempDir;
  beforeAll(() => {
    dir = new TempDir();
    // A `.git` folder git cannot use (no HEAD): the walk must take over and still honour info/exclude.
    writeProject(dir);
  });
  afterAll(() => dir.remove());

  it('walks the directory with the same rules git applies', async () => {
    expect(paths(await listFiles(dir.root))).toEqual(WALKED);
  });

  it('walkDirectory prunes the directories the caller excludes', async () => {
    const walked = await walkDirectory(dir.root, ignore().add(['packages/', 'src/*.ts']));
    expect(walked.sort()).toEqual(WALKED.filter((p) => !p.startsWith('packages/') && !/^src\/[^/]+\.ts$/.test(p)));
    expect(walked).toContain('src/secret/ok.ts');
  });
});

describe('walkDirectory and linked ignore files', () => {
  it('reads no .gitignore that is a symbolic link, as git does, wherever it points', async () => {
    const outside = new TempDir().write('ignore-everything', '*\n');
    const dir = new TempDir();
    try {
      dir.write('src/a.ts', 'export {};\n').write('lib/b.ts', 'export {};\n').write('rules/ignore-lib', 'b.ts\n');
      symlinkSync(join(outside.root, 'ignore-everything'), join(dir.root, '.gitignore'));
      symlinkSync('../rules/ignore-lib', join(dir.root, 'lib', '.gitignore'));
      expect((await walkDirectory(dir.root)).sort()).toEqual(['lib/b.ts', 'rules/ignore-lib', 'src/a.ts']);
    } finally {
      dir.remove();
      outside.remove();
    }
  });
});

describe('listFiles in a repository without commits', () => {
  it('lists the untracked files', async () => {
    const repo = new TempRepo();
    try {
      repo.write('.gitignore', 'out.txt\n').write('src/a.ts', 'export {};\n').write('out.txt', 'x');
      expect(paths(await listFiles(repo.root))).toEqual(['.gitignore', 'src/a.ts']);
    } finally {
      repo.remove();
    }
  });
});

describe('listFiles at scale', () => {
  // How fast is a benchmark figure (npm run bench: test/bench/micro.mjs, inventory against a plain directory walk).
  it('inventories 10,000 files, each once', async () => {
    const dir = new TempDir();
    try {
      for (let d = 0; d < 100; d++) {
        for (let f = 0; f < 100; f++) dir.write(`src/d${d}/f${f}.ts`, 'export const x = 1;\n'.repeat(20));
      }
      const files = paths(await listFiles(dir.root));
      expect(files).toHaveLength(10_000);
      expect(new Set(files).size).toBe(10_000);
      expect(files).toContain('src/d99/f99.ts');
    } finally {
      dir.remove();
    }
  });
});

describe('formatBytes', () => {
  it('uses binary units with one decimal', () => {
    expect(formatBytes(20 * 1024 * 1024)).toBe('20.0 MB');
    expect(formatBytes(2 * 1024 * 1024)).toBe('2.0 MB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(1023)).toBe('1023 bytes');
  });
});
