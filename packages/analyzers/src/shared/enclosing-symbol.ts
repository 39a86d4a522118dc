// The finding `symbol` of a node, computed on demand by climbing its ancestors: for rules that
// report rarely, this is cheaper than tracking function scopes on every node of the walk.
import type { SyntaxNode } from '@codehealth/engine/kit';
import { isFunctionNode, localFunctionName, qualifiedFunctionName } from './functions.js';

const CLASS_TYPES: ReadonlySet<string> = new Set(['class_declaration', 'abstract_class_declaration', 'class']);

/**
 * The same qualified name `createFunctionScope().current()` gives inside the innermost enclosing
 * function (`outer > inner`); outside any function, the enclosing class's name; else undefined.
 */
export function enclosingSymbol(node: SyntaxNode): string | undefined {
  const functions: SyntaxNode[] = [];
  let className: string | undefined;
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (isFunctionNode(parent)) functions.push(parent);
    else if (className === undefined && functions.length === 0 && CLASS_TYPES.has(parent.type)) {
      className = parent.childForFieldName('name')?.text;
    }
  }
  if (functions.length === 0) return className;
  let name: string | undefined;
  for (let i = functions.length - 1; i >= 0; i--) name = qualifiedFunctionName(functions[i], name);
  return name;
}

/** The innermost enclosing function's own name (no outer scopes), for descriptions. */
export function enclosingFunctionName(node: SyntaxNode): string | undefined {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (isFunctionNode(parent)) return localFunctionName(parent);
  }
  return undefined;
}
