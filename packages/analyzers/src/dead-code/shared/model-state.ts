// What the dead-code model keeps with a run, so that a pull request's head run (derived from the
// merge base's run) does not resolve the entry requests again: the resolved entries, the loads and
// the uses the synthetic module adds to the graph. Entry requests come from manifests, configs,
// HTML and component files, framework conventions and the file list; loads from each code file's
// own facts and imports. So while no file is added, deleted or renamed (or changes kind) and no
// manifest, JSON, config, HTML or component file changes, the saved entries hold and only the
// changed files' loads are resolved again.
import type { FileSummary, PreviousRun, RepoSnapshot } from '@codehealth/engine/kit';
import { createHash } from 'node:crypto';

const FORMAT = 1;
const COMPONENT_FILE = /\.(?:vue|svelte|astro|mdx)$/;
const JSON_FILE = /\.json[5c]?$/;

/** Names a resolved request reads from a module (`*` for all). */
export type Use = [to: string, names: string[]];

export interface ModelState {
  format: number;
  /** The model's options (`entries`). */
  options: string;
  /** The files the requests were collected from: path, kind, language, skipped. */
  files: string;
  /** Entry modules and the first reason found, in the order found. */
  entries: Array<[string, string]>;
  /** Uses by entry requests. */
  entryUses: Use[];
  /** By loading file: the modules it loads and the uses of its requests. */
  loads: Array<[from: string, targets: string[], uses: Use[]]>;
}

export function filesFingerprint(snapshot: RepoSnapshot, summaries: readonly FileSummary[]): string {
  const hash = createHash('sha256');
  for (const file of snapshot.files) hash.update(`${file.path}\0${file.kind}\0${file.language}\0${file.skipReason ?? ''}\n`);
  for (const summary of summaries) hash.update(`${summary.path}\0${summary.kind}\0${summary.language}\0${summary.skipped ? 1 : 0}\n`);
  return hash.digest('hex');
}

/**
 * The saved state when it still describes this run's entries: same options and file list, and no
 * changed file that entry requests are read from. Undefined otherwise (the model is built anew).
 */
export function reusableState(previous: PreviousRun, snapshot: RepoSnapshot, options: string, files: string): ModelState | undefined {
  const state = previous.state as Partial<ModelState> | null;
  if (typeof state !== 'object' || state === null || state.format !== FORMAT || state.options !== options || state.files !== files) return undefined;
  if (!Array.isArray(state.entries) || !Array.isArray(state.entryUses) || !Array.isArray(state.loads)) return undefined;
  const kinds = new Map(snapshot.files.map((f) => [f.path, f]));
  for (const path of previous.changedPaths) {
    const file = kinds.get(path);
    if (!file || JSON_FILE.test(path) || COMPONENT_FILE.test(path) || file.kind === 'config' || file.language === 'html') return undefined;
  }
  const isUse = (u: unknown) => Array.isArray(u) && typeof u[0] === 'string' && Array.isArray(u[1]) && u[1].every((n: unknown) => typeof n === 'string');
  const valid =
    state.entries.every((e) => Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'string') &&
    state.entryUses.every(isUse) &&
    state.loads.every(
      (l) =>
        Array.isArray(l) &&
        typeof l[0] === 'string' &&
        Array.isArray(l[1]) &&
        l[1].every((t) => typeof t === 'string') &&
        Array.isArray(l[2]) &&
        l[2].every(isUse),
    );
  return valid ? (state as ModelState) : undefined;
}

export function modelState(options: string, files: string, entries: Map<string, string>, entryUses: Use[], loads: ModelState['loads']): ModelState {
  return { format: FORMAT, options, files, entries: [...entries], entryUses, loads };
}
