// Where the value of an expression goes within its statement: the variable, property or function
// result it ends up in. Rules that judge intent by names (`token = Math.random()…`) read it here.
import { localFunctionName } from '@codehealth/engine/kit';
import type { SyntaxNode } from '@codehealth/engine/kit';
import { enclosingFunction } from './scope.js';
import { assignedName, propertyKey } from './syntax.js';

/** Expressions that pass a value on to their parent. */
const PASS_THROUGH = new Set([
  'member_expression',
  'call_expression',
  'arguments',
  'binary_expression',
  'template_substitution',
  'template_string',
  'parenthesized_expression',
  'ternary_expression',
  'array',
  'await_expression',
  'unary_expression',
  'as_expression',
  'non_null_expression',
  'satisfies_expression',
  'spread_element',
  'subscript_expression',
  'sequence_expression',
]);

export interface Flow {
  /** The name the value is stored under: `token` in `const token = …`, `this.token = …`, `{ token: … }`. */
  target?: string;
  /** The enclosing function's own name (`generateToken`), if any. */
  functionName?: string;
  /** Functions the value is passed to on the way (`setSessionId` in `setSessionId(Math.random())`). */
  callees: string[];
  /** The expression up to the statement, for words such as `.update(password)`. */
  expression: SyntaxNode;
}

export function flowOf(node: SyntaxNode): Flow {
  let current = node;
  const callees: string[] = [];
  while (current.parent && PASS_THROUGH.has(current.parent.type)) {
    if (current.type === 'arguments' && current.parent.type === 'call_expression') {
      const callee = current.parent.childForFieldName('function');
      const name = callee?.type === 'member_expression' ? callee.childForFieldName('property')?.text : callee?.text;
      if (name) callees.push(name);
    }
    current = current.parent;
  }
  const parent = current.parent;
  const fn = enclosingFunction(node);
  const flow: Flow = { expression: current, callees, functionName: fn ? localFunctionName(fn) : undefined };
  if (!parent) return flow;
  switch (parent.type) {
    case 'variable_declarator': {
      const name = parent.childForFieldName('name');
      flow.target = name?.type === 'identifier' ? name.text : undefined;
      break;
    }
    case 'assignment_expression':
    case 'augmented_assignment_expression': {
      const left = parent.childForFieldName('left');
      flow.target = left ? assignedName(left) : undefined;
      break;
    }
    case 'pair':
      flow.target = propertyKey(parent.childForFieldName('key'));
      break;
    case 'public_field_definition':
      flow.target = propertyKey(parent.childForFieldName('name'))?.replace(/^#/, '');
      break;
    case 'return_statement':
    case 'arrow_function':
      // The value is the function's result: its name says what it is for.
      flow.target = flow.functionName;
      break;
  }
  return flow;
}
