// Checkouts left behind: real processes check out a real repository and one is killed outright;
// the next start removes its working copy and half-cloned mirror, and keeps every path a live
// process (another one, this one, one on another machine) may still be using.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createGitRepo } from '../../../../test/helpers/git-repo.js';
import { currentOwner, type OwnerRecord } from './checkout-owners.js';
import { RepositoryCheckouts } from './repository-checkout.js';

const JITI = pathToFileURL(createRequire(import.meta.url).resolve('jiti')).href;
const SOURCES = new URL('.', import.meta.url).pathname;
const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface ChildCheckout {
  child: ChildProcessWithoutNullStreams;
  checkout: string;
  partial: string;
}

/** Another Node process with our sources: a checkout, a mirror clone under way, then it waits. */
async function checkoutInAnotherProcess(workDir: string, url: string, repositoryId: string, sha: string): Promise<ChildCheckout> {
  const script = `
    const { createJiti } = await import(${JSON.stringify(JITI)});
    const jiti = createJiti(${JSON.stringify(import.meta.url)});
    const { RepositoryCheckouts } = await jiti.import(${JSON.stringify(join(SOURCES, 'repository-checkout.ts'))});
    const { claimPath } = await jiti.import(${JSON.stringify(join(SOURCES, 'checkout-owners.ts'))});
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const checkouts = new RepositoryCheckouts({ workDir: ${JSON.stringify(workDir)}, allowLocal: true });
    await checkouts.fetch(${JSON.stringify(repositoryId)}, ${JSON.stringify(url)});
    const checkout = await checkouts.checkout(${JSON.stringify(repositoryId)}, ${JSON.stringify(sha)});
    // As fetch() does before git clone --mirror writes into it.
    const partial = await claimPath(${JSON.stringify(join(workDir, 'mirrors', `${randomUUID()}.git.partial-`))} + process.pid);
    mkdirSync(partial.path);
    writeFileSync(partial.path + '/HEAD', 'ref: refs/heads/main\\n');
    console.log(JSON.stringify({ checkout: checkout.path, partial: partial.path }));
    setInterval(() => {}, 1000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`child exited with ${code}: ${stderr}`)));
  });
  return { child, ...(JSON.parse(line) as { checkout: string; partial: string }) };
}

/** A scratch path as another owner would have left it, its heartbeat `ageMs` old. */
function leftover(dir: string, name: string, owner: OwnerRecord | undefined, ageMs = 0): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'file.ts'), 'export {};\n');
  const when = new Date(Date.now() - ageMs);
  if (owner) writeFileSync(`${path}.owner`, JSON.stringify(owner));
  utimesSync(owner ? `${path}.owner` : path, when, when);
  return path;
}

const HOUR = 3_600_000;

describe('checkouts left behind by a killed process', () => {
  it('are removed at the next start; paths a live process may use are kept', async () => {
    const repo = createGitRepo({ 'src/a.ts': 'export const a = 1;\n' }, 'codehealth-leftovers-');
    dirs.push(repo.root);
    const workDir = mkdtempSync(join(tmpdir(), 'codehealth-work-'));
    dirs.push(workDir);
    const url = `file://${repo.root}`;
    const sha = repo.git('rev-parse', 'HEAD');
    const repositoryId = randomUUID();

    const killed = await checkoutInAnotherProcess(workDir, url, repositoryId, sha);
    const live = await checkoutInAnotherProcess(workDir, url, repositoryId, sha);
    const exited = new Promise((resolve) => killed.child.once('exit', resolve));
    killed.child.kill('SIGKILL');
    await exited;
    for (const path of [killed.checkout, killed.partial, `${killed.checkout}.owner`]) expect(existsSync(path)).toBe(true);

    const mine = new RepositoryCheckouts({ workDir, allowLocal: true });
    const inUse = await mine.checkout(repositoryId, sha);
    const checkouts = join(workDir, 'checkouts');
    const me = currentOwner();
    const elsewhere = { host: 'another-machine', boot: 'b', pid: 4242, started: '1' };
    const kept = [leftover(checkouts, 'elsewhere-busy', elsewhere, 5 * 60_000), leftover(checkouts, 'no-record-recent', undefined, 60_000)];
    const gone = [
      leftover(checkouts, 'elsewhere-silent', elsewhere, 2 * HOUR),
      leftover(checkouts, 'before-reboot', { ...me, boot: 'an-earlier-boot' }),
      leftover(checkouts, 'reused-pid', { ...me, pid: live.child.pid!, started: '1' }),
      leftover(checkouts, 'no-record-old', undefined, 2 * HOUR),
      leftover(join(workDir, 'mirrors'), `${randomUUID()}.git.partial-77`, undefined, 2 * HOUR),
    ];

    // The next start (a host's or a worker's activities do this before any run).
    const removed = await new RepositoryCheckouts({ workDir, allowLocal: true }).removeLeftovers();
    expect(removed.sort()).toEqual([killed.checkout, killed.partial, ...gone].sort());
    for (const path of removed) {
      expect(existsSync(path)).toBe(false);
      expect(existsSync(`${path}.owner`)).toBe(false);
    }
    for (const path of [live.checkout, live.partial, inUse.path, ...kept]) expect(existsSync(path)).toBe(true);
    expect(readdirSync(live.checkout)).toContain('src');
    expect(existsSync(join(inUse.path, 'src/a.ts'))).toBe(true);
    expect(existsSync(join(workDir, 'mirrors', `${repositoryId}.git`, 'HEAD'))).toBe(true); // mirrors are kept

    // Once the live process has gone too, its paths go at the following start; ours once disposed.
    const stopped = new Promise((resolve) => live.child.once('exit', resolve));
    live.child.kill('SIGKILL');
    await stopped;
    await inUse.dispose();
    expect(existsSync(inUse.path) || existsSync(`${inUse.path}.owner`)).toBe(false);
    expect((await mine.removeLeftovers()).sort()).toEqual([live.checkout, live.partial].sort());
    expect(readdirSync(checkouts).sort()).toEqual(['elsewhere-busy', 'elsewhere-busy.owner', 'no-record-recent']);
  });
});
