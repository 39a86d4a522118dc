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
 * Also tells, for each line, whether it starts outside strings and comments (same guess).
 */
function roughScan(text: string): { lines: string[]; codeAtStart: boolean[] } {
  const codeAtStart = [true];
  // The kept text in pieces (a character at a time would copy the file once per character), and
  // jumps from one character that can change the state to the next.
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    // Code: kept up to the next quote, slash or line break.
    CODE_STOP.lastIndex = i;
    const stop = CODE_STOP.exec(text);
    if (stop === null) {
      out.push(text.slice(i));
      break;
    }
    const at = stop.index;
    const c = text[at]!;
    if (c === '\n') {
      out.push(text.slice(i, at + 1));
      codeAtStart.push(true);
      i = at + 1;
    } else if (c === '/') {
      const next = text[at + 1];
      out.push(text.slice(i, next === '/' || next === '*' ? at : at + 1));
      if (next === '/') i = skipLineComment(text, at + 2, out, codeAtStart);
      else if (next === '*') {
        out.push(' ');
        i = skipBlockComment(text, at + 2, out, codeAtStart);
      } else i = at + 1;
    } else {
      out.push(text.slice(i, at + 1));
      i = readString(text, at + 1, c, out, codeAtStart);
    }
  }
  return { lines: linesOf(out.join('')), codeAtStart };
}

