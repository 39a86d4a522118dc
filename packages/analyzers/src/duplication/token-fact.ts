// The per-file fact the token collector stores in the summary, and its compact encoding. Facts
// cross worker threads and are cached on disk as JSON, so hashes and lines travel as base64
// strings (about 6 bytes per token) rather than as arrays of numbers (about 15).

/** Summaries are cached by collector id: a new encoding needs a new id, never a silent change. */
export const TOKEN_COLLECTOR_ID = 'token-stream-v1';
export const TOKEN_FACT_KEY = `duplication/${TOKEN_COLLECTOR_ID}`;

export interface TokenFact {
  count: number;
  /** Int32 per token (little-endian): hash of its text, low 3 bits = its class (see lexer.ts). */
  hashes: string;
  /** The 0-based line of each token, as LEB128 deltas from the previous token's line. */
  rows: string;
  /** Pairs `[token index, last line]` for tokens that span several lines. */
  multiline: number[];
  /** Token index ranges `[start, end)`, flattened: import and re-export declarations. */
  imports: number[];
  /** Token index ranges between `jscpd:ignore-start` and `jscpd:ignore-end` comments. */
  ignored: number[];
  /** Token index ranges of overload sets: the signatures of one function and its implementation's header. */
  overloads: number[];
}

/** A decoded fact, ready for detection. */
export interface TokenStream {
  hashes: Int32Array;
  rows: Uint32Array;
  /** Last line of each token (equal to `rows` except for multi-line tokens). */
  endRows: Uint32Array;
  imports: number[];
  ignored: number[];
  overloads: number[];
}

export function encodeInt32s(values: Int32Array): string {
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64');
}

export function decodeInt32s(text: string): Int32Array {
  const bytes = Buffer.from(text, 'base64');
  // A Buffer may start at any offset of its pool; an Int32Array view needs 4-byte alignment.
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return new Int32Array(copy.buffer, 0, bytes.length >> 2);
}

export function encodeRows(rows: Uint32Array): string {
  const bytes = new Uint8Array(rows.length * 5);
  let length = 0;
  let previous = 0;
  for (const row of rows) {
    let delta = row - previous;
    previous = row;
    while (delta >= 0x80) {
      bytes[length++] = (delta & 0x7f) | 0x80;
      delta >>>= 7;
    }
    bytes[length++] = delta;
  }
  return Buffer.from(bytes.buffer, 0, length).toString('base64');
}

export function decodeRows(text: string, count: number): Uint32Array {
  const bytes = Buffer.from(text, 'base64');
  const rows = new Uint32Array(count);
  let row = 0;
  let at = 0;
  for (let i = 0; i < count && at < bytes.length; i++) {
    let delta = 0;
    let shift = 0;
    let byte: number;
    // Line numbers stay far below 2^28, so shifts never overflow.
    do {
      byte = bytes[at++];
      delta |= (byte & 0x7f) << shift;
      shift += 7;
    } while (byte & 0x80 && at < bytes.length);
    row += delta;
    rows[i] = row;
  }
  return rows;
}

function isRangeList(value: unknown): value is number[] {
  if (!Array.isArray(value) || value.length % 2 !== 0) return false;
  // A loop, not `every` with a callback: every file's fact is checked on every run, by code that runs cold.
  for (let i = 0; i < value.length; i++) {
    const v: unknown = value[i];
    if (!Number.isInteger(v) || (v as number) < 0) return false;
  }
  return true;
}

/**
 * The fact when it has this version's shape (hashes of `count` tokens), checked without decoding
 * it, else undefined.
 */
export function checkTokenFact(fact: unknown): TokenFact | undefined {
  if (typeof fact !== 'object' || fact === null) return undefined;
  const f = fact as Partial<TokenFact>;
  if (typeof f.count !== 'number' || typeof f.hashes !== 'string' || typeof f.rows !== 'string') return undefined;
  if (!isRangeList(f.multiline) || !isRangeList(f.imports) || !isRangeList(f.ignored) || !isRangeList(f.overloads)) return undefined;
  return Buffer.byteLength(f.hashes, 'base64') >> 2 === f.count ? (f as TokenFact) : undefined;
}

/** The decoded stream, or undefined when the fact is missing or not of this version. */
export function decodeTokenFact(fact: unknown): TokenStream | undefined {
  const f = checkTokenFact(fact);
  if (!f) return undefined;
  const hashes = decodeInt32s(f.hashes);
  if (hashes.length !== f.count) return undefined;
  // Lines are read only where a clone is located: decoded on first use (most files hold none).
  let lines: { rows: Uint32Array; endRows: Uint32Array } | undefined;
  const linesOf = () => (lines ??= decodeLines(f.rows, f.count, f.multiline));
  return {
    hashes,
    get rows() {
      return linesOf().rows;
    },
    get endRows() {
      return linesOf().endRows;
    },
    imports: f.imports,
    ignored: f.ignored,
    overloads: f.overloads,
  };
}

function decodeLines(encoded: string, count: number, multiline: readonly number[]): { rows: Uint32Array; endRows: Uint32Array } {
  const rows = decodeRows(encoded, count);
  const endRows = rows.slice();
  for (let i = 0; i < multiline.length; i += 2) if (multiline[i] < count) endRows[multiline[i]] = multiline[i + 1];
  return { rows, endRows };
}
