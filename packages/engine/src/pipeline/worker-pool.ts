// A small pool of worker threads for the per-file pass. Parsing is CPU-bound and tree-sitter's
// addon loads in workers; the main thread analyses files as well (file-queue.ts), so the pool has
// one worker fewer than there are cores. Used only when every plugin can be loaded by URL in a
// worker and the built worker script exists.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RepoFile } from '../snapshot/types.js';
import type { FileSummary } from './file-summary.js';
import type { FileBatchRequest, FileWorkerData } from './file-worker.js';

type Pending = { resolve: (s: FileSummary[]) => void; reject: (e: Error) => void };

/** The compiled worker script; under a TypeScript test runner it is the built copy in dist/, if any. */
export function workerScriptUrl(): URL | undefined {
  const here = new URL('./file-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  const built = new URL(here.href.replace('/src/pipeline/', '/dist/pipeline/'));
  return existsSync(fileURLToPath(built)) ? built : undefined;
}

/**
 * The parent's Node flags minus export conditions: a test runner that resolves packages to their
 * TypeScript sources (`--conditions source`) must not make the built worker do the same.
 */
function workerExecArgv(): string[] {
  const out: string[] = [];
  const args = process.execArgv;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--conditions' || args[i] === '-C') i++;
    else if (!args[i].startsWith('--conditions=')) out.push(args[i]);
  }
  return out;
}

/** Worker threads besides the main thread, which analyses files too: one thread per core, at most 4 workers. */
export function defaultWorkerCount(): number {
  return Math.max(0, Math.min(availableParallelism() - 1, 4));
}

export class FilePool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private next = 0;
  private failure?: Error;

  constructor(script: URL, readonly size: number, data: FileWorkerData) {
    for (let i = 0; i < size; i++) {
      const worker = new Worker(script, { workerData: data, execArgv: workerExecArgv() });
      worker.on('message', (msg: { id: number; summaries?: FileSummary[]; error?: string }) => {
        const p = this.pending.get(msg.id);
        if (!p) return;
        this.pending.delete(msg.id);
        if (msg.error) p.reject(new Error(msg.error));
        else p.resolve(msg.summaries!);
      });
      worker.on('error', (error) => this.fail(error));
      worker.on('exit', (code) => code !== 0 && this.fail(new Error(`file worker exited with code ${code}`)));
      this.workers.push(worker);
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }

  /** Analyses a batch on the given worker (by default, the next one in turn). */
  run(items: FileBatchRequest['items'], workerIndex?: number): Promise<FileSummary[]> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const worker = this.workers[(workerIndex ?? this.next++) % this.workers.length];
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, items } satisfies FileBatchRequest);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}

export type PoolItem = { file: RepoFile; source: string; rules: boolean };
