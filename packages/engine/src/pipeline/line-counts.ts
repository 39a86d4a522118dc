// Counts total, blank, comment-only and code lines of a file, using the comment nodes of its tree.
import type { SyntaxNode } from 'tree-sitter';
import type { LineCounts } from './file-summary.js';

interface CommentSpan {
  startRow: number;
  startColumn: number;
  endRow: number;
  endColumn: number;
}

/** Collects comment spans during the shared walk; `count()` afterwards. */
export function createLineCounter(lines: readonly string[]): { visitor: Record<string, (n: SyntaxNode) => void>; count(): LineCounts } {
  const spans: CommentSpan[] = [];
  return {
    visitor: {
      comment: (node) => {
        spans.push({
          startRow: node.startPosition.row,
          startColumn: node.startPosition.column,
          endRow: node.endPosition.row,
          endColumn: node.endPosition.column,
        });
      },
    },
    count: () => countLines(lines, spans),
  };
}

function countLines(lines: readonly string[], spans: readonly CommentSpan[]): LineCounts {
  // Per line, the text left after removing comment spans decides: nothing left = comment-only.
  const masked = new Map<number, string>();
  const textOf = (row: number): string => masked.get(row) ?? lines[row] ?? '';
  for (const s of spans) {
    for (let row = s.startRow; row <= s.endRow; row++) {
      const text = textOf(row);
      const from = row === s.startRow ? s.startColumn : 0;
      const to = row === s.endRow ? s.endColumn : text.length;
      masked.set(row, text.slice(0, from) + ' '.repeat(Math.max(0, to - from)) + text.slice(to));
    }
  }
  // A trailing newline does not make an extra line.
  const total = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  let blank = 0;
  let comment = 0;
  for (let row = 0; row < total; row++) {
    if (lines[row].trim() === '') blank++;
    else if (masked.has(row) && masked.get(row)!.trim() === '') comment++;
  }
  return { total, blank, comment, code: total - blank - comment };
}
