// One depth-first walk of a tree that dispatches to every subscribed visitor (ESLint-style).
// On a FlatTree the walk is a loop over arrays, handlers looked up by type id. On a binding tree
// node objects are materialised only for node types somebody subscribed to: the cursor's
// `nodeType` is cheap, `currentNode` is not.
import type { SyntaxNode, Tree } from 'tree-sitter';
import { FlatTree } from './flat-tree.js';

type Handler = (node: SyntaxNode) => void;

/** Handlers by node type; `"<type>:exit"` runs when the walk leaves the node, `"program:exit"` at the end. */
export type NodeVisitor = Partial<Record<string, Handler>>;

export interface WalkDispatcher {
  enter: Map<string, Handler[]>;
  exit: Map<string, Handler[]>;
  /** Handlers for `*` (every node) are rare and slow; supported for completeness. */
  any: Handler[];
  anyExit: Handler[];
}

export function buildDispatcher(visitors: readonly NodeVisitor[]): WalkDispatcher {
  const d: WalkDispatcher = { enter: new Map(), exit: new Map(), any: [], anyExit: [] };
  for (const visitor of visitors) {
    // for-in rather than Object.entries: no array of pairs per visitor and file.
    for (const key in visitor) {
      const handler = visitor[key];
      if (!handler || !Object.hasOwn(visitor, key)) continue;
      const isExit = key.endsWith(':exit');
      const type = isExit ? key.slice(0, -5) : key;
      if (type === '*') (isExit ? d.anyExit : d.any).push(handler);
      else {
        const map = isExit ? d.exit : d.enter;
        const list = map.get(type);
        if (list) list.push(handler);
        else map.set(type, [handler]);
      }
    }
  }
  return d;
}

/** Walks every node (named and anonymous) once, calling enter handlers before children and exit after. */
export function walkTree(tree: Tree, dispatcher: WalkDispatcher): void {
  if (tree instanceof FlatTree) return walkFlatTree(tree, dispatcher);
  const cursor = tree.walk();
  const { enter, exit, any, anyExit } = dispatcher;
  const wantsAll = any.length > 0 || anyExit.length > 0;
  // Nodes materialised on enter are kept on a stack so exit handlers get the same object.
  const stack: Array<SyntaxNode | undefined> = [];
  for (;;) {
    const type = cursor.nodeType;
    const enterHandlers = enter.get(type);
    const needsNode = wantsAll || enterHandlers !== undefined || exit.has(type);
    const node = needsNode ? cursor.currentNode : undefined;
    if (node) {
      for (const h of any) h(node);
      if (enterHandlers) for (const h of enterHandlers) h(node);
    }
    stack.push(node);
    if (cursor.gotoFirstChild()) continue;
    // Leave nodes until one has a next sibling.
    for (;;) {
      const left = stack.pop();
      if (left) {
        const exitHandlers = exit.get(left.type);
        if (exitHandlers) for (const h of exitHandlers) h(left);
        for (const h of anyExit) h(left);
      }
      if (cursor.gotoNextSibling()) break;
      if (!cursor.gotoParent()) {
        // Root left; run program:exit handlers registered under the root type.
        return;
      }
    }
  }
}

/** The same walk over a FlatTree: document order is index order, a node's exits run before its next sibling. */
function walkFlatTree(tree: FlatTree, dispatcher: WalkDispatcher): void {
  const { enter, exit, any, anyExit } = dispatcher;
  const wantsAll = any.length > 0 || anyExit.length > 0;
  // Handlers by type id, looked up by name once per type.
  const enterById: Array<Handler[] | null> = [];
  const exitById: Array<Handler[] | null> = [];
  const { types, parents, count } = tree;
  // The stack of open nodes is reused from walk to walk (a walk started by a handler takes its own).
  let stack = spareStack;
  spareStack = undefined;
  if (!stack || stack.length < count) stack = new Int32Array(Math.max(count, 4096));
  let depth = 0;
  const leave = (index: number) => {
    const handlers = exitById[types[index]];
    if (!handlers && anyExit.length === 0) return;
    const node = tree.node(index);
    if (handlers) for (const h of handlers) h(node);
    for (const h of anyExit) h(node);
  };
  for (let i = 0; i < count; i++) {
    const parent = parents[i];
    while (depth > 0 && stack[depth - 1] !== parent) leave(stack[--depth]);
    const type = types[i];
    let handlers = enterById[type];
    if (handlers === undefined) {
      const name = tree.grammar.typeNames[type];
      handlers = enterById[type] = enter.get(name) ?? null;
      exitById[type] = exit.get(name) ?? null;
    }
    if (handlers || wantsAll) {
      const node = tree.node(i);
      for (const h of any) h(node);
      if (handlers) for (const h of handlers) h(node);
    }
    stack[depth++] = i;
  }
  while (depth > 0) leave(stack[--depth]);
  spareStack = stack;
}

let spareStack: Int32Array | undefined;
