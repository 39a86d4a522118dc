// Located clones and duplicated lines kept with a run's recorded state, and reused by a derived
// run (a PR's head) for the classes it kept from the saved state.
//
// A kept class has all its occurrences in unchanged files, and locating a class reads only its
// own occurrences' files, so its located clone (or its absence) is the one saved. A file's
// duplicated lines are the union of the copies located in it: a file that no copy of a class
// detected again, no copy of a dropped saved class, and no change touches holds the same copies
// as before, so the same count.
import type { CloneClass } from './clone-detection.js';
import { codeRows, locateClones, type ClonePolicy, type Fragment, type LocatedClone } from './clone-fragments.js';
import type { SavedPass, UpdatedClasses } from './clone-state.js';
import type { FileTokens } from './token-streams.js';

/** Numbers per saved fragment: file index, start, end, first line, last line, code lines. */
const FRAGMENT_SIZE = 6;

/** Each class's located clone, or undefined when the filters drop it (as `locateClones` does, class by class). */
export function locateEach(
  classes: readonly CloneClass[],
  files: readonly FileTokens[],
  policy: ClonePolicy & { minTokens: number },
): Array<LocatedClone | undefined> {
  return classes.map((cloneClass) => locateClones([cloneClass], files, policy)[0]);
}

/** Per class: tokens and fragment count (0, 0 when not located), then `FRAGMENT_SIZE` numbers per fragment. */
export function encodeLocated(located: ReadonlyArray<LocatedClone | undefined>, indexOf: ReadonlyMap<FileTokens, number>): number[] {
  const flat: number[] = [];
  for (const clone of located) {
    if (!clone) {
      flat.push(0, 0);
      continue;
    }
    flat.push(clone.tokens, clone.fragments.length);
    for (const f of clone.fragments) flat.push(indexOf.get(f.file)!, f.start, f.end, f.lineStart, f.lineEnd, f.codeLines);
  }
  return flat;
}

export interface RestoredPass {
  located: Array<LocatedClone | undefined>;
  /** Paths holding a copy of a class detected again, or of a saved class not kept. */
  touched: Set<string>;
}

/**
 * The located clones of the updated classes: the saved ones for kept classes, located again for
 * the others; undefined when the saved located clones do not fit the saved classes or the files.
 */
export function restoreLocated(
  saved: SavedPass,
  updated: UpdatedClasses,
  files: readonly FileTokens[],
  policy: ClonePolicy & { minTokens: number },
): RestoredPass | undefined {
  const flat = saved.located;
  const offsets: number[] = [];
  for (let at = 0; at < flat.length; at += 2 + FRAGMENT_SIZE * flat[at + 1]) {
    if (!Number.isInteger(flat[at + 1]) || flat[at + 1] < 0) return undefined;
    offsets.push(at);
  }
  // Each saved file looked up once, not once per saved copy (thousands, in code that runs cold).
  const indexOf = new Map(files.map((f, i) => [f.summary.path, i]));
  const fileAt = saved.files.map((path) => files[indexOf.get(path) ?? -1]);
  const touched = new Set<string>();
  const kept = new Uint8Array(offsets.length);
  for (const origin of updated.origins) if (origin >= 0 && origin < offsets.length) kept[origin] = 1;
  // Copies of saved classes that are gone lose their lines where they were.
  for (let origin = 0; origin < offsets.length; origin++) {
    if (kept[origin]) continue;
    const at = offsets[origin];
    for (let k = 0; k < flat[at + 1]; k++) {
      const path = saved.files[flat[at + 2 + k * FRAGMENT_SIZE]];
      if (path !== undefined) touched.add(path);
    }
  }

  const located: Array<LocatedClone | undefined> = [];
  for (let i = 0; i < updated.classes.length; i++) {
    const origin = updated.origins[i];
    if (origin < 0) {
      const clone = locateEach([updated.classes[i]], files, policy)[0];
      for (const f of clone?.fragments ?? []) touched.add(f.file.summary.path);
      located.push(clone);
      continue;
    }
    if (origin >= offsets.length) return undefined;
    const at = offsets[origin];
    if (flat[at + 1] === 0) {
      located.push(undefined);
      continue;
    }
    const fragments: Fragment[] = [];
    for (let k = 0, from = at + 2; k < flat[at + 1]; k++, from += FRAGMENT_SIZE) {
      const index = flat[from];
      const file = Number.isInteger(index) ? fileAt[index] : undefined;
      const start = flat[from + 1];
      const end = flat[from + 2];
      const lineStart = flat[from + 3];
      const lineEnd = flat[from + 4];
      const codeLines = flat[from + 5];
      const integers =
        Number.isInteger(start) && Number.isInteger(end) && Number.isInteger(lineStart) && Number.isInteger(lineEnd) && Number.isInteger(codeLines);
      // Checked against the stored token count, an upper bound known without decoding the file.
      if (!file || !integers || start < 0 || end <= start || end > file.tokenCount) return undefined;
      fragments.push({ file, start, end, lineStart, lineEnd, codeLines });
    }
    located.push({ tokens: flat[at], fragments });
  }
  return { located, touched };
}

/** Lines with code of each file that are part of some copy; with `only`, of those files alone. */
export function duplicatedRowsByFile(clones: readonly LocatedClone[], only?: ReadonlySet<FileTokens>): Map<FileTokens, number> {
  const marksByFile = new Map<FileTokens, Uint8Array>();
  const counts = new Map<FileTokens, number>();
  for (const clone of clones) {
    for (const fragment of clone.fragments) {
      if (only && !only.has(fragment.file)) continue;
      let marks = marksByFile.get(fragment.file);
      if (!marks) {
        const { endRows } = fragment.file.stream;
        marksByFile.set(fragment.file, (marks = new Uint8Array((endRows[endRows.length - 1] ?? 0) + 1)));
      }
      counts.set(fragment.file, (counts.get(fragment.file) ?? 0) + codeRows(fragment.file, fragment.start, fragment.end, marks));
    }
  }
  return counts;
}

/**
 * Every file's duplicated lines: the saved count for files `touched` leaves alone, counted again
 * for the others; undefined when the saved counts do not fit the saved files.
 */
export function updateDuplicatedRows(
  saved: { files: readonly string[]; duplicatedRows: readonly number[] },
  clones: readonly LocatedClone[],
  files: readonly FileTokens[],
  touched: ReadonlySet<string>,
): Map<FileTokens, number> | undefined {
  if (saved.duplicatedRows.length !== saved.files.length || !saved.duplicatedRows.every((n) => Number.isInteger(n) && n >= 0)) return undefined;
  const before = new Map(saved.files.map((path, i) => [path, saved.duplicatedRows[i]]));
  const dirty = new Set<FileTokens>();
  const counts = new Map<FileTokens, number>();
  for (const file of files) {
    const count = before.get(file.summary.path);
    if (touched.has(file.summary.path) || count === undefined) dirty.add(file);
    else counts.set(file, count);
  }
  for (const [file, count] of duplicatedRowsByFile(clones, dirty)) counts.set(file, count);
  return counts;
}
