// Finding rare constructs by searching the source text and mapping hits back to the tree, so that
// a rule needs no subscription to frequent node types (calls, member accesses) in the single walk.
import type { SyntaxNode } from '@codehealth/engine/kit';

/**
 * The smallest nodes at the start of each match of `pattern` (a global regex) in `root`'s source,
 * shifted by the match's group 1 when there is one. Hits inside comments and strings come back as
 * comment or string nodes; callers check the node shape anyway.
 */
export function nodesAtMatches(root: SyntaxNode, source: string, pattern: RegExp): SyntaxNode[] {
  const nodes: SyntaxNode[] = [];
  for (const match of source.matchAll(pattern)) {
    const offset = match[1] === undefined ? 0 : match[0].indexOf(match[1]);
    nodes.push(root.descendantForIndex(match.index + offset));
  }
  return nodes;
}

/** For the `property_identifier` of `x.method(...)`: the call, when the property really is the callee's. */
export function methodCallOf(property: SyntaxNode): SyntaxNode | undefined {
  if (property.type !== 'property_identifier') return undefined;
  const member = property.parent;
  if (member?.type !== 'member_expression' || member.childForFieldName('property')?.id !== property.id) return undefined;
  const call = member.parent;
  return call?.type === 'call_expression' && call.childForFieldName('function')?.id === member.id ? call : undefined;
}
