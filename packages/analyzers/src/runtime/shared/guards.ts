// Where an exception or a rejection is caught, as far as one function's syntax can tell.
import { isFunctionNode, parentSkippingParentheses } from '@codehealth/engine/kit';
import type { SyntaxNode } from '@codehealth/engine/kit';
import { nodesAtMatches } from './source-search.js';
import { callArguments, calledMethod, contains } from './syntax.js';

/**
 * The `try` statement of the same function whose protected block holds `node` and that has a
 * `catch` clause, if any. A `try` around the definition of a callback does not protect the callback,
 * so the climb stops at the first function boundary.
 */
export function catchingTry(node: SyntaxNode): SyntaxNode | undefined {
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (isFunctionNode(parent)) return undefined;
    if (parent.type === 'try_statement' && parent.childForFieldName('body')?.id === child.id && parent.childForFieldName('handler')) {
      return parent;
    }
  }
  return undefined;
}

/** `p.catch(h)` or `p.then(f, h)`: a call that handles the rejection of its receiver. */
export function handlesRejection(call: SyntaxNode): boolean {
  const method = calledMethod(call);
  const count = callArguments(call).length;
  return (method === 'catch' && count >= 1) || (method === 'then' && count >= 2);
}

/**
 * For a callback passed to `.then(cb)`/`.catch(cb)`/`.finally(cb)`: true when a later link of the
 * same chain handles rejections, so an exception thrown by the callback is caught there.
 */
export function chainHandlesCallback(fn: SyntaxNode): boolean {
  const args = parentSkippingParentheses(fn);
  if (args?.type !== 'arguments') return false;
  let call = args.parent;
  if (!call || !['then', 'catch', 'finally'].includes(calledMethod(call) ?? '')) return false;
  for (;;) {
    const member = parentSkippingParentheses(call);
    if (member?.type !== 'member_expression' || !contains(member.childForFieldName('object')!, call)) return false;
    const next = member.parent;
    if (next?.type !== 'call_expression') return false;
    if (handlesRejection(next)) return true;
    call = next;
  }
}

/** The `body` of an async function consists only of `try … catch` statements that do not rethrow. */
export function bodyCatchesEverything(fn: SyntaxNode): boolean {
  const body = fn.childForFieldName('body');
  if (body?.type !== 'statement_block') return false;
  const statements = body.namedChildren.filter((child) => child.type !== 'comment');
  return (
    statements.length > 0 &&
    statements.every((statement) => {
      if (statement.type !== 'try_statement') return false;
      const handler = statement.childForFieldName('handler');
      return handler !== null && !containsThrow(handler.childForFieldName('body'));
    })
  );
}

/** A `throw` anywhere in the block outside nested functions. */
function containsThrow(node: SyntaxNode | null): boolean {
  if (!node) return false;
  if (node.type === 'throw_statement') return true;
  if (isFunctionNode(node)) return false;
  return node.namedChildren.some(containsThrow);
}

/** The name a function is called by: its own, or the variable, property or field holding it. */
export function callableName(fn: SyntaxNode): string | undefined {
  if (fn.type === 'function_declaration' || fn.type === 'method_definition') return fn.childForFieldName('name')?.text;
  const holder = parentSkippingParentheses(fn);
  if (holder?.type === 'variable_declarator' || holder?.type === 'public_field_definition') return holder.childForFieldName('name')?.text;
  if (holder?.type === 'pair') return holder.childForFieldName('key')?.text;
  return undefined;
}

/**
 * True when the file calls `fn` by name (`f()`, `x.f()`, `f!()`, `f?.()`) at least once and every such
 * call is inside a try with a catch: the exceptions of `fn` are then handled by its callers.
 */
export function callersCatch(fn: SyntaxNode, root: SyntaxNode, source: string): boolean {
  const name = callableName(fn);
  if (!name || !/^[A-Za-z_$][\w$]*$/.test(name)) return false;
  let calls = 0;
  for (const hit of nodesAtMatches(root, source, new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\s*(?:!\\s*)?(?:\\?\\.\\s*)?\\(`, 'g'))) {
    if (hit.type !== 'identifier' && hit.type !== 'property_identifier') continue;
    let call: SyntaxNode | null = hit.parent;
    while (call && (call.type === 'member_expression' || call.type === 'non_null_expression')) call = call.parent;
    const callee = call?.type === 'call_expression' ? call.childForFieldName('function') : null;
    if (!call || !callee || !contains(callee, hit) || contains(fn, call)) continue;
    if (!catchingTry(call)) return false;
    calls++;
  }
  return calls > 0;
}
