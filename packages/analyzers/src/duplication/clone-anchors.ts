// Anchors: a few fingerprints per file, kept with a run's state, that tell a derived run which
// unchanged files can hold a window of a changed file, so that only those are read.
//
// Winnowing (Schleimer, Wilkerson and Aiken, 2003): of the fingerprints of every `span`-token run
// of a sequence, the smallest among each `reach` consecutive ones is an anchor, with
// span + reach - 1 = the detection window. Every window of the sequence holds exactly `reach`
// runs, so its smallest run fingerprint is an anchor; a file holding the same window has the same
// runs, so that anchor too. A file sharing no anchor with a sequence holds none of its windows.
// Half a window per run keeps about 2 / (reach + 1) of the positions (~7% with 50 tokens), and
// runs of 25 tokens are rarely shared by code that shares no 50.
import { windowKeysInto } from './clone-detection.js';
import { decodeInt32s, encodeInt32s } from './token-fact.js';
import { KeySet } from './key-set.js';

const NONE = new Int32Array(0);

/** Buffers reused from one sequence to the next (a cold run computes the anchors of every file). */
let scratch = { runs: new Int32Array(0), starts: new Uint32Array(0), queue: new Int32Array(0) };

function scratchFor(length: number): typeof scratch {
  if (scratch.runs.length < length) {
    const size = Math.max(length, 2 * scratch.runs.length);
    scratch = { runs: new Int32Array(size), starts: new Uint32Array(size), queue: new Int32Array(size) };
  }
  return scratch;
}

/** The distinct anchors of a sequence for windows of `window` tokens, sorted (none when it is shorter than a window). */
export function anchorsOf(tokens: Int32Array, window: number): Int32Array {
  const size = Math.max(1, Math.floor(window));
  if (tokens.length < size) return NONE;
  const span = Math.ceil(size / 2);
  const reach = size - span + 1;
  const { runs, starts, queue } = scratchFor(tokens.length);
  const count = windowKeysInto(tokens, span, runs, starts);
  // The smallest of each `reach` consecutive run fingerprints: a queue of candidates, increasing.
  // Where each new smallest is goes to `starts`, free once the runs are fingerprinted.
  let head = 0;
  let tail = 0;
  let found = 0;
  let last = -1;
  for (let i = 0; i < count; i++) {
    const run = runs[i];
    while (tail > head && runs[queue[tail - 1]] >= run) tail--;
    queue[tail++] = i;
    if (queue[head] <= i - reach) head++;
    if (i + 1 >= reach && queue[head] !== last) starts[found++] = last = queue[head];
  }
  const anchors = new Int32Array(found);
  for (let k = 0; k < found; k++) anchors[k] = runs[starts[k]];
  anchors.sort();
  let distinct = 0;
  for (let k = 0; k < found; k++) if (k === 0 || anchors[k] !== anchors[k - 1]) anchors[distinct++] = anchors[k];
  return distinct === found ? anchors : anchors.slice(0, distinct);
}

/** Each file's anchors, as a state keeps them: how many per file, and all of them in one base64 text. */
export interface SavedAnchors {
  counts: number[];
  keys: string;
}

export function saveAnchors(sequences: readonly Int32Array[], window: number): SavedAnchors {
  const perFile = sequences.map((tokens) => anchorsOf(tokens, window));
  const all = new Int32Array(perFile.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const anchors of perFile) {
    all.set(anchors, at);
    at += anchors.length;
  }
  return { counts: perFile.map((a) => a.length), keys: encodeInt32s(all) };
}

/**
 * Indices of the files (of the saved list of `files` files) sharing an anchor with one of
 * `sequences`; undefined when the saved anchors do not describe that many files.
 */
export function filesSharingAnchors(saved: SavedAnchors | undefined, files: number, sequences: readonly Int32Array[], window: number): number[] | undefined {
  if (!saved || !Array.isArray(saved.counts) || saved.counts.length !== files || typeof saved.keys !== 'string') return undefined;
  const keys = decodeInt32s(saved.keys);
  let total = 0;
  for (const n of saved.counts) {
    if (!Number.isInteger(n) || n < 0) return undefined;
    total += n;
  }
  if (total !== keys.length) return undefined;
  const wanted = sequences.map((tokens) => anchorsOf(tokens, window));
  const set = new KeySet(wanted.reduce((n, a) => n + a.length, 0));
  for (const anchors of wanted) for (let i = 0; i < anchors.length; i++) set.add(anchors[i]);
  // Every saved anchor of the repository is looked up once, in code that runs cold: most land on
  // an empty slot of the set's table, tested here; only the others cost a call.
  const { used, mask } = set;
  const sharing: number[] = [];
  for (let file = 0, at = 0; file < files; file++) {
    const end = at + saved.counts[file];
    for (let k = at; k < end; k++) {
      if (used[keys[k] & mask] && set.has(keys[k])) {
        sharing.push(file);
        break;
      }
    }
    at = end;
  }
  return sharing;
}
