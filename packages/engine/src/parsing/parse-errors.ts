// The parse-health facts of a recorded tree: how many ERROR and MISSING nodes it has, the text they
// cover and the line of the first. Read from the flat arrays after the walk; a clean tree (most
// files) costs one flag test.
import type { FlatTree } from './flat-tree.js';
import { ERROR_SLOT, MISSING } from './flat-record.js';

export interface TreeErrors {
  /** ERROR and MISSING nodes. */
  errorNodes: number;
  /** Text covered by outermost ERROR nodes (MISSING nodes are empty). */
  errorBytes: number;
  /** 1-based line of the first ERROR or MISSING node; undefined for a clean tree. */
  firstErrorLine?: number;
}

export function treeErrorsOf(tree: FlatTree): TreeErrors {
  if (!tree.hasError(0)) return { errorNodes: 0, errorBytes: 0 };
  const { types, flags, parents, starts, ends, count } = tree;
  let errorNodes = 0;
  let errorBytes = 0;
  let first = -1;
  for (let i = 0; i < count; i++) {
    const isError = types[i] === ERROR_SLOT;
    if (!isError && (flags[i] & MISSING) === 0) continue;
    errorNodes++;
    if (first < 0) first = i;
    // Nested ERROR nodes would count twice; only outermost ones add bytes.
    if (isError && (parents[i] < 0 || types[parents[i]] !== ERROR_SLOT)) errorBytes += ends[i] - starts[i];
  }
  // The parser may hold an error the tree shows no node for (a hidden missing token): the file
  // still did not parse cleanly.
  if (first < 0) return { errorNodes: 1, errorBytes: 0, firstErrorLine: 1 };
  return { errorNodes, errorBytes, firstErrorLine: tree.pointAt(starts[first]).row + 1 };
}
