// The per-file queue: every file analysed once, large files to the workers, small ones here,
// failures and aborts stop the run. A stand-in pool keeps it fast and deterministic.
import { describe, expect, it } from 'vitest';
import type { RepoFile } from '../snapshot/types.js';
import type { FileSummary } from './file-summary.js';
import { drainFileQueue, type BatchRunner } from './file-queue.js';
import type { PoolItem } from './worker-pool.js';

interface Entry {
  index: number;
  item: PoolItem;
}

function entry(index: number, size: number): Entry {
  const file: RepoFile = { path: `f${index}.ts`, language: 'typescript', kind: 'source', sizeBytes: size };
  return { index, item: { file, source: 'x'.repeat(size), rules: true } };
}

/** A summary that says who analysed the file. */
function summary(item: PoolItem, by: string): FileSummary {
  return { path: item.file.path, skipped: by } as FileSummary;
}

/** A pool whose workers answer after a few ticks and record what they were sent. */
function fakePool(size: number, fail?: (paths: string[]) => boolean): BatchRunner & { batches: Array<{ worker: number; paths: string[] }> } {
  const batches: Array<{ worker: number; paths: string[] }> = [];
  return {
    size,
    batches,
    run(items, worker) {
      const paths = items.map((i) => i.file.path);
      batches.push({ worker: worker ?? -1, paths });
      return new Promise((resolve, reject) =>
        setTimeout(() => (fail?.(paths) ? reject(new Error('worker crashed')) : resolve(items.map((i) => summary(i, `worker ${worker}`)))), 2),
      );
    },
  };
}

describe('drainFileQueue', () => {
  it('analyses every file once, in process when there is no pool', async () => {
    const entries = [entry(0, 10), entry(1, 30), entry(2, 20)];
    const done: string[] = [];
    await drainFileQueue(entries, {
      inProcess: ({ item }) => summary(item, 'main'),
      done: (e, s) => void done.push(`${e.index}:${s.skipped}`),
      checkpoint: () => undefined,
    });
    // The main thread takes the smallest first.
    expect(done).toEqual(['0:main', '2:main', '1:main']);
  });

  it('sends the largest files to the workers and analyses the smallest on the main thread, each once', async () => {
    const entries = Array.from({ length: 40 }, (_, i) => entry(i, 1000 + i * 1000));
    const pool = fakePool(2);
    const done = new Map<number, string>();
    await drainFileQueue(entries, {
      pool,
      inProcess: ({ item }) => summary(item, 'main'),
      done: (e, s) => {
        expect(done.has(e.index)).toBe(false);
        done.set(e.index, s.skipped!);
      },
      checkpoint: () => undefined,
    });
    expect([...done.keys()].sort((a, b) => a - b)).toEqual(entries.map((e) => e.index));
    // Both workers got work, the first batches held the largest files, the smallest stayed here.
    expect(new Set(pool.batches.map((b) => b.worker))).toEqual(new Set([0, 1]));
    expect(pool.batches[0].paths[0]).toBe('f39.ts');
    expect(done.get(0)).toBe('main');
    expect(done.get(39)).toMatch(/^worker /);
    // Each batch answered with its worker's summaries.
    for (const batch of pool.batches) for (const path of batch.paths) expect(done.get(Number(path.slice(1, -3)))).toBe(`worker ${batch.worker}`);
  });

  it('cuts batches by size: a large file travels alone', async () => {
    const entries = [entry(0, 200 * 1024), ...Array.from({ length: 30 }, (_, i) => entry(i + 1, 1024))];
    const pool = fakePool(1);
    await drainFileQueue(entries, { pool, inProcess: ({ item }) => summary(item, 'main'), done: () => undefined, checkpoint: () => undefined });
    expect(pool.batches[0].paths).toEqual(['f0.ts']);
    expect(Math.max(...pool.batches.map((b) => b.paths.length))).toBeLessThanOrEqual(16);
  });

  it('fails with the worker error and stops taking files', async () => {
    const entries = Array.from({ length: 200 }, (_, i) => entry(i, 100 + i));
    // The worker's batch fails once the main thread has analysed three files.
    let crash!: () => void;
    const crashed = new Promise<never>((_, reject) => (crash = () => reject(new Error('worker crashed'))));
    crashed.catch(() => undefined);
    const pool: BatchRunner = { size: 1, run: () => crashed };
    let analysedHere = 0;
    await expect(
      drainFileQueue(entries, {
        pool,
        inProcess: ({ item }) => {
          if (++analysedHere === 3) crash();
          return summary(item, 'main');
        },
        done: () => undefined,
        checkpoint: () => undefined,
      }),
    ).rejects.toThrow('worker crashed');
    // Without the stop the main thread would go on through the remaining files, one per turn of the event loop.
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(analysedHere).toBeLessThanOrEqual(4);
  });

  it('stops when the checkpoint throws (an aborted run)', async () => {
    const entries = Array.from({ length: 10 }, (_, i) => entry(i, 100));
    let seen = 0;
    await expect(
      drainFileQueue(entries, {
        inProcess: ({ item }) => summary(item, 'main'),
        done: () => void seen++,
        checkpoint: () => {
          if (seen === 3) throw new Error('analysis aborted');
        },
      }),
    ).rejects.toThrow('analysis aborted');
    expect(seen).toBe(3);
  });
});
