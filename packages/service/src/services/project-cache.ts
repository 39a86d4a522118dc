// Cached reads of a project's aggregates (health dashboard, issue statistics, PR statistics).
// Keys carry the project's generation, a random name replaced on every write to the project (see
// `invalidate`): a stale value is never read again and needs no enumeration to remove — it simply
// expires. Generation names are never reused, so an evicted or expired generation cannot bring
// back values computed before a write.
import { randomUUID } from 'node:crypto';
import type { Cache } from '../ports/cache.js';

/** How long a computed aggregate may be served (a safety net: writes invalidate at once). */
export const PROJECT_CACHE_TTL_SECONDS = 60;
/** A generation outlives every value cached under it. */
const GENERATION_TTL_SECONDS = 24 * 60 * 60;

export class ProjectCache {
  /** `log` hears about cache failures; they cost speed, never an answer or a write. */
  constructor(
    readonly cache: Cache,
    private readonly log?: (line: string) => void,
  ) {}

  private miss(error: unknown): undefined {
    this.log?.(`cache: ${(error as Error).message}`);
    return undefined;
  }

  /** `compute()`'s value for (project, name), from the cache when this generation already has it. */
  async read<T>(projectId: string, name: string, compute: () => Promise<T>): Promise<T> {
    let generation = await this.cache.get<string>(generationKey(projectId)).catch((error: unknown) => this.miss(error));
    if (generation === undefined) {
      generation = randomUUID();
      await this.cache.set(generationKey(projectId), generation, GENERATION_TTL_SECONDS).catch((error: unknown) => this.miss(error));
    }
    const key = `project:${projectId}:${generation}:${name}`;
    const hit = await this.cache.get<T>(key).catch((error: unknown) => this.miss(error));
    if (hit !== undefined) return hit;
    const value = await compute();
    // A cache that is down costs speed, never an answer.
    await this.cache.set(key, value, PROJECT_CACHE_TTL_SECONDS).catch((error: unknown) => this.miss(error));
    return value;
  }

  /**
   * After any write that may change a project's aggregates. Never fails the write: with the cache
   * down, reads compute from the store anyway, and values cached before expire within the TTL.
   */
  async invalidate(projectId: string): Promise<void> {
    await this.cache.set(generationKey(projectId), randomUUID(), GENERATION_TTL_SECONDS).catch((error: unknown) => this.miss(error));
  }
}

const generationKey = (projectId: string) => `project:${projectId}:generation`;

/** JSON with sorted keys: equal queries name the same cache entry. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}
