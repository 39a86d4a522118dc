// Counts total, blank, comment-only and code lines of a file, and non-blank lines of a row range
// (a function's lines of code), using the comment nodes of its tree.
import type { SyntaxNode } from 'tree-sitter';
import type { LineCounts } from './file-summary.js';
import { lineStartsOf, pointIn } from '../parsing/line-starts.js';

export interface LineCounter {
  visitor: Record<string, (n: SyntaxNode) => void>;
  /** Valid once the walk has seen every comment. */
  count(): LineCounts;
  /** Non-blank lines among the 0-based lines `first..last` of `splitLines(source)`, both included. */
  nonBlankLines(first: number, last: number): number;
}

/**
 * Collects comment ranges during the shared walk. Lines are those of `splitLines` (`\r\n`, `\n`
 * or `\r`), rows those of the tree (`\n` only): without a lone `\r` they are the same and one pass
 * over the text answers everything; otherwise the split lines are masked with the comments' rows
 * and columns, as they always were.
 */
export function createLineCounter(source: string, splitLinesOf: () => readonly string[]): LineCounter {
  const comments: number[] = [];
  let split: readonly string[] | undefined;
  const linesOf = (): readonly string[] => (split ??= splitLinesOf());
  let rows: Uint8Array | undefined;
  let nonBlankPrefix: Uint32Array | undefined;
  const sameRows = !hasLoneCarriageReturn(source);
  const rowsOf = (): Uint8Array => (rows ??= classifyRows(source, comments));
  return {
    visitor: {
      comment: (node) => {
        comments.push(node.startIndex, node.endIndex);
      },
    },
    count: () => (sameRows ? countRows(source, rowsOf()) : countMaskedLines(source, linesOf(), comments)),
    nonBlankLines(first, last) {
      if (!sameRows) {
        const lines = linesOf();
        let loc = 0;
        for (let i = first; i <= last; i++) if (lines[i]?.trim()) loc++;
        return loc;
      }
      const prefix = (nonBlankPrefix ??= prefixOf(rowsOf()));
      const rowCount = prefix.length - 1;
      const from = Math.min(Math.max(first, 0), rowCount);
      const to = Math.min(Math.max(last + 1, from), rowCount);
      return prefix[to] - prefix[from];
    },
  };
}

function hasLoneCarriageReturn(source: string): boolean {
  for (let at = source.indexOf('\r'); at >= 0; at = source.indexOf('\r', at + 1)) if (source.charCodeAt(at + 1) !== 10) return true;
  return false;
}

/** JavaScript's `\s` (what `trim()` removes): 9-13, space, the Unicode spaces, line and paragraph separators, BOM. */
function isBlank(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 5760 ||
    (code >= 8192 && code <= 8202) ||
    code === 8232 ||
    code === 8233 ||
    code === 8239 ||
    code === 8287 ||
    code === 12288 ||
    code === 65279
  );
}

const NON_BLANK = 1;
const CODE = 2;

/** Per row (at `\n`): NON_BLANK when a character is not blank, CODE when one such is outside every comment. */
function classifyRows(source: string, comments: readonly number[]): Uint8Array {
  let count = 1;
  for (let at = source.indexOf('\n'); at >= 0; at = source.indexOf('\n', at + 1)) count++;
  const rows = new Uint8Array(count);
  const length = source.length;
  let row = 0;
  let next = 0;
  let commentStart = comments.length > 0 ? comments[0] : -1;
  let commentEnd = -1;
  for (let i = 0; i < length;) {
    if (i === commentStart) {
      commentEnd = comments[next + 1];
      // Comments come in document order; one starting inside the previous one adds nothing.
      do next += 2;
      while (next < comments.length && comments[next] < commentEnd);
      commentStart = next < comments.length ? comments[next] : -1;
    }
    const c = source.charCodeAt(i);
    if (c === 10) {
      row++;
      i++;
      continue;
    }
    // ASCII in place (indentation: millions of characters; the command's V8 setting inlines no calls).
    if (c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 160 && isBlank(c)) {
      i++;
      continue;
    }
    // The first character that is not blank decides as much as the row's rest can: past it, only
    // a newline (and, in a comment, the comment's end) can change anything. Jump there.
    let newline = source.indexOf('\n', i);
    if (newline < 0) newline = length;
    if (i >= commentEnd) {
      rows[row] = NON_BLANK | CODE;
      i = commentStart > i && commentStart < newline ? commentStart : newline;
    } else {
      rows[row] |= NON_BLANK;
      i = commentEnd < newline ? commentEnd : newline;
    }
  }
  return rows;
}

function countRows(source: string, rows: Uint8Array): LineCounts {
  // A trailing newline does not make an extra line.
  const total = source.length === 0 || source.charCodeAt(source.length - 1) === 10 ? rows.length - 1 : rows.length;
  let blank = 0;
  let comment = 0;
  for (let row = 0; row < total; row++) {
    if (rows[row] === 0) blank++;
    else if (rows[row] === NON_BLANK) comment++;
  }
  return { total, blank, comment, code: total - blank - comment };
}

/**
 * `prefix[i]` = rows among `0..i-1` (rows end at `\n`) with code: a character that is neither
 * blank nor inside one of `comments` (flat `[start, end)` pairs of string indices, in document
 * order), so the code lines of any row range are one subtraction.
 */
export function codeRowPrefix(source: string, comments: readonly number[]): Uint32Array {
  const rows = classifyRows(source, comments);
  const prefix = new Uint32Array(rows.length + 1);
  for (let row = 0; row < rows.length; row++) prefix[row + 1] = prefix[row] + ((rows[row] & CODE) === 0 ? 0 : 1);
  return prefix;
}

function prefixOf(rows: Uint8Array): Uint32Array {
  const prefix = new Uint32Array(rows.length + 1);
  for (let row = 0; row < rows.length; row++) prefix[row + 1] = prefix[row] + (rows[row] === 0 ? 0 : 1);
  return prefix;
}

/** The masking count over split lines, for text whose lines are not the tree's rows. */
function countMaskedLines(source: string, lines: readonly string[], comments: readonly number[]): LineCounts {
  const lineStarts = lineStartsOf(source);
  const pointAt = (offset: number) => pointIn(lineStarts, offset);
  // Per line, the text left after removing comment spans decides: nothing left = comment-only.
  const masked = new Map<number, string>();
  const textOf = (row: number): string => masked.get(row) ?? lines[row] ?? '';
  for (let k = 0; k < comments.length; k += 2) {
    const start = pointAt(comments[k]);
    const end = pointAt(comments[k + 1]);
    for (let row = start.row; row <= end.row; row++) {
      const text = textOf(row);
      const from = row === start.row ? start.column : 0;
      const to = row === end.row ? end.column : text.length;
      masked.set(row, text.slice(0, from) + ' '.repeat(Math.max(0, to - from)) + text.slice(to));
    }
  }
  const total = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  let blank = 0;
  let comment = 0;
  for (let row = 0; row < total; row++) {
    if (lines[row].trim() === '') blank++;
    else if (masked.has(row) && masked.get(row)!.trim() === '') comment++;
  }
  return { total, blank, comment, code: total - blank - comment };
}
