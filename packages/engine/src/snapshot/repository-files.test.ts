import { execFileSync } from 'node:child_process';
import { closeSync, fstatSync, mkdirSync, mkdtempSync, openSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeText, repositoryFiles, type RepositoryFileRead, type RepositoryReadOptions } from './repository-files.js';
import { isOpenedFileSync, repositoryRelativePath } from './repository-path.js';

const MARKER = 'OUTSIDE-SECRET-7c1e';

let base: string;
let root: string;
let outside: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'codehealth-repo-files-'));
  root = join(base, 'repo');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'src', 'deep'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), `${MARKER}\n`);
  writeFileSync(join(root, 'src', 'app.ts'), 'export const app = 1;\n');
  writeFileSync(join(root, 'src', 'deep', 'x.ts'), 'export const x = 1;\n');
  writeFileSync(join(root, 'big.txt'), 'x'.repeat(2000));
  writeFileSync(join(root, 'bom.json'), '\uFEFF{"a":1}');
  symlinkSync('src/app.ts', join(root, 'inside-link.ts'));
  symlinkSync('inside-link.ts', join(root, 'chained-link.ts'));
  symlinkSync('src', join(root, 'inside-dir'));
  symlinkSync(join(outside, 'secret.txt'), join(root, 'absolute-out.txt'));
  symlinkSync('../outside/secret.txt', join(root, 'relative-out.txt'));
  symlinkSync('relative-out.txt', join(root, 'chain-out.txt'));
  symlinkSync(outside, join(root, 'outside-dir'));
  symlinkSync('/proc/self/environ', join(root, 'environ'));
  symlinkSync('/etc/passwd', join(root, 'passwd'));
  symlinkSync('missing.txt', join(root, 'dangling.txt'));
  execFileSync('mkfifo', [join(root, 'pipe')]);
  // The repository reached through a link of its own: its real root is what counts.
  symlinkSync(root, join(base, 'repo-link'));
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

const text = (read: RepositoryFileRead) => (read.ok ? decodeText(read.bytes) : undefined);

describe.each([
  ['read', (path: string, options?: RepositoryReadOptions) => repositoryFiles(root).read(path, options)],
  ['readSync', (path: string, options?: RepositoryReadOptions) => Promise.resolve(repositoryFiles(root).readSync(path, options))],
] as const)('repositoryFiles.%s', (_name, read) => {
  it('reads a regular file, and follows links whose real path stays inside', async () => {
    expect(text(await read('src/app.ts'))).toBe('export const app = 1;\n');
    expect(await read('inside-link.ts')).toMatchObject({ ok: true, realPath: join(root, 'src', 'app.ts') });
    expect(text(await read('chained-link.ts'))).toBe('export const app = 1;\n');
    expect(text(await read('inside-dir/deep/x.ts'))).toBe('export const x = 1;\n');
    expect(text(await read('./src/app.ts'))).toBe('export const app = 1;\n');
  });

  it('refuses every link that leads outside, as if absent, quoting neither content nor target', async () => {
    for (const path of ['absolute-out.txt', 'relative-out.txt', 'chain-out.txt', 'outside-dir/secret.txt', 'environ', 'passwd']) {
      const refused = await read(path);
      expect(refused, path).toMatchObject({ ok: false, reason: 'outside-repository' });
      expect(JSON.stringify(refused)).not.toContain(MARKER);
      expect(JSON.stringify(refused)).not.toMatch(/outside\/|\/etc|\/proc|root:/);
    }
  });

  it('with links: never, follows no link at all', async () => {
    expect(await read('inside-link.ts', { links: 'never' })).toMatchObject({ ok: false, reason: 'symbolic-link' });
    expect(await read('inside-dir/app.ts', { links: 'never' })).toMatchObject({ ok: false, reason: 'symbolic-link' });
    expect(await read('outside-dir/secret.txt', { links: 'never' })).toMatchObject({ ok: false, reason: 'outside-repository' });
    expect(text(await read('src/app.ts', { links: 'never' }))).toBe('export const app = 1;\n');
  });

  it('refuses FIFOs (without blocking on them) and directories', async () => {
    expect(await read('pipe')).toMatchObject({ ok: false, reason: 'not-a-file', message: 'pipe: not a regular file; not read' });
    expect(await read('src')).toMatchObject({ ok: false, reason: 'not-a-file' });
    expect(await read('inside-dir')).toMatchObject({ ok: false, reason: 'not-a-file' });
  });

  it('refuses paths that name no file inside, missing files and dangling links, and files over the cap', async () => {
    for (const path of ['../outside/secret.txt', 'src/../../outside/secret.txt', join(outside, 'secret.txt'), '', '.', 'a\0b', 'src//app.ts']) {
      expect(await read(path), path).toMatchObject({ ok: false, reason: 'invalid-path' });
    }
    expect(await read('nope.ts')).toMatchObject({ ok: false, reason: 'absent', message: 'nope.ts: not found' });
    expect(await read('nope/deeper.ts')).toMatchObject({ ok: false, reason: 'absent' });
    expect(await read('src/app.ts/x')).toMatchObject({ ok: false, reason: 'absent' });
    expect(await read('dangling.txt')).toMatchObject({ ok: false, reason: 'absent' });
    expect(await read('big.txt', { maxBytes: 1000 })).toMatchObject({
      ok: false,
      reason: 'too-large',
      message: 'big.txt: 2000 bytes, above the 1000-byte limit; not read',
    });
    expect(text(await read('big.txt', { maxBytes: 2000 }))).toHaveLength(2000);
  });

  it('drops a byte-order mark when decoding', async () => {
    expect(JSON.parse(text(await read('bom.json'))!)).toEqual({ a: 1 });
  });
});

