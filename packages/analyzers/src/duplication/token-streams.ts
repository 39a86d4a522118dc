// From each file's stored token stream to the sequence that detection compares, per mode:
// comments dropped unless `strict`, identifiers and literal values replaced by their kind in
// `weak`, import declarations and `jscpd:ignore` regions left out.
import type { FileSummary } from '@codehealth/engine/kit';
import { CLASS_BITS, TOKEN_CLASS } from './lexer.js';
import { checkTokenFact, decodeTokenFact, TOKEN_FACT_KEY, type TokenFact, type TokenStream } from './token-fact.js';

export const DUPLICATION_MODES = ['strict', 'mild', 'weak'] as const;
export type DuplicationMode = (typeof DUPLICATION_MODES)[number];

export interface StreamOptions {
  mode: DuplicationMode;
  ignoreImports: boolean;
}

export interface FileTokens {
  readonly summary: FileSummary;
  /** Tokens of the stored stream, known without decoding it: at least as many as are compared. */
  readonly tokenCount: number;
  readonly stream: TokenStream;
  /** The compared tokens: hashes, normalised in `weak` mode. */
  readonly hashes: Int32Array;
  /** Their exact hashes (the same array unless `weak`), to tell type-1 from type-2 copies. */
  readonly exact: Int32Array;
  /** Index in `stream` of each compared token. */
  readonly original: Uint32Array;
}

/** A token fact that passed `checkTokenFact` but does not decode (its base64 text is damaged). */
export class TokenFactError extends Error {
  constructor(readonly path: string) {
    super(`The token stream stored for ${path} does not decode to its token count`);
    this.name = 'TokenFactError';
  }
}

// Type-2 normalisation keeps two kinds: names, and literal values of any sort.
const NAME = (0x6e616d65 & ~CLASS_BITS) | TOKEN_CLASS.identifier;
const LITERAL = (0x6c697465 & ~CLASS_BITS) | TOKEN_CLASS.string;

function normalised(hash: number): number {
  switch (hash & CLASS_BITS) {
    case TOKEN_CLASS.identifier:
      return NAME;
    case TOKEN_CLASS.string:
    case TOKEN_CLASS.number:
    case TOKEN_CLASS.template:
    case TOKEN_CLASS.regex:
    case TOKEN_CLASS.jsxText:
      return LITERAL;
    default:
      return hash;
  }
}

function markRanges(mask: Uint8Array, ranges: readonly number[]): void {
  for (let i = 0; i + 1 < ranges.length; i += 2) mask.fill(1, Math.min(ranges[i], mask.length), Math.min(ranges[i + 1], mask.length));
}

export function effectiveTokens(summary: FileSummary, stream: TokenStream, options: StreamOptions): FileTokens {
  const count = stream.hashes.length;
  const excluded = new Uint8Array(count);
  markRanges(excluded, stream.ignored);
  if (options.ignoreImports) markRanges(excluded, stream.imports);
  // One pass with everything it reads in locals: a derived run decodes a few files, each once, before V8 optimises this.
  const comment = options.mode === 'strict' ? -1 : TOKEN_CLASS.comment;
  const all = stream.hashes;
  const original = new Uint32Array(count);
  const exact = new Int32Array(count);
  let kept = 0;
  for (let i = 0; i < count; i++) {
    const hash = all[i];
    if (excluded[i] || (hash & CLASS_BITS) === comment) continue;
    original[kept] = i;
    exact[kept++] = hash;
  }
  const compared = exact.slice(0, kept);
  const hashes = options.mode === 'weak' ? compared.map(normalised) : compared;
  return { summary, tokenCount: count, stream, hashes, exact: compared, original: original.slice(0, kept) };
}

/**
 * A file's tokens decoded from its stored fact on first use: a derived run reads only the files
 * that can share a window with a change, hold a copy it counts again, or a finding it describes.
 */
class StoredFileTokens implements FileTokens {
  readonly tokenCount: number;
  private decoded: FileTokens | undefined;

  constructor(
    readonly summary: FileSummary,
    private readonly fact: TokenFact,
    private readonly options: StreamOptions,
  ) {
    this.tokenCount = fact.count;
  }

  get stream(): TokenStream {
    return this.tokens().stream;
  }
  get hashes(): Int32Array {
    return this.tokens().hashes;
  }
  get exact(): Int32Array {
    return this.tokens().exact;
  }
  get original(): Uint32Array {
    return this.tokens().original;
  }

  private tokens(): FileTokens {
    if (this.decoded) return this.decoded;
    const stream = decodeTokenFact(this.fact);
    if (!stream) throw new TokenFactError(this.summary.path);
    return (this.decoded = effectiveTokens(this.summary, stream, this.options));
  }
}

export interface CollectedFiles {
  files: FileTokens[];
  /** Files in scope whose summary has no token stream (analysed without rules, or an older cache). */
  withoutTokens: number;
}

/** The files in scope, sorted by path so that "first occurrence" is stable across runs; each decoded on first use. */
export function collectFiles(summaries: readonly FileSummary[], options: StreamOptions & { ignoreTests: boolean }): CollectedFiles {
  const files: FileTokens[] = [];
  let withoutTokens = 0;
  const inScope = summaries
    .filter((s) => !s.skipped && (s.kind === 'source' || (s.kind === 'test' && !options.ignoreTests)))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const summary of inScope) {
    if (!(TOKEN_FACT_KEY in summary.facts)) {
      // Files of languages the collector does not read are simply not compared.
      if (['typescript', 'tsx', 'javascript', 'jsx'].includes(summary.language)) withoutTokens++;
      continue;
    }
    const fact = checkTokenFact(summary.facts[TOKEN_FACT_KEY]);
    if (!fact) {
      withoutTokens++;
      continue;
    }
    files.push(new StoredFileTokens(summary, fact, options));
  }
  return { files, withoutTokens };
}
