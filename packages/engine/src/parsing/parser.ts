// tree-sitter parsing for the TypeScript/JavaScript family. One parser per grammar per thread.
import { createRequire } from 'node:module';
import type ParserType from 'tree-sitter';
import type { Tree } from 'tree-sitter';
import type { Language } from '../domain/types.js';

const require = createRequire(import.meta.url);
const Parser: typeof ParserType = require('tree-sitter');
const grammars: { typescript: unknown; tsx: unknown } = require('tree-sitter-typescript');

/** Languages the engine parses; everything else is inventoried only. */
export const PARSED_LANGUAGES: readonly Language[] = ['typescript', 'tsx', 'javascript', 'jsx'];

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
 * Parses source text. tree-sitter's Node binding throws `Invalid argument` for strings of 32 KiB
 * or more unless the buffer is sized explicitly (NOTES.md), so the size is always passed.
 */
export function parseSource(source: string, language: Language): Tree {
  if (!isParsedLanguage(language)) throw new TypeError(`no grammar for language ${language}`);
  const bufferSize = Buffer.byteLength(source, 'utf8') * 2 + 1;
  return parserFor(language).parse(source, undefined, { bufferSize });
}
