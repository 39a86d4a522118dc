// Records a tree-sitter tree into flat arrays in one cursor walk: per node its type, field, range,
// parent, next sibling and subtree end. The cursor is the binding's cheapest path (no node objects);
// each node costs a handful of calls, and a tree without errors saves what the grammar already
// tells: a child whose type can fill no field of its parent's type is not asked for its field, and
// an anonymous token is a leaf whose text is its type name (no child or end to ask for), which
// starts past the whitespace that follows the leaf before it (no start to ask for either). A tree
// with errors only asks besides whether a token is MISSING and the fields of ERROR nodes' children.
import type { Tree, TreeCursor } from 'tree-sitter';

/** ts_builtin_sym_error as the binding reports it. */
export const ERROR_TYPE_ID = 0xffff;
/**
 * Where ERROR is stored in `types`: symbol 0 (end of input) never is a node, and a small id keeps
 * every per-type table dense (an entry at 65535 would turn arrays into slow dictionaries).
 */
export const ERROR_SLOT = 0;
const SLOTS = 0x10000;

/** Flag bits per node. */
export const MISSING = 1;
/**
 * The node or a descendant is a MISSING node or an ERROR node with children: then `hasError` is
 * certainly true (their error cost is never 0; a childless ERROR token's may be).
 */
export const VISIBLE_ERROR = 2;
/** A MISSING node's flags, computed once: an operation first reached after the loop is optimised costs a recompile. */
const MISSING_FLAGS = MISSING | VISIBLE_ERROR;

