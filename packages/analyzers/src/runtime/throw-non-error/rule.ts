// Flags `throw` of values that are not Error objects: strings, template literals, numbers,
// booleans, null/undefined, object and array literals, and constants bound to them.
import { defineRule, type SyntaxNode, unwrapParentheses, enclosingSymbol } from '@codehealth/engine/kit';
import { resolveName } from '../shared/scope.js';
import { baseName, calledMethod, calleeOf, propertyName, shortText, titleSymbol } from '../shared/syntax.js';

interface Thrown {
  /** `a string`, `an object literal`, … */
  what: string;
  confidence: number;
}

const LITERALS: Readonly<Record<string, string>> = {
  string: 'a string',
  template_string: 'a string',
  number: 'a number',
  true: 'a boolean',
  false: 'a boolean',
  null: 'null',
  undefined: 'undefined',
  object: 'an object literal',
  array: 'an array',
};

/** What kind of non-Error value `expression` is, or undefined when it may be an Error. */
function nonErrorValue(expression: SyntaxNode, depth = 1): Thrown | undefined {
  let node = unwrapParentheses(expression);
  while ((node.type === 'as_expression' || node.type === 'satisfies_expression') && node.namedChildren[0]) node = unwrapParentheses(node.namedChildren[0]);
  const literal = LITERALS[node.type] ?? (node.type === 'identifier' && node.text === 'undefined' ? 'undefined' : undefined);
  // Structured error objects are sometimes a deliberate protocol; still no stack, but less certain.
  if (literal) return { what: literal, confidence: node.type === 'object' ? 85 : 95 };
  if (node.type === 'binary_expression' && node.childForFieldName('operator')?.type === '+') {
    const sides = [node.childForFieldName('left'), node.childForFieldName('right')];
    if (sides.some((side) => side && ['string', 'template_string'].includes(unwrapParentheses(side).type))) return { what: 'a string', confidence: 95 };
  }
  if (node.type === 'call_expression') {
    const callee = calleeOf(node)?.text;
    if (callee === 'String' || callee === 'JSON.stringify' || calledMethod(node) === 'toString') return { what: 'a string', confidence: 90 };
  }
  // `throw error.message` rethrows the text of an error without the error.
  if (node.type === 'member_expression' && propertyName(node) === 'message') return { what: 'an error message string', confidence: 75 };
  if (node.type === 'identifier' && depth > 0) {
    const binding = resolveName(node.text, node);
    if (binding?.kind === 'const' && binding.value) {
      const bound = nonErrorValue(binding.value, depth - 1);
      return bound && { what: bound.what, confidence: Math.min(bound.confidence, 85) };
    }
  }
  return undefined;
}

/** `// eslint-disable-next-line no-throw-literal` (or `only-throw-error`) right above: thrown on purpose. */
function acknowledged(node: SyntaxNode): boolean {
  const before = node.previousSibling;
  return before?.type === 'comment' && /\b(?:no-throw-literal|only-throw-error)\b/.test(before.text);
}

/**
 * A throw in a callback inside `Promise.allSettled(…)`: the value is data read back from the
 * settled results (`result.reason`), never an error that reaches a handler unexplained.
 */
function carriedToAllSettled(node: SyntaxNode): boolean {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === 'call_expression' && /^Promise\.allSettled$/.test(current.childForFieldName('function')?.text ?? '')) return true;
  }
  return false;
}

export const throwNonError = defineRule({
  kind: 'file',
  meta: {
    id: 'throw-non-error',
    description: 'throw statements whose value is not an Error (strings, numbers, object literals, …)',
    category: 'runtime',
    severity: 'medium',
    confidence: 95,
    docs: {
      whyItMatters:
        'Only Error objects carry a stack trace and a standard `message`. A thrown string or object reaches catch blocks ' +
        'and loggers without the place it came from, `error instanceof Error` is false, and code reading `error.message` ' +
        'or `error.stack` gets undefined, so failures become hard to trace and handlers misbehave.',
      suggestedAction:
        'Throw an Error or a subclass: `throw new Error(message)`, or a custom `class ValidationError extends Error` ' +
        'carrying extra fields; keep the original error as `{ cause }` when rethrowing.',
    },
  },
  create(context) {
    return {
      throw_statement(node) {
        const expression = node.namedChildren.find((child) => child.type !== 'comment');
        const thrown = expression && nonErrorValue(expression);
        if (!expression || !thrown || node.hasError) return;
        if (acknowledged(node) || carriedToAllSettled(node)) return;
        const symbol = enclosingSymbol(node);
        const place = symbol ? titleSymbol(symbol) : baseName(context.file.path);
        const text = shortText(expression, 40);
        context.report({
          node,
          title: `Throws ${thrown.what} instead of an Error in ${place}`,
          description:
            `\`throw ${text}\` on line ${node.startPosition.row + 1} throws ${thrown.what}: it has no stack trace, ` +
            '`instanceof Error` is false in catch blocks, and handlers reading `.message` or `.stack` get undefined.',
          confidence: thrown.confidence,
          ...(symbol ? { symbol } : {}),
          data: { thrown: thrown.what },
        });
      },
    };
  },
});
