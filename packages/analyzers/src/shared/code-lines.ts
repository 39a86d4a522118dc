// Lines of code: lines with at least one character that is neither whitespace nor inside a comment.
import { codeRowPrefix, type NodeVisitor, type SyntaxNode } from '@codehealth/engine/kit';

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
  // The engine's row classification (the one its line counts use), as prefix sums of code rows.
  const prefix = codeRowPrefix(source, comments.flat());
  const rows = prefix.length - 1;
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
