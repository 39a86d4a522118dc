// Offset-preserving repairs for valid TypeScript that tree-sitter-typescript 0.23.2 cannot parse.
// Only a tree that has errors is repaired, and only where the tree shows an error:
//   - members joined by the `semi: false` style (upstream issue #335): a generic call signature
//     (`<A>(a: A): A`) or a member named `in` on the line after another member gets a `;` written
//     over the indentation character before it (member-separator.ts);
//   - `export type * from`, variance annotations (`<in out K>`) and escapes in template literal
//     types are blanked with spaces (blanked-tokens.ts).
// Every repair replaces characters one for one, so offsets, lines and columns of the repaired text
// are the original's and the tree parsed from it describes the original text. The repaired tree is
// kept only when it has fewer ERROR and MISSING nodes. Why this rather than a patched grammar:
// docs/parse-health.md.
import type { Tree } from 'tree-sitter';
import { findBlankedTokens } from './blanked-tokens.js';
import { findMemberSeparators } from './member-separator.js';
import { countErrorNodes, repairContextOf, type Repair } from './repair-context.js';

export { countErrorNodes, type Repair } from './repair-context.js';

/** A repair can uncover the next one (an error region hid it): a few rounds at most. */
const MAX_ROUNDS = 3;

/** The repairs the text needs where `tree` (parsed from `text`) shows errors; none for a clean tree. */
export function findRepairs(text: string, tree: Tree): Repair[] {
  if (!tree.rootNode.hasError) return [];
  const context = repairContextOf(text, tree);
  const repairs: Repair[] = [];
  findMemberSeparators(context, repairs);
  findBlankedTokens(context, repairs);
  return withoutOverlaps(repairs.sort((a, b) => a.at - b.at));
}

/** Sorted repairs, each starting after the one before ends (two finds of one site write it once). */
function withoutOverlaps(sorted: Repair[]): Repair[] {
  let end = 0;
  return sorted.filter((r) => {
    if (r.at < end) return false;
    end = r.at + r.text.length;
    return true;
  });
}

/** `text` with the sorted, non-overlapping repairs written over it (same length). */
export function applyRepairs(text: string, repairs: readonly Repair[]): string {
  let out = '';
  let from = 0;
  for (const { at, text: replacement } of repairs) {
    out += text.slice(from, at) + replacement;
    from = at + replacement.length;
  }
  return out + text.slice(from);
}

export interface RepairedParse {
  tree: Tree;
  /** The text `tree` was parsed from: the source itself when no repair was kept. */
  text: string;
  repairs: Repair[];
}

/**
 * Repairs `source` in rounds while each round lowers the tree's count of ERROR and MISSING nodes,
 * starting from `first`, its tree. `parse` parses a text with the source's grammar.
 */
export function repairParse(source: string, first: Tree, parse: (text: string) => Tree): RepairedParse {
  let best: RepairedParse = { tree: first, text: source, repairs: [] };
  // Counted only when a repaired tree still has errors: most come out clean, which is fewer.
  let errors: number | undefined;
  for (let round = 0; round < MAX_ROUNDS && best.tree.rootNode.hasError; round++) {
    const found = findRepairs(best.text, best.tree);
    if (found.length === 0) break;
    const text = applyRepairs(best.text, found);
    const tree = parse(text);
    const after = tree.rootNode.hasError ? countErrorNodes(tree) : 0;
    if (after > 0 && after >= (errors ?? countErrorNodes(best.tree))) break;
    best = { tree, text, repairs: [...best.repairs, ...found].sort((a, b) => a.at - b.at) };
    errors = after;
  }
  return best;
}