/** Names of the grammar's node types and fields, learnt from the cursor as they first occur; by type slot. */
export interface GrammarTable {
  typeNames: string[];
  known: Uint8Array;
  named: Uint8Array;
  /** By parent type: whether its children can carry a field (then the cursor is asked). */
  fieldParent: Uint8Array;
  fieldNames: string[];
  fieldIds: Map<string, number>;
  /** Named types that node-types.json lists without fields. */
  fieldless: ReadonlySet<string>;
  /** By type slot: an anonymous token (a leaf whose text is its type name). */
  token: Uint8Array;
  /** Per named parent type, the types (`N:name` or `A:name`, supertypes expanded) its fields can hold. */
  fieldTypes: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * By `parent << 10 | child` slot: 0 not known yet, 1 the child never holds a field there, 2 ask
   * the cursor, 3 the child always holds the field in `pairFields`.
   */
  fieldPairs: Uint8Array;
  pairFields: Uint16Array;
  /** Per named parent type, the named child types (`N:name`) that can only be children in one field: its name. */
  soleFields: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

interface NodeTypeRef {
  type: string;
  named: boolean;
}

interface Grammar {
  nodeTypeInfo?: Array<NodeTypeRef & { fields?: Record<string, { types?: NodeTypeRef[] }>; children?: { types?: NodeTypeRef[] }; subtypes?: NodeTypeRef[] }>;
}

/** Type slots below this have a dense entry in `fieldPairs`; any other pair asks the cursor. */
const PAIR_BITS = 10;
const PAIR_LIMIT = 1 << PAIR_BITS;

const keyOf = (ref: NodeTypeRef) => `${ref.named ? 'N' : 'A'}:${ref.type}`;

const grammarTables = new WeakMap<object, GrammarTable>();

function newTable(grammar: Grammar | undefined): GrammarTable {
  const fieldless = new Set<string>();
  const subtypes = new Map<string, NodeTypeRef[]>();
  for (const info of grammar?.nodeTypeInfo ?? []) {
    if (info.named && Object.keys(info.fields ?? {}).length === 0) fieldless.add(info.type);
    if (info.subtypes) subtypes.set(info.type, info.subtypes);
  }
  // node-types.json names supertypes (`expression`) in fields; the tree holds their concrete subtypes.
  const expand = (ref: NodeTypeRef, into: Set<string>) => {
    if (into.has(keyOf(ref))) return;
    into.add(keyOf(ref));
    for (const sub of (ref.named && subtypes.get(ref.type)) || []) expand(sub, into);
  };
  const fieldTypes = new Map<string, Set<string>>();
  const soleFields = new Map<string, Map<string, string>>();
  for (const info of grammar?.nodeTypeInfo ?? []) {
    if (!info.named || !info.fields || Object.keys(info.fields).length === 0) continue;
    const types = new Set<string>();
    const fieldsOf = new Map<string, string[]>();
    for (const [name, field] of Object.entries(info.fields)) {
      const held = new Set<string>();
      for (const ref of field.types ?? []) expand(ref, held);
      for (const key of held) {
        types.add(key);
        fieldsOf.set(key, [...(fieldsOf.get(key) ?? []), name]);
      }
    }
    fieldTypes.set(info.type, types);
    // A named type that only one field holds, and that is never a child outside fields: no need to
    // ask (anonymous children outside fields are not listed, so they are always asked about).
    const unfielded = new Set<string>();
    for (const ref of info.children?.types ?? []) expand(ref, unfielded);
    const sole = new Map<string, string>();
    for (const [key, names] of fieldsOf) if (key.startsWith('N:') && names.length === 1 && !unfielded.has(key)) sole.set(key, names[0]);
    soleFields.set(info.type, sole);
  }
  const table: GrammarTable = {
    typeNames: new Array<string>(SLOTS).fill(''),
    known: new Uint8Array(SLOTS),
    named: new Uint8Array(SLOTS),
    fieldParent: new Uint8Array(SLOTS),
    fieldNames: new Array<string>(SLOTS).fill(''),
    fieldIds: new Map(),
    fieldless,
    token: new Uint8Array(SLOTS),
    fieldTypes,
    fieldPairs: new Uint8Array(PAIR_LIMIT * PAIR_LIMIT),
    pairFields: new Uint16Array(PAIR_LIMIT * PAIR_LIMIT),
    soleFields,
  };
  table.typeNames[ERROR_SLOT] = 'ERROR';
  table.known[ERROR_SLOT] = 1;
  table.named[ERROR_SLOT] = 1;
  // Children inside an ERROR keep the fields of the rules they were parsed by.
  table.fieldParent[ERROR_SLOT] = 1;
  return table;
}

function tableFor(native: Tree): GrammarTable {
  // The binding's Parser.parse stores the grammar on each tree; every tree of a grammar shares a table.
  const language = (native as unknown as { language?: Grammar }).language;
  if (!language) return newTable(undefined);
  let table = grammarTables.get(language);
  if (!table) grammarTables.set(language, (table = newTable(language)));
  return table;
}

/**
 * Nodes the scratch arrays hold before they grow (6.5 MB per thread): the largest file of the
 * large corpus has 128k, so the recording loop rarely takes its growing branch (a branch first
 * taken after the loop was optimised costs a deopt and a recompile of the loop).
 */
const INITIAL_NODES = 1 << 18;

/** Scratch arrays reused from file to file (one thread parses one file at a time); each tree keeps exact-size copies. */
class Scratch {
  types = new Uint16Array(INITIAL_NODES);
  fields = new Uint16Array(INITIAL_NODES);
  parents = new Int32Array(INITIAL_NODES);
  nexts = new Int32Array(INITIAL_NODES);
  ends = new Int32Array(INITIAL_NODES);
  starts = new Int32Array(INITIAL_NODES);
  lasts = new Int32Array(INITIAL_NODES);
  flags = new Uint8Array(INITIAL_NODES);
  stack = new Int32Array(1024);

