// Clone classes kept with a run's recorded state, and updated for a derived run (a PR's head) from
// the files that changed instead of being found again in the whole repository.
//
// Detection groups window starts by the fingerprint of their first `minTokens` tokens, and every
// class comes from one group, computed from that group's members only (and the tokens after them,
// in their own files). So a group none of whose windows occurs in a changed file, before or after
// the change, gives the same classes as before. The other groups are computed again from all
// their members (every window of the repository with one of those fingerprints). Classes are
// ordered as detection orders them (by fingerprint, then as found).
import { findCloneClasses, windowKeyAt, windowKeys, type CloneClass } from './clone-detection.js';

const FORMAT = 2;

/** The classes of one detection pass (`weak` mode has two: normalised and exact tokens). */
export interface SavedPass {
  /** Paths of the compared files, in detection order. */
  files: string[];
  /** Per class: fingerprint of its first window, length, count, then (file index, start) per occurrence. */
  classes: number[];
  /** Per class, in the same order, where it was located (`encodeLocated`, clone-results.ts). */
  located: number[];
}

export interface SavedClones {
  format: typeof FORMAT;
  /** The options the classes were found with (`optionsKey`). */
  options: string;
  passes: SavedPass[];
  /** Per file of the first pass's `files`: its lines with code that are part of some located copy. */
  duplicatedRows: number[];
}

export interface DetectionOptions {
  minTokens: number;
  mode: string;
  ignoreImports: boolean;
  ignoreTests: boolean;
}

export const optionsKey = (o: DetectionOptions) => JSON.stringify([o.minTokens, o.mode, o.ignoreImports, o.ignoreTests]);

/** A pass's classes as saved; `sequences` are the ones they were found in; `located` (encoded) defaults to none. */
export function savePass(paths: readonly string[], sequences: readonly Int32Array[], classes: readonly CloneClass[], minTokens: number, located: number[] = []): SavedPass {
  const flat: number[] = [];
  for (const { length, occurrences } of classes) {
    const first = occurrences[0];
    flat.push(windowKeyAt(sequences[first.sequence], first.start, minTokens), length, occurrences.length);
    for (const { sequence, start } of occurrences) flat.push(sequence, start);
  }
  return { files: [...paths], classes: flat, located };
}

/** The saved state when it has this shape and these options, else undefined. */
export function readSavedClones(value: unknown, options: DetectionOptions, passes: number): SavedClones | undefined {
  const saved = value as Partial<SavedClones> | null;
  if (typeof saved !== 'object' || saved === null || saved.format !== FORMAT || saved.options !== optionsKey(options)) return undefined;
  if (!Array.isArray(saved.passes) || saved.passes.length !== passes || !Array.isArray(saved.duplicatedRows)) return undefined;
  const valid = saved.passes.every((p: Partial<SavedPass>) => Array.isArray(p?.files) && Array.isArray(p.classes) && Array.isArray(p.located) && p.files.every((f) => typeof f === 'string'));
  return valid ? (saved as SavedClones) : undefined;
}

/** A set of int32 keys (open addressing): the fingerprints of changed windows are looked up once per window of the repository. */
class KeySet {
  private readonly table: Int32Array;
  private readonly used: Uint8Array;
  private readonly mask: number;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.table = new Int32Array(size);
    this.used = new Uint8Array(size);
    this.mask = size - 1;
  }

  add(key: number): void {
    let at = key & this.mask;
    while (this.used[at] && this.table[at] !== key) at = (at + 1) & this.mask;
    this.used[at] = 1;
    this.table[at] = key;
  }

  has(key: number): boolean {
    for (let at = key & this.mask; this.used[at]; at = (at + 1) & this.mask) if (this.table[at] === key) return true;
    return false;
  }
}

export interface PassChange {
  /** Paths of the files compared now, in detection order, and their sequences. */
  paths: readonly string[];
  sequences: readonly Int32Array[];
  /** Paths that differ from the saved run. */
  changed: ReadonlySet<string>;
  /** Sequences of the changed files as the saved run compared them. */
  before: readonly Int32Array[];
  minTokens: number;
}

export interface UpdatedClasses {
  classes: CloneClass[];
  /** Per class: its index among the saved classes when kept from them, -1 when detected again. */
  origins: number[];
  /** Files the classes detected again touch. */
  compared: number;
}

/**
 * The classes detection would find in `change.sequences`, from the saved pass and the changed
 * files, with where each comes from; undefined when the saved pass does not describe
 * the unchanged files (then detect again).
 */
export function updateCloneClasses(saved: SavedPass, change: PassChange): UpdatedClasses | undefined {
  const { paths, sequences, changed, before, minTokens } = change;
  const window = Math.max(1, Math.floor(minTokens));
  const unchangedBefore = saved.files.filter((p) => !changed.has(p));
  const unchangedNow = paths.filter((p) => !changed.has(p));
  if (unchangedBefore.length !== unchangedNow.length || unchangedBefore.some((p, i) => p !== unchangedNow[i])) return undefined;

  const touched = [...before, ...sequences.filter((_, i) => changed.has(paths[i]))];
  const keys = new KeySet(touched.reduce((n, s) => n + s.length, 0));
  for (const sequence of touched) for (const key of windowKeys(sequence, window)) keys.add(key);

  // Classes of the changed fingerprints' groups, from all their members; the other groups are as before.
  const redone = findCloneClasses(sequences, minTokens, (key) => keys.has(key)).map((cloneClass) => {
    const first = cloneClass.occurrences[0];
    return { key: windowKeyAt(sequences[first.sequence], first.start, window), cloneClass };
  });
  const compared = new Set(redone.flatMap((r) => r.cloneClass.occurrences.map((o) => o.sequence))).size;

  const indexOf = new Map(paths.map((p, i) => [p, i]));
  const kept: Array<{ key: number; cloneClass: CloneClass; origin: number }> = [];
  const flat = saved.classes;
  for (let at = 0, origin = 0; at < flat.length; origin++) {
    const [key, length, count] = [flat[at], flat[at + 1], flat[at + 2]];
    at += 3;
    const occurrences = [];
    for (let k = 0; k < count; k++, at += 2) occurrences.push({ sequence: indexOf.get(saved.files[flat[at]]) ?? -1, start: flat[at + 1] });
    if (keys.has(key)) continue;
    const valid = (o: { sequence: number; start: number }) => o.sequence >= 0 && !changed.has(paths[o.sequence]) && Number.isInteger(o.start) && o.start >= 0 && o.start < sequences[o.sequence].length;
    if (!occurrences.every(valid)) return undefined;
    kept.push({ key, cloneClass: { length, occurrences }, origin });
  }

  // Both lists are in detection order and no fingerprint is in both: merge them by fingerprint (unsigned, as the sort).
  const merged: CloneClass[] = [];
  const origins: number[] = [];
  let a = 0;
  let b = 0;
  while (a < redone.length || b < kept.length) {
    const takeRedone = b === kept.length || (a < redone.length && redone[a].key >>> 0 < kept[b].key >>> 0);
    merged.push(takeRedone ? redone[a++].cloneClass : kept[b].cloneClass);
    origins.push(takeRedone ? -1 : kept[b++].origin);
  }
  return { classes: merged, origins, compared };
}
