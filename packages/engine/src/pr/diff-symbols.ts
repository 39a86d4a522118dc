// Maps the hunks of one changed file to the symbols they touch, on both sides of the diff: the
// base text is parsed for the old line ranges, the head text for the new ones, with the engine's
// tree-sitter parser and its module-facts extractor (top-level declarations and class methods,
// with the exported flag the code graph uses). Each symbol also says whether the PR added,
// removed or modified it, which classification and graph impact read.
import type { FileKind, Language } from '../domain/types.js';
import { extractModuleFacts } from '../graph/extract-module-facts.js';
import type { ModuleFacts, SymbolRecord } from '../graph/types.js';
import { isParsedLanguage, parseSource } from '../parsing/parser.js';
import type { ChangedSymbol, DiffHunk } from './types.js';

/** Files above this size are not parsed for symbols (a generated blob that slipped through). */
export const MAX_SYMBOL_FILE_BYTES = 1024 * 1024;

export interface SideFacts {
  facts: ModuleFacts;
  /** 0-1: share of bytes outside ERROR nodes, as the pipeline's parse health counts it. */
  cleanRatio: number;
}

export interface FileSymbols {
  symbols: ChangedSymbol[];
  base?: SideFacts;
  head?: SideFacts;
}

/** `Class.method` for methods, the plain name otherwise: the engine's qualified symbol name. */
export function qualifiedName(symbol: SymbolRecord): string {
  return symbol.container ? `${symbol.container}.${symbol.name}` : symbol.name;
}

/** One side of a changed code file whose module facts the diff reader needs. */
export interface SideRequest {
  /** The file's path on that side (the old path for the base of a rename). */
  path: string;
  kind: FileKind;
  language: Language;
  source: string;
}

/**
 * Module facts of many sides at once; undefined where a side has no grammar or is too large. The
 * PR pipeline passes the engine's cached summaries (see `Engine.summarizeSources`).
 */
export type SideFactsReader = (sides: readonly SideRequest[]) => Promise<Array<SideFacts | undefined>>;

export const parseSides: SideFactsReader = async (sides) => sides.map((side) => readSideFacts(side.source, side.language));

/** Parses one side; undefined when the language has no grammar or the text is too large. */
export function readSideFacts(source: string | undefined, language: Language): SideFacts | undefined {
  if (source === undefined || !isParsedLanguage(language) || Buffer.byteLength(source) > MAX_SYMBOL_FILE_BYTES) return undefined;
  const tree = parseSource(source, language);
  let errorBytes = 0;
  // ERROR nodes nest rarely; counting top-most ones is enough for a share of bytes.
  const stack = [tree.rootNode];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'ERROR') {
      errorBytes += node.endIndex - node.startIndex;
      continue;
    }
    if (node.hasError) for (const child of node.children) stack.push(child);
  }
  const total = Math.max(1, tree.rootNode.endIndex);
  return { facts: extractModuleFacts(tree, { language, source }), cleanRatio: Math.max(0, 1 - errorBytes / total) };
}

/** Does the line range [start, end] meet this side of a hunk? */
function touches(start: number, end: number, hunkStart: number, hunkLines: number): boolean {
  // A zero-length side is a point between line `hunkStart` and the next one: only a symbol that
  // spans both lines has had something inserted into (or deleted from) its body.
  if (hunkLines === 0) return start <= hunkStart && hunkStart + 1 <= end;
  return start <= hunkStart + hunkLines - 1 && hunkStart <= end;
}

function touchedSymbols(symbols: readonly SymbolRecord[], hunks: readonly DiffHunk[], side: 'base' | 'head'): SymbolRecord[] {
  return symbols.filter((symbol) =>
    hunks.some((hunk) =>
      side === 'base'
        ? touches(symbol.lineStart, symbol.lineEnd, hunk.oldStart, hunk.oldLines)
        : touches(symbol.lineStart, symbol.lineEnd, hunk.newStart, hunk.newLines),
    ),
  );
}

const keyOf = (symbol: SymbolRecord) => `${symbol.kind}\0${qualifiedName(symbol)}`;

/**
 * The symbols of one file that the hunks touch. `baseSource` is absent for an added file and
 * `headSource` for a deleted one. Base-side symbols are those the old ranges meet, head-side
 * symbols those the new ranges meet; a symbol is `added` when the other side has no symbol of the
 * same kind and qualified name, `removed` when the head lacks it, `modified` otherwise.
 */
export function symbolsOfChange(input: { hunks: readonly DiffHunk[]; base?: SideFacts; head?: SideFacts }): FileSymbols {
  const { base, head } = input;
  const baseKeys = new Set((base?.facts.symbols ?? []).map(keyOf));
  const headKeys = new Set((head?.facts.symbols ?? []).map(keyOf));
  const symbols: ChangedSymbol[] = [];
  const seen = new Set<string>();
  const push = (symbol: SymbolRecord, side: 'base' | 'head', change: ChangedSymbol['change']) => {
    const id = `${side}\0${keyOf(symbol)}\0${symbol.lineStart}`;
    if (seen.has(id)) return;
    seen.add(id);
    symbols.push({
      name: qualifiedName(symbol),
      kind: symbol.kind,
      exported: symbol.exported,
      side,
      lineStart: symbol.lineStart,
      lineEnd: symbol.lineEnd,
      change,
    });
  };
  if (base) {
    for (const symbol of touchedSymbols(base.facts.symbols, input.hunks, 'base')) push(symbol, 'base', headKeys.has(keyOf(symbol)) ? 'modified' : 'removed');
  }
  if (head) {
    for (const symbol of touchedSymbols(head.facts.symbols, input.hunks, 'head')) push(symbol, 'head', baseKeys.has(keyOf(symbol)) ? 'modified' : 'added');
  }
  return { symbols, base, head };
}
