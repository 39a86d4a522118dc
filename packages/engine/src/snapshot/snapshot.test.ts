import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS, TempDir, TempRepo } from './fixtures/temp-repo.js';
import { createSnapshot, SnapshotError, snapshotOfFiles } from './snapshot.js';
import type { RepoSnapshot } from './types.js';

const NOW = Date.UTC(2025, 5, 30, 12);
const ALICE = { name: 'Alice', email: 'alice@example.com' };
const BOB = { name: 'Bob', email: 'bob@example.com' };

describe('createSnapshot on a mini repository', () => {
  let repo: TempRepo;
  let snapshot: RepoSnapshot;

  beforeAll(async () => {
    repo = new TempRepo();
    repo.write('src/a.ts', 'export const a = 1;\n').write('src/bom.ts', '\uFEFFexport const b = 2;\n');
    repo.commit('first', ALICE, new Date(NOW - 40 * DAY_MS));
    repo.write('src/a.ts', 'export const a = 2;\nexport const c = 3;\n').write('logo.png', Buffer.from([0, 1]));
    repo.write('src/a.it.ts', 'it();\n').write('src/api.pb.ts', 'export {};\n').write('scratch/x.ts', 'x\n');
    repo.commit('second', BOB, new Date(NOW - 10 * DAY_MS));
    snapshot = await createSnapshot(repo.root, { now: NOW, exclude: ['scratch/'], tests: ['*.it.ts'], generated: ['**/*.pb.ts'] });
  });
  afterAll(() => repo.remove());

  it('lists the files with the configured rules applied', () => {
    expect(snapshot.root).toBe(repo.root);
    expect(snapshot.files.map((f) => [f.path, f.kind])).toEqual([
      ['logo.png', 'asset'],
      ['src/a.it.ts', 'test'],
      ['src/a.ts', 'source'],
      ['src/api.pb.ts', 'generated'],
      ['src/bom.ts', 'source'],
    ]);
  });

  it('reads a file once and serves later calls from the first read', async () => {
    const first = snapshot.readFile('src/a.ts');
    expect(snapshot.readFile('src/a.ts')).toBe(first);
    expect(await first).toBe('export const a = 2;\nexport const c = 3;\n');
    repo.write('src/a.ts', 'changed on disk\n');
    expect(await snapshot.readFile('src/a.ts')).toBe('export const a = 2;\nexport const c = 3;\n');
  });

  it('decodes UTF-8 without the byte-order mark', async () => {
    expect(await snapshot.readFile('src/bom.ts')).toBe('export const b = 2;\n');
  });

  it('refuses paths outside the inventory and files it skipped', async () => {
    await expect(snapshot.readFile('../outside.ts')).rejects.toMatchObject({ name: 'SnapshotError', code: 'FILE_NOT_IN_SNAPSHOT' });
    await expect(snapshot.readFile('scratch/x.ts')).rejects.toThrow('not in the snapshot: scratch/x.ts');
    await expect(snapshot.readFile('logo.png')).rejects.toMatchObject({ code: 'FILE_SKIPPED', message: 'skipped: logo.png (binary file)' });
  });

  it('computes git facts once, at the injected time', async () => {
    const facts = snapshot.git();
    expect(snapshot.git()).toBe(facts);
    const { files, totals } = await facts;
    expect(totals).toMatchObject({ commits90d: 2, commits30d: 1, authors90d: 2, authors30d: 1 });
    expect(files.get('src/a.ts')).toMatchObject({ linesAdded90d: 3, linesDeleted90d: 1, linesAdded30d: 2, linesDeleted30d: 1, authors: ['Alice', 'Bob'] });
  });
});

describe('createSnapshot root validation', () => {
  it('throws a SnapshotError for a missing directory', async () => {
    const missing = resolve('/nonexistent-codehealth-dir/sub');
    const error = await createSnapshot(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SnapshotError);
    expect(error).toMatchObject({ code: 'DIRECTORY_NOT_FOUND', path: missing, message: `directory not found: ${missing}` });
  });

  it('throws a SnapshotError for a file', async () => {
    const repo = new TempRepo();
    try {
      const file = join(repo.write('a.ts', 'x\n').root, 'a.ts');
      await expect(createSnapshot(file)).rejects.toMatchObject({ code: 'NOT_A_DIRECTORY', message: `not a directory: ${file}` });
      await expect(createSnapshot(join(file, 'below'))).rejects.toThrow(`directory not found: ${join(file, 'below')}`);
    } finally {
      repo.remove();
    }
  });
});

