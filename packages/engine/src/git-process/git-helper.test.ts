// The git helper process: answers as git does, reports failures, carries large outputs, and
// survives (or is survived by) its processes going away.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TempRepo } from '../snapshot/fixtures/temp-repo.js';
import { GitHelper, helperScriptUrl } from './git-helper.js';
import { failureDetail, spawnGit, succeeded } from './spawn-git.js';

/** Running (a zombie left to a parent that never reaps it counts as gone). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
};

const childrenOf = (pid: number): number[] =>
  execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([child, parent]) => parent === pid && alive(child))
    .map(([child]) => child);

async function until(condition: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}

const identity = { name: 'Ada', email: 'ada@example.com' };
// `git slow` sleeps: a command that is still running when the test acts (longer than the test's own timeout).
const SLOW = ['-c', 'alias.slow=!sleep 30', 'slow'];

describe('GitHelper', () => {
  let repo: TempRepo;
  let big: string;
  const helpers: GitHelper[] = [];
  const helper = (options?: ConstructorParameters<typeof GitHelper>[0]) => {
    const made = new GitHelper(options);
    helpers.push(made);
    return made;
  };

  beforeAll(() => {
    repo = new TempRepo('codehealth-git-helper-');
    // ~6 MB of text: more than a pipe or one IPC chunk holds.
    big = TempRepo.lines(300_000, 'a fairly long line of text that git prints back');
    repo.write('big.txt', big).write('small.txt', 'hello\n');
    repo.commit('first', identity, new Date('2026-01-02T03:04:05Z'));
  });
  afterEach(() => {
    for (const made of helpers.splice(0)) made.close();
  });
  afterAll(() => repo.remove());

  it('is built (the helper runs the compiled script)', () => {
    expect(helperScriptUrl()?.pathname).toMatch(/dist\/git-process\/git-helper-main\.js$/);
  });

  it('answers in the helper process what git answers in this one', async () => {
    const runner = helper();
    const request = { cwd: repo.root, args: ['log', '--format=%H %an %s'] };
    const [viaHelper, here] = await Promise.all([runner.run(request), spawnGit(request)]);
    expect(viaHelper.stdout.toString('utf8')).toBe(`${repo.head()} Ada first\n`);
    expect(viaHelper).toEqual(here);
    expect(runner.counts).toMatchObject({ helper: 1, direct: 0, started: 1 });
    expect(runner.pid).not.toBe(process.pid);
  });

  it('feeds standard input and returns bytes untouched', async () => {
    const result = await helper().run({ cwd: repo.root, args: ['cat-file', '--batch'], input: 'HEAD:small.txt\nHEAD:missing\n' });
    expect(succeeded(result)).toBe(true);
    expect(result.stdout.toString('utf8')).toMatch(/^[0-9a-f]{40} blob 6\nhello\n\nHEAD:missing missing\n$/);
    expect(Buffer.isBuffer(result.stdout)).toBe(true);
  });

  it('carries a large output whole, and stops git at the output limit', async () => {
    const runner = helper();
    const whole = await runner.run({ cwd: repo.root, args: ['show', 'HEAD:big.txt'] });
    expect(whole.stdout.length).toBe(Buffer.byteLength(big));
    expect(whole.stdout.toString('utf8')).toBe(big);
    const cut = await runner.run({ cwd: repo.root, args: ['show', 'HEAD:big.txt'], maxBufferBytes: 100_000 });
    expect(cut.errorCode).toBe('ERR_CHILD_PROCESS_STDIO_MAXBUFFER');
    expect(cut.stdout.length).toBe(100_000);
    expect(succeeded(cut)).toBe(false);
    expect(failureDetail(cut)).toBe('output too large');
    expect(runner.counts.helper).toBe(2);
  });

  it('reports git failures, a missing directory and a timeout as results', async () => {
    const runner = helper();
    const bad = await runner.run({ cwd: repo.root, args: ['rev-parse', '--verify', 'no-such-branch'] });
    expect(bad.exitCode).toBe(128);
    expect(failureDetail(bad)).toContain('Needed a single revision');
    const nowhere = await runner.run({ cwd: `${repo.root}/missing`, args: ['status'] });
    expect(nowhere).toMatchObject({ exitCode: null, errorCode: 'ENOENT' });
    // Not waiting for the alias' own sleep, which holds git's output open: that wait would outlast the test's timeout.
    const slow = await runner.run({ cwd: repo.root, args: SLOW, timeoutMs: 200 });
    expect(slow.errorCode).toBe('ETIMEDOUT');
    expect(failureDetail(slow)).toBe('timed out');
    expect(runner.counts).toMatchObject({ helper: 3, direct: 0 });
  }, 20_000);

  it('runs a command again in this process when the helper dies under it, then starts a new helper', async () => {
    const runner = helper();
    runner.warm();
    const pid = runner.pid!;
    const pending = runner.run({ cwd: repo.root, args: ['-c', 'alias.slow=!sleep 1 && echo done', 'slow'] });
    // The helper is running the command (its git is up) when it dies.
    expect(await until(() => childrenOf(pid).length > 0)).toBe(true);
    process.kill(pid, 'SIGKILL');
    const result = await pending;
    expect(result.stdout.toString('utf8')).toBe('done\n');
    expect(runner.counts).toMatchObject({ helper: 0, direct: 1 });
    const next = await runner.run({ cwd: repo.root, args: ['rev-parse', 'HEAD'] });
    expect(next.stdout.toString('utf8').trim()).toBe(repo.head());
    expect(runner.counts).toMatchObject({ helper: 1, started: 2 });
    expect(runner.pid).not.toBe(pid);
  });

  it('gives up on a helper that keeps dying: commands run in this process', async () => {
    const runner = helper({ maxRestarts: 2 });
    for (let i = 0; i < 2; i++) {
      runner.warm();
      const pid = runner.pid!;
      process.kill(pid, 'SIGKILL');
      await until(() => runner.pid !== pid);
    }
    const result = await runner.run({ cwd: repo.root, args: ['rev-parse', 'HEAD'] });
    expect(result.stdout.toString('utf8').trim()).toBe(repo.head());
    expect(runner.counts).toMatchObject({ helper: 0, direct: 1, started: 2 });
    expect(runner.pid).toBeUndefined();
  });

  it('runs commands here without a helper script', async () => {
    const runner = helper({ script: undefined });
    const result = await runner.run({ cwd: repo.root, args: ['rev-parse', 'HEAD'] });
    expect(result.stdout.toString('utf8').trim()).toBe(repo.head());
    expect(runner.counts).toEqual({ helper: 0, direct: 1, started: 0 });
  });

  it('leaves when idle, and kills the git it runs when stopped (that command then runs here)', async () => {
    const idle = helper({ idleMs: 50 });
    await idle.run({ cwd: repo.root, args: ['rev-parse', 'HEAD'] });
    const idlePid = idle.pid!;
    expect(await until(() => !alive(idlePid))).toBe(true);
    expect(idle.pid).toBeUndefined();

    const runner = helper();
    runner.warm();
    const pid = runner.pid!;
    const pending = runner.run({ cwd: repo.root, args: ['-c', 'alias.slow=!sleep 1 && echo done', 'slow'] });
    expect(await until(() => childrenOf(pid).length > 0)).toBe(true);
    const [gitPid] = childrenOf(pid);
    runner.close();
    expect(await until(() => !alive(pid))).toBe(true);
    expect(await until(() => !alive(gitPid))).toBe(true);
    expect((await pending).stdout.toString('utf8')).toBe('done\n');
    expect(runner.counts).toMatchObject({ helper: 0, direct: 1 });
  });

  it('exits with the process that started it', async () => {
    // A separate Node process starts a helper, prints its pid and is then killed outright.
    const script = `
      const { GitHelper } = await import(${JSON.stringify(new URL('../../dist/git-process/git-helper.js', import.meta.url).href)});
      const helper = new GitHelper();
      await helper.run({ cwd: ${JSON.stringify(repo.root)}, args: ['rev-parse', 'HEAD'] });
      console.log(helper.pid);
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const pid = await new Promise<number>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))));
    expect(alive(pid)).toBe(true);
    parent.kill('SIGKILL');
    expect(await until(() => !alive(pid))).toBe(true);
  });
});
