// Lines of code: lines with at least one character that is neither whitespace nor inside a comment.
import type { NodeVisitor, SyntaxNode } from '@codehealth/engine';

export interface CodeLines {
  /** Number of code lines among the 0-based rows `firstRow..lastRow`, both included. */
  between(firstRow: number, lastRow: number): number;
  readonly total: number;
}

/**
 * Collects comment ranges during the walk; `codeLines()` is valid once the walk has seen every
 * comment of the file (at `program:exit`). Masking comments in the text, rather than counting
 * comment nodes per line, handles `a(); // note`, `/* x *\/ a();` and multi-line comments alike.
 */
export function createCodeLineCollector(source: string): { visitor: NodeVisitor; codeLines(): CodeLines } {
  const comments: Array<[number, number]> = [];
  const collect = (node: SyntaxNode): void => {
    comments.push([node.startIndex, node.endIndex]);
  };
  return {
    visitor: { comment: collect, html_comment: collect },
    codeLines: () => countCodeLines(source, comments),
  };
}

/** JavaScript's `\s`: what `/\S/` treats as blank. */
function isBlank(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return code === 160 || code === 5760 || (code >= 8192 && code <= 8202) || code === 8232 || code === 8233 || code === 8239 || code === 8287 || code === 12288 || code === 65279;
}

/** Several rules count the same file's lines from the same comments in one walk; the last count is reused. */
let last: { source: string; comments: ReadonlyArray<readonly [number, number]>; lines: CodeLines } | undefined;

function sameRanges(a: ReadonlyArray<readonly [number, number]>, b: ReadonlyArray<readonly [number, number]>): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i][0] !== b[i][0] || a[i][1] !== b[i][1]) return false;
  return true;
}

export function countCodeLines(source: string, comments: ReadonlyArray<readonly [number, number]>): CodeLines {
  if (last && last.source === source && sameRanges(last.comments, comments)) return last.lines;
  let rows = 1;
  for (let at = source.indexOf('\n'); at >= 0; at = source.indexOf('\n', at + 1)) rows++;
  // prefix[i] = code lines among rows 0..i-1, so any row range is counted in O(1).
  const prefix = new Uint32Array(rows + 1);
  // Comments are in document order; one that starts inside the previous one is ignored.
  let next = 0;
  let commentStart = comments.length > 0 ? comments[0][0] : -1;
  let commentEnd = -1;
  let row = 0;
  let code = false;
  const length = source.length;
  for (let i = 0; i < length; ) {
    if (i === commentStart) {
      commentEnd = comments[next][1];
      do next++;
      while (next < comments.length && comments[next][0] < commentEnd);
      commentStart = next < comments.length ? comments[next][0] : -1;
    }
    const c = source.charCodeAt(i);
    if (c === 10) {
      prefix[row + 1] = prefix[row] + (code ? 1 : 0);
      row++;
      code = false;
      i++;
      continue;
    }
    if (isBlank(c)) {
      i++;
      continue;
    }
    // Past a character that is not blank only a newline (and a comment's start or end) can matter: jump there.
    let newline = source.indexOf('\n', i);
    if (newline < 0) newline = length;
    if (i >= commentEnd) {
      code = true;
      i = commentStart > i && commentStart < newline ? commentStart : newline;
    } else i = commentEnd < newline ? commentEnd : newline;
  }
  prefix[row + 1] = prefix[row] + (code ? 1 : 0);
  const lastRow = rows - 1;
  const lines: CodeLines = {
    total: prefix[rows],
    between(firstRow, lastRowWanted) {
      const from = Math.max(0, Math.min(firstRow, lastRow));
      const to = Math.max(from, Math.min(lastRowWanted, lastRow));
      return prefix[to + 1] - prefix[from];
    },
  };
  last = { source, comments: comments.slice(), lines };
  return lines;
}
