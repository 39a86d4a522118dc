// Questions the parse repairs ask of a tree with errors and of its text: where the errors are,
// which token comes before an offset, whether an offset sits in a type context.
import type { SyntaxNode, Tree } from 'tree-sitter';

/** A same-length replacement: `text` is written over `text.length` characters at `at`. */
export interface Repair {
  at: number;
  text: string;
  kind: 'member-separator' | 'export-type-star' | 'variance' | 'template-escape';
}

/** What a repair looks at: the text a tree was parsed from, the tree and its error sites. */
export interface RepairContext {
  text: string;
  tree: Tree;
  root: SyntaxNode;
  /** Offsets of MISSING nodes, in document order; walked for on first use (few files need them). */
  missing?: number[];
}

/** Nodes whose text a repair must never touch. */
export const OPAQUE = new Set(['comment', 'string', 'string_fragment', 'template_string', 'regex', 'regex_pattern', 'jsx_text']);

export function repairContextOf(text: string, tree: Tree): RepairContext {
  return { text, tree, root: tree.rootNode };
}

/** Offsets of the MISSING nodes (the query language of this binding cannot name them): a walk of the subtrees with errors. */
function missingOf(context: RepairContext): number[] {
  if (context.missing) return context.missing;
  const missing: number[] = [];
  const cursor = context.tree.walk();
  for (;;) {
    if (cursor.nodeIsMissing) missing.push(cursor.startIndex);
    else if (cursor.currentNode.hasError && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return (context.missing = missing);
  }
}

/** ERROR and MISSING nodes of a tree: the measure a repair must lower. */
export function countErrorNodes(tree: Tree): number {
  if (!tree.rootNode.hasError) return 0;
  let count = 0;
  const cursor = tree.walk();
  for (;;) {
    if (cursor.nodeType === 'ERROR' || cursor.nodeIsMissing) count++;
    if (cursor.currentNode.hasError && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return count;
  }
}

/** Whether a MISSING node lies in `from..to` (both included). */
export function missingWithin(context: RepairContext, from: number, to: number): boolean {
  const offsets = missingOf(context);
  let low = 0;
  let high = offsets.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (offsets[mid] < from) low = mid + 1;
    else high = mid;
  }
  return low < offsets.length && offsets[low] <= to;
}

/** The index of the last character of the token before `at`, comments skipped; -1 if none. */
export function previousToken(context: RepairContext, at: number): number {
  const { text, root } = context;
  let i = at - 1;
  for (;;) {
    while (i >= 0 && /\s/.test(text[i])) i--;
    if (i < 0) return -1;
    const node = root.descendantForIndex(i, i + 1);
    if (node.type !== 'comment') return i;
    i = node.startIndex - 1;
  }
}

/** The identifier-like word that ends at `end` (included), or '' when the character there is not a word's. */
export function wordEndingAt(text: string, end: number): string {
  let start = end + 1;
  while (start > 0 && /[\w$]/.test(text[start - 1])) start--;
  return text.slice(start, end + 1);
}

/** Whether the node or one of its `depth` nearest ancestors has one of the types. */
export function hasAncestor(node: SyntaxNode, types: ReadonlySet<string>, depth: number): boolean {
  for (let at: SyntaxNode | null = node, d = 0; at && d <= depth; at = at.parent, d++) if (types.has(at.type)) return true;
  return false;
}
