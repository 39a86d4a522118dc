// A small pool of worker threads for the per-file pass. Parsing is CPU-bound and tree-sitter's
// addon loads in workers; the main thread analyses files as well (file-queue.ts), so the pool has
// one worker fewer than there are cores. Used only when every plugin can be loaded by URL in a
// worker and the built worker script exists.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FileSummary } from './file-summary.js';
import type { FileBatchRequest, FileWorkerData, FileWorkerMessage, PoolItem } from './file-worker.js';
import type { RuleOutcome } from './repository-rules.js';
import type { RulesRequest } from './rules-worker.js';
import { WorkerThreadError } from './worker-error.js';

/** The earlier run's summary of a path, asked for by a rule running in the worker (`PreviousRun.summaryBefore`). */
export type SummaryBefore = (path: string) => Promise<FileSummary | undefined>;

type Pending = {
  resolve: (s: FileSummary[]) => void;
  reject: (e: Error) => void;
  onGroup?: (group: number, outcomes: RuleOutcome[]) => void;
  onBefore?: SummaryBefore;
};

interface Slot {
  worker: Worker;
  /** Settles once the worker has loaded tree-sitter and the plugins (or has died trying). */
  ready: Promise<void>;
  /** Batches sent and not answered yet. */
  inflight: number;
  whenIdle?: () => void;
}

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

/**
 * A worker with the parent's flags, less those a worker refuses: per-process options and V8 flags
 * (`node --max-old-space-size=4096 codehealth …`) throw ERR_WORKER_INVALID_EXEC_ARGV, and V8 flags
 * apply to the whole process anyway.
 */
function startWorker(script: URL, workerData: FileWorkerData): Worker {
  const execArgv = workerExecArgv();
  try {
    return new Worker(script, { workerData, execArgv });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    const listed = (error as Error).message.split(': ').slice(1).join(': ').split(', ');
    return new Worker(script, { workerData, execArgv: execArgv.filter((arg) => !listed.includes(arg)) });
  }
}

/** Worker threads besides the main thread, which analyses files too: one thread per core, at most 4 workers. */
export function defaultWorkerCount(): number {
  return Math.max(0, Math.min(availableParallelism() - 1, 4));
}

export class FilePool {
  private readonly slots: Slot[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private next = 0;
  private failure?: Error;
  private closing?: Promise<void>;

  /**
   * `rulesWorker`: the worker that keeps its summaries (items carry their slot) and can run
   * repository rules once it has been sent every other summary.
   */
  constructor(
    script: URL,
    readonly size: number,
    data: FileWorkerData,
    readonly rulesWorker?: number,
  ) {
    for (let i = 0; i < size; i++) {
      const worker = startWorker(script, { ...data, retain: i === rulesWorker });
      let loaded!: () => void;
      const slot: Slot = { worker, ready: new Promise<void>((resolve) => (loaded = resolve)), inflight: 0 };
      const answered = () => {
        slot.inflight = Math.max(0, slot.inflight - 1);
        if (slot.inflight === 0) slot.whenIdle?.();
      };
      worker.on(
        'message',
        (msg: {
          ready?: true;
          id: number;
          summaries?: FileSummary[];
          error?: string;
          group?: number;
          outcomes?: RuleOutcome[];
          before?: string;
          ask?: number;
        }) => {
          if (msg.ready) return loaded();
          if (msg.group !== undefined) return this.pending.get(msg.id)?.onGroup?.(msg.group, msg.outcomes!);
          if (msg.before !== undefined) return void this.answerBefore(worker, msg.ask!, msg.before, this.pending.get(msg.id)?.onBefore);
          answered();
          const p = this.pending.get(msg.id);
          if (!p) return;
          this.pending.delete(msg.id);
          if (msg.error) p.reject(new WorkerThreadError(msg.error));
          else p.resolve(msg.summaries!);
        },
      );
      worker.on('error', (error) => {
        loaded();
        this.fail(error);
      });
      worker.on('exit', (code) => {
        loaded();
        slot.inflight = 0;
        slot.whenIdle?.();
        if (code !== 0 && !this.closing) this.fail(new WorkerThreadError(`file worker exited with code ${code}`));
      });
      this.slots.push(slot);
    }
  }

  private async answerBefore(worker: Worker, ask: number, path: string, onBefore: SummaryBefore | undefined): Promise<void> {
    let summary: FileSummary | undefined;
    try {
      summary = await onBefore?.(path);
    } catch {
      // No earlier summary, as a rule must expect anyway.
    }
    if (!this.closing) worker.postMessage({ answer: ask, summary } satisfies FileWorkerMessage);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const p of this.pending.values()) p.reject(error);
    this.pending.clear();
  }

  /** Analyses a batch on the given worker (by default, the next one in turn). */
  run(items: FileBatchRequest['items'], workerIndex?: number): Promise<FileSummary[]> {
    return this.request(workerIndex ?? this.next++, (id) => ({ id, items }));
  }

  /** Sends the rules worker summaries it did not make (they are kept by slot; no answer). */
  share(entries: Array<[number, FileSummary]>): void {
    if (this.rulesWorker === undefined || this.failure || this.closing || entries.length === 0) return;
    this.slots[this.rulesWorker].worker.postMessage({ share: entries } satisfies FileWorkerMessage);
  }

  /**
   * Has the rules worker take, by slot, summaries it kept from its previous run (by cache key,
   * `RulesRequest.keep`): what a pool kept warm between runs need not be sent again.
   */
  adopt(entries: Array<[number, string]>): void {
    if (this.rulesWorker === undefined || this.failure || this.closing) return;
    this.slots[this.rulesWorker].worker.postMessage({ adopt: entries } satisfies FileWorkerMessage);
  }

  /** Has the rules worker claim and run rule groups; settles once it claims no more. */
  async runRules(request: RulesRequest, onGroup: (group: number, outcomes: RuleOutcome[]) => void, onBefore?: SummaryBefore): Promise<void> {
    if (this.rulesWorker === undefined) throw new WorkerThreadError('this pool has no rules worker');
    await this.request(this.rulesWorker, (id) => ({ id, rules: request }), onGroup, onBefore);
  }

  /** Whether the pool can take work: no worker failed and it is not closing. */
  get usable(): boolean {
    return !this.failure && !this.closing;
  }

  /** Whether the workers keep the process alive: not while the pool is parked between runs (WarmWorkers). */
  hold(held: boolean): void {
    for (const slot of this.slots) {
      if (held) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  private request(
    workerIndex: number,
    message: (id: number) => FileWorkerMessage,
    onGroup?: Pending['onGroup'],
    onBefore?: SummaryBefore,
  ): Promise<FileSummary[]> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closing) return Promise.reject(new WorkerThreadError('the file worker pool is closed'));
    const id = this.nextId++;
    const slot = this.slots[workerIndex % this.slots.length];
    slot.inflight++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onGroup, onBefore });
      slot.worker.postMessage(message(id));
    });
  }

  /**
   * Stops the workers, each once it has finished loading and answered what it was sent: stopping
   * a thread while tree-sitter's addon loads, or while the binding calls back into JavaScript
   * during a parse, aborts the whole process.
   */
  close(): Promise<void> {
    this.closing ??= this.stopAll();
    return this.closing;
  }

  private async stopAll(): Promise<void> {
    await Promise.all(
      this.slots.map(async (slot) => {
        await slot.ready;
        if (slot.inflight > 0) await new Promise<void>((resolve) => (slot.whenIdle = resolve));
        await slot.worker.terminate();
      }),
    );
  }
}

export type { PoolItem };
