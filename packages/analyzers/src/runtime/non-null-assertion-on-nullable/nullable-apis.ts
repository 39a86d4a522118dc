// APIs whose result is commonly null or undefined, and the local checks that make an assertion on
// them safe, recognised from syntax alone.
import { compileSafeRegExp, type Severity, type SyntaxNode, unwrapParentheses } from '@codehealth/engine/kit';
import { resolveName } from '../shared/scope.js';
import { callArguments, calledMethod, calleeOf, memberObject, stringLiteralValue } from '../shared/syntax.js';

export interface NullableApi {
  /** `Array.prototype.find`, `process.env`: named in the description. */
  api: string;
  /** When the result is null or undefined. */
  nullWhen: string;
  severity: Severity;
  confidence: number;
  /** Text whose presence in the enclosing functions shows the result was checked first. */
  guards: string[];
  /** What a condition must mention to count as a check (`if (stack.length) stack.pop()!`). */
  subject: string;
  /** The lookup cannot come back empty (a regular expression that matches every string). */
  neverEmpty?: boolean;
  /** A lookup in a collection the code fills itself (Map.get, find, pop, shift, at). */
  collection?: boolean;
}

const COLLECTION = { severity: 'low', confidence: 80, collection: true } as const;
const EXTERNAL = { severity: 'medium', confidence: 80 } as const;

