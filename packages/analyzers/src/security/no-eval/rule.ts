// Flags code run from strings: eval(), the Function constructor and timers given a string.
import { defineRule, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { callOfCallee, nodesAtMatches } from '../shared/candidates.js';
import { placeOf, quote } from '../shared/place.js';
import { findBinding } from '../shared/scope.js';
import { describeShape, shapeOf } from '../shared/string-shape.js';
import { argumentsOf, calleeOf, unwrap } from '../shared/syntax.js';

const options = z.object({}).strict().default({});

/** Objects through which the global `eval`, `Function` and timers are reached. */
const GLOBAL_OBJECTS = new Set(['window', 'globalThis', 'self', 'global']);
const TIMERS = new Set(['setTimeout', 'setInterval']);
/** Calls worth a look; the tree is consulted only at these matches. */
const CANDIDATE = /\b(?:eval|Function|setTimeout|setInterval)\s*\(/;

type Kind = 'eval' | 'Function' | 'timer';

function kindOf(call: SyntaxNode): { kind: Kind; name: string } | undefined {
  const callee = calleeOf(call);
  if (!callee) return undefined;
  if (callee.object && !(callee.object.type === 'identifier' && GLOBAL_OBJECTS.has(callee.object.text))) return undefined;
  let found: { kind: Kind; name: string } | undefined;
  if (callee.name === 'eval' && call.type === 'call_expression') found = { kind: 'eval', name: 'eval()' };
  else if (callee.name === 'Function') found = { kind: 'Function', name: call.type === 'new_expression' ? 'new Function()' : 'Function()' };
  else if (TIMERS.has(callee.name) && call.type === 'call_expression') found = { kind: 'timer', name: `${callee.name}()` };
  // A local function or parameter of that name is not the global.
  const fn = call.childForFieldName(call.type === 'new_expression' ? 'constructor' : 'function');
  if (found && !callee.object && fn && findBinding(unwrap(fn))) return undefined;
  return found;
}

/** A string for sure: a literal, a template, a `+` with a string side, or a const holding one. */
function isStringExpression(node: SyntaxNode, depth = 0): boolean {
  const n = unwrap(node);
  if (n.type === 'string' || n.type === 'template_string') return true;
  if (n.type === 'binary_expression' && n.childForFieldName('operator')?.text === '+') {
    return [n.childForFieldName('left'), n.childForFieldName('right')].some((side) => !!side && isStringExpression(side, depth + 1));
  }
  if (n.type === 'identifier' && depth < 3) {
    const binding = findBinding(n);
    return binding?.kind === 'const' && !!binding.value && isStringExpression(binding.value, depth + 1);
  }
  return false;
}

export const noEval = defineRule({
  kind: 'file',
  meta: {
    id: 'no-eval',
    description: 'eval(), the Function constructor, and setTimeout/setInterval given a string of code',
    category: 'security',
    severity: 'high',
    // The product's own code: tests, examples, benchmarks and scripts are not judged.
    roles: ['production'],
    options,
    confidence: 90,
    docs: {
      whyItMatters:
        'Code compiled from a string runs with the full privileges of the surrounding program. If any part of the ' +
        'string can be influenced from outside, an attacker can run arbitrary code; even a literal string defeats ' +
        'Content-Security-Policy, static analysis and bundler optimisations.',
      suggestedAction:
        'Replace the string with real code: pass a function to setTimeout/setInterval, use JSON.parse for data, a ' +
        'lookup table or a switch for dispatch by name, and a sandboxed parser for user-written expressions.',
    },
  },
  create(context) {
    if (!CANDIDATE.test(context.source)) return {};
    // Both arms of `c ? new Function(a)() : new Function('V', a)(v)` are one thing to fix: one finding per line and title.
    const reported = new Set<string>();
    const check = (call: SyntaxNode) => {
      const found = kindOf(call);
      if (!found) return;
      const args = argumentsOf(call);
      // The Function constructor compiles all its arguments (parameter names and body); the others their first.
      const code = found.kind === 'Function' ? args : args.slice(0, 1);
      if (code.length === 0) return;
      if (found.kind === 'timer' && !isStringExpression(code[0])) return;
      // `new Function(src);` as a statement only compiles: a syntax check (Vue's validateBrowserExpression)
      // whose function is dropped and never runs.
      if (found.kind === 'Function' && call.parent?.type === 'expression_statement') return;
      const shapes = code.map((arg) => shapeOf(arg));
      const dynamic = shapes.find((shape) => shape.dynamicParts.length > 0);
      const place = placeOf(call, context.file.path);
      const what = found.kind === 'timer' ? `${found.name} with a string of code` : found.name;
      const title = dynamic ? `${what} runs code built at run time in ${place.label}` : `${what} compiles a literal string in ${place.label}`;
      const key = `${call.startPosition.row}\0${title}`;
      if (reported.has(key)) return;
      reported.add(key);
      context.report({
        node: call,
        title,
        description: dynamic
          ? `${quote(call)} compiles and runs code made from ${describeShape(dynamic)}. Whoever controls that value controls the code that runs.`
          : `${quote(call)} compiles and runs a literal string of code. It cannot be injected as written, but it needs 'unsafe-eval' under a Content-Security-Policy and hides the code from tools.`,
        severity: dynamic ? 'critical' : 'high',
        confidence: dynamic ? 90 : found.kind === 'Function' ? 70 : 85,
        symbol: place.symbol,
        data: { call: found.name, dynamic: !!dynamic },
      });
    };
    return { program: (root) => nodesAtMatches(root, context.source, new RegExp(CANDIDATE.source, 'g'), callOfCallee).forEach(check) };
  },
});
