// Clone classes kept with a run's recorded state, and updated for a derived run (a PR's head) from
// the files that changed instead of being found again in the whole repository.
//
// Detection groups window starts by the fingerprint of their first `minTokens` tokens, and every
// class comes from one group, computed from that group's members only (and the tokens after them,
// in their own files). A class is a set of members sharing a run of tokens, reported when their
// left neighbours differ; taking away members that are in no class changes no class. So a group
// changes only if a changed file holds one of its windows now, or held a member of one of its
// classes before: the groups of the changed files' fingerprints now and of the saved classes with
// a copy in a changed file. Their classes are computed again from their members; the other
// groups keep their saved classes. Classes are ordered as detection orders them (by fingerprint,
// then as found).
//
// Only the files that can hold a member of a class of those groups are read: the changed files,
// the files sharing an anchor (clone-anchors.ts) with a changed file, which holds every window
// equal to one of theirs, and the files of the saved classes of those groups (a class all of
// whose copies are in unchanged files was a class before, with these copies and maybe some in
// changed files). Members in the other files are in no class, and detection without them finds
// the same classes. A fingerprint held by one window of the files read is a group of one member,
// which has no class: those windows, most of a changed file's, are neither sorted nor compared.
import { findCloneClassesOfWindows, windowKeyAt, windowKeysInto, type CloneClass, type CloneOccurrence, type SequenceWindows } from './clone-detection.js';
import { filesSharingAnchors, saveAnchors, type SavedAnchors } from './clone-anchors.js';
import { KeySet } from './key-set.js';

const FORMAT = 3;
const NO_TOKENS = new Int32Array(0);

