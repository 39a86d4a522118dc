// The token stream of a TypeScript/JavaScript file for clone detection: each token becomes a
// 32-bit hash of its text whose low bits carry its class, with the line it starts on.
//
// A lexer over the text, not a second walk over tree-sitter's leaves: walking the tree again
// costs as much as the engine's own walk (several native calls per leaf, measured 1.2-1.5x the
// cost of this lexer), and a lexer reads code the grammar fails on. The only context a lexer
// cannot decide alone, a `/` that starts a regular expression and JSX text, comes from the tree
// as "opaque" ranges found during the single walk.
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
  spanHash,
  tokenHash,
  withClass,
} from './lexer-scanners.js';
import { TokenBuffer } from './token-buffer.js';

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

// What an ASCII character can start; OTHER is a punctuator.
const [OTHER, NEWLINE, BLANK, NAME, DIGIT, QUOTE, BACKTICK, SLASH, OPEN_BRACE, CLOSE_BRACE, SPECIAL, DOT] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const ASCII_KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (c === 10 || c === 13) ASCII_KIND[c] = NEWLINE;
  else if (isBlank(c)) ASCII_KIND[c] = BLANK;
  else if (isAsciiIdStart(c)) ASCII_KIND[c] = NAME;
  else if (isDigit(c)) ASCII_KIND[c] = DIGIT;
}
ASCII_KIND[39] = ASCII_KIND[34] = QUOTE;
ASCII_KIND[96] = BACKTICK;
ASCII_KIND[47] = SLASH;
ASCII_KIND[123] = OPEN_BRACE;
ASCII_KIND[125] = CLOSE_BRACE;
ASCII_KIND[35] = ASCII_KIND[92] = SPECIAL; // `#private`, `#!`, `\u0061`
ASCII_KIND[46] = DOT;

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
  const loneCarriageReturns = source.includes('\r') && /\r(?!\n)/.test(source);
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
  /** Lexes the template piece starting at `i` ("`" or the "}" ending a substitution), returns its end. */
  const templatePiece = (start: number): number => {
    const piece = templatePieceEnd(source, start);
    if (piece.open) braces.push(1);
    pushSpanning(spanHash(source, start, piece.end, TOKEN_CLASS.template), start, piece.end);
    return piece.end;
  };

  /** Lexes the comment starting at `i` and returns its end. */
  const comment = (next: number): number => {
    let end: number;
    if (next === 42) {
      const close = source.indexOf('*/', i + 2);
      end = close < 0 ? n : close + 2;
    } else if (loneCarriageReturns) {
      end = i + 2;
      while (end < n && source.charCodeAt(end) !== 10 && source.charCodeAt(end) !== 13) end++;
    } else {
      const lf = source.indexOf('\n', i + 2);
      end = lf < 0 ? n : source.charCodeAt(lf - 1) === 13 ? lf - 1 : lf;
    }
    const tokenIndex = out.count;
    pushSpanning(spanHash(source, i, end, TOKEN_CLASS.comment), i, end);
    if (hasIgnoreMarkers) {
      const text = source.slice(i, end);
      if (text.includes('jscpd:ignore-start') && ignoreFrom < 0) ignoreFrom = tokenIndex + 1;
      else if (text.includes('jscpd:ignore-end') && ignoreFrom >= 0) {
        ignored.push(ignoreFrom, tokenIndex);
        ignoreFrom = -1;
      }
    }
    return end;
  };
  /** Lexes the opaque range at `i` (a regular expression or JSX text) and returns its end. */
  const opaqueToken = (range: OpaqueRange): number => {
    const { end, tokenClass } = range;
    if (tokenClass === TOKEN_CLASS.regex) pushSpanning(spanHash(source, i, end, tokenClass), i, end);
    else {
      // JSX text is compared without its layout: runs of whitespace become one space.
      const raw = source.slice(i, end);
      const text = raw.replace(/\s+/g, ' ').trim();
      const firstRow = row + lineBreaks(source, i, i + Math.max(0, raw.search(/\S/)), loneCarriageReturns);
      if (text) pushSpanning(tokenHash(text, tokenClass), i, end, firstRow);
      else row += lineBreaks(source, i, end, loneCarriageReturns);
    }
    return end;
  };

  let opaqueStart = opaque.length > 0 ? opaque[0].start : n;
  while (i < n) {
    // Opaque ranges come first: JSX text may start with the whitespace that is skipped below.
    if (i >= opaqueStart) {
      while (nextOpaque < opaque.length && opaque[nextOpaque].start < i) nextOpaque++;
      if (nextOpaque < opaque.length && opaque[nextOpaque].start === i) i = opaqueToken(opaque[nextOpaque++]);
      opaqueStart = nextOpaque < opaque.length ? Math.max(i, opaque[nextOpaque].start) : n;
      continue;
    }
    const c = source.charCodeAt(i);
    // One table lookup picks the branch for ASCII; other characters are rare and classified here.
    const kind = c < 128 ? ASCII_KIND[c] : isBlank(c) ? BLANK : isUnicodeIdAt(source, i, true) ? NAME : OTHER;
    switch (kind) {
      case NEWLINE:
        if (c === 10 || source.charCodeAt(i + 1) !== 10) row++;
        // The indentation of the next line goes in the same step.
        BLANKS.lastIndex = i + 1;
        BLANKS.test(source);
        i = BLANKS.lastIndex;
        continue;
      case BLANK:
        BLANKS.lastIndex = i + 1;
        BLANKS.test(source);
        i = BLANKS.lastIndex;
        continue;
      case NAME: {
        const end = identifierEnd(source, i);
        out.push(spanHash(source, i, end, TOKEN_CLASS.identifier), row, i);
        i = end;
        continue;
      }
      case DIGIT: {
        const end = numberEnd(source, i);
        out.push(spanHash(source, i, end, TOKEN_CLASS.number), row, i);
        i = end;
        continue;
      }
      case QUOTE: {
        const end = stringEnd(source, i, c);
        pushSpanning(spanHash(source, i, end, TOKEN_CLASS.string), i, end);
        i = end;
        continue;
      }
      case BACKTICK:
        i = templatePiece(i);
        continue;
      case SLASH: {
        const next = source.charCodeAt(i + 1);
        if (next === 47 || next === 42) {
          i = comment(next);
          continue;
        }
        break;
      }
      case OPEN_BRACE:
        braces.push(0);
        break;
      case CLOSE_BRACE:
        if (braces.pop() === 1) {
          i = templatePiece(i);
          continue;
        }
        break;
      case SPECIAL: {
        const next = source.charCodeAt(i + 1);
        if (c === 35 && next === 33 && i === 0) {
          i = comment(next); // a script's hashbang line
          continue;
        }
        const nameStart = c === 92 ? next === 117 : isAsciiIdStart(next) || (next >= 128 && isUnicodeIdAt(source, i + 1, true));
        if (nameStart) {
          const end = identifierEnd(source, i);
          out.push(spanHash(source, i, end, TOKEN_CLASS.identifier), row, i);
          i = end;
          continue;
        }
        break;
      }
      case DOT:
        if (isDigit(source.charCodeAt(i + 1))) {
          const end = numberEnd(source, i);
          out.push(spanHash(source, i, end, TOKEN_CLASS.number), row, i);
          i = end;
          continue;
        }
        break;
    }
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
