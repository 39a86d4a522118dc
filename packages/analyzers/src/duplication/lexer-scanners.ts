// The duplication lexer's building blocks: token classes, the token hash, character classes, and
// the scanners that find where a token ends. Kept apart so the lexer's loop stays readable.
import { hash } from 'node:crypto';

export const TOKEN_CLASS = {
  other: 0,
  identifier: 1,
  string: 2,
  number: 3,
  template: 4,
  regex: 5,
  comment: 6,
  jsxText: 7,
} as const;
export type TokenClass = (typeof TOKEN_CLASS)[keyof typeof TOKEN_CLASS];
export const CLASS_BITS = 0b111;

export const FNV_OFFSET = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

/** FNV-1a over the UTF-16 code units of `text[start, end)`. */
export function fnv(text: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** Above this length a token is hashed natively: a JavaScript loop over a long comment costs more than the call. */
const NATIVE_HASH_FROM = 48;

/** Hash of `text[start, end)`: FNV-1a for short tokens, 32 bits of SHA-1 for long ones. */
export function hashSpan(text: string, start: number, end: number): number {
  if (end - start < NATIVE_HASH_FROM) return fnv(text, start, end);
  return Number.parseInt(hash('sha1', text.slice(start, end)).slice(0, 8), 16) | 0;
}

/** A token's hash: the text's hash with the class in the low bits. */
export function withClass(hash: number, tokenClass: TokenClass): number {
  return (hash & ~CLASS_BITS) | tokenClass;
}

// Words that a type-2 copy never renames: reserved words, TypeScript's contextual keywords and
// built-in types. A contextual keyword used as a name stays a keyword, which only makes type-2
// matching stricter.
const KEYWORDS = new Set(
  (
    'abstract accessor any as asserts async await bigint boolean break case catch class const constructor continue ' +
    'debugger declare default delete do else enum export extends false finally for from function get global if ' +
    'implements import in infer instanceof interface is keyof let module namespace never new null number object of ' +
    'override package private protected public readonly require return satisfies set static string super switch symbol ' +
    'this throw true try type typeof undefined unique unknown var void while with yield'
  ).split(' '),
);

/** Keywords by their FNV-1a hash, so that a token hashed in place is checked without its text. */
const KEYWORDS_BY_HASH = new Map<number, string[]>();
for (const keyword of KEYWORDS) {
  const h = fnv(keyword, 0, keyword.length);
  KEYWORDS_BY_HASH.set(h, [...(KEYWORDS_BY_HASH.get(h) ?? []), keyword]);
}

function isKeywordAt(source: string, start: number, end: number, h: number): boolean {
  const candidates = KEYWORDS_BY_HASH.get(h);
  if (candidates === undefined) return false;
  for (const keyword of candidates) if (keyword.length === end - start && source.startsWith(keyword, start)) return true;
  return false;
}

/**
 * `tokenHash(source.slice(start, end), tokenClass)` without the slice for short tokens: most
 * tokens are short names, and slicing each one and looking it up was most of the lexer's time.
 */
export function spanHash(source: string, start: number, end: number, tokenClass: TokenClass): number {
  if (end - start >= NATIVE_HASH_FROM) return tokenHash(source.slice(start, end), tokenClass);
  const h = fnv(source, start, end);
  return withClass(h, tokenClass === TOKEN_CLASS.identifier && isKeywordAt(source, start, end, h) ? TOKEN_CLASS.other : tokenClass);
}

/** Texts longer than this are hashed every time rather than kept in the cache. */
const MAX_CACHED_LENGTH = 256;
/** Entries per class before a cache starts over (hashes are pure functions of the text). */
const MAX_CACHED = 100_000;
const cache: Array<Map<string, number>> = Array.from({ length: 8 }, () => new Map());

/**
 * The hash of a token's text, with its class in the low bits (an identifier that is a keyword
 * gets class `other`). The lexer hashes short tokens in place (spanHash) and long ones here.
 * Cached per thread: a Map lookup hashes the string natively.
 */
export function tokenHash(text: string, tokenClass: TokenClass): number {
  const byClass = cache[tokenClass];
  let hash = byClass.get(text);
  if (hash !== undefined) return hash;
  const actualClass = tokenClass === TOKEN_CLASS.identifier && KEYWORDS.has(text) ? TOKEN_CLASS.other : tokenClass;
  hash = withClass(hashSpan(text, 0, text.length), actualClass);
  if (text.length <= MAX_CACHED_LENGTH) {
    if (byClass.size >= MAX_CACHED) byClass.clear();
    byClass.set(text, hash);
  }
  return hash;
}

const ID_START = /[\p{ID_Start}$_]/u;
const ID_CONTINUE = /[\p{ID_Continue}$\u200c\u200d]/u;

export function isAsciiIdStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 36 || c === 95;
}
export function isAsciiIdPart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 36 || c === 95;
}
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
/** Non-ASCII identifier characters, by their Unicode properties (rare, so the slow path). */
export function isUnicodeIdAt(source: string, i: number, start: boolean): boolean {
  const char = String.fromCodePoint(source.codePointAt(i)!);
  return (start ? ID_START : ID_CONTINUE).test(char);
}
/** Whitespace other than line breaks, as ECMAScript defines it. */
export function isBlank(c: number): boolean {
  return (
    c === 32 ||
    c === 9 ||
    c === 11 ||
    c === 12 ||
    c === 0xa0 ||
    c === 0xfeff ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x3000 ||
    c === 0x1680 ||
    c === 0x202f ||
    c === 0x205f
  );
}

