import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { LocalGitCodeHost } from './local-git-code-host.js';

const host = new LocalGitCodeHost();
const urlOf = (path: string) => pathToFileURL(path).href;

describe('LocalGitCodeHost', () => {
  let repo: TestRepo;
  let root: string;
  const cleanup: string[] = [];

  beforeAll(() => {
    repo = createGitRepo({ 'src/index.ts': 'export const a = 1;\n' }, 'codehealth-local-host-');
    root = realpathSync(repo.root);
    cleanup.push(root);
  });
  afterAll(() => {
    for (const dir of cleanup) rmSync(dir, { recursive: true, force: true });
  });

  it('resolves a working tree: owner = parent directory, name = directory, default branch = HEAD branch', async () => {
    const meta = await host.resolvePublic({ url: `${urlOf(root)}/` });
    const parent = root.split('/').at(-2)!;
    const name = root.split('/').at(-1)!;
    expect(meta).toEqual({
      provider: 'local',
      vcsId: 0,
      installationId: 0,
      owner: parent,
      name,
      fullName: `${parent}/${name}`,
      url: urlOf(root),
      cloneUrl: urlOf(root),
      description: '',
      defaultBranch: 'main',
      private: false,
    });
  });

  it('takes the branch HEAD names as default branch, and main/master for a detached HEAD', async () => {
    const other = createGitRepo({ 'a.txt': 'a\n' }, 'codehealth-local-trunk-');
    cleanup.push(other.root);
    other.git('branch', '-m', 'main', 'trunk');
    expect((await host.resolvePublic({ url: urlOf(other.root) })).defaultBranch).toBe('trunk');
    other.git('branch', 'master');
    other.git('checkout', '-q', '--detach', 'HEAD');
    expect((await host.resolvePublic({ url: urlOf(other.root) })).defaultBranch).toBe('master');
  });

  it('resolves a bare repository, without its .git suffix in the name', async () => {
    const bare = join(mkdtempSync(join(tmpdir(), 'codehealth-bare-')), 'service.git');
    cleanup.push(bare);
    execFileSync('git', ['clone', '-q', '--bare', root, bare]);
    const meta = await host.resolvePublic({ url: urlOf(bare) });
    expect(meta).toMatchObject({ name: 'service', url: urlOf(realpathSync(bare)), defaultBranch: 'main' });
  });

  it('refuses what is not the root of a repository with commits, with a clear 400', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'codehealth-plain-'));
    cleanup.push(plain);
    await expect(host.resolvePublic({ url: urlOf(plain) })).rejects.toThrow(`${realpathSync(plain)} is not a git repository`);
    await expect(host.resolvePublic({ url: urlOf(join(root, 'src')) })).rejects.toThrow(/is not a git repository/);
    await expect(host.resolvePublic({ url: urlOf(join(root, 'missing')) })).rejects.toThrow(/does not exist/);
    await expect(host.resolvePublic({ url: urlOf(join(root, 'src/index.ts')) })).rejects.toThrow(/is not a directory/);
    const empty = createGitRepo({}, 'codehealth-empty-');
    cleanup.push(empty.root);
    await expect(host.resolvePublic({ url: urlOf(empty.root) })).rejects.toThrow(/has no commits on its default branch 'main'/);
    await expect(host.resolvePublic({ url: urlOf(plain) })).rejects.toMatchObject({ name: 'InvalidInputError' });
  });

  it('never runs the repository’s hooks or fsmonitor while reading it', async () => {
    const hostile = createGitRepo({ 'a.txt': 'a\n' }, 'codehealth-hostile-');
    cleanup.push(hostile.root);
    hostile.git('update-ref', 'refs/pull/1/head', 'HEAD');
    const marker = join(hostile.root, 'pwned');
    const script = `#!/bin/sh\ntouch ${marker}\n`;
    mkdirSync(join(hostile.root, '.git/hooks'), { recursive: true });
    for (const hook of ['post-checkout', 'reference-transaction', 'pre-auto-gc'])
      writeFileSync(join(hostile.root, '.git/hooks', hook), script, { mode: 0o755 });
    writeFileSync(join(hostile.root, 'fsmonitor.sh'), script, { mode: 0o755 });
    hostile.git('config', 'core.fsmonitor', join(hostile.root, 'fsmonitor.sh'));
    // The hooks would fire on git's own commands: this one proves they are armed.
    hostile.git('update-ref', 'refs/pull/2/head', 'HEAD');
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);
    const meta = await host.resolvePublic({ url: urlOf(hostile.root) });
    expect(await host.listPullRequests(meta)).toHaveLength(2);
    expect(existsSync(marker)).toBe(false);
  });

  it('lists refs/pull/<N>/head as open pull requests against the default branch', async () => {
    const base = repo.git('rev-parse', 'HEAD');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write({ 'src/feature.ts': 'export const f = 2;\n' });
    const head = repo.commit('Add the feature flag\n\nIt switches the new checkout flow on.\nSecond line.');
    repo.git('checkout', '-q', 'main');
    repo.write({ 'README.md': 'moved on\n' });
    repo.commit('main moves on');
    repo.git('update-ref', 'refs/pull/7/head', head);
    repo.git('update-ref', 'refs/pull/12/head', base);
    repo.git('update-ref', 'refs/pull/7/merge', head); // not a head ref: ignored
    repo.git('update-ref', 'refs/pull/abc/head', head); // not a number: ignored
    const meta = await host.resolvePublic({ url: urlOf(root) });
    const pulls = await host.listPullRequests(meta);
    expect(pulls).toEqual([
      {
        number: 7,
        title: 'Add the feature flag',
        body: 'It switches the new checkout flow on.\nSecond line.',
        state: 'open',
        merged: false,
        author: 'Test',
        baseBranch: 'main',
        headBranch: 'pull/7',
        baseSha: base,
        headSha: head,
      },
      expect.objectContaining({ number: 12, title: 'initial', body: '', headSha: base, baseSha: base, headBranch: 'pull/12' }),
    ]);
  });

  it('lists nothing for a repository without pull request refs', async () => {
    const plainRepo = createGitRepo({ 'x.txt': 'x\n' }, 'codehealth-nopr-');
    cleanup.push(plainRepo.root);
    expect(await host.listPullRequests(await host.resolvePublic({ url: urlOf(plainRepo.root) }))).toEqual([]);
  });
});