/** The classes of one detection pass (`weak` mode has two: normalised and exact tokens). */
export interface SavedPass {
  /** Paths of the compared files, in detection order. */
  files: string[];
  /** Per class: fingerprint of its first window, length, count, then (file index, start) per occurrence. */
  classes: number[];
  /** Per class, in the same order, where it was located (`encodeLocated`, clone-results.ts). */
  located: number[];
  /** Per file of `files`, its anchors (clone-anchors.ts). */
  anchors: SavedAnchors;
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
export function savePass(
  paths: readonly string[],
  sequences: readonly Int32Array[],
  classes: readonly CloneClass[],
  minTokens: number,
  located: number[] = [],
): SavedPass {
  const flat: number[] = [];
  for (const { length, occurrences } of classes) {
    const first = occurrences[0];
    flat.push(windowKeyAt(sequences[first.sequence], first.start, minTokens), length, occurrences.length);
    for (const { sequence, start } of occurrences) flat.push(sequence, start);
  }
  return { files: [...paths], classes: flat, located, anchors: saveAnchors(sequences, minTokens) };
}

/** The saved state when it has this shape and these options, else undefined. */
export function readSavedClones(value: unknown, options: DetectionOptions, passes: number): SavedClones | undefined {
  const saved = value as Partial<SavedClones> | null;
  if (typeof saved !== 'object' || saved === null || saved.format !== FORMAT || saved.options !== optionsKey(options)) return undefined;
  if (!Array.isArray(saved.passes) || saved.passes.length !== passes || !Array.isArray(saved.duplicatedRows)) return undefined;
  const valid = saved.passes.every(
    (p: Partial<SavedPass>) =>
      Array.isArray(p?.files) &&
      Array.isArray(p.classes) &&
      Array.isArray(p.located) &&
      typeof p.anchors === 'object' &&
      p.files.every((f) => typeof f === 'string'),
  );
  return valid ? (saved as SavedClones) : undefined;
}

export interface PassChange {
  /** Paths of the files compared now, in detection order. */
  paths: readonly string[];
  /** The sequence of the file at `index`: asked only of the files that are read (see above). */
  sequence(index: number): Int32Array;
  /** At least the length of that sequence, known without reading it: saved positions are checked against it. */
  bound(index: number): number;
  /** Paths that differ from the saved run (either side of a rename, deleted and added files included). */
  changed: ReadonlySet<string>;
  minTokens: number;
}

export interface UpdatedClasses {
  classes: CloneClass[];
  /** Per class: its index among the saved classes when kept from them, -1 when detected again. */
  origins: number[];
  /** Files the classes detected again touch. */
  compared: number;
  /** Files whose sequences were read (the changed ones included). */
  read: number;
}

interface SavedClass {
  key: number;
  cloneClass: CloneClass;
  /** Its index among the saved classes. */
  origin: number;
}

/**
 * The saved classes with their copies' files as indices into `paths` (-1 for a file not there now),
 * the fingerprints of those with a copy in a changed file, and per saved file its index now and
 * whether it changed. Each saved file is looked up once: the copies, thousands on a large
 * repository, are then mapped by index, in code that runs cold.
 */
function readSavedClasses(
  saved: SavedPass,
  paths: readonly string[],
  changed: ReadonlySet<string>,
): { savedClasses: SavedClass[]; touching: number[]; now: Int32Array; changedBefore: Uint8Array } {
  const indexOf = new Map(paths.map((p, i) => [p, i]));
  const files = saved.files.length;
  const now = new Int32Array(files);
  const changedBefore = new Uint8Array(files);
  saved.files.forEach((path, file) => {
    now[file] = indexOf.get(path) ?? -1;
    changedBefore[file] = changed.has(path) ? 1 : 0;
  });
  const savedClasses: SavedClass[] = [];
  const touching: number[] = [];
  const flat = saved.classes;
  for (let at = 0, origin = 0; at < flat.length; origin++) {
    const key = flat[at];
    const length = flat[at + 1];
    const count = flat[at + 2];
    at += 3;
    const occurrences: CloneOccurrence[] = [];
    let touches = false;
    for (let k = 0; k < count; k++, at += 2) {
      // A saved file index that is not one (the state comes from disk) is a copy in no file.
      const file = flat[at];
      const known = Number.isInteger(file) && file >= 0 && file < files;
      if (known && changedBefore[file]) touches = true;
      occurrences.push({ sequence: known ? now[file] : -1, start: flat[at + 1] });
    }
    if (touches) touching.push(key);
    savedClasses.push({ key, cloneClass: { length, occurrences }, origin });
  }
  return { savedClasses, touching, now, changedBefore };
}

/** Every window of a sequence, as `findCloneClassesOfWindows` takes them. */
function everyWindow(tokens: Int32Array, window: number): SequenceWindows {
  const keys = new Int32Array(tokens.length);
  const starts = new Uint32Array(tokens.length);
  return { keys, starts, count: windowKeysInto(tokens, window, keys, starts) };
}

/**
 * Completes `windowsOf` (which holds every window of the changed files) with the windows of the
 * changed groups (`keys`) in the other files read, noting their fingerprints in `repeated`; then
 * keeps in each file only the windows of fingerprints in `repeated`, held by two windows or more.
 * A changed file's windows are mostly its own: left out, they are never sorted nor compared.
 */
function changedGroupWindows(
  sequences: readonly Int32Array[],
  windowsOf: Array<SequenceWindows | undefined>,
  changedNow: Uint8Array,
  keys: KeySet,
  repeated: KeySet,
  window: number,
): void {
  sequences.forEach((tokens, i) => {
    if (changedNow[i] || tokens.length === 0) return;
    const windows = everyWindow(tokens, window);
    windows.count = keys.retain(windows.keys, windows.starts, windows.count);
    for (let k = 0; k < windows.count; k++) repeated.add(windows.keys[k]);
    windowsOf[i] = windows;
  });
  for (const windows of windowsOf) if (windows) windows.count = repeated.retain(windows.keys, windows.starts, windows.count);
}

/**
 * The classes detection would find in `change.sequences`, from the saved pass and the changed
 * files, with where each comes from; undefined when the saved pass does not describe
 * the unchanged files (then detect again).
 */
export function updateCloneClasses(saved: SavedPass, change: PassChange): UpdatedClasses | undefined {
  const { paths, sequence, bound, changed, minTokens } = change;
  const window = Math.max(1, Math.floor(minTokens));
  const unchangedBefore = saved.files.filter((p) => !changed.has(p));
  const unchangedNow = paths.filter((p) => !changed.has(p));
  if (unchangedBefore.length !== unchangedNow.length || unchangedBefore.some((p, i) => p !== unchangedNow[i])) return undefined;

  // Per file now: changed, then also read; set once per file, since the saved copies are checked against them one by one.
  const changedNow = new Uint8Array(paths.length);
  const after: Int32Array[] = [];
  // Per file now, the windows of the changed groups it holds (see `changedGroupWindows`).
  const windowsOf: Array<SequenceWindows | undefined> = new Array(paths.length);
  paths.forEach((path, i) => {
    if (!changed.has(path)) return;
    changedNow[i] = 1;
    const tokens = sequence(i);
    after.push(tokens);
    windowsOf[i] = everyWindow(tokens, window);
  });
  const read = changedNow.slice();
  const { savedClasses, touching, now, changedBefore } = readSavedClasses(saved, paths, changed);
  // The changed groups: the changed files' fingerprints, and those of saved classes with a copy in a changed file.
  // `repeated`: those of them that two windows of the files read hold (the others have no class).
  let windowCount = touching.length;
  for (const windows of windowsOf) windowCount += windows?.count ?? 0;
  const keys = new KeySet(windowCount);
  const repeated = new KeySet(windowCount);
  for (const windows of windowsOf) if (windows) keys.addAll(windows.keys, windows.count, repeated);
  for (const key of touching) keys.add(key);
  const sharing = filesSharingAnchors(saved.anchors, saved.files.length, after, window);
  if (!sharing) return undefined;
  for (const file of sharing) if (!changedBefore[file]) read[now[file]] = 1;

  const kept: SavedClass[] = [];
  const valid = (o: CloneOccurrence) => o.sequence >= 0 && !changedNow[o.sequence] && Number.isInteger(o.start) && o.start >= 0 && o.start < bound(o.sequence);
  for (const entry of savedClasses) {
    if (!keys.has(entry.key)) {
      if (!entry.cloneClass.occurrences.every(valid)) return undefined;
      kept.push(entry);
    } else for (const o of entry.cloneClass.occurrences) if (o.sequence >= 0) read[o.sequence] = 1;
  }

  // Classes of the changed groups, from their members in the files read; the other groups are as before.
  const sequences = paths.map((_, i) => (read[i] ? sequence(i) : NO_TOKENS));
  changedGroupWindows(sequences, windowsOf, changedNow, keys, repeated, window);
  const redone = findCloneClassesOfWindows(sequences, minTokens, windowsOf).map((cloneClass) => {
    const first = cloneClass.occurrences[0];
    return { key: windowKeyAt(sequences[first.sequence], first.start, window), cloneClass };
  });
  const compared = new Set(redone.flatMap((r) => r.cloneClass.occurrences.map((o) => o.sequence))).size;

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
  return { classes: merged, origins, compared, read: read.reduce((n, r) => n + r, 0) };
}