describe('createSnapshot on this repository', () => {
  const root = fileURLToPath(new URL('../../../../', import.meta.url));
  let snapshot: RepoSnapshot;
  beforeAll(async () => {
    snapshot = await createSnapshot(root);
  });

  const kindOf = (path: string): string | undefined => snapshot.files.find((f) => f.path === path)?.kind;

  it('classifies its own files', () => {
    expect(kindOf('packages/engine/src/snapshot/snapshot.ts')).toBe('source');
    expect(kindOf('packages/engine/src/snapshot/snapshot.test.ts')).toBe('test');
    expect(kindOf('packages/engine/src/snapshot/fixtures/temp-repo.ts')).toBe('test');
    expect(kindOf('packages/engine/package.json')).toBe('config');
    expect(kindOf('package-lock.json')).toBe('generated');
    expect(kindOf('tsconfig.json')).toBe('config');
    expect(kindOf('vitest.config.ts')).toBe('config');
  });

  it('leaves out node_modules and ignored build output', () => {
    expect(snapshot.files.length).toBeGreaterThan(20);
    expect(snapshot.files.filter((f) => f.path.split('/').includes('node_modules'))).toEqual([]);
    expect(snapshot.files.filter((f) => f.path.split('/').includes('dist'))).toEqual([]);
  });

  it('reads its own source through the snapshot', async () => {
    expect(await snapshot.readFile('packages/engine/src/snapshot/snapshot.ts')).toContain('export async function createSnapshot(');
  });

  it('agrees with git on HEAD and on the commits of a file', async () => {
    const facts = await snapshot.git();
    const git = (args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
    const path = 'packages/engine/src/domain/types.ts';
    expect(facts.available).toBe(true);
    expect(facts.headSha).toMatch(/^[0-9a-f]{40}$/);
    // Others commit to this repository concurrently: compare against the HEAD the facts were read at.
    expect(git(['cat-file', '-t', facts.headSha ?? ''])).toBe('commit');
    expect(facts.files.get(path)?.commitsTotal).toBe(Number(git(['rev-list', '--count', '--no-merges', facts.headSha ?? '', '--', path])));
  });
});

describe('snapshot reads of inventoried paths', () => {
  it('read a path only as the regular file the inventory saw: never through a link, even one it was handed', async () => {
    const outside = new TempDir().write('secret.ts', 'export const token = "OUTSIDE-SECRET-9f2";\n');
    const repo = new TempRepo();
    try {
      repo.write('src/a.ts', 'export const a = 1;\n');
      symlinkSync(join(outside.root, 'secret.ts'), join(repo.root, 'link.ts'));
      symlinkSync(outside.root, join(repo.root, 'linked-dir'));
      symlinkSync('src/a.ts', join(repo.root, 'inside-link.ts'));
      mkdirSync(join(repo.root, 'fifo-dir'));
      execFileSync('mkfifo', [join(repo.root, 'fifo-dir', 'pipe.ts')]);
      writeFileSync(join(repo.root, 'empty.ts'), '');
      repo.commit('links', ALICE, new Date(NOW));
      // The inventory lists none of the links (nor the FIFO) ...
      expect((await createSnapshot(repo.root)).files.map((f) => f.path).sort()).toEqual(['empty.ts', 'src/a.ts']);
      // ... and a snapshot handed them anyway (an inventory made elsewhere) does not read them.
      const entry = (path: string) => ({ path, language: 'typescript' as const, kind: 'source' as const, sizeBytes: 10 });
      const paths = ['link.ts', 'linked-dir/secret.ts', 'inside-link.ts', 'fifo-dir/pipe.ts', 'src/a.ts'];
      const snapshot = snapshotOfFiles(repo.root, paths.map(entry), () => Promise.reject(new Error('unused')));
      const refusals = await Promise.all(
        paths.slice(0, 4).map((p) =>
          snapshot.readFile(p).then(
            () => undefined,
            (e: unknown) => e,
          ),
        ),
      );
      expect(refusals.map((e) => (e as SnapshotError).code)).toEqual(['FILE_UNREADABLE', 'FILE_UNREADABLE', 'FILE_UNREADABLE', 'FILE_UNREADABLE']);
      expect(refusals.map((e) => (e as Error).message)).toEqual([
        'not read: link.ts: a symbolic link; not followed here',
        'not read: linked-dir/secret.ts: reached through a symbolic link that leads outside the repository; not read',
        'not read: inside-link.ts: a symbolic link; not followed here',
        'not read: fifo-dir/pipe.ts: not a regular file; not read',
      ]);
      expect(await snapshot.readFile('src/a.ts')).toBe('export const a = 1;\n');
    } finally {
      repo.remove();
      outside.remove();
    }
  });
});
