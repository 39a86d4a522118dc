// Caches file summaries by content hash and rule-set fingerprint, so a re-assessment or a PR
// analysis parses only files that changed. In memory per engine, optionally on disk across runs.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { FileSummary } from '../pipeline/file-summary.js';

/** Bump when the summary shape or the per-file pass changes meaning. */
export const SUMMARY_FORMAT_VERSION = 7;

export interface FileSummaryCache {
  get(key: string): Promise<FileSummary | undefined>;
  set(key: string, summary: FileSummary): Promise<void>;
}

/** `role`: the file's role (`roleOfFile`); file rules may read it (magic numbers are quiet in a benchmark). */
export function summaryCacheKey(parts: { path: string; kind: string; role: string; contentHash: string; ruleSetFingerprint: string }): string {
  return createHash('sha256')
    .update(`${SUMMARY_FORMAT_VERSION}\0${parts.ruleSetFingerprint}\0${parts.kind}\0${parts.role}\0${parts.path}\0${parts.contentHash}`)
    .digest('hex');
}

export class MemoryFileSummaryCache implements FileSummaryCache {
  private readonly entries = new Map<string, FileSummary>();
  constructor(private readonly maxEntries = 200_000) {}

  async get(key: string): Promise<FileSummary | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, summary: FileSummary): Promise<void> {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, summary);
  }
}

/** `$CODEHEALTH_CACHE_DIR`, else `$XDG_CACHE_HOME/codehealth`, else `~/.cache/codehealth`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CODEHEALTH_CACHE_DIR) return env.CODEHEALTH_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'codehealth');
}

/** One JSON file per entry under `<dir>/summaries/<2 hex>/`; writes are atomic (rename). A corrupt entry is a miss. */
export class DiskFileSummaryCache implements FileSummaryCache {
  private readonly memory = new MemoryFileSummaryCache(50_000);
  constructor(private readonly dir: string) {}

  private pathOf(key: string): string {
    return join(this.dir, 'summaries', key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<FileSummary | undefined> {
    const hit = await this.memory.get(key);
    if (hit) return hit;
    try {
      const summary = JSON.parse(await readFile(this.pathOf(key), 'utf8')) as FileSummary;
      await this.memory.set(key, summary);
      return summary;
    } catch {
      return undefined;
    }
  }

  async set(key: string, summary: FileSummary): Promise<void> {
    await this.memory.set(key, summary);
    const path = this.pathOf(key);
    try {
      await mkdir(join(path, '..'), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(summary));
      await rename(tmp, path);
    } catch {
      // A cache that cannot be written (read-only home, full disk) only costs speed.
    }
  }
}
