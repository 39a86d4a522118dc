// The git runner's hardening: what a repository's own configuration or the caller's environment cannot make git do.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitEnvironment, spawnGit, succeeded } from './spawn-git.js';

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

    for (const args of [
      ['status', '--porcelain'],
      ['update-ref', 'refs/heads/copy', 'HEAD'],
      ['log', '--oneline'],
    ]) {
      expect(succeeded(await spawnGit({ cwd: root, args }))).toBe(true);
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('never fetches through the ext:: transport, though the repository’s own config allows it', async () => {
    const marker = join(root, 'ext-ran');
    git('config', 'protocol.ext.allow', 'always');
    const url = `ext::sh -c touch% ${marker}`;
    // Armed: git itself runs the program.
    try {
      execFileSync('git', ['ls-remote', url], {
        cwd: root,
        stdio: 'ignore',
        env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
      });
    } catch {
      // The program is not a git server; that it ran is what counts.
    }
    expect(existsSync(marker)).toBe(true);
    rmSync(marker);

    const result = await spawnGit({ cwd: root, args: ['ls-remote', url] });
    expect(succeeded(result)).toBe(false);
    expect(result.stderr).toMatch(/transport 'ext' not allowed/);
    expect(existsSync(marker)).toBe(false);
    git('config', '--unset', 'protocol.ext.allow');
  });

  it('scrubs the caller’s GIT_* variables unless asked to keep them', async () => {
    const other = mkdtempSync(join(tmpdir(), 'codehealth-spawn-git-other-'));
    try {
      execFileSync('git', ['init', '-q', other]);
      const saved = process.env.GIT_DIR;
      process.env.GIT_DIR = join(other, '.git');
      try {
        const scrubbed = await spawnGit({ cwd: root, args: ['rev-parse', '--absolute-git-dir'] });
        expect(scrubbed.stdout.toString('utf8').trim()).toBe(join(root, '.git'));
        const kept = await spawnGit({ cwd: root, args: ['rev-parse', '--absolute-git-dir'], environment: { inheritGitVariables: true } });
        expect(kept.stdout.toString('utf8').trim()).toBe(join(other, '.git'));
      } finally {
        if (saved === undefined) delete process.env.GIT_DIR;
        else process.env.GIT_DIR = saved;
      }
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('builds an environment that never prompts, takes no optional locks, speaks C and reads no system config unless asked', () => {
    const base = { PATH: '/usr/bin', HOME: '/home/x', GIT_DIR: '/elsewhere', GIT_CONFIG_PARAMETERS: "'core.pager'='less'", LANG: 'de_DE.UTF-8' };
    expect(gitEnvironment({}, base)).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/x',
      LANG: 'de_DE.UTF-8',
      LC_ALL: 'C',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_CONFIG_NOSYSTEM: '1',
    });
    expect(gitEnvironment({ inheritGitVariables: true, systemConfig: true, repository: '/srv/repos/a', set: { GIT_ASKPASS: '/bin/false' } }, base)).toEqual({
      ...base,
      LC_ALL: 'C',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_CEILING_DIRECTORIES: '/srv/repos',
      GIT_ASKPASS: '/bin/false',
    });
  });

  it('does not take a plain directory for part of the repository around it when told which directory it asks about', async () => {
    const plain = join(root, 'plain', 'inner');
    mkdirSync(plain, { recursive: true });
    const around = await spawnGit({ cwd: plain, args: ['rev-parse', '--absolute-git-dir'] });
    expect(around.stdout.toString('utf8').trim()).toBe(join(root, '.git'));
    const alone = await spawnGit({ cwd: plain, args: ['rev-parse', '--absolute-git-dir'], environment: { repository: plain } });
    expect(succeeded(alone)).toBe(false);
    expect(alone.stderr).toMatch(/not a git repository/);
  });

  // Timeouts, the output limit, failures and a missing directory: git-helper.test.ts runs them in
  // and out of the helper process.
});
