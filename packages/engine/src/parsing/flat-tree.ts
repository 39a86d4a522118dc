// A parsed tree copied into flat arrays in one cursor walk, with SyntaxNode-compatible node views.
// Why: every property of a tree-sitter node object is a native call (`parent` even climbs from the
// root), and each node object costs a weak reference and a finalizer; rules ask hundreds of
// thousands of such questions per large repository. Recording type, field and range of every node
// once (a handful of cheap cursor calls each) turns those questions into array reads. Anything not
// recorded (S-expressions, parse states, point queries) is answered by the native node.
import type { Edit, Point, Range, SyntaxNode, Tree, TreeCursor } from 'tree-sitter';
import { FlatCursor } from './flat-cursor.js';
import { FlatNode } from './flat-node.js';
import { ERROR_SLOT, ERROR_TYPE_ID, VISIBLE_ERROR, recordTree, type GrammarTable, type Recording } from './flat-record.js';
import { lineStartsOf, pointIn } from './line-starts.js';

export { ERROR_TYPE_ID } from './flat-record.js';

/** A question the flat copy cannot answer faithfully. */
export class FlatTreeError extends Error {
  override name = 'FlatTreeError';
}

export class FlatTree implements Tree {
  /** Node type id per node, in document (pre-)order; index 0 is the root. */
  readonly types: Uint16Array;
  readonly fields: Uint16Array;
  /** Parent index, -1 for the root. */
  readonly parents: Int32Array;
  /** Next sibling index, -1 for the last child. */
  readonly nexts: Int32Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** One past the last descendant's index: the subtree of i is i..lasts[i]-1. */
  readonly lasts: Int32Array;
  readonly flags: Uint8Array;
  readonly count: number;
  private readonly views: Array<FlatNode | undefined>;
  /** Names of the grammar's types and fields (shared by every tree of the grammar). */
  readonly grammar: GrammarTable;
  private lineStarts?: Int32Array;
  private aliasContext?: Uint8Array;
  private rootHasError?: boolean;
  private nativeCursor?: TreeCursor;

  private constructor(
    readonly source: string,
    readonly native: Tree,
    recording: Recording,
  ) {
    this.grammar = recording.table;
    this.count = recording.count;
    this.types = recording.types;
    this.fields = recording.fields;
    this.parents = recording.parents;
    this.nexts = recording.nexts;
    this.starts = recording.starts;
    this.ends = recording.ends;
    this.lasts = recording.lasts;
    this.flags = recording.flags;
    this.views = new Array(this.count);
  }

  /**
   * Records every node of a parsed tree. `source` must be the text the tree was parsed from, or the
   * text a repaired tree stands for (parse-repair.ts: same offsets; where they differ, the
   * recording asks the cursor rather than the text).
   */
  static from(native: Tree, source: string): FlatTree {
    return new FlatTree(source, native, recordTree(native, source));
  }

  get rootNode(): FlatNode {
    return this.node(0);
  }

  /** The view of node `index` (one object per node, so views compare with `===`). */
  node(index: number): FlatNode {
    return (this.views[index] ??= new FlatNode(this, index));
  }

  typeName(index: number): string {
    return this.grammar.typeNames[this.types[index]];
  }

  hasError(index: number): boolean {
    if (this.flags[index] & VISIBLE_ERROR) return true;
    // A clean tree has no error anywhere; otherwise error costs the cursor cannot see (hidden
    // missing tokens) are the native node's to tell.
    this.rootHasError ??= this.native.rootNode.hasError;
    return this.rootHasError && this.nativeNode(index).hasError;
  }

  /**
   * Whether the binding's field lookup on this node may differ from the cursor's field labels.
   * tree-sitter-typescript aliases hidden rules that have fields (`typeof a.b.c`, `-1` as a type,
   * `x: import('m').T`) and ts_node_child_by_field_id then looks into the aliased child: nodes in
   * or holding such parts ask the binding (they are rare).
   */
  aliasedFields(index: number): boolean {
    const marks = (this.aliasContext ??= aliasContextOf(this));
    return marks.length > 0 && marks[index] === 1;
  }

  firstChild(index: number): number {
    const next = index + 1;
    return next < this.count && this.parents[next] === index ? next : -1;
  }

  /** The text index where each row starts (rows end at `\n`, as the binding counts them). */
  lineStartOffsets(): Int32Array {
    return (this.lineStarts ??= lineStartsOf(this.source));
  }

  /** 0-based row and column (UTF-16 units, as the binding reports them) of a text index. */
  pointAt(offset: number): Point {
    return pointIn(this.lineStartOffsets(), offset);
  }

  /** The binding's own node object, for the rare questions the arrays cannot answer. */
  nativeNode(index: number): SyntaxNode {
    // One cursor per tree: a new one costs a native object and a finalizer per question, and
    // gotoDescendant moves from where the cursor is.
    const cursor = (this.nativeCursor ??= this.native.walk());
    cursor.gotoDescendant(index);
    return cursor.currentNode;
  }

