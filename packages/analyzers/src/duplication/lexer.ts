// The token stream of a TypeScript/JavaScript file for clone detection: each token becomes a
// 32-bit hash of its text whose low bits carry its class, with the line it starts on.
//
// A lexer over the text, not a second walk over tree-sitter's leaves: walking the tree again
// costs as much as the engine's own walk (one native call per leaf), lexing costs a fraction of
// the parse. The only context a lexer cannot decide alone, a `/` that starts a regular
// expression and JSX text, comes from the tree as "opaque" ranges found during the single walk.
import {
  BLANKS,
  TOKEN_CLASS,
  fnv,
  identifierEnd,
  isAsciiIdStart,
  isBlank,
  isDigit,
  isUnicodeIdAt,
  lineBreaks,
  numberEnd,
  punctuatorLength,
  stringEnd,
  templatePieceEnd,
  tokenHash,
  withClass,
} from './lexer-scanners.js';

export { CLASS_BITS, TOKEN_CLASS, type TokenClass } from './lexer-scanners.js';

/** A range the tree has already classified: lexed as one token of the given class. */
export interface OpaqueRange {
  start: number;
  end: number;
  tokenClass: typeof TOKEN_CLASS.regex | typeof TOKEN_CLASS.jsxText;
}

export interface LexedTokens {
  count: number;
  /** Hash of the text, low 3 bits = class. */
  hashes: Int32Array;
  /** 0-based line of the token's first character. */
  rows: Uint32Array;
  /** Offset of the token's first character in the source (for mapping tree ranges to tokens). */
  starts: Uint32Array;
  /** Pairs `[token index, last line]` for tokens that span several lines. */
  multiline: number[];
  /** Token index ranges `[start, end)` between `jscpd:ignore-start` and `jscpd:ignore-end`. */
  ignored: number[];
}

class TokenBuffer {
  count = 0;
  hashes: Int32Array;
  rows: Uint32Array;
  starts: Uint32Array;
  readonly multiline: number[] = [];

  constructor(capacity: number) {
    this.hashes = new Int32Array(capacity);
    this.rows = new Uint32Array(capacity);
    this.starts = new Uint32Array(capacity);
  }

  push(hash: number, row: number, start: number): void {
    if (this.count === this.hashes.length) {
      const hashes = new Int32Array(this.count * 2);
      const rows = new Uint32Array(this.count * 2);
      const starts = new Uint32Array(this.count * 2);
      hashes.set(this.hashes);
      rows.set(this.rows);
      starts.set(this.starts);
      [this.hashes, this.rows, this.starts] = [hashes, rows, starts];
    }
    this.hashes[this.count] = hash;
    this.rows[this.count] = row;
    this.starts[this.count++] = start;
  }
}

/**
 * Splits `source` into tokens. Whitespace separates tokens and is never one; comments are tokens
 * of class `comment` (modes that ignore them drop them later). Never throws: unknown characters
 * become one-character tokens and unterminated literals end at the end of their line.
 */
