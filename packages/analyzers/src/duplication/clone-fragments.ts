// From clone classes (token positions) to located clones (files and lines), with the filters that
// keep findings precise: edge tokens, overlapping copies, overload sets, the minimum size in lines.
import { roleOfFile } from '@codehealth/engine/kit';
import type { CloneClass } from './clone-detection.js';
import { CLASS_BITS, TOKEN_CLASS } from './lexer.js';
import { tokenHash } from './lexer-scanners.js';
import type { FileTokens } from './token-streams.js';

const COMMENT = TOKEN_CLASS.comment;

export interface Fragment {
  file: FileTokens;
  /** Compared-token range `[start, end)` in `file`. */
  start: number;
  end: number;
  /** 1-based first and last line. */
  lineStart: number;
  lineEnd: number;
  /** Lines holding code of the fragment (comment-only and blank lines not counted). */
  codeLines: number;
}

export interface LocatedClone {
  /** Tokens the copies share (edge tokens included, see `trimmedRange`). */
  tokens: number;
  /** Two or more, source files before tests, then by path and line: the first is taken as the original. */
  fragments: Fragment[];
}

export interface ClonePolicy {
  minLines: number;
  ignoreOverloads: boolean;
}

/**
 * Lines with code among the compared tokens `[start, end)` of a file (comment tokens, in `strict`
 * mode, do not make a line code). With `marks`, counts only lines not marked yet, and marks them.
 */
export function codeRows(file: FileTokens, start: number, end: number, marks?: Uint8Array): number {
  const { hashes, rows, endRows } = file.stream;
  const { original } = file;
  let next = 0;
  let count = 0;
  for (let k = start; k < end; k++) {
    const index = original[k];
    if ((hashes[index] & CLASS_BITS) === COMMENT) continue;
    const last = endRows[index];
    for (let row = Math.max(next, rows[index]); row <= last; row++) {
      if (!marks) count++;
      else if (!marks[row]) count += marks[row] = 1;
    }
    if (last + 1 > next) next = last + 1;
  }
  return count;
}

export function fragmentOf(file: FileTokens, start: number, length: number): Fragment {
  const end = start + length;
  const codeLines = codeRows(file, start, end);
  return {
    file,
    start,
    end,
    lineStart: file.stream.rows[file.original[start]] + 1,
    lineEnd: file.stream.endRows[file.original[end - 1]] + 1,
    codeLines,
  };
}

/**
 * Whether the fragment lies inside overload sets: one, or several that follow each other with at
 * most a separator token between them (the signatures of `get`, then of `post`, in one interface).
 */
function insideOverloadSets(fragment: Fragment): boolean {
  const { overloads } = fragment.file.stream;
  let position = fragment.file.original[fragment.start];
  const last = fragment.file.original[fragment.end - 1];
  const setAt = (token: number): number => {
    for (let i = 0; i + 1 < overloads.length; i += 2) if (overloads[i] <= token && token < overloads[i + 1]) return i;
    return -1;
  };
  for (;;) {
    let set = setAt(position);
    if (set < 0 && position > fragment.file.original[fragment.start]) set = setAt(position + 1);
    if (set < 0) return false;
    if (last < overloads[set + 1]) return true;
    position = overloads[set + 1];
  }
}

/**
 * True when every copy stays inside an overload set: TypeScript's idiom, not copy-paste. The sets
 * may differ (the handler signatures of `get` and of `post` in one interface, or of two interfaces
 * typing the same variadic API): each repeats a growing parameter list on purpose.
 */
function withinOverloadSets(fragments: readonly Fragment[]): boolean {
  return fragments.every(insideOverloadSets);
}

/**
 * The length at which copies of one file stop overlapping. A block followed by a near copy of
 * itself (`A B A B A` read as `A B A` twice) is two copies of its first `shift` tokens, if that
 * is still long enough to be a clone.
 */
function lengthWithoutOverlap(cloneClass: CloneClass, minTokens: number): number {
  let length = cloneClass.length;
  const { occurrences } = cloneClass;
  for (let i = 1; i < occurrences.length; i++) {
    const shift = occurrences[i].start - occurrences[i - 1].start;
    if (occurrences[i].sequence === occurrences[i - 1].sequence && shift < length && shift >= minTokens) length = shift;
  }
  return length;
}

// A clone that starts by closing what came before it, or ends by opening what comes after, is
// anchored on a line it shares with different code: those edge tokens are not part of it.
const LEADING_EDGES = new Set([';', ',', ')', ']', '}'].map((text) => tokenHash(text, TOKEN_CLASS.other)));
const TRAILING_EDGES = new Set(['(', '[', '{', ','].map((text) => tokenHash(text, TOKEN_CLASS.other)));

/** The clone's range in its first copy once edge tokens are cut: `[skip, length)`. */
function trimmedRange(cloneClass: CloneClass, files: readonly FileTokens[], length: number): { skip: number; length: number } {
  const { sequence, start } = cloneClass.occurrences[0];
  const { hashes } = files[sequence];
  let skip = 0;
  let end = length;
  while (skip < end && LEADING_EDGES.has(hashes[start + skip])) skip++;
  while (end > skip && TRAILING_EDGES.has(hashes[start + end - 1])) end--;
  return { skip, length: end - skip };
}

function fragmentsOf(cloneClass: CloneClass, files: readonly FileTokens[], range: { skip: number; length: number }): Fragment[] {
  const fragments: Fragment[] = [];
  for (const { sequence, start } of cloneClass.occurrences) {
    const previous = fragments[fragments.length - 1];
    // Copies still overlapping (a shift shorter than a clone) are one region, kept once.
    if (previous && previous.file === files[sequence] && start + range.skip < previous.end) continue;
    fragments.push(fragmentOf(files[sequence], start + range.skip, range.length));
  }
  return fragments;
}

function longest(fragments: readonly Fragment[]): number {
  return fragments.reduce((max, f) => Math.max(max, f.codeLines), 0);
}

export function locateClones(classes: readonly CloneClass[], files: readonly FileTokens[], policy: ClonePolicy & { minTokens: number }): LocatedClone[] {
  const clones: LocatedClone[] = [];
  for (const cloneClass of classes) {
    const tokens = lengthWithoutOverlap(cloneClass, policy.minTokens);
    if (tokens < policy.minTokens) continue;
    // The edges are left out of where the copies are, not of how long the clone is (as in jscpd),
    // and only while the copies keep `minLines` lines.
    let fragments = fragmentsOf(cloneClass, files, trimmedRange(cloneClass, files, tokens));
    if (longest(fragments) < policy.minLines) fragments = fragmentsOf(cloneClass, files, { skip: 0, length: tokens });
    if (fragments.length < 2 || longest(fragments) < policy.minLines) continue;
    // Production code before the rest: a test, an example or a benchmark that copies the product's
    // code is where the copy is (and its finding carries that role, not production).
    fragments.sort((a, b) => Number(roleOfFile(a.file.summary) !== 'production') - Number(roleOfFile(b.file.summary) !== 'production'));
    if (policy.ignoreOverloads && withinOverloadSets(fragments)) continue;
    clones.push({ tokens, fragments });
  }
  return clones;
}

/** True when the two copies are token for token identical before normalisation (type-1). */
export function identicalText(a: Fragment, b: Fragment): boolean {
  if (a.end - a.start !== b.end - b.start) return false;
  for (let k = 0; k < a.end - a.start; k++) if (a.file.exact[a.start + k] !== b.file.exact[b.start + k]) return false;
  return true;
}