  /**
   * This tree's view of a node the binding returned: the node with the same range and type (the
   * one with the same number of descendants if several nest). Starts never decrease in document
   * order, so the candidates are found by binary search.
   */
  fromNative(node: SyntaxNode | null): FlatNode | null {
    if (!node) return null;
    const { startIndex, endIndex } = node;
    const type = node.typeId === ERROR_TYPE_ID ? ERROR_SLOT : node.typeId;
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.starts[mid] < startIndex) low = mid + 1;
      else high = mid;
    }
    let found = -1;
    for (let i = low; i < this.count && this.starts[i] === startIndex; i++) {
      if (this.ends[i] !== endIndex || this.types[i] !== type) continue;
      if (found < 0) found = i;
      if (this.lasts[i] - i === node.descendantCount) return this.node(i);
    }
    if (found < 0) throw new FlatTreeError(`no flat node for the ${node.type} at ${startIndex}-${endIndex}`);
    return this.node(found);
  }

  getText(node: { startIndex: number; endIndex: number }): string {
    return this.source.substring(node.startIndex, node.endIndex);
  }

  walk(): TreeCursor {
    return new FlatCursor(this, 0);
  }

  rootNodeWithOffset(offsetBytes: number, offsetExtent: Point): SyntaxNode {
    return this.native.rootNodeWithOffset(offsetBytes, offsetExtent);
  }

  edit(_edit: Edit): Tree {
    throw new FlatTreeError('a flat tree is a read-only copy; edit the tree it was recorded from and record it again');
  }

  getChangedRanges(other: Tree): Range[] {
    return this.native.getChangedRanges(other instanceof FlatTree ? other.native : other);
  }

  getIncludedRanges(): Range[] {
    return this.native.getIncludedRanges();
  }

  getEditedRange(other: Tree): Range {
    return this.native.getEditedRange(other instanceof FlatTree ? other.native : other);
  }

  printDotGraph(fd?: number): void {
    this.native.printDotGraph(fd);
  }
}

const ALIAS_ROOTS = new Set(['type_query', 'literal_type']);
const CHAIN_TYPES = new Set(['member_expression', 'call_expression', 'subscript_expression', 'instantiation_expression']);
const ROOT = 1;
const CHAIN = 2;
const IMPORT = 3;
const UNKNOWN = 255;
/** The marks of a tree without aliased parts (most trees). */
const NO_MARKS = new Uint8Array(0);

/** The role of each type slot in aliasContextOf, by grammar (looked up by name once per type). */
const roleTables = new WeakMap<GrammarTable, Uint8Array>();

function rolesOf(tree: FlatTree): Uint8Array {
  let roles = roleTables.get(tree.grammar);
  if (!roles) roleTables.set(tree.grammar, (roles = new Uint8Array(tree.grammar.known.length).fill(UNKNOWN)));
  return roles;
}

/** The role of a type slot, learnt the first time a tree holds the type. */
function roleOf(tree: FlatTree, roles: Uint8Array, type: number): number {
  let role = roles[type];
  if (role === UNKNOWN) {
    const name = tree.grammar.typeNames[type];
    // Only the named `import` (`import('m')`) roots a chain; the `import` keyword of statements is another, anonymous type.
    role = ALIAS_ROOTS.has(name) ? ROOT : CHAIN_TYPES.has(name) ? CHAIN : name === 'import' && tree.grammar.named[type] === 1 ? IMPORT : 0;
    roles[type] = role;
  }
  return role;
}

/**
 * 1 for nodes strictly inside a `type_query` or `literal_type` (the root types are visible rules of
 * their own, so their parents look up fields as the cursor labels them), on member/call chains
 * rooted at a named `import`, and the parents of those. One pass over the types; a subtree is a
 * range of indices, so a root's is marked at once.
 */
function aliasContextOf(tree: FlatTree): Uint8Array {
  const { count, parents, types, lasts } = tree;
  const roles = rolesOf(tree);
  let marks: Uint8Array | undefined;
  for (let i = 0; i < count; i++) {
    const role = roleOf(tree, roles, types[i]);
    if (role === ROOT) {
      // The root and everything below it: inside nodes and their parents (the root, or inside nodes).
      if (lasts[i] > i + 1) (marks ??= new Uint8Array(count)).fill(1, i, lasts[i]);
      i = lasts[i] - 1;
    } else if (role === IMPORT) {
      marks ??= new Uint8Array(count);
      // A chain node whose first child is on the chain is on it too; each is marked with its parent.
      for (let link = i; ;) {
        marks[link] = 1;
        const parent = parents[link];
        if (parent < 0) break;
        marks[parent] = 1;
        if (roleOf(tree, roles, types[parent]) !== CHAIN || tree.firstChild(parent) !== link) break;
        link = parent;
      }
    }
  }
  return marks ?? NO_MARKS;
}
