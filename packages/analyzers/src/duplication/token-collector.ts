// The duplication analyzer's collector: each file's token stream as a compact fact, built during
// the engine's single walk. The walk contributes only what a lexer cannot know (regular
// expressions, JSX text, import declarations, overload sets); the text itself is lexed once.
import type { Collector, NodeVisitor, SyntaxNode } from '@codehealth/engine/kit';
import { lexTokens, TOKEN_CLASS, type OpaqueRange } from './lexer.js';
import { createOverloadSetCollector } from './overload-sets.js';
import { encodeInt32s, encodeRows, TOKEN_COLLECTOR_ID, type TokenFact } from './token-fact.js';

/** Index of the first token starting at or after `offset` (token starts are increasing). */
function firstTokenAtOrAfter(starts: Uint32Array, offset: number): number {
  let lo = 0;
  let hi = starts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (starts[mid] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Character ranges `[start, end)` (flattened) to token index ranges, empty ones dropped. */
function toTokenRanges(starts: Uint32Array, ranges: readonly number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < ranges.length; i += 2) {
    const first = firstTokenAtOrAfter(starts, ranges[i]);
    const end = firstTokenAtOrAfter(starts, ranges[i + 1]);
    if (end > first) out.push(first, end);
  }
  return out;
}

/** `export { a, b as c }` or `export default { a, b, ...rest }`: names only, no code. */
function isNameList(node: SyntaxNode): boolean {
  const value = node.childForFieldName('value');
  if (!value) return node.namedChildren.some((child) => child.type === 'export_clause');
  if (value.type !== 'object' || value.namedChildCount === 0) return false;
  return value.namedChildren.every((child) => child.type === 'shorthand_property_identifier' || child.type === 'comment');
}

export const tokenCollector: Collector<TokenFact> = {
  id: TOKEN_COLLECTOR_ID,
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  create({ source }) {
    const opaque: OpaqueRange[] = [];
    const imports: number[] = [];
    const overloads = createOverloadSetCollector(source);
    const opaqueToken = (tokenClass: OpaqueRange['tokenClass']) => (node: SyntaxNode) => {
      opaque.push({ start: node.startIndex, end: node.endIndex, tokenClass });
    };
    const own: NodeVisitor = {
      regex: opaqueToken(TOKEN_CLASS.regex),
      jsx_text: opaqueToken(TOKEN_CLASS.jsxText),
      import_statement: (node) => {
        imports.push(node.startIndex, node.endIndex);
      },
      export_statement: (node) => {
        // Re-exports (`export … from`), export lists (`export { a, b, c }`) and a default export
        // object of the same names (`export default { a, b, c }`) are import-like: they list the
        // module's names, and a named-export list mirrored by a default-export object is one idiom.
        // Other exports declare code.
        if (node.childForFieldName('source') || isNameList(node)) imports.push(node.startIndex, node.endIndex);
      },
    };
    const visitor: NodeVisitor = { ...own, ...overloads.visitor };
    return {
      visitor,
      result() {
        const tokens = lexTokens(source, opaque);
        return {
          count: tokens.count,
          hashes: encodeInt32s(tokens.hashes),
          rows: encodeRows(tokens.rows),
          multiline: tokens.multiline,
          imports: toTokenRanges(tokens.starts, imports),
          ignored: tokens.ignored,
          overloads: toTokenRanges(tokens.starts, overloads.sets()),
        };
      },
    };
  },
};
