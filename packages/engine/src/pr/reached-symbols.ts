// A change to a module's private helper changes the exported symbols that use it: a change inside
// `persistImpl` behind `export const persist = persistImpl` changes `persist`, and one inside a
// helper an exported function calls changes that function. The module's own references (the
// import graph records only calls across modules) are read from head's text: an exported
// top-level symbol whose lines name a touched private top-level symbol (outside comments and
// strings) is reached, through any chain of private helpers.
import type { SideFacts } from './diff-symbols.js';
import type { ChangedSymbol } from './types.js';

/** Identifiers of a stretch of code, with comments and string contents left out (template holes kept). */
function identifiersOf(code: string): Set<string> {
  const text = code
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(^|[^:\\])\/\/.*$/gm, '$1')
    .replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, "''");
  return new Set(text.match(/[A-Za-z_$][\w$]*/g) ?? []);
}

/**
 * Exported top-level symbols of head that reach a touched private top-level symbol, as `modified`
 * head-side symbols carrying `reachedThrough` (the touched helper's name). None when the diff
 * touches no private top-level symbol, or head has no text or facts.
 */
export function reachedExports(touched: readonly ChangedSymbol[], head: SideFacts | undefined, headText: string | undefined): ChangedSymbol[] {
  if (!head || headText === undefined) return [];
  const topLevel = head.facts.symbols.filter((s) => !s.container);
  const privateTouched = touched.filter((s) => s.side === 'head' && !s.exported && !s.name.includes('.') && s.change !== 'removed');
  if (privateTouched.length === 0) return [];
  const lines = headText.split('\n');
  const idsOf = new Map(topLevel.map((s) => [s, identifiersOf(lines.slice(s.lineStart - 1, s.lineEnd).join('\n'))]));
  const already = new Set(touched.filter((s) => s.side === 'head').map((s) => s.name));
  // Breadth-first over the module's own references: helper -> symbols naming it.
  const reachedBy = new Map<string, string>(privateTouched.map((s) => [s.name, s.name]));
  const queue = privateTouched.map((s) => s.name);
  const out: ChangedSymbol[] = [];
  while (queue.length > 0) {
    const name = queue.shift()!;
    for (const symbol of topLevel) {
      if (symbol.name === name || reachedBy.has(symbol.name) || !idsOf.get(symbol)!.has(name)) continue;
      reachedBy.set(symbol.name, reachedBy.get(name)!);
      if (!symbol.exported) {
        queue.push(symbol.name);
        continue;
      }
      if (already.has(symbol.name)) continue;
      out.push({
        name: symbol.name,
        kind: symbol.kind,
        exported: true,
        side: 'head',
        lineStart: symbol.lineStart,
        lineEnd: symbol.lineEnd,
        change: 'modified',
        reachedThrough: reachedBy.get(name)!,
      });
    }
  }
  return out;
}
