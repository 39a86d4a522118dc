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
  root: SyntaxNode;
  /** Offsets of MISSING nodes, in document order. */
  missing: number[];
  /** Starts of template literal types that have errors and a backslash in them. */
  templates: number[];
}

/** Nodes whose text a repair must never touch. */
export const OPAQUE = new Set(['comment', 'string', 'string_fragment', 'template_string', 'regex', 'regex_pattern', 'jsx_text']);

/** The context of a tree with errors, with one walk over the subtrees that hold them. */
export function repairContextOf(text: string, tree: Tree): RepairContext {
  const context: RepairContext = { text, root: tree.rootNode, missing: [], templates: [] };
  const cursor = tree.walk();
  for (;;) {
    const node = cursor.currentNode;
    if (node.isMissing) context.missing.push(node.startIndex);
    else if (node.type === 'template_literal_type' && node.hasError && text.lastIndexOf('\\', node.endIndex) > node.startIndex) {
      context.templates.push(node.startIndex);
    }
    if (node.hasError && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return context;
  }
}

/** ERROR and MISSING nodes of a tree: the measure a repair must lower. */
export function countErrorNodes(tree: Tree): number {
  if (!tree.rootNode.hasError) return 0;
  let count = 0;
  const cursor = tree.walk();
  for (;;) {
    const node = cursor.currentNode;
    if (node.type === 'ERROR' || node.isMissing) count++;
    if (node.hasError && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return count;
  }
}

/** Whether a MISSING node lies in `from..to` (both included). */
export function missingWithin(context: RepairContext, from: number, to: number): boolean {
  const offsets = context.missing;
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
