// Whether a path expression carries request input: directly, through path-building and string
// functions, or through local variables of the same function. Values looked up *with* the input
// (`users.get(req.params.id)`) are the server's data, not the input, and `basename()` ends it.
import type { SyntaxNode } from '@codehealth/engine/kit';
import { isRequestInput } from '../shared/request-input.js';
import { findBinding } from '../shared/scope.js';
import { calleeOf, unwrap } from '../shared/syntax.js';

const MAX_DEPTH = 4;
/** Calls whose result still contains their input: path builders, conversions, string edits. */
const CARRIERS = new Set([
  'join',
  'resolve',
  'normalize',
  'format',
  'String',
  'decodeURI',
  'decodeURIComponent',
  'unescape',
  'toString',
  'replace',
  'replaceAll',
  'trim',
  'trimStart',
  'trimEnd',
  'toLowerCase',
  'toUpperCase',
  'slice',
  'substring',
  'substr',
  'concat',
  'padStart',
  'padEnd',
]);

export interface Taint {
  /** The request input expression the value comes from. */
  source: SyntaxNode;
  /** Local variables it went through, outermost first. */
  via: string[];
}

function first(nodes: Array<SyntaxNode | null>, depth: number): Taint | undefined {
  for (const node of nodes) {
    const taint = node ? taintOf(node, depth) : undefined;
    if (taint) return taint;
  }
  return undefined;
}

export function taintOf(expression: SyntaxNode, depth = 0): Taint | undefined {
  const n = unwrap(expression);
  if (isRequestInput(n)) return { source: n, via: [] };
  switch (n.type) {
    case 'template_string':
      return first(
        n.namedChildren.filter((c) => c.type === 'template_substitution').map((c) => c.namedChildren[0] ?? null),
        depth,
      );
    case 'binary_expression':
      return first([n.childForFieldName('left'), n.childForFieldName('right')], depth);
    case 'ternary_expression':
      return first([n.childForFieldName('consequence'), n.childForFieldName('alternative')], depth);
    case 'await_expression':
      return first([n.namedChildren[0] ?? null], depth);
    case 'member_expression':
    case 'subscript_expression':
      // `upload.path` of a request-derived `upload`.
      return first([n.childForFieldName('object')], depth);
    case 'call_expression': {
      const callee = calleeOf(n);
      if (!callee || callee.name === 'basename' || !CARRIERS.has(callee.name)) return undefined;
      const args = n.childForFieldName('arguments')?.namedChildren ?? [];
      // `path.join(…)` carries its arguments; `name.replace(…)` carries its receiver.
      return first(callee.object && callee.object.type !== 'identifier' ? [callee.object, ...args] : [...args, callee.object ?? null], depth);
    }
    case 'identifier': {
      if (depth >= MAX_DEPTH) return undefined;
      const binding = findBinding(n);
      if (!binding || (binding.kind !== 'const' && binding.kind !== 'let' && binding.kind !== 'var')) return undefined;
      const value = binding.node.childForFieldName('value');
      const inner = value ? taintOf(value, depth + 1) : undefined;
      return inner ? { source: inner.source, via: [n.text, ...inner.via] } : undefined;
    }
    default:
      return undefined;
  }
}
