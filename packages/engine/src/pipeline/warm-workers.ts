// Worker threads kept between runs by a long-running host (`CreateEngineOptions.keepWorkersMs`).
// A pool costs ~0.3 s to start (tree-sitter and the plugins load in each thread) and its code is
// cold; a pull request analysed after an assessment would otherwise run every repository rule on
// the main thread alone. The parked pool's rules worker still holds the last run's summaries by
// cache key, so the next run sends it only those it lacks (rules-worker.ts, `adoptKept`).
import type { FilePool } from './worker-pool.js';

export interface WarmPool {
  pool: FilePool;
  /** Cache keys of the summaries the rules worker kept from the run that parked it. */
  keys: ReadonlySet<string>;
}

export class WarmWorkers {
  private parked?: WarmPool & { signature: string; timer: NodeJS.Timeout };
  /** Times a parked pool was handed to a run (or to `summarizeSources`). */
  taken = 0;

  /** `keepMs`: how long an idle pool is kept; 0 keeps none. */
  constructor(readonly keepMs: number) {}

  /**
   * The parked pool, when it was started for the same plugins and configuration (`signature`):
   * it is the caller's until parked again. Another one is stopped.
   */
  take(signature: string): WarmPool | undefined {
    const parked = this.parked;
    if (!parked) return undefined;
    this.parked = undefined;
    clearTimeout(parked.timer);
    if (parked.signature !== signature || !parked.pool.usable) {
      stopQuietly(parked.pool);
      return undefined;
    }
    parked.pool.hold(true);
    this.taken++;
    return { pool: parked.pool, keys: parked.keys };
  }

  /** Keeps a pool whose rules worker kept the summaries of `keys`; false (and nothing kept) when warm workers are off or the pool failed. */
  park(pool: FilePool, signature: string, keys: ReadonlySet<string>): boolean {
    if (this.keepMs <= 0 || !pool.usable) return false;
    if (this.parked) {
      clearTimeout(this.parked.timer);
      stopQuietly(this.parked.pool);
    }
    pool.hold(false);
    const timer = setTimeout(() => {
      if (this.parked?.pool !== pool) return;
      this.parked = undefined;
      stopQuietly(pool);
    }, this.keepMs);
    timer.unref();
    this.parked = { pool, keys, signature, timer };
    return true;
  }

  /** Summaries the parked pool's rules worker holds (0: no pool parked). */
  get heldSummaries(): number {
    return this.parked?.keys.size ?? 0;
  }

  /** Stops the parked pool, if any. */
  async close(): Promise<void> {
    const parked = this.parked;
    this.parked = undefined;
    if (!parked) return;
    clearTimeout(parked.timer);
    await parked.pool.close();
  }
}

/** Stops a pool's threads without waiting: tearing down a worker's heap takes a while. */
export function stopQuietly(pool: FilePool | undefined): void {
  pool?.close().catch(() => {
    // Terminating idle workers has no failure the run could act on.
  });
}