  grow(min: number): void {
    const size = Math.max(min, this.types.length * 2, 4096);
    const copy = <T extends Uint16Array | Int32Array | Uint8Array>(from: T, make: (n: number) => T): T => {
      const to = make(size);
      to.set(from);
      return to;
    };
    this.types = copy(this.types, (n) => new Uint16Array(n));
    this.fields = copy(this.fields, (n) => new Uint16Array(n));
    this.parents = copy(this.parents, (n) => new Int32Array(n));
    this.nexts = copy(this.nexts, (n) => new Int32Array(n));
    this.starts = copy(this.starts, (n) => new Int32Array(n));
    this.ends = copy(this.ends, (n) => new Int32Array(n));
    this.lasts = copy(this.lasts, (n) => new Int32Array(n));
    this.flags = copy(this.flags, (n) => new Uint8Array(n));
  }
}

const scratch = new Scratch();

export interface Recording {
  table: GrammarTable;
  count: number;
  types: Uint16Array;
  fields: Uint16Array;
  parents: Int32Array;
  nexts: Int32Array;
  starts: Int32Array;
  ends: Int32Array;
  lasts: Int32Array;
  flags: Uint8Array;
}

const NEVER = 1;
const ASK = 2;
const SOLE = 3;

/**
 * Whether a `child` under a `parent` may carry a field, and which when there is only one (then
 * `pairFields` holds it). A sole field whose id the cursor has not named yet is asked for, and the
 * pair is worked out again next time (0).
 */
function pairOf(table: GrammarTable, parent: number, child: number, slot: number): number {
  // ERROR, anonymous parents and types node-types.json does not describe: ask.
  const parentName = table.typeNames[parent];
  const types = parent === ERROR_SLOT || table.named[parent] === 0 ? undefined : table.fieldTypes.get(parentName);
  if (!types) return ASK;
  const key = `${table.named[child] ? 'N' : 'A'}:${table.typeNames[child]}`;
  if (!types.has(key)) return NEVER;
  const sole = table.soleFields.get(parentName)?.get(key);
  if (sole === undefined) return ASK;
  const id = table.fieldIds.get(sole);
  if (id === undefined) return 0;
  table.pairFields[slot] = id;
  return SOLE;
}

/**
 * Whether `c` is whitespace the grammar skips between tokens: its `extras` pattern
 * `[\s\p{Zs}\uFEFF\u2028\u2029\u2060\u200B]`, with `\s` as Unicode's White_Space.
 */
function isExtraSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200b) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x2060 ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The first offset at or after `at` that is not extra whitespace. */
function skipExtraSpace(source: string, at: number): number {
  // ASCII is tested in place: indentation makes this a loop over millions of characters, and the
  // command's V8 setting inlines no calls.
  for (; at < source.length; at++) {
    const c = source.charCodeAt(at);
    if (c < 128 ? c !== 32 && (c < 9 || c > 13) : !isExtraSpace(c)) break;
  }
  return at;
}

/**
 * Every visible node of `native`, in document order (the binding's descendant index order).
 * `source`, the text `native` was parsed from, spares asking the cursor where tokens start.
 */
export function recordTree(native: Tree, source?: string): Recording {
  const table = tableFor(native);
  // Only a tree without errors is sure to have no MISSING tokens and no fields out of place.
  const clean = !native.rootNode.hasError;
  return finish(table, recordNodes(native.walk(), table, clean, source ?? ''));
}