const CODE_STOP = /[\n'"`/]/g;
const BLOCK_STOP = /\*\/|\n/g;
const STRING_STOP: Record<string, RegExp> = { "'": /['\\\n]/g, '"': /["\\\n]/g, '`': /[`\\\n]/g };

/** From inside a `//` comment: the line break that ends it is kept (a line still starting in code); returns where code resumes. */
function skipLineComment(text: string, from: number, out: string[], codeAtStart: boolean[]): number {
  const end = text.indexOf('\n', from);
  if (end < 0) return text.length;
  out.push('\n');
  codeAtStart.push(true);
  return end + 1;
}

/** From inside a block comment: only its line breaks are kept (lines starting in a comment); returns where code resumes. */
function skipBlockComment(text: string, from: number, out: string[], codeAtStart: boolean[]): number {
  BLOCK_STOP.lastIndex = from;
  for (let stop = BLOCK_STOP.exec(text); stop !== null; stop = BLOCK_STOP.exec(text)) {
    if (stop[0] === '*/') return stop.index + 2;
    out.push('\n');
    codeAtStart.push(false);
  }
  return text.length;
}

/**
 * From inside a string opened by `quote`: kept whole up to its end (a line break ends a quoted
 * string too; a template literal goes on over lines that start inside it); returns where code resumes.
 */
function readString(text: string, from: number, quote: string, out: string[], codeAtStart: boolean[]): number {
  const stops = STRING_STOP[quote]!;
  stops.lastIndex = from;
  for (let stop = stops.exec(text); stop !== null; stop = stops.exec(text)) {
    const at = stop.index;
    const c = text[at]!;
    if (c === '\\') {
      // An escaped character is part of the string; an escaped line break continues it on a line that starts inside it.
      if (text[at + 1] === '\n') codeAtStart.push(false);
      stops.lastIndex = at + 2;
    } else if (c === '\n' && quote === '`') codeAtStart.push(false);
    else {
      if (c === '\n') codeAtStart.push(true);
      out.push(text.slice(from, at + 1));
      return at + 1;
    }
  }
  out.push(text.slice(from));
  return text.length;
}

const sameTokens = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((token, i) => token === b[i]);

/** Rows (0-based, inclusive) a hunk side covers; a zero-length side covers none. */
type RowRange = readonly [number, number];

/** Where a piece of the text sits: its first row in the file, its text. */
interface Piece {
  firstRow: number;
  text: string;
}

/**
 * Adds the comment nodes of `piece` that touch `ranges` (file rows) to `cut`. The cursor skips
 * every subtree outside them and reads no node it does not need (materialising each node
 * through the binding cost seconds on a PR of ten large files).
 */
function cutComments(piece: Piece, language: Language, ranges: readonly RowRange[], cut: Array<Array<[number, number]>>): void {
  const touches = (first: number, last: number): boolean => ranges.some(([from, to]) => first <= to && last >= from);
  // Comments are extras the lexer finds inside ERROR nodes too: the grammar's repairs (39 more
  // parses of effect's 336 KB Schema.ts, three times the plain parse) do not change them.
  const cursor = parseSource(piece.text, language, { repair: false }).walk();
  for (;;) {
    const from = cursor.startPosition;
    const to = cursor.endPosition;
    const type = cursor.nodeType;
    if (touches(piece.firstRow + from.row, piece.firstRow + to.row)) {
      if (type === 'comment' || type === 'html_comment') {
        for (let row = from.row; row <= to.row && piece.firstRow + row < cut.length; row++) {
          const line = cut[piece.firstRow + row]!;
          line.push([row === from.row ? from.column : 0, row === to.row ? to.column : Number.MAX_SAFE_INTEGER]);
        }
      } else if (cursor.gotoFirstChild()) continue;
    }
    while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return;
  }
}

/**
 * Each line of `text` with the bytes of comment nodes left out (tree-sitter's rows and byte
 * columns), on the rows of `ranges` only. A range that lies inside one of `units` (whole
 * top-level declarations, as the parser placed them, starting outside strings and comments) is
 * read from a parse of that unit's lines alone — a comment edit in a function of a 336 KB file
 * parses the function, not the file; the others from one parse of the whole text.
 */
function codeLines(text: string, language: Language, ranges: readonly RowRange[], units: readonly RowRange[] = []): string[] {
  const lines = linesOf(text);
  const cut: Array<Array<[number, number]>> = lines.map(() => []);
  const whole: RowRange[] = [];
  const byUnit = new Map<RowRange, RowRange[]>();
  for (const range of ranges) {
    const unit = units.find(([from, to]) => from <= range[0] && range[1] <= to);
    if (unit === undefined) whole.push(range);
    else byUnit.set(unit, [...(byUnit.get(unit) ?? []), range]);
  }
  for (const [[from, to], inside] of byUnit) cutComments({ firstRow: from, text: lines.slice(from, to + 1).join('\n') }, language, inside, cut);
  if (whole.length > 0) cutComments({ firstRow: 0, text }, language, whole, cut);
  return keptLines(lines, cut);
}

/** The lines with the cut byte ranges left out. */
function keptLines(lines: readonly string[], cut: ReadonlyArray<Array<[number, number]>>): string[] {
  return lines.map((line, row) => {
    const ranges = cut[row]!;
    if (ranges.length === 0) return line;
    // Tree-sitter's columns are byte offsets: only the rows with a cut are read as bytes.
    const bytes = Buffer.from(line, 'utf8');
    const kept: Buffer[] = [];
    let at = 0;
    for (const [start, end] of ranges.sort((x, y) => x[0] - y[0])) {
      if (start > at) kept.push(bytes.subarray(at, start));
      at = Math.max(at, Math.min(end, bytes.length));
    }
    kept.push(bytes.subarray(at));
    // A space where the comment was: `a/* x */b` is two tokens.
    return kept.map((part) => part.toString('utf8')).join(' ');
  });
}

/** Line ranges (1-based, inclusive) of a side's top-level declarations, as its parse placed them. */
export type DeclarationLines = ReadonlyArray<{ lineStart: number; lineEnd: number }>;

/**
 * The hunks with `cosmetic: true` on those that change only comments or whitespace. Both sides'
 * texts are needed (an added or deleted file has no cosmetic hunk); a language without a grammar
 * is left as it is. `declarations` (each side's top-level declarations, from its module facts)
 * let a hunk inside one be checked by parsing that declaration only.
 */
export function markCosmeticHunks(
  hunks: readonly DiffHunk[],
  baseText: string | undefined,
  headText: string | undefined,
  language: Language,
  declarations: { base?: DeclarationLines; head?: DeclarationLines } = {},
): DiffHunk[] {
  if (baseText === undefined || headText === undefined || !isParsedLanguage(language) || hunks.length === 0) return [...hunks];
  const baseRough = roughScan(baseText);
  const headRough = roughScan(headText);
  const candidates = hunks.map((h) =>
    sameTokens(tokensOf(slice(baseRough.lines, h.oldStart, h.oldLines).join('\n')), tokensOf(slice(headRough.lines, h.newStart, h.newLines).join('\n'))),
  );
  if (!candidates.some(Boolean)) return [...hunks];
  const candidateHunks = hunks.filter((_, i) => candidates[i]);
  const rows = (start: number, count: number): RowRange[] => (count === 0 ? [] : [[start - 1, start + count - 2]]);
  const baseCode = codeLines(
    baseText,
    language,
    candidateHunks.flatMap((h) => rows(h.oldStart, h.oldLines)),
    unitsOf(declarations.base, baseRough.codeAtStart),
  );
  const headCode = codeLines(
    headText,
    language,
    candidateHunks.flatMap((h) => rows(h.newStart, h.newLines)),
    unitsOf(declarations.head, headRough.codeAtStart),
  );
  return hunks.map((hunk, i) => {
    if (!candidates[i]) return hunk;
    const before = tokensOf(slice(baseCode, hunk.oldStart, hunk.oldLines).join('\n'));
    const after = tokensOf(slice(headCode, hunk.newStart, hunk.newLines).join('\n'));
    return sameTokens(before, after) ? { ...hunk, cosmetic: true } : hunk;
  });
}

/** Declarations as 0-based row ranges, those whose first line starts outside strings and comments. */
function unitsOf(declarations: DeclarationLines | undefined, codeAtStart: readonly boolean[]): RowRange[] {
  return (declarations ?? []).filter((d) => codeAtStart[d.lineStart - 1] === true).map((d) => [d.lineStart - 1, d.lineEnd - 1] as const);
}

/** The hunks that may change behaviour. */
export const meaningfulHunks = (hunks: readonly DiffHunk[]): DiffHunk[] => hunks.filter((hunk) => !hunk.cosmetic);

/** A file changed only in comments or whitespace (it has hunks, all of them cosmetic). */
export const isCosmeticOnly = (file: { hunks: readonly DiffHunk[] }): boolean => file.hunks.length > 0 && file.hunks.every((hunk) => hunk.cosmetic === true);
