// Runs on a commit that descends from one already assessed (a PR's head after its base): the
// inventory is the base's with the changed paths described again, unchanged code files are looked
// up in the summary cache by the base's content hashes (not read), and git facts are the base's
// history plus the commits in between. A full run of a clean commit records what this needs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CodeHealthConfig } from '../config/schema.js';
import { inventoryConfigKey, type RunState, type RunStateStore, type SavedRuleStates } from '../cache/run-state-store.js';
import { extendGitFacts, readGitFacts, type GitHistory } from '../snapshot/git-facts.js';
import { describePaths } from '../snapshot/inventory.js';
import { snapshotOfFiles } from '../snapshot/snapshot.js';
import { assignRoles } from '../snapshot/file-roles.js';
import { tryGit } from '../snapshot/git-command.js';
import type { RepoFile, RepoSnapshot } from '../snapshot/types.js';
import type { FileSummary } from './file-summary.js';
import type { IncrementalBase } from './types.js';

export type InventoryConfig = Pick<CodeHealthConfig, 'exclude' | 'tests' | 'generated' | 'maxFileBytes' | 'roles'>;

/** A run's root that is the top of a git work tree: only then is the inventory the commit's. */
const isWorkTreeTop = (root: string) => existsSync(join(root, '.git'));

export interface IncrementalSnapshot {
  snapshot: RepoSnapshot;
  /** Content hashes of unchanged code files, by path (their summaries are looked up by them). */
  contentHashes: ReadonlyMap<string, string>;
  /** The base's run: its files and content hashes (changed paths included), and its rules' saved states. */
  base: { files: ReadonlyMap<string, RepoFile>; contentHashes: Readonly<Record<string, string>>; rules?: SavedRuleStates };
  changedPaths: ReadonlySet<string>;
}

/**
 * True when a run of `root` with `incremental` will be derived from the base's recorded state:
 * every unchanged code file then gets its findings (from the cache, or analysed on a miss).
 */
export async function hasIncrementalBase(store: RunStateStore, root: string, baseCommit: string, config: InventoryConfig): Promise<boolean> {
  return isWorkTreeTop(root) && (await store.get(baseCommit, inventoryConfigKey(config))) !== undefined;
}

/** The head's snapshot from the base's recorded state, or undefined when none matches (then the run is a full one). */
export async function incrementalSnapshot(
  store: RunStateStore,
  root: string,
  base: IncrementalBase,
  config: InventoryConfig,
): Promise<IncrementalSnapshot | undefined> {
  if (!isWorkTreeTop(root)) return undefined;
  const state = await store.get(base.baseCommit, inventoryConfigKey(config));
  if (!state) return undefined;
  const changed = new Set(base.changedPaths);
  const described = describePaths(root, [...changed], config);
  const listed: RepoFile[] = state.files.filter((f) => !changed.has(f.path));
  for (const file of described.values()) if (file) listed.push(file);
  listed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // Roles come from the head's manifests and workflows (a changed package.json may change them).
  const files = assignRoles(root, listed, config);
  const contentHashes = new Map<string, string>();
  for (const [path, hash] of Object.entries(state.contentHashes)) if (!changed.has(path)) contentHashes.set(path, hash);
  const readGit = async () => (await extendGitFacts(root, state.git, base.headCommit)) ?? readGitFacts(root);
  const baseFiles = new Map(state.files.map((f) => [f.path, f]));
  return {
    snapshot: snapshotOfFiles(root, files, readGit),
    contentHashes,
    base: { files: baseFiles, contentHashes: state.contentHashes, ...(state.rules ? { rules: state.rules } : {}) },
    changedPaths: changed,
  };
}

async function isCleanWorkTree(root: string): Promise<boolean> {
  if (!isWorkTreeTop(root)) return false;
  return (await tryGit(root, ['-c', 'core.fsmonitor=false', 'status', '--porcelain', '-z', '--untracked-files=all'])) === '';
}

/**
 * Records a full run's state for later head runs, when the run saw exactly a commit: the root is
 * the top of a work tree with nothing modified, staged or untracked. Call `begin` as the run
 * starts (the work tree is checked meanwhile) and `finish` with its results.
 */
export function runStateRecorder(store: RunStateStore, root: string, config: InventoryConfig) {
  let history: GitHistory | undefined;
  const clean = isCleanWorkTree(root);
  return {
    onGitHistory: (h: GitHistory) => void (history = h),
    async finish(files: RepoFile[], summaries: readonly FileSummary[], rules?: SavedRuleStates): Promise<void> {
      if (!history || !(await clean)) return;
      const contentHashes: Record<string, string> = {};
      for (const s of summaries) if (!s.skipped && s.contentHash) contentHashes[s.path] = s.contentHash;
      const state: RunState = {
        commitSha: history.headSha,
        configKey: inventoryConfigKey(config),
        files,
        contentHashes,
        git: history,
        ...(rules ? { rules } : {}),
      };
      await store.set(state);
    },
  };
}