// A regular expression literal that matches every string: it can match the empty string and is
// not pinned at both ends, like `^[_$]*` or `\s*$`. Lookarounds, word boundaries and stateful
// flags are not judged. The literal is the analysed repository's, so it is tested with the
// linear-time matcher: RegExp takes 2^n steps to test `/(?:|)(?:|)...x/` (n groups) against ''.
function matchesEveryString(regex: SyntaxNode | undefined): boolean {
  if (regex?.type !== 'regex') return false;
  const pattern = regex.childForFieldName('pattern')?.text ?? '';
  const flags = regex.childForFieldName('flags')?.text ?? '';
  if (/[gy]/.test(flags) || /\(\?(?:[=!]|<[=!])|\\[bB]/.test(pattern) || (pattern.startsWith('^') && pattern.endsWith('$'))) return false;
  // Without \p, \P, \u{...} and astral characters, a `u` pattern reads the same without the flag,
  // and the empty string cannot tell code points from code units.
  const sameWithoutU = flags.includes('u') && !/\\[pP]|\\u\{|[\uD800-\uDFFF]/.test(pattern);
  const matcherFlags = sameWithoutU ? flags.replace('u', '') : flags;
  try {
    return compileSafeRegExp(pattern, matcherFlags).test('');
  } catch {
    // Syntax this engine's RegExp refuses (a newer flag) or the matcher does not run: judged as possibly empty-handed.
    return false;
  }
}

/**
 * A `Map` built with initial entries in this file (`new Map(KINDS.map((k) => [k, []]))`): a lookup
 * table over a known key set, which `.get(key)!` is the normal way to read.
 */
function isPrefilledMap(receiver: SyntaxNode): boolean {
  if (receiver.type !== 'identifier') return false;
  const binding = resolveName(receiver.text, receiver);
  const value = binding?.kind === 'const' && binding.value ? unwrapParentheses(binding.value) : undefined;
  if (value?.type !== 'new_expression' || !/^(Weak)?Map$/.test(value.childForFieldName('constructor')?.text ?? '')) return false;
  return (value.childForFieldName('arguments')?.namedChildren.length ?? 0) > 0;
}

/** `s.split(',')` (a non-empty separator) and `[a, b]` always hold an element. */
function neverEmptyArray(receiver: SyntaxNode): boolean {
  const node = unwrapParentheses(receiver);
  if (node.type === 'array') return node.namedChildren.some((child) => child.type !== 'comment');
  if (node.type !== 'call_expression' || calledMethod(node) !== 'split') return false;
  const separator = callArguments(node)[0];
  return separator?.type === 'regex' || (separator?.type === 'string' && (stringLiteralValue(separator) ?? '') !== '');
}

function methodApi(call: SyntaxNode, method: string): NullableApi | undefined {
  const receiverNode = memberObject(calleeOf(call)!)!;
  const receiver = receiverNode.text;
  const argNodes = callArguments(call);
  const args = argNodes.map((arg) => arg.text).join(', ');
  switch (method) {
    case 'find':
    case 'findLast':
      return { api: `Array.prototype.${method}`, nullWhen: 'no element matches', ...COLLECTION, guards: [], subject: receiver };
    case 'get':
      if (isPrefilledMap(receiverNode)) return undefined;
      return {
        api: 'Map.get (or another keyed lookup)',
        nullWhen: 'the key is missing',
        ...COLLECTION,
        confidence: 70,
        // A map filled in the same function holds the keys its author iterates over.
        guards: [`${receiver}.has(${args})`, `${receiver}.set(`],
        subject: receiver,
      };
    case 'pop':
    case 'shift':
    case 'at':
      if (neverEmptyArray(receiverNode)) return undefined;
      return { api: `Array.prototype.${method}`, nullWhen: 'the array is empty', ...COLLECTION, guards: [`${receiver}.length`], subject: receiver };
    case 'match':
      return {
        api: 'String.prototype.match',
        nullWhen: 'the pattern does not match',
        ...EXTERNAL,
        guards: [`${args}.test(`],
        subject: receiver,
        neverEmpty: matchesEveryString(argNodes[0]),
      };
    case 'exec':
      return {
        api: 'RegExp.prototype.exec',
        nullWhen: 'the pattern does not match',
        ...EXTERNAL,
        guards: [`${receiver}.test(`],
        subject: args,
        neverEmpty: matchesEveryString(receiverNode),
      };
    case 'querySelector':
    case 'getElementById':
    case 'closest':
      // `document.getElementById('root')!`: an element of the page's own markup, found by a fixed id
      // or selector; the idiom of every app entry, which fails at once and visibly if the page lacks it.
      if (method !== 'closest' && /^(?:window\.)?document$/.test(receiver) && argNodes.length === 1 && stringLiteralValue(argNodes[0]) !== undefined)
        return undefined;
      return { api: method, nullWhen: 'no element matches', ...EXTERNAL, guards: [], subject: call.text };
    case 'getAttribute':
      return {
        api: 'Element.getAttribute',
        nullWhen: 'the attribute is absent',
        ...EXTERNAL,
        guards: [`${receiver}.hasAttribute(${args})`],
        subject: call.text,
      };
    case 'getItem':
      return { api: 'Storage.getItem', nullWhen: 'nothing is stored under the key', ...EXTERNAL, guards: [], subject: call.text };
    default:
      return undefined;
  }
}

/** The nullable API `expression` calls or reads, if it is one of those this rule knows. */
export function nullableApi(expression: SyntaxNode): NullableApi | undefined {
  // `x!`, the common case in typed code, is settled by the node type alone.
  if (expression.type === 'identifier' || expression.type === 'this') return undefined;
  if (expression.type === 'call_expression') {
    const method = calledMethod(expression);
    return method ? methodApi(expression, method) : undefined;
  }
  if ((expression.type === 'member_expression' || expression.type === 'subscript_expression') && memberObject(expression)?.text === 'process.env') {
    return { api: 'process.env', nullWhen: 'the variable is not set', ...EXTERNAL, guards: [], subject: expression.text };
  }
  return undefined;
}

/** Unary and binary operators the grammar wrongly puts inside a postfix `!` (`a && b!` → `(a && b)!`). */
const HOISTED_BY_GRAMMAR: ReadonlySet<string> = new Set(['binary_expression', 'unary_expression', 'await_expression', 'type_assertion']);

/**
 * The expression a `!` really applies to. tree-sitter-typescript 0.23 parses `a && b!.c` as
 * `(a && b)!.c` and `!x!` as `(!x)!`; without parentheses in the source, valid TypeScript binds the
 * postfix `!` tighter than any prefix or binary operator, so it belongs to the rightmost operand.
 */
export function assertedExpression(nonNull: SyntaxNode): SyntaxNode | undefined {
  let current = nonNull.firstNamedChild ?? undefined;
  if (current?.type === 'parenthesized_expression') return unwrapParentheses(current);
  while (current && HOISTED_BY_GRAMMAR.has(current.type)) {
    current =
      current.type === 'binary_expression'
        ? (current.childForFieldName('right') ?? undefined)
        : current.type === 'unary_expression'
          ? (current.childForFieldName('argument') ?? undefined)
          : current.namedChildren[current.namedChildren.length - 1];
  }
  return current;
}
