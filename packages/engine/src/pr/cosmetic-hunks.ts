// Hunks that change no behaviour: comment-only and whitespace-only edits (a JSDoc rewrite, a
// re-indent, a comment added above a function). Such a hunk touches no symbol, so it is not an
// exported API change, adds no risk and needs no test. A hunk is cosmetic when the code tokens of
// its old lines equal those of its new lines once comments are left out — comments as the parser
// sees them (a `//` inside a string or a `/*` inside a regular expression is code), string literals
// compared whole (whitespace inside a string is meaningful).
import type { Language } from '../domain/types.js';
import { isParsedLanguage, parseSource } from '../parsing/parser.js';
import type { DiffHunk } from './types.js';

/** Identifiers and numbers, string literals whole, any other character alone; whitespace between them is layout. */
const TOKEN = /(['"`])(?:\\[\s\S]|(?!\1)[^\\])*\1|[\p{L}\p{N}_$]+|\S/gu;

const tokensOf = (text: string): string[] => text.match(TOKEN) ?? [];

const linesOf = (text: string): string[] => text.split('\n');

/** The hunk's lines on one side, 1-based `start`, `count` lines (a zero-length side is none). */
const slice = (lines: readonly string[], start: number, count: number): string[] => (count === 0 ? [] : lines.slice(start - 1, start - 1 + count));

/**
 * A cheap first look that parses nothing: each line of `text` with what a character scan takes for
 * comments left out (strings and template literals skipped whole; regular expressions are not
 * told apart, so this is only a guess). Hunks whose code looks the same on both sides are then
 * checked with the parser; a wrong guess costs a parse or misses a cosmetic hunk, nothing more.
 */
function roughCodeLines(text: string): string[] {
  let out = '';
  let state: 'code' | 'line' | 'block' | "'" | '"' | '`' = 'code';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const next = text[i + 1];
    if (state === 'code') {
      if (c === '/' && next === '/') state = 'line';
      else if (c === '/' && next === '*') {
        state = 'block';
        i++;
        out += ' ';
      } else {
        if (c === "'" || c === '"' || c === '`') state = c;
        out += c;
      }
    } else if (state === 'line') {
      if (c === '\n') {
        state = 'code';
        out += c;
      }
    } else if (state === 'block') {
      if (c === '*' && next === '/') {
        state = 'code';
        i++;
      } else if (c === '\n') out += c;
    } else {
      out += c;
      if (c === '\\') {
        out += next ?? '';
        i++;
      } else if (c === state || (c === '\n' && state !== '`')) state = 'code';
    }
  }
  return linesOf(out);
}

const sameTokens = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((token, i) => token === b[i]);

/** Each line of `text` with the bytes of comment nodes left out (tree-sitter's rows and byte columns). */
function codeLines(text: string, language: Language): string[] {
  const lines = linesOf(text).map((line) => Buffer.from(line, 'utf8'));
  const cut: Array<Array<[number, number]>> = lines.map(() => []);
  const tree = parseSource(text, language);
  const stack = [tree.rootNode];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'comment' || node.type === 'html_comment') {
      const { startPosition: from, endPosition: to } = node;
      for (let row = from.row; row <= to.row && row < lines.length; row++) {
        const start = row === from.row ? from.column : 0;
        const end = row === to.row ? to.column : lines[row]!.length;
        cut[row]!.push([start, end]);
      }
      continue;
    }
    for (const child of node.children) stack.push(child);
  }
  return lines.map((bytes, row) => {
    const ranges = cut[row]!;
    if (ranges.length === 0) return bytes.toString('utf8');
    const kept: Buffer[] = [];
    let at = 0;
    for (const [start, end] of ranges.sort((x, y) => x[0] - y[0])) {
      if (start > at) kept.push(bytes.subarray(at, start));
      at = Math.max(at, end);
    }
    kept.push(bytes.subarray(at));
    // A space where the comment was: `a/* x */b` is two tokens.
    return kept.map((part) => part.toString('utf8')).join(' ');
  });
}

/**
 * The hunks with `cosmetic: true` on those that change only comments or whitespace. Both sides'
 * texts are needed (an added or deleted file has no cosmetic hunk); a language without a grammar
 * is left as it is.
 */
export function markCosmeticHunks(hunks: readonly DiffHunk[], baseText: string | undefined, headText: string | undefined, language: Language): DiffHunk[] {
  if (baseText === undefined || headText === undefined || !isParsedLanguage(language) || hunks.length === 0) return [...hunks];
  const baseRough = roughCodeLines(baseText);
  const headRough = roughCodeLines(headText);
  const candidates = hunks.map((h) => sameTokens(tokensOf(slice(baseRough, h.oldStart, h.oldLines).join('\n')), tokensOf(slice(headRough, h.newStart, h.newLines).join('\n'))));
  if (!candidates.some(Boolean)) return [...hunks];
  const baseCode = codeLines(baseText, language);
  const headCode = codeLines(headText, language);
  return hunks.map((hunk, i) => {
    if (!candidates[i]) return hunk;
    const before = tokensOf(slice(baseCode, hunk.oldStart, hunk.oldLines).join('\n'));
    const after = tokensOf(slice(headCode, hunk.newStart, hunk.newLines).join('\n'));
    return sameTokens(before, after) ? { ...hunk, cosmetic: true } : hunk;
  });
}

/** The hunks that may change behaviour. */
export const meaningfulHunks = (hunks: readonly DiffHunk[]): DiffHunk[] => hunks.filter((hunk) => !hunk.cosmetic);

/** A file changed only in comments or whitespace (it has hunks, all of them cosmetic). */
export const isCosmeticOnly = (file: { hunks: readonly DiffHunk[] }): boolean => file.hunks.length > 0 && file.hunks.every((hunk) => hunk.cosmetic === true);
