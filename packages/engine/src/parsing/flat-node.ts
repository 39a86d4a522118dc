// The node view over a FlatTree, with the semantics of tree-sitter's SyntaxNode: visible nodes
// only, fields as the cursor labels them except where the binding's own lookup differs.
// flat-tree.test.ts checks every answer against the binding's on real code.
import type { Point, SyntaxNode, TreeCursor } from 'tree-sitter';
import { FlatCursor } from './flat-cursor.js';
import { ERROR_SLOT, ERROR_TYPE_ID, MISSING } from './flat-record.js';
import type { FlatTree } from './flat-tree.js';

/** Whether node `index` is named: a property of its type. */
function isNamedAt(tree: FlatTree, index: number): boolean {
  return tree.grammar.named[tree.types[index]] === 1;
}

function typeSet(types: string | string[]): Set<string> {
  return new Set((Array.isArray(types) ? types : [types]).map(String));
}

export class FlatNode implements SyntaxNode {
  constructor(
    readonly tree: FlatTree,
    readonly index: number,
  ) {}

  get id(): number {
    return this.index;
  }
  get typeId(): number {
    const type = this.tree.types[this.index];
    return type === ERROR_SLOT ? ERROR_TYPE_ID : type;
  }
  get type(): string {
    return this.tree.typeName(this.index);
  }
  get isNamed(): boolean {
    return isNamedAt(this.tree, this.index);
  }
  get isMissing(): boolean {
    return (this.tree.flags[this.index] & MISSING) !== 0;
  }
  get isError(): boolean {
    return this.type === 'ERROR';
  }
  get hasError(): boolean {
    return this.tree.hasError(this.index);
  }
  get text(): string {
    return this.tree.source.substring(this.tree.starts[this.index], this.tree.ends[this.index]);
  }
  get startIndex(): number {
    return this.tree.starts[this.index];
  }
  get endIndex(): number {
    return this.tree.ends[this.index];
  }
  get startPosition(): Point {
    return this.tree.pointAt(this.tree.starts[this.index]);
  }
  get endPosition(): Point {
    return this.tree.pointAt(this.tree.ends[this.index]);
  }
  get descendantCount(): number {
    return this.tree.lasts[this.index] - this.index;
  }

  /**
   * The binding finds parents and siblings by byte ranges, which for an empty node (a MISSING token,
   * an empty optional chain) can name a neighbour that merely ends where it starts. Findings must
   * not depend on which view a rule got, so empty nodes ask the binding; for every other node the
   * range search and the tree structure agree.
   */
  private get empty(): boolean {
    return this.tree.starts[this.index] === this.tree.ends[this.index];
  }

  get parent(): FlatNode | null {
    if (this.empty) return this.tree.fromNative(this.native().parent);
    const parent = this.tree.parents[this.index];
    return parent < 0 ? null : this.tree.node(parent);
  }
  get children(): FlatNode[] {
    const out: FlatNode[] = [];
    for (let c = this.tree.firstChild(this.index); c >= 0; c = this.tree.nexts[c]) out.push(this.tree.node(c));
    return out;
  }
  get namedChildren(): FlatNode[] {
    const out: FlatNode[] = [];
    for (let c = this.tree.firstChild(this.index); c >= 0; c = this.tree.nexts[c]) if (isNamedAt(this.tree, c)) out.push(this.tree.node(c));
    return out;
  }
  get childCount(): number {
    let count = 0;
    for (let c = this.tree.firstChild(this.index); c >= 0; c = this.tree.nexts[c]) count++;
    return count;
  }
  get namedChildCount(): number {
    let count = 0;
    for (let c = this.tree.firstChild(this.index); c >= 0; c = this.tree.nexts[c]) if (isNamedAt(this.tree, c)) count++;
    return count;
  }
  get firstChild(): FlatNode | null {
    return this.child(0);
  }
  get firstNamedChild(): FlatNode | null {
    return this.namedChild(0);
  }
  get lastChild(): FlatNode | null {
    let last = -1;
    for (let c = this.tree.firstChild(this.index); c >= 0; c = this.tree.nexts[c]) last = c;
    return last < 0 ? null : this.tree.node(last);
  }
  get lastNamedChild(): FlatNode | null {
    let last = -1;
    for (let c = this.tree.firstChild(this.index); c >= 0; c = this.tree.nexts[c]) if (isNamedAt(this.tree, c)) last = c;
    return last < 0 ? null : this.tree.node(last);
  }
  get nextSibling(): FlatNode | null {
    if (this.empty) return this.tree.fromNative(this.native().nextSibling);
    const next = this.tree.nexts[this.index];
    return next < 0 ? null : this.tree.node(next);
  }
  get nextNamedSibling(): FlatNode | null {
    if (this.empty) return this.tree.fromNative(this.native().nextNamedSibling);
    for (let c = this.tree.nexts[this.index]; c >= 0; c = this.tree.nexts[c]) if (isNamedAt(this.tree, c)) return this.tree.node(c);
    return null;
  }
  get previousSibling(): FlatNode | null {
    return this.previous(false);
  }
  get previousNamedSibling(): FlatNode | null {
    return this.previous(true);
  }
  private previous(named: boolean): FlatNode | null {
    if (this.empty) return this.tree.fromNative(named ? this.native().previousNamedSibling : this.native().previousSibling);
    const parent = this.tree.parents[this.index];
    if (parent < 0) return null;
    let found = -1;
    for (let c = this.tree.firstChild(parent); c >= 0 && c !== this.index; c = this.tree.nexts[c]) if (!named || isNamedAt(this.tree, c)) found = c;
    return found < 0 ? null : this.tree.node(found);
  }

