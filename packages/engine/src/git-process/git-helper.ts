// Git commands run by a small long-lived helper process instead of this one. Spawning a process
// forks the caller, and forking a process with a large heap (an analysis holding a repository's
// summaries) costs ~10 ms of main-thread time per command, against ~2 ms from a small process. The
// helper (git-helper-main.ts) is started once, on the first command, and spawns git on request
// over IPC; this process only sends the request and receives git's output.
//
// Robustness: without the built helper script, or after it failed to start or died repeatedly,
// commands run here directly (same results). A command in flight when the helper goes away is run
// again here. The helper leaves after a while without commands, does not keep this process alive
// while idle, and exits with it (its IPC channel closes), killing the gits it runs.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnGit, withEnvironment, type GitRequest, type GitResult } from './spawn-git.js';

/** A request as the helper receives it. */
export interface HelperRequest {
  id: number;
  request: GitRequest;
}

/** The helper's answer to a request. */
export interface HelperReply {
  id: number;
  result: GitResult;
}

export interface GitHelperOptions {
  /** The helper's script; default the built git-helper-main.js. Undefined or missing: commands run in this process. */
  script?: URL;
  /** The helper leaves after this long without commands (default 30 s); the next command starts it again. */
  idleMs?: number;
  /** After this many unexpected exits of the helper, commands run in this process (default 3). */
  maxRestarts?: number;
}

interface Pending {
  request: GitRequest;
  resolve: (result: GitResult) => void;
}

export function helperScriptUrl(): URL | undefined {
  const here = new URL('./git-helper-main.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  // Tests run the TypeScript sources; the helper is the built one.
  const built = new URL(here.href.replace('/src/git-process/', '/dist/git-process/'));
  return existsSync(fileURLToPath(built)) ? built : undefined;
}

/** The helper's environment: no Node options of this process (a profiler flag, a loader) in it. */
function helperEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return env;
}

export class GitHelper {
  private child: ChildProcess | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private exits = 0;
  private readonly script: URL | undefined;
  /** Commands answered by the helper and run in this process (for tests and diagnostics). */
  readonly counts = { helper: 0, direct: 0, started: 0 };

  constructor(private readonly options: GitHelperOptions = {}) {
    this.script = 'script' in options ? options.script : helperScriptUrl();
  }

  /** The helper's process id while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Starts the helper now (it takes a few tens of milliseconds), so that the first command does not wait for it. */
  warm(): void {
    this.ensureChild();
  }

  /** Runs a git command; never rejects (a failure is in the result, as from `spawnGit`). */
  run(request: GitRequest): Promise<GitResult> {
    const child = this.ensureChild();
    if (!child) return this.direct(request);
    clearTimeout(this.idleTimer);
    const id = this.nextId++;
    return new Promise((resolve) => {
      if (this.pending.size === 0) child.channel?.ref();
      this.pending.set(id, { request, resolve });
      const message: HelperRequest = { id, request: { ...request, args: [...request.args] } };
      child.send(message, (error) => {
        if (!error || !this.pending.delete(id)) return;
        // The channel closed under the request: it runs here instead.
        void this.rerun({ request, resolve });
      });
    });
  }

  /** Stops the helper (it kills the gits it runs); later commands start a new one. */
  close(): void {
    const child = this.child;
    if (!child) return;
    this.detach(child);
    if (child.connected) child.disconnect();
  }

  private direct(request: GitRequest): Promise<GitResult> {
    this.counts.direct++;
    return spawnGit(request);
  }

  private ensureChild(): ChildProcess | undefined {
    if (this.child) return this.child;
    if (!this.script || this.exits >= (this.options.maxRestarts ?? 3)) return undefined;
    let child: ChildProcess;
    try {
      child = fork(fileURLToPath(this.script), [], { execArgv: [], env: helperEnv(), serialization: 'advanced', stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    } catch (error) {
      this.exits = Number.POSITIVE_INFINITY;
      process.emitWarning(`git helper not started (${(error as Error).message}); git runs in this process`);
      return undefined;
    }
    this.counts.started++;
    this.child = child;
    child.unref();
    child.channel?.unref();
    child.on('message', (reply: HelperReply) => this.answer(reply));
    const gone = () => {
      if (this.child !== child) return;
      this.exits++;
      this.detach(child);
    };
    child.on('error', gone);
    child.on('disconnect', gone);
    child.on('exit', gone);
    return child;
  }

  private answer({ id, result }: HelperReply): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    this.counts.helper++;
    // The structured clone delivers a Uint8Array; callers get a Buffer, as from spawnGit.
    const bytes: Uint8Array = result.stdout;
    const stdout = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    entry.resolve({ ...result, stdout });
    if (this.pending.size === 0) this.idle();
  }

  private idle(): void {
    const child = this.child;
    child?.channel?.unref();
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.close(), this.options.idleMs ?? 30_000);
    this.idleTimer.unref();
  }

  /** Forgets the helper; commands it had not answered run in this process. */
  private detach(child: ChildProcess): void {
    if (this.child !== child) return;
    this.child = undefined;
    clearTimeout(this.idleTimer);
    const orphans = [...this.pending.values()];
    this.pending.clear();
    for (const orphan of orphans) void this.rerun(orphan);
  }

  private async rerun({ request, resolve }: Pending): Promise<void> {
    resolve(await this.direct(request));
  }
}

let shared: GitHelper | undefined;

/** This thread's git helper (one per thread: a worker's helper answers that worker only). */
export function gitHelper(): GitHelper {
  shared ??= new GitHelper(process.env.CODEHEALTH_GIT_HELPER === '0' ? { script: undefined } : {});
  return shared;
}

/** Runs a git command through this thread's helper (see `GitHelper.run`). */
export const runGitCommand = (request: GitRequest): Promise<GitResult> => gitHelper().run(withEnvironment(request));
