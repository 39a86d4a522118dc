// Runs one git command and collects what it printed: the only place that spawns git for the
// engine and its analyzers. Used in the git helper process (git-helper.ts) and, when there is no
// helper, in the calling process. Never through a shell; the program is always `git`. Every git
// starts with HARDENED_CONFIG; its environment comes from gitEnvironment (the default).
import { spawn } from 'node:child_process';
import { dirname } from 'node:path';

export interface GitRequest {
  /** Directory git runs in. */
  cwd: string;
  args: readonly string[];
  /** git's whole environment; without it, `gitEnvironment(environment)` of the calling process. */
  env?: Readonly<Record<string, string | undefined>>;
  /** How to build git's environment when `env` is not given (default: scrubbed of GIT_* variables). */
  environment?: GitEnvironmentOptions;
  /** Written to git's standard input, which is then closed; without it git's stdin is empty. */
  input?: string;
  /** git is killed (SIGKILL) after this long; default 120 s. */
  timeoutMs?: number;
  /** git is killed when its stdout grows past this; default 256 MiB. */
  maxBufferBytes?: number;
}

export interface GitResult {
  /** Everything git wrote to stdout (up to the limit), as bytes. */
  stdout: Buffer;
  /** The start of git's stderr (at most 64 KiB). */
  stderr: string;
  /** Exit code; null when git was killed or never started. */
  exitCode: number | null;
  signal: string | null;
  /** Why the command failed outside git: a spawn error code (`ENOENT`), `ETIMEDOUT`, `ERR_CHILD_PROCESS_STDIO_MAXBUFFER`. */
  errorCode?: string;
  errorMessage?: string;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_BUFFER_BYTES = 256 * 1024 * 1024;
const MAX_STDERR_CHARS = 64 * 1024;

/**
 * Settings every git the engine runs starts with, whatever directory it runs in: a repository's
 * own `.git/config` (a local repository a member linked, a directory the CLI analyses) must not
 * make a read-only tool run its fsmonitor program or hooks, nor fetch through the `ext::` transport.
 */
export const HARDENED_CONFIG = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null', '-c', 'protocol.ext.allow=never'] as const;

export interface GitEnvironmentOptions {
  /**
   * The directory git is asked about: git never looks for a repository above it
   * (GIT_CEILING_DIRECTORIES is its parent), so a directory that is not a repository is not taken
   * for part of an enclosing one.
   */
  repository?: string;
  /**
   * Keep this process's GIT_* variables (default false: an inherited GIT_DIR, GIT_WORK_TREE,
   * GIT_INDEX_FILE or GIT_CONFIG_* would point git at another repository or configuration than
   * the one asked for). The CLI's own snapshot of the directory it stands in keeps them.
   */
  inheritGitVariables?: boolean;
  /** Read the machine's system configuration (/etc/gitconfig); default false (GIT_CONFIG_NOSYSTEM=1). */
  systemConfig?: boolean;
  /** Variables set last (an installation token's http.extraHeader through GIT_CONFIG_COUNT/KEY/VALUE). */
  set?: Readonly<Record<string, string>>;
}

/**
 * The environment a git of the engine runs with: this process's, scrubbed of GIT_* variables
 * (unless kept on purpose), never prompting for credentials, taking no optional locks (a read-only
 * tool must not make a user's concurrent `git commit` fail) and speaking in the C locale (messages
 * and dates are parsed).
 */
export function gitEnvironment(
  options: GitEnvironmentOptions = {},
  base: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [key, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (!options.inheritGitVariables && key.startsWith('GIT_')) continue;
    env[key] = value;
  }
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_OPTIONAL_LOCKS = '0';
  env.LC_ALL = 'C';
  if (!options.systemConfig) env.GIT_CONFIG_NOSYSTEM = '1';
  if (options.repository !== undefined) env.GIT_CEILING_DIRECTORIES = dirname(options.repository);
  return Object.assign(env, options.set);
}

/** True when git ran and exited with status 0. */
export const succeeded = (result: GitResult): boolean => result.exitCode === 0 && result.errorCode === undefined;

/** What to say about a failed command: git's own message, else how it failed. */
export function failureDetail(result: GitResult): string {
  const stderr = result.stderr.trim();
  if (stderr && result.errorCode === undefined) return stderr;
  if (result.errorCode === 'ETIMEDOUT') return 'timed out';
  if (result.errorCode === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return 'output too large';
  if (result.errorMessage) return result.errorMessage;
  return stderr || (result.signal ? `killed by ${result.signal}` : `exit status ${result.exitCode}`);
}

/** The request with its environment resolved here (before it goes to the helper process). */
export const withEnvironment = (request: GitRequest): GitRequest => (request.env ? request : { ...request, env: gitEnvironment(request.environment) });

/** Runs git once; never rejects (a failure is in the result). `signal` kills it. */
export function spawnGit(request: GitRequest, signal?: AbortSignal): Promise<GitResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let errorCode: string | undefined;
    let errorMessage: string | undefined;
    let settled = false;
    const maxBytes = request.maxBufferBytes ?? DEFAULT_MAX_BUFFER_BYTES;
    const finish = (exitCode: number | null, killedBy: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const result: GitResult = { stdout: Buffer.concat(chunks, Math.min(size, maxBytes)), stderr, exitCode, signal: killedBy };
      if (errorCode !== undefined) result.errorCode = errorCode;
      if (errorMessage !== undefined) result.errorMessage = errorMessage;
      resolve(result);
    };
    const env = request.env ?? gitEnvironment(request.environment);
    const child = spawn('git', [...HARDENED_CONFIG, ...request.args], {
      cwd: request.cwd,
      env: env as NodeJS.ProcessEnv,
      stdio: [request.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
      ...(signal ? { signal, killSignal: 'SIGKILL' as const } : {}),
    });
    const timer = setTimeout(() => {
      errorCode ??= 'ETIMEDOUT';
      child.kill('SIGKILL');
    }, request.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    child.stdout!.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) chunks.push(chunk);
      else if (errorCode === undefined) {
        errorCode = 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER';
        chunks.push(chunk.subarray(0, chunk.length - (size - maxBytes)));
        child.kill('SIGKILL');
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.toString('utf8').slice(0, MAX_STDERR_CHARS - stderr.length);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      errorCode ??= error.code ?? error.name;
      errorMessage ??= error.message;
      // A process that never started emits no 'close'.
      if (child.pid === undefined) finish(null, null);
    });
    child.on('close', (code, killedBy) => finish(code, killedBy));
    // Killed for a limit: what a leftover grandchild still writes is not wanted, so git's exit ends it.
    child.on('exit', (code, killedBy) => {
      if (errorCode === undefined) return;
      child.stdout!.destroy();
      child.stderr!.destroy();
      finish(code, killedBy);
    });
    if (request.input !== undefined) {
      // git exiting before it read everything surfaces through its exit status.
      child.stdin!.on('error', () => undefined);
      child.stdin!.end(request.input);
    }
  });
}
