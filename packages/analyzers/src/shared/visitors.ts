// Composing node visitors: the engine takes one visitor per rule, a rule may be built from several.
import type { NodeVisitor, SyntaxNode } from '@codehealth/engine/kit';
import { FUNCTION_NODE_TYPES, qualifiedFunctionName } from '@codehealth/engine/kit';

/** Handlers for the same key run in argument order, on enter and on exit alike. */
export function mergeVisitors(...visitors: NodeVisitor[]): NodeVisitor {
  const handlers = new Map<string, Array<(node: SyntaxNode) => void>>();
  for (const visitor of visitors) {
    // for-in rather than Object.entries: no array of pairs per visitor and file.
    for (const key in visitor) {
      const handler = visitor[key];
      if (!handler || !Object.hasOwn(visitor, key)) continue;
      const list = handlers.get(key);
      if (list) list.push(handler);
      else handlers.set(key, [handler]);
    }
  }
  const merged: NodeVisitor = {};
  for (const [key, list] of handlers) {
    merged[key] = list.length === 1 ? list[0] : (node) => list.forEach((handler) => handler(node));
  }
  return merged;
}

export interface FunctionScope {
  visitor: NodeVisitor;
  /** The qualified name of the innermost function being walked, if any. */
  current(): string | undefined;
}

/**
 * Tracks the enclosing function's name during the walk. Put it first in `mergeVisitors` so a
 * rule's enter handler sees the function it enters; on exit the name is already popped.
 */
export function createFunctionScope(): FunctionScope {
  const names: string[] = [];
  const visitor: NodeVisitor = {};
  for (const type of FUNCTION_NODE_TYPES) {
    visitor[type] = (node) => {
      names.push(qualifiedFunctionName(node, names[names.length - 1]));
    };
    visitor[`${type}:exit`] = () => {
      names.pop();
    };
  }
  return { visitor, current: () => names[names.length - 1] };
}
