import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnGit, succeeded } from './spawn-git.js';

const root = mkdtempSync(join(tmpdir(), 'codehealth-spawn-git-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' } });

describe('spawnGit', () => {
  it('never runs a repository’s fsmonitor program or hooks, which its own .git/config arms', async () => {
    git('init', '-q', '-b', 'main');
    writeFileSync(join(root, 'a.txt'), 'a\n');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'a');
    const marker = join(root, 'pwned');
    writeFileSync(join(root, 'hook.sh'), `#!/bin/sh\ntouch ${marker}\n`);
    chmodSync(join(root, 'hook.sh'), 0o755);
    mkdirSync(join(root, '.git/hooks'), { recursive: true });
    for (const hook of ['reference-transaction', 'post-index-change']) {
      writeFileSync(join(root, '.git/hooks', hook), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    }
    git('config', 'core.fsmonitor', join(root, 'hook.sh'));
    // Armed: git itself runs them on a plain status.
    git('status', '--porcelain');
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);

    for (const args of [['status', '--porcelain'], ['update-ref', 'refs/heads/copy', 'HEAD'], ['log', '--oneline']]) {
      expect(succeeded(await spawnGit({ cwd: root, args }))).toBe(true);
    }
    expect(existsSync(marker)).toBe(false);
  });
});
