// When each marker line was written, from `git blame`: one process per file that has markers,
// asking only for those lines, a few files at a time, run by the engine's git helper process.
// Never through a shell.
import { runGitCommand } from '@codehealth/engine/kit';

export interface LineOrigin {
  /** Seconds since the epoch when the line was authored; for uncommitted lines, when blame ran. */
  authorTime: number;
  author: string;
  commit: string;
  /** The line is not committed yet. */
  uncommitted: boolean;
  /**
   * Git marks the commit as a boundary: the repository's first commit, or in a shallow clone the
   * commit history stops at, in which case the line may be older.
   */
  boundary: boolean;
}

const CONCURRENCY = 4;
const TIMEOUT_MS = 60_000;
const MAX_OUTPUT = 64 * 1024 * 1024;
const HEADER = /^([0-9a-f]{40}) \d+ (\d+)/;

async function runGit(cwd: string, args: string[]): Promise<string | undefined> {
  const result = await runGitCommand({
    cwd,
    args,
    timeoutMs: TIMEOUT_MS,
    maxBufferBytes: MAX_OUTPUT,
    // The user's repository as their git sees it; the runner adds no optional locks, no prompts, the C locale.
    environment: { inheritGitVariables: true, systemConfig: true },
  });
  // An untracked file or a git failure leaves the ages unknown; it is not an error of the analysis.
  return result.exitCode === 0 && result.errorCode === undefined ? result.stdout.toString('utf8') : undefined;
}

/** Parses `git blame --line-porcelain` output into the origin of each final line number. */
export function parseLinePorcelain(output: string): Map<number, LineOrigin> {
  const origins = new Map<number, LineOrigin>();
  let line = 0;
  let current: LineOrigin | undefined;
  for (const text of output.split('\n')) {
    const header = HEADER.exec(text);
    if (header && !current) {
      line = Number(header[2]);
      const commit = header[1];
      current = { authorTime: 0, author: '', commit, uncommitted: /^0+$/.test(commit), boundary: false };
    } else if (!current) continue;
    else if (text.startsWith('\t')) {
      origins.set(line, current);
      current = undefined;
    } else if (text.startsWith('author-time ')) current.authorTime = Number(text.slice('author-time '.length));
    else if (text.startsWith('author ')) current.author = text.slice('author '.length);
    else if (text === 'boundary') current.boundary = true;
  }
  return origins;
}

export async function blameLines(root: string, path: string, lines: readonly number[]): Promise<Map<number, LineOrigin>> {
  const ranges = [...new Set(lines)].sort((a, b) => a - b).flatMap((n) => ['-L', `${n},${n}`]);
  const output = await runGit(root, ['blame', '--line-porcelain', ...ranges, '--', path]);
  return output === undefined ? new Map() : parseLinePorcelain(output);
}

/** Blames every file's marker lines, at most `CONCURRENCY` git processes at once. */
export async function blameFiles(
  root: string,
  files: ReadonlyMap<string, readonly number[]>,
  signal?: AbortSignal,
): Promise<Map<string, Map<number, LineOrigin>>> {
  const result = new Map<string, Map<number, LineOrigin>>();
  const queue = [...files];
  const worker = async () => {
    for (let next = queue.shift(); next && !signal?.aborted; next = queue.shift()) {
      result.set(next[0], await blameLines(root, next[0], next[1]));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, queue.length) }, worker));
  return result;
}
