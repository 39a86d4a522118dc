// Whether a path expression carries request input, directly or through local variables of the
// same function, and whether it passed through `basename()` on the way.
import type { SyntaxNode } from '@codehealth/engine';
import { mentionsRequestInput } from '../shared/request-input.js';
import { findBinding } from '../shared/scope.js';

const SANITISER = /\bbasename\s*\(/;
const MAX_DEPTH = 4;

export interface Taint {
  /** The request input expression the value comes from. */
  source: SyntaxNode;
  /** Local variables it went through, outermost first. */
  via: string[];
}

/** The request access inside an expression, whole (`req.params.name`, not `req.params`), for the description. */
function requestAccess(node: SyntaxNode): SyntaxNode | undefined {
  if (!mentionsRequestInput(node)) return undefined;
  let inner = node;
  for (let child = inner.namedChildren.find(mentionsRequestInput); child; child = inner.namedChildren.find(mentionsRequestInput)) inner = child;
  while (inner !== node && inner.parent && (inner.parent.type === 'member_expression' || inner.parent.type === 'subscript_expression')) inner = inner.parent;
  return inner;
}

export function taintOf(expression: SyntaxNode, depth = 0): Taint | undefined {
  if (SANITISER.test(expression.text)) return undefined;
  const direct = requestAccess(expression);
  if (direct) return { source: direct, via: [] };
  if (depth >= MAX_DEPTH) return undefined;
  const identifiers = expression.type === 'identifier' ? [expression] : expression.descendantsOfType('identifier');
  for (const identifier of identifiers) {
    const binding = findBinding(identifier);
    if (!binding || (binding.kind !== 'const' && binding.kind !== 'let' && binding.kind !== 'var')) continue;
    const value = binding.node.childForFieldName('value');
    const inner = value ? taintOf(value, depth + 1) : undefined;
    if (inner) return { source: inner.source, via: [identifier.text, ...inner.via] };
  }
  return undefined;
}
