// Whether code around a non-null assertion already checked the value it asserts: a condition that
// mentions the same subject, a test of the assigned result, or a `has`/`length` check nearby.
import { isFunctionNode, parentSkippingParentheses } from '@codehealth/engine/kit';
import type { SyntaxNode } from '@codehealth/engine/kit';
import { contains } from '../shared/syntax.js';
import type { NullableApi } from './nullable-apis.js';

const LOOP_OR_IF = new Set(['if_statement', 'while_statement', 'do_statement', 'for_statement']);

function mentions(text: string | undefined, subject: string): boolean {
  if (!text) return false;
  const escaped = subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\./g, '\\??\\.');
  return new RegExp(`(^|[^\\w$.])${escaped}($|[^\\w$])`).test(text);
}

/** The part of a conditional construct that only runs after its condition: the condition's text. */
function conditionGuarding(ancestor: SyntaxNode, child: SyntaxNode): string | undefined {
  switch (ancestor.type) {
    case 'if_statement':
    case 'while_statement':
      return ancestor.childForFieldName('body')?.id === child.id ||
        ancestor.childForFieldName('consequence')?.id === child.id ||
        ancestor.childForFieldName('alternative')?.id === child.id
        ? ancestor.childForFieldName('condition')?.text
        : undefined;
    case 'ternary_expression':
      return ancestor.childForFieldName('condition')?.id === child.id ? undefined : ancestor.childForFieldName('condition')?.text;
    case 'binary_expression': {
      const operator = ancestor.childForFieldName('operator')?.type;
      const right = ancestor.childForFieldName('right');
      return (operator === '&&' || operator === '||') && right?.id === child.id ? ancestor.childForFieldName('left')?.text : undefined;
    }
    default:
      return undefined;
  }
}

/** `while ((item = queue.shift()!))`: the assigned result is itself tested. */
function resultIsTested(nonNull: SyntaxNode): boolean {
  const assignment = parentSkippingParentheses(nonNull);
  if (assignment?.type !== 'assignment_expression') return false;
  const holder = parentSkippingParentheses(assignment);
  if (!holder) return false;
  if (LOOP_OR_IF.has(holder.type))
    return contains(holder.childForFieldName('condition') ?? holder, assignment) && holder.childForFieldName('condition') !== null;
  return holder.type === 'binary_expression' || holder.type === 'ternary_expression' || holder.type === 'unary_expression';
}

/** True when the assertion follows a check of the same value; the climb crosses functions, as callbacks run under their caller's checks. */
export function checkedFirst(nonNull: SyntaxNode, api: NullableApi): boolean {
  if (api.neverEmpty || resultIsTested(nonNull)) return true;
  let outermost: SyntaxNode = nonNull.tree.rootNode;
  for (let child = nonNull, parent = nonNull.parent; parent; child = parent, parent = parent.parent) {
    if (mentions(conditionGuarding(parent, child), api.subject)) return true;
    if (isFunctionNode(parent)) outermost = parent;
  }
  const scope = outermost.text;
  if (api.guards.some((guard) => scope.includes(guard))) return true;
  // `if (!process.env.X) throw …` earlier in the same scope.
  return api.api === 'process.env' && countUnasserted(scope, api.subject) > 0;
}

function countUnasserted(scope: string, text: string): number {
  let count = 0;
  for (let at = scope.indexOf(text); at >= 0; at = scope.indexOf(text, at + text.length)) {
    if (!/[\w$!]/.test(scope[at + text.length] ?? '')) count++;
  }
  return count;
}
