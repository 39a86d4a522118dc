// What a full assessment of a clean commit leaves for later runs on its descendants (a PR's head):
// its inventory with each code file's content hash, and the git history its facts were counted
// from. A head run then lists, hashes and reads history only for what changed (pipeline/incremental-run.ts).
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GitHistory } from '../snapshot/git-facts.js';
import type { RepoFile } from '../snapshot/types.js';

/** Bump when the stored shape or the meaning of its parts changes (inventory classification, language detection, git facts). */
export const RUN_STATE_FORMAT_VERSION = 1;

export interface RunState {
  commitSha: string;
  /** Fingerprint of the configuration the inventory was classified with (`inventoryConfigKey`). */
  configKey: string;
  files: RepoFile[];
  /** Content hash of each code file that was read (the file-summary cache key's part). */
  contentHashes: Record<string, string>;
  git: GitHistory;
  /** What repository rules saved (`RepositoryRuleContext.saveState`), valid for the rule set with this fingerprint. */
  rules?: SavedRuleStates;
}

export interface SavedRuleStates {
  /** The rule set's fingerprint (rules, options, severities, collectors). */
  ruleSet: string;
  /** By qualified rule id. */
  states: Record<string, unknown>;
}

export interface RunStateStore {
  get(commitSha: string, configKey: string): Promise<RunState | undefined>;
  set(state: RunState): Promise<void>;
}

/** The configuration that decides the inventory: excluded paths, kinds, size limit. */
export function inventoryConfigKey(config: {
  exclude?: readonly string[];
  tests?: readonly string[];
  generated?: readonly string[];
  maxFileBytes?: number;
}): string {
  const parts = [RUN_STATE_FORMAT_VERSION, config.exclude ?? [], config.tests ?? [], config.generated ?? [], config.maxFileBytes ?? null];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);
}

const keyOf = (commitSha: string, configKey: string) => `${commitSha}-${configKey}`;

export class MemoryRunStateStore implements RunStateStore {
  private readonly states = new Map<string, RunState>();
  constructor(private readonly maxEntries = 16) {}

  async get(commitSha: string, configKey: string): Promise<RunState | undefined> {
    return this.states.get(keyOf(commitSha, configKey));
  }

  async set(state: RunState): Promise<void> {
    const key = keyOf(state.commitSha, state.configKey);
    this.states.delete(key);
    if (this.states.size >= this.maxEntries) {
      const oldest = this.states.keys().next().value;
      if (oldest !== undefined) this.states.delete(oldest);
    }
    this.states.set(key, state);
  }
}

function isRunState(value: unknown, commitSha: string, configKey: string): value is RunState {
  const state = value as Partial<RunState> | null;
  return (
    typeof state === 'object' &&
    state !== null &&
    state.commitSha === commitSha &&
    state.configKey === configKey &&
    Array.isArray(state.files) &&
    typeof state.contentHashes === 'object' &&
    typeof state.git === 'object' &&
    state.git !== null &&
    Array.isArray(state.git.recent) &&
    Array.isArray(state.git.history) &&
    (state.rules === undefined ||
      (typeof state.rules === 'object' &&
        state.rules !== null &&
        typeof state.rules.ruleSet === 'string' &&
        typeof state.rules.states === 'object' &&
        state.rules.states !== null))
  );
}

/** Run states kept on disk by default: the newest, by write time (a PR needs its merge base's, usually a recent one). */
export const DEFAULT_MAX_RUN_STATES = 64;

/**
 * One JSON file per commit and configuration under `<dir>/run-states/`, with the recent ones in
 * memory. A corrupt file is a miss. Past `maxFiles` states the oldest written are deleted.
 */
export class DiskRunStateStore implements RunStateStore {
  private readonly memory = new MemoryRunStateStore(4);
  constructor(
    private readonly dir: string,
    private readonly log: (line: string) => void = () => undefined,
    private readonly maxFiles = DEFAULT_MAX_RUN_STATES,
  ) {}

  private pathOf(commitSha: string, configKey: string): string {
    return join(this.dir, 'run-states', `${keyOf(commitSha, configKey)}.json`);
  }

  async get(commitSha: string, configKey: string): Promise<RunState | undefined> {
    const hit = await this.memory.get(commitSha, configKey);
    if (hit) return hit;
    const text = await readFile(this.pathOf(commitSha, configKey), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') this.log(`run state of ${commitSha} unreadable: ${error.message}`);
      return undefined;
    });
    if (text === undefined) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      this.log(`run state of ${commitSha} is not JSON (${(error as Error).message}): ignored`);
      return undefined;
    }
    if (!isRunState(parsed, commitSha, configKey)) return undefined;
    await this.memory.set(parsed);
    return parsed;
  }

  async set(state: RunState): Promise<void> {
    await this.memory.set(state);
    const path = this.pathOf(state.commitSha, state.configKey);
    try {
      await mkdir(join(path, '..'), { recursive: true });
      const tmp = `${path}.${process.pid}.tmp`;
      await writeFile(tmp, JSON.stringify(state));
      await rename(tmp, path);
      await this.prune();
    } catch (error) {
      // A store that cannot be written (read-only home, full disk) only costs the next head run its speed.
      this.log(`run state of ${state.commitSha} not written: ${(error as Error).message}`);
    }
  }

  /** Deletes the oldest states past `maxFiles` (another process may delete the same ones: that is fine). */
  private async prune(): Promise<void> {
    const dir = join(this.dir, 'run-states');
    const names = (await readdir(dir)).filter((name) => name.endsWith('.json'));
    if (names.length <= this.maxFiles) return;
    const dated = await Promise.all(names.map(async (name) => ({ name, written: (await stat(join(dir, name)).catch(() => undefined))?.mtimeMs ?? 0 })));
    dated.sort((a, b) => b.written - a.written || a.name.localeCompare(b.name));
    for (const { name } of dated.slice(this.maxFiles)) await unlink(join(dir, name)).catch(() => undefined);
  }
}