describe('repositoryFiles', () => {
  it('works from a root reached through a link, checking against its real path', async () => {
    const files = repositoryFiles(join(base, 'repo-link'));
    expect(text(await files.read('src/app.ts'))).toBe('export const app = 1;\n');
    expect(files.readSync('relative-out.txt')).toMatchObject({ ok: false, reason: 'outside-repository' });
  });

  it('hands out a checked descriptor for partial reads', () => {
    const opened = repositoryFiles(root).openSync('src/app.ts', { links: 'never' });
    expect(opened.ok).toBe(true);
    if (opened.ok) {
      expect(opened.stats.size).toBe(22);
      closeSync(opened.fd);
    }
    expect(repositoryFiles(root).openSync('environ')).toMatchObject({ ok: false, reason: 'outside-repository' });
  });

  it('treats a missing root as absent', async () => {
    expect(await repositoryFiles(join(base, 'gone')).read('a.ts')).toMatchObject({ ok: false, reason: 'absent' });
  });
});

describe('isOpenedFileSync', () => {
  it('notices that the path checked no longer names the descriptor opened', () => {
    const path = join(base, 'swapped.txt');
    writeFileSync(path, 'first');
    const fd = openSync(path, 'r');
    try {
      const stats = fstatSync(fd);
      expect(isOpenedFileSync(fd, path, stats)).toBe(true);
      writeFileSync(join(base, 'other.txt'), 'second');
      renameSync(join(base, 'other.txt'), path);
      expect(isOpenedFileSync(fd, path, stats)).toBe(false);
    } finally {
      closeSync(fd);
    }
  });
});

describe('repositoryRelativePath', () => {
  it('keeps relative paths in their plain form and refuses the rest', () => {
    expect(repositoryRelativePath('a/b.ts')).toBe('a/b.ts');
    expect(repositoryRelativePath('./a/./b.ts')).toBe('a/b.ts');
    expect(repositoryRelativePath('a/.b/..c/b..ts')).toBe('a/.b/..c/b..ts');
    expect(repositoryRelativePath('a\\b.ts')).toBe('a\\b.ts');
    for (const path of ['', '.', './', '/a', '../a', 'a/..', 'a/../b', 'a//b', 'a/', 'a\0']) expect(repositoryRelativePath(path), path).toBeUndefined();
  });
});