export function lexTokens(source: string, opaque: readonly OpaqueRange[] = []): LexedTokens {
  const n = source.length;
  const out = new TokenBuffer(Math.max(64, n >> 3));
  const ignored: number[] = [];
  const hasIgnoreMarkers = source.includes('jscpd:ignore-');
  const loneCarriageReturns = /\r(?!\n)/.test(source);
  let ignoreFrom = -1;
  let row = 0;
  let i = 0;
  let nextOpaque = 0;
  // `{` pushes 0, a template's `${` pushes 1: the `}` that pops a 1 resumes the template.
  const braces: number[] = [];

  /** Pushes a token that may span lines, and moves `row` past it. */
  const pushSpanning = (hash: number, start: number, end: number, firstRow = row): void => {
    const lastRow = row + lineBreaks(source, start, end, loneCarriageReturns);
    out.push(hash, firstRow, start);
    if (lastRow !== firstRow) out.multiline.push(out.count - 1, lastRow);
    row = lastRow;
  };

  while (i < n) {
    const c = source.charCodeAt(i);
    if (c === 10 || c === 13) {
      if (c === 10 || source.charCodeAt(i + 1) !== 10) row++;
      i++;
      continue;
    }
    if (c === 32 || c === 9) {
      BLANKS.lastIndex = i + 1;
      BLANKS.test(source);
      i = BLANKS.lastIndex;
      continue;
    }
    if ((c < 32 || c > 126) && isBlank(c)) {
      i++;
      continue;
    }
    while (nextOpaque < opaque.length && opaque[nextOpaque].start < i) nextOpaque++;
    if (nextOpaque < opaque.length && opaque[nextOpaque].start === i) {
      const { end, tokenClass } = opaque[nextOpaque++];
      if (tokenClass === TOKEN_CLASS.regex) pushSpanning(tokenHash(source.slice(i, end), tokenClass), i, end);
      else {
        // JSX text is compared without its layout: runs of whitespace become one space.
        const raw = source.slice(i, end);
        const text = raw.replace(/\s+/g, ' ').trim();
        const firstRow = row + lineBreaks(source, i, i + Math.max(0, raw.search(/\S/)), loneCarriageReturns);
        if (text) pushSpanning(tokenHash(text, tokenClass), i, end, firstRow);
        else row += lineBreaks(source, i, end, loneCarriageReturns);
      }
      i = end;
      continue;
    }
    const next = source.charCodeAt(i + 1);
    if ((c === 47 && (next === 47 || next === 42)) || (i === 0 && c === 35 && next === 33)) {
      let end: number;
      if (next === 42) {
        const close = source.indexOf('*/', i + 2);
        end = close < 0 ? n : close + 2;
      } else {
        end = i + 2;
        if (loneCarriageReturns) while (end < n && source.charCodeAt(end) !== 10 && source.charCodeAt(end) !== 13) end++;
        else {
          const lf = source.indexOf('\n', end);
          end = lf < 0 ? n : source.charCodeAt(lf - 1) === 13 ? lf - 1 : lf;
        }
      }
      const tokenIndex = out.count;
      pushSpanning(tokenHash(source.slice(i, end), TOKEN_CLASS.comment), i, end);
      if (hasIgnoreMarkers) {
        const text = source.slice(i, end);
        if (text.includes('jscpd:ignore-start') && ignoreFrom < 0) ignoreFrom = tokenIndex + 1;
        else if (text.includes('jscpd:ignore-end') && ignoreFrom >= 0) {
          ignored.push(ignoreFrom, tokenIndex);
          ignoreFrom = -1;
        }
      }
      i = end;
      continue;
    }
    if (
      isAsciiIdStart(c) ||
      (c === 92 && next === 117) ||
      (c === 35 && (isAsciiIdStart(next) || (next >= 128 && isUnicodeIdAt(source, i + 1, true)))) ||
      (c >= 128 && isUnicodeIdAt(source, i, true))
    ) {
      const end = identifierEnd(source, i);
      out.push(tokenHash(source.slice(i, end), TOKEN_CLASS.identifier), row, i);
      i = end;
      continue;
    }
    if (isDigit(c) || (c === 46 && isDigit(next))) {
      const end = numberEnd(source, i);
      out.push(tokenHash(source.slice(i, end), TOKEN_CLASS.number), row, i);
      i = end;
      continue;
    }
    if (c === 39 || c === 34) {
      const end = stringEnd(source, i, c);
      pushSpanning(tokenHash(source.slice(i, end), TOKEN_CLASS.string), i, end);
      i = end;
      continue;
    }
    if (c === 96 || (c === 125 && braces.length > 0 && braces[braces.length - 1] === 1)) {
      if (c === 125) braces.pop();
      const piece = templatePieceEnd(source, i);
      if (piece.open) braces.push(1);
      pushSpanning(tokenHash(source.slice(i, piece.end), TOKEN_CLASS.template), i, piece.end);
      i = piece.end;
      continue;
    }
    if (c === 123) braces.push(0);
    else if (c === 125) braces.pop();
    const length = punctuatorLength(source, i, c);
    // Punctuators are hashed in place: slicing one string per `(` is most of the garbage.
    out.push(withClass(fnv(source, i, i + length), TOKEN_CLASS.other), row, i);
    i += length;
  }
  if (ignoreFrom >= 0) ignored.push(ignoreFrom, out.count);
  return {
    count: out.count,
    hashes: out.hashes.subarray(0, out.count),
    rows: out.rows.subarray(0, out.count),
    starts: out.starts.subarray(0, out.count),
    multiline: out.multiline,
    ignored,
  };
}
