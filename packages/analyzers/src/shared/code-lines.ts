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

export function countCodeLines(source: string, comments: ReadonlyArray<readonly [number, number]>): CodeLines {
  let masked = '';
  let cursor = 0;
  for (const [start, end] of comments) {
    if (start < cursor) continue;
    masked += source.slice(cursor, start) + source.slice(start, end).replace(/[^\n]/g, ' ');
    cursor = end;
  }
  masked += source.slice(cursor);
  const lines = masked.split('\n');
  // prefix[i] = code lines among rows 0..i-1, so any row range is counted in O(1).
  const prefix = new Uint32Array(lines.length + 1);
  lines.forEach((line, row) => {
    prefix[row + 1] = prefix[row] + (/\S/.test(line) ? 1 : 0);
  });
  const last = lines.length - 1;
  return {
    total: prefix[lines.length],
    between(firstRow, lastRow) {
      const from = Math.max(0, Math.min(firstRow, last));
      const to = Math.max(from, Math.min(lastRow, last));
      return prefix[to + 1] - prefix[from];
    },
  };
}