/** The walk itself, into the scratch arrays; returns the node count. Kept apart so that its loop is what V8 optimises. */
function recordNodes(cursor: TreeCursor, table: GrammarTable, clean: boolean, source: string): number {
  const { typeNames, known, named, fieldParent, fieldNames, fieldIds, token, fieldPairs, pairFields } = table;
  let { types, fields, parents, nexts, starts, ends, lasts, flags, stack } = scratch;
  let n = 0;
  let depth = 0;
  let previous = -1;
  // Where the last leaf ended: between two leaves there is only extra whitespace (comments are
  // leaves, and so are the ERROR nodes over characters error recovery skipped), so a token starts
  // at the first other character after it.
  let leafEnd = 0;
  const scan = source.length > 0;
  for (;;) {
    if (n === types.length) {
      scratch.grow(n + 1);
      ({ types, fields, parents, nexts, starts, ends, lasts, flags } = scratch);
    }
    if (depth === stack.length) {
      const deeper = new Int32Array(depth * 2);
      deeper.set(stack);
      scratch.stack = stack = deeper;
    }
    const i = n++;
    const id = cursor.nodeTypeId;
    const type = id === ERROR_TYPE_ID ? ERROR_SLOT : id;
    if (known[type] === 0) {
      const name = cursor.nodeType;
      known[type] = 1;
      typeNames[type] = name;
      named[type] = cursor.nodeIsNamed ? 1 : 0;
      // Only children of a type listed without fields are sure to have none: the cursor finds no
      // field there (fields of hidden child rules are listed for the visible parent).
      fieldParent[type] = table.fieldless.has(name) ? 0 : 1;
      // Anonymous nodes are the grammar's literal tokens, except aliases of token sequences
      // (`unique symbol`), whose text may hold any whitespace.
      token[type] = type !== ERROR_SLOT && named[type] === 0 && !/\s/.test(name) ? 1 : 0;
    }
    types[i] = type;
    const parent = depth === 0 ? -1 : stack[depth - 1];
    // A cursor made from a node reports no field for that node, whatever its parent says.
    let field = 0;
    if (parent >= 0 && fieldParent[types[parent]] !== 0) {
      const parentType = types[parent];
      // In a tree with errors an ERROR child may stand where a field was wanted (an ERROR parent's
      // children keep the fields of the rules they were parsed by: pairOf asks for those).
      if (parentType >= PAIR_LIMIT || type >= PAIR_LIMIT || (!clean && type === ERROR_SLOT)) field = cursor.currentFieldId;
      else {
        const pair = (parentType << PAIR_BITS) | type;
        if (fieldPairs[pair] === 0) fieldPairs[pair] = pairOf(table, parentType, type, pair);
        const kind = fieldPairs[pair];
        if (kind === SOLE) field = pairFields[pair];
        else if (kind !== NEVER) field = cursor.currentFieldId;
      }
    }
    if (field !== 0 && fieldNames[field] === '') {
      const name = cursor.currentFieldName;
      fieldNames[field] = name;
      fieldIds.set(name, field);
    }
    fields[i] = field;
    parents[i] = parent;
    nexts[i] = -1;
    if (previous >= 0) nexts[previous] = i;
    // The root spans trailing whitespace (the hidden end-of-input token's padding); every other
    // inner node starts where its first child starts and ends where its last leaf ends (finish()
    // copies them): in this grammar only zero-width tokens are ever hidden at a node's edge.
    if (depth === 0) ends[i] = cursor.endIndex;
    if (token[type] === 1 && depth > 0) {
      const name = typeNames[type];
      // Error recovery inserts MISSING tokens: empty, where the parser wanted one (maybe just
      // before the same token in the text).
      const missing = !clean && cursor.nodeIsMissing;
      let start = scan && !missing ? skipExtraSpace(source, leafEnd) : -1;
      // The text there is the token's own: otherwise (a MISSING token, no source given) the cursor tells.
      if (start < 0 || !source.startsWith(name, start)) start = cursor.startIndex;
      starts[i] = start;
      ends[i] = leafEnd = missing ? start : start + name.length;
      flags[i] = missing ? MISSING_FLAGS : 0;
    } else if (cursor.gotoFirstChild()) {
      flags[i] = type === ERROR_SLOT ? VISIBLE_ERROR : 0;
      stack[depth++] = i;
      previous = -1;
      continue;
    } else {
      const start = cursor.startIndex;
      const end = cursor.endIndex;
      starts[i] = start;
      ends[i] = leafEnd = end;
      // Only empty leaves of a tree with errors can be MISSING nodes inserted by error recovery.
      flags[i] = !clean && start === end && cursor.nodeIsMissing ? MISSING_FLAGS : 0;
    }
    lasts[i] = n;
    previous = i;
    for (;;) {
      if (cursor.gotoNextSibling()) break;
      if (depth === 0 || !cursor.gotoParent()) return n;
      previous = stack[--depth];
      lasts[previous] = n;
    }
  }
}

function finish(table: GrammarTable, count: number): Recording {
  const { flags, parents, starts, ends, lasts } = scratch;
  // Backwards, so children are done before their parent: errors rise, starts come from first
  // children, ends from the last node of the subtree (always a leaf).
  for (let i = count - 1; i >= 0; i--) {
    if (i + 1 < count && parents[i + 1] === i) {
      starts[i] = starts[i + 1];
      if (i > 0) ends[i] = ends[lasts[i] - 1];
    }
    if (i > 0 && flags[i] & VISIBLE_ERROR) flags[parents[i]] |= VISIBLE_ERROR;
  }
  const s = scratch;
  // Exact-size copies: the scratch arrays are reused for the next file.
  return {
    table,
    count,
    types: s.types.slice(0, count),
    fields: s.fields.slice(0, count),
    parents: s.parents.slice(0, count),
    nexts: s.nexts.slice(0, count),
    starts: s.starts.slice(0, count),
    ends: s.ends.slice(0, count),
    lasts: s.lasts.slice(0, count),
    flags: s.flags.slice(0, count),
  };
}
