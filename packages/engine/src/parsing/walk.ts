// One depth-first walk of a tree that dispatches to every subscribed visitor (ESLint-style).
// Node objects are materialised only for node types somebody subscribed to: the cursor's
// `nodeType` is cheap, `currentNode` is not.
import type { SyntaxNode, Tree } from 'tree-sitter';
import type { NodeVisitor } from '../contracts/analyzer.js';

type Handler = (node: SyntaxNode) => void;

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
    for (const [key, handler] of Object.entries(visitor)) {
      if (!handler) continue;
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