  child(index: number): FlatNode | null {
    let k = 0;
    for (let c = this.tree.firstChild(this.index); c >= 0; c = this.tree.nexts[c]) if (k++ === index) return this.tree.node(c);
    return null;
  }
  namedChild(index: number): FlatNode | null {
    let k = 0;
    for (let c = this.tree.firstChild(this.index); c >= 0; c = this.tree.nexts[c]) if (isNamedAt(this.tree, c) && k++ === index) return this.tree.node(c);
    return null;
  }
  childForFieldName(fieldName: string): FlatNode | null {
    return this.childForFieldId(this.tree.grammar.fieldIds.get(fieldName) ?? 0);
  }
  childForFieldId(fieldId: number): FlatNode | null {
    if (fieldId === 0) return null;
    const { fields, nexts } = this.tree;
    // The cursor names fields of children inside an ERROR node that the binding's lookup does not
    // see, and aliased rules make the binding look into grandchildren (see aliasedFields).
    if (this.tree.types[this.index] === ERROR_SLOT || this.tree.aliasedFields(this.index)) return this.tree.fromNative(this.native().childForFieldId(fieldId));
    for (let c = this.tree.firstChild(this.index); c >= 0; c = nexts[c]) if (fields[c] === fieldId) return this.tree.node(c);
    return null;
  }
  childrenForFieldName(fieldName: string): FlatNode[] {
    return this.childrenForFieldId(this.tree.grammar.fieldIds.get(fieldName) ?? 0);
  }
  childrenForFieldId(fieldId: number): FlatNode[] {
    const out: FlatNode[] = [];
    if (fieldId === 0) return out;
    for (let c = this.tree.firstChild(this.index); c >= 0; c = this.tree.nexts[c]) if (this.tree.fields[c] === fieldId) out.push(this.tree.node(c));
    return out;
  }

  descendantForIndex(start: number, end = start): FlatNode {
    return this.descendantFor(start, end, false);
  }
  namedDescendantForIndex(start: number, end = start): FlatNode {
    return this.descendantFor(start, end, true);
  }
  /** ts_node_descendant_for_byte_range over visible children (hidden ones cannot change the answer). */
  private descendantFor(start: number, end: number, named: boolean): FlatNode {
    const { starts, ends, nexts } = this.tree;
    let node = this.index;
    let found = this.index;
    for (let descended = true; descended;) {
      descended = false;
      for (let c = this.tree.firstChild(node); c >= 0; c = nexts[c]) {
        if (ends[c] < end || ends[c] <= start) continue;
        if (start < starts[c]) break;
        node = c;
        if (!named || isNamedAt(this.tree, c)) found = c;
        descended = true;
        break;
      }
    }
    return this.tree.node(found);
  }

  descendantsOfType(types: string | string[], startPosition?: Point, endPosition?: Point): SyntaxNode[] {
    if (startPosition || endPosition) return this.native().descendantsOfType(types, startPosition, endPosition);
    const wanted = typeSet(types);
    const out: FlatNode[] = [];
    for (let i = this.index, last = this.tree.lasts[this.index]; i < last; i++) if (wanted.has(this.tree.typeName(i))) out.push(this.tree.node(i));
    return out;
  }
  closest(types: string | string[]): FlatNode | null {
    const wanted = typeSet(types);
    for (let p = this.tree.parents[this.index]; p >= 0; p = this.tree.parents[p]) if (wanted.has(this.tree.typeName(p))) return this.tree.node(p);
    return null;
  }
  walk(): TreeCursor {
    return new FlatCursor(this.tree, this.index);
  }

  // What the arrays do not hold comes from the binding's node.
  private native(): SyntaxNode {
    return this.tree.nativeNode(this.index);
  }
  get grammarId(): number {
    return this.native().grammarId;
  }
  get grammarType(): string {
    return this.native().grammarType;
  }
  get isExtra(): boolean {
    return this.native().isExtra;
  }
  get hasChanges(): boolean {
    return this.native().hasChanges;
  }
  get parseState(): number {
    return this.native().parseState;
  }
  get nextParseState(): number {
    return this.native().nextParseState;
  }
  toString(): string {
    return this.native().toString();
  }
  fieldNameForChild(childIndex: number): string | null {
    return this.native().fieldNameForChild(childIndex);
  }
  firstChildForIndex(index: number): SyntaxNode | null {
    return this.tree.fromNative(this.native().firstChildForIndex(index));
  }
  firstNamedChildForIndex(index: number): SyntaxNode | null {
    return this.tree.fromNative(this.native().firstNamedChildForIndex(index));
  }
  descendantForPosition(start: Point, end: Point = start): SyntaxNode {
    return this.tree.fromNative(this.native().descendantForPosition(start, end))!;
  }
  namedDescendantForPosition(start: Point, end: Point = start): SyntaxNode {
    return this.tree.fromNative(this.native().namedDescendantForPosition(start, end))!;
  }
}
