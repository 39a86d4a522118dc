// Spreads the per-file pass over the worker pool and the main thread. Workers pull batches of the
// largest files still waiting (so no big file is left for the end, when the other threads would
// idle); the main thread analyses the smallest ones in between, one at a time, yielding after each
// so that workers' results are taken in and their next batch sent without delay. The main thread
// starts at once, while the workers still load (that takes a few hundred milliseconds).
import type { FileSummary } from './file-summary.js';
import type { FilePool, PoolItem } from './worker-pool.js';

/** A batch is cut once it holds this much source: large enough to amortise messaging, small enough to balance. */
const BATCH_BYTES = 96 * 1024;
/** Towards the end batches shrink, so that no thread waits long for another's last batch. */
const MIN_BATCH_BYTES = 8 * 1024;
const BATCH_FILES = 16;
/** Batches in flight per worker: the next one is already there when a worker finishes. */
const DEPTH = 2;

/** What the queue needs of a pool (FilePool; a stand-in in tests). */
export type BatchRunner = Pick<FilePool, 'size' | 'run'>;

export interface QueueOptions<T> {
  pool?: BatchRunner;
  /** The main thread's share of the work: analyse one item here. */
  inProcess(entry: T): FileSummary;
  /** Called once per item, in completion order, with the worker that analysed it (-1: the main thread). */
  done(entry: T, summary: FileSummary, by: number): void | Promise<void>;
  /** Checked before each item or batch; throws to stop. */
  checkpoint(): void;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function drainFileQueue<T extends { item: PoolItem }>(entries: readonly T[], options: QueueOptions<T>): Promise<void> {
  const { pool, inProcess, done, checkpoint } = options;
  const order = [...entries].sort((a, b) => b.item.source.length - a.item.source.length);
  // Waiting items are order[head..tail): workers take from the head, the main thread from the tail.
  let head = 0;
  let tail = order.length;
  let waitingBytes = order.reduce((sum, entry) => sum + entry.item.source.length, 0);
  const threads = (pool?.size ?? 0) + 1;
  // Once a lane fails the others stop taking work; the first error is the run's.
  let failed = false;

  const takeBatch = (): T[] => {
    const batch: T[] = [];
    const limit = Math.max(MIN_BATCH_BYTES, Math.min(BATCH_BYTES, waitingBytes / (threads * DEPTH * 4)));
    let bytes = 0;
    while (head < tail && batch.length < BATCH_FILES && (batch.length === 0 || bytes < limit)) {
      const entry = order[head++];
      batch.push(entry);
      bytes += entry.item.source.length;
    }
    waitingBytes -= bytes;
    return batch;
  };

  const workerLane = async (pool: BatchRunner, worker: number): Promise<void> => {
    for (let batch = takeBatch(); batch.length > 0 && !failed; batch = takeBatch()) {
      checkpoint();
      const summaries = await pool.run(
        batch.map((entry) => entry.item),
        worker,
      );
      for (let k = 0; k < batch.length; k++) await done(batch[k], summaries[k], worker);
    }
  };

  const mainLane = async (): Promise<void> => {
    while (head < tail && !failed) {
      checkpoint();
      const entry = order[--tail];
      waitingBytes -= entry.item.source.length;
      await done(entry, inProcess(entry), -1);
      if (pool) await nextTurn();
    }
  };

  const lanes: Array<Promise<void>> = [];
  if (pool) for (let worker = 0; worker < pool.size; worker++) for (let d = 0; d < DEPTH; d++) lanes.push(workerLane(pool, worker));
  lanes.push(mainLane());
  await Promise.all(
    lanes.map((lane) =>
      lane.catch((error: unknown) => {
        failed = true;
        throw error;
      }),
    ),
  );
}
