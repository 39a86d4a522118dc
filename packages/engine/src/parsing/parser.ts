// tree-sitter parsing for the TypeScript/JavaScript family. One parser per grammar per thread.
//
// Parse health: tree-sitter-typescript 0.23.2 (kept as the parser) cannot parse a few valid
// TypeScript constructs (generic call signatures on consecutive lines without `;`, `export type *`,
// variance annotations). When the first parse of a TypeScript file has errors, an offset-preserving
// repair pass (parse-repair.ts) rewrites those constructs character for character and the text is
// parsed again; the repaired tree is kept only when it has fewer ERROR and MISSING nodes. Files
// that parse cleanly are parsed once and never touched. We chose this over a patched grammar build
// (a native addon of our own to compile, ship and keep in step with upstream): docs/parse-health.md.
import { createRequire } from 'node:module';
import type ParserType from 'tree-sitter';
import type { Tree } from 'tree-sitter';
import type { Language } from '../domain/types.js';
import { repairParse } from './parse-repair.js';

const require = createRequire(import.meta.url);
const Parser: typeof ParserType = require('tree-sitter');
const grammars: { typescript: unknown; tsx: unknown } = require('tree-sitter-typescript');

/** Languages the engine parses; everything else is inventoried only. */
export const PARSED_LANGUAGES: readonly Language[] = ['typescript', 'tsx', 'javascript', 'jsx'];

/** Languages whose grammar gaps parse-repair.ts covers (JavaScript has none of those constructs). */
const REPAIRED_LANGUAGES: ReadonlySet<Language> = new Set(['typescript', 'tsx']);

export function isParsedLanguage(language: Language): boolean {
  return PARSED_LANGUAGES.includes(language);
}

const parsers = new Map<'typescript' | 'tsx', ParserType>();

function parserFor(language: Language): ParserType {
  // JavaScript may contain JSX and no TS type assertions, so the TSX grammar (a superset) reads it.
  const grammar = language === 'typescript' ? 'typescript' : 'tsx';
  let parser = parsers.get(grammar);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(grammars[grammar]);
    parsers.set(grammar, parser);
  }
  return parser;
}

/**
 * tree-sitter's Node binding throws `Invalid argument` for strings of 32 KiB or more unless the
 * buffer is sized explicitly (NOTES.md), so the size is always passed.
 */
function parseText(parser: ParserType, text: string): Tree {
  return parser.parse(text, undefined, { bufferSize: Buffer.byteLength(text, 'utf8') * 2 + 1 });
}

export interface ParseOutcome {
  /** The tree; its node texts read the source as given, repaired or not. */
  tree: Tree;
  /** Repairs applied (none when the first parse was kept, as for every file that parses cleanly). */
  repairs: number;
}

export interface ParseOptions {
  /** false: the grammar's own tree, errors and all (measurements, tests). Default true. */
  repair?: boolean;
}

/** Parses source text, repairing the grammar's known gaps when the first parse has errors. */
export function parseWithRepairs(source: string, language: Language, options: ParseOptions = {}): ParseOutcome {
  if (!isParsedLanguage(language)) throw new TypeError(`no grammar for language ${language}`);
  const parser = parserFor(language);
  const first = parseText(parser, source);
  if (!first.rootNode.hasError || !REPAIRED_LANGUAGES.has(language) || options.repair === false) return { tree: first, repairs: 0 };
  const { tree, repairs } = repairParse(source, first, (text) => parseText(parser, text));
  // Offsets are the original's, so the binding's node texts can read the original (`type` of
  // `export type *` included) rather than the repaired text.
  if (tree !== first) (tree as Tree & { input: string }).input = source;
  return { tree, repairs: repairs.length };
}

/** Parses source text (with the repairs of {@link parseWithRepairs} unless told not to). Never throws for bad code. */
export function parseSource(source: string, language: Language, options: ParseOptions = {}): Tree {
  return parseWithRepairs(source, language, options).tree;
}
