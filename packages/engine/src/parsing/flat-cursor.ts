// The TreeCursor view over a FlatTree: same moves and answers as the binding's cursor, from arrays.
import type { Point, SyntaxNode, TreeCursor } from 'tree-sitter';
import type { FlatNode } from './flat-node.js';
import { MISSING } from './flat-record.js';
import type { FlatTree } from './flat-tree.js';

/** A TreeCursor over a FlatTree, rooted at the node it was made from (like the binding's). */
export class FlatCursor implements TreeCursor {
  private at: number;
  private depth = 0;

  constructor(
    private readonly tree: FlatTree,
    private root: number,
  ) {
    this.at = root;
  }

  get nodeType(): string {
    return this.tree.typeName(this.at);
  }
  get nodeTypeId(): number {
    return this.tree.node(this.at).typeId;
  }
  get nodeStateId(): number {
    return this.tree.node(this.at).parseState;
  }
  get nodeText(): string {
    return this.tree.source.substring(this.tree.starts[this.at], this.tree.ends[this.at]);
  }
  get nodeIsNamed(): boolean {
    return this.tree.grammar.named[this.tree.types[this.at]] === 1;
  }
  get nodeIsMissing(): boolean {
    return (this.tree.flags[this.at] & MISSING) !== 0;
  }
  get startPosition(): Point {
    return this.tree.pointAt(this.tree.starts[this.at]);
  }
  get endPosition(): Point {
    return this.tree.pointAt(this.tree.ends[this.at]);
  }
  get startIndex(): number {
    return this.tree.starts[this.at];
  }
  get endIndex(): number {
    return this.tree.ends[this.at];
  }
  get currentNode(): SyntaxNode {
    return this.tree.node(this.at);
  }
  /** The binding returns undefined (typed as string) for the cursor's root and for nodes without a field. */
  get currentFieldName(): string {
    const field = this.depth === 0 ? 0 : this.tree.fields[this.at];
    return (field === 0 ? undefined : this.tree.grammar.fieldNames[field]) as string;
  }
  get currentFieldId(): number {
    return this.depth === 0 ? 0 : this.tree.fields[this.at];
  }
  get currentDepth(): number {
    return this.depth;
  }
  get currentDescendantIndex(): number {
    return this.at - this.root;
  }

  reset(node: SyntaxNode): void {
    this.root = this.at = (node as FlatNode).index;
    this.depth = 0;
  }
  resetTo(cursor: TreeCursor): void {
    const other = cursor as FlatCursor;
    this.root = other.root;
    this.at = other.at;
    this.depth = other.depth;
  }
  gotoParent(): boolean {
    if (this.at === this.root) return false;
    this.at = this.tree.parents[this.at];
    this.depth--;
    return true;
  }
  gotoFirstChild(): boolean {
    const child = this.tree.firstChild(this.at);
    if (child < 0) return false;
    this.at = child;
    this.depth++;
    return true;
  }
  gotoLastChild(): boolean {
    let last = -1;
    for (let c = this.tree.firstChild(this.at); c >= 0; c = this.tree.nexts[c]) last = c;
    if (last < 0) return false;
    this.at = last;
    this.depth++;
    return true;
  }
  gotoNextSibling(): boolean {
    const next = this.at === this.root ? -1 : this.tree.nexts[this.at];
    if (next < 0) return false;
    this.at = next;
    return true;
  }
  gotoPreviousSibling(): boolean {
    if (this.at === this.root) return false;
    const previous = this.tree.node(this.at).previousSibling as FlatNode | null;
    if (!previous) return false;
    this.at = previous.index;
    return true;
  }
  gotoDescendant(goalDescendantIndex: number): void {
    const goal = this.root + goalDescendantIndex;
    if (goal < this.root || goal >= this.tree.lasts[this.root]) return;
    let depth = 0;
    for (let p = goal; p !== this.root; p = this.tree.parents[p]) depth++;
    this.at = goal;
    this.depth = depth;
  }
  gotoFirstChildForIndex(goalIndex: number): boolean {
    for (let c = this.tree.firstChild(this.at); c >= 0; c = this.tree.nexts[c]) {
      if (this.tree.ends[c] > goalIndex) {
        this.at = c;
        this.depth++;
        return true;
      }
    }
    return false;
  }
  gotoFirstChildForPosition(goalPosition: Point): boolean {
    for (let c = this.tree.firstChild(this.at); c >= 0; c = this.tree.nexts[c]) {
      const end = this.tree.pointAt(this.tree.ends[c]);
      if (end.row > goalPosition.row || (end.row === goalPosition.row && end.column > goalPosition.column)) {
        this.at = c;
        this.depth++;
        return true;
      }
    }
    return false;
  }
}