/** Length of the punctuator at `i` (longest match), whose first code unit is `c`. */
export function punctuatorLength(source: string, i: number, c: number): number {
  const c1 = source.charCodeAt(i + 1);
  const c2 = source.charCodeAt(i + 2);
  switch (c) {
    case 61: // = == === =>
      return c1 === 61 ? (c2 === 61 ? 3 : 2) : c1 === 62 ? 2 : 1;
    case 33: // ! != !==
      return c1 === 61 ? (c2 === 61 ? 3 : 2) : 1;
    case 60: // < <= << <<=
      return c1 === 61 ? 2 : c1 === 60 ? (c2 === 61 ? 3 : 2) : 1;
    case 62: // > >= — and `>>` as two, since in TypeScript it mostly closes two type argument lists
      return c1 === 61 ? 2 : 1;
    case 63: // ? ?? ??= ?. — but `a?.5:b` is a conditional
      if (c1 === 46) return isDigit(c2) ? 1 : 2;
      return c1 === 63 ? (c2 === 61 ? 3 : 2) : 1;
    case 38: // & && &= &&=
    case 124: // | || |= ||=
    case 42: // * ** *= **=
      if (c1 === c) return c2 === 61 ? 3 : 2;
      return c1 === 61 ? 2 : 1;
    case 43: // + ++ +=
    case 45: // - -- -=
      return c1 === c || c1 === 61 ? 2 : 1;
    case 47: // / /=
    case 37: // % %=
    case 94: // ^ ^=
      return c1 === 61 ? 2 : 1;
    case 46: // . ...
      return c1 === 46 && c2 === 46 ? 3 : 1;
    default:
      return c >= 0xd800 && c < 0xdc00 ? 2 : 1;
  }
}

/** End of the numeric literal starting at `i` (`0x1F`, `1_000`, `.5e-3`, `10n`). */
export function numberEnd(source: string, i: number): number {
  const n = source.length;
  let end = i;
  const next = source.charCodeAt(i + 1) | 32;
  if (source.charCodeAt(i) === 48 && (next === 98 || next === 111 || next === 120)) {
    end += 2;
    while (end < n && isAsciiIdPart(source.charCodeAt(end))) end++;
    return end;
  }
  const digits = (): void => {
    while (end < n && (isDigit(source.charCodeAt(end)) || source.charCodeAt(end) === 95)) end++;
  };
  digits();
  if (source.charCodeAt(end) === 46) {
    end++;
    digits();
  }
  if ((source.charCodeAt(end) | 32) === 101) {
    const sign = source.charCodeAt(end + 1);
    const digitAt = sign === 43 || sign === 45 ? end + 2 : end + 1;
    if (isDigit(source.charCodeAt(digitAt))) {
      end = digitAt;
      digits();
    }
  }
  if (source.charCodeAt(end) === 110) end++;
  return end;
}

/**
 * Line breaks in `source[from, to)`, counted as the engine splits lines (\r\n, \n or \r).
 * Jumps from newline to newline natively: long comments are mostly text between them.
 */
export function lineBreaks(source: string, from: number, to: number, loneCarriageReturns: boolean): number {
  let breaks = 0;
  if (loneCarriageReturns) {
    for (let k = from; k < to; k++) {
      const c = source.charCodeAt(k);
      if (c === 10 || (c === 13 && source.charCodeAt(k + 1) !== 10)) breaks++;
    }
    return breaks;
  }
  for (let k = source.indexOf('\n', from); k >= 0 && k < to; k = source.indexOf('\n', k + 1)) breaks++;
  return breaks;
}

const ASCII_IDENTIFIER_TAIL = /[A-Za-z0-9_$]*/y;
/** Spaces and tabs: sticky, so that `lastIndex` after a test is the end of the run. */
export const BLANKS = /[ \t]*/y;

/** End of the identifier (or `#private` name) starting at `i`. */
export function identifierEnd(source: string, i: number): number {
  const first = source.charCodeAt(i);
  ASCII_IDENTIFIER_TAIL.lastIndex = i + (first >= 0xd800 && first < 0xdc00 ? 2 : 1);
  ASCII_IDENTIFIER_TAIL.test(source);
  let end = ASCII_IDENTIFIER_TAIL.lastIndex;
  const n = source.length;
  // Escapes and non-ASCII letters take the slow path, character by character.
  while (end < n) {
    const d = source.charCodeAt(end);
    const escape = d === 92 && source.charCodeAt(end + 1) === 117;
    if (d < 128 ? !(isAsciiIdPart(d) || escape) : !isUnicodeIdAt(source, end, false)) break;
    end += d >= 0xd800 && d < 0xdc00 ? 2 : 1;
  }
  return end;
}

/** End of the template piece that starts at `i` ("`" or the "}" closing a substitution). */
export function templatePieceEnd(source: string, i: number): { end: number; open: boolean } {
  const n = source.length;
  let k = i + 1;
  while (k < n) {
    const c = source.charCodeAt(k);
    if (c === 92) k += 2;
    else if (c === 96) return { end: k + 1, open: false };
    else if (c === 36 && source.charCodeAt(k + 1) === 123) return { end: k + 2, open: true };
    else k++;
  }
  return { end: n, open: false };
}

/** End of the quoted string at `i`; an unterminated one ends at its line's end. */
export function stringEnd(source: string, i: number, quote: number): number {
  const n = source.length;
  let k = i + 1;
  while (k < n) {
    const d = source.charCodeAt(k);
    if (d === quote) return k + 1;
    if (d === 10 || d === 13) return k;
    k += d === 92 ? (source.charCodeAt(k + 1) === 13 && source.charCodeAt(k + 2) === 10 ? 3 : 2) : 1;
  }
  return n;
}
