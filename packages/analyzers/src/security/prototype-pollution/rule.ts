// Flags code that writes attacker-chosen keys into existing objects without refusing `__proto__`,
// `constructor` and `prototype`: recursive merges into the target's own values, nested
// `obj[a][b] = v` assignments and `cur = cur[key]` path setters.
import { defineRule, type Severity, type SyntaxNode } from '@codehealth/engine/kit';
import { z } from 'zod';
import { callOfCallee, nodesAtMatches } from '../shared/candidates.js';
import { placeOf, quote } from '../shared/place.js';
import { enclosingFunction } from '../shared/scope.js';
import { calleeOf, literalString, unwrap } from '../shared/syntax.js';
import {
  checksTargetOwnKey,
  forEachKeyLoop,
  forKeyLoop,
  functionNames,
  GUARD,
  hasSelfSubscriptAssignment,
  isFreshObject,
  isNestedKeyedAssignment,
  isOutsideData,
  keyedAssignments,
  recursesIntoTarget,
  writesIntoSource,
  type KeyLoop,
} from './patterns.js';

const options = z.object({}).strict().default({});

type Pattern = 'recursive-merge' | 'nested-keys' | 'path-setter';

/** `for (k in …)` and `for (… of Object.keys(…))`-like loops; other loops are not candidates. */
const FOR_KEYS = /\bfor\s*\(\s*(?:const|let|var)?\s*(?:[\w$]+\s+in\b|(?:[\w$]+|\[[^\]]*\])\s+of\s+(?:Object|Reflect)\.)/g;
/** A file needs `a[x][y] =` (this) or `cur = cur[` (hasSelfSubscriptAssignment) for a nested-keys or path-setter finding. */
const NESTED_KEYS_HINT = /\]\s*\[[^\]\n]+\]\s*(?:=(?![=>])|\?\?=|\|\|=)/;
const FOR_EACH = /\bforEach\s*\(/g;
const SUBSCRIPT_ASSIGNMENT = /\]\s*(?:=(?![=>])|\?\?=|\|\|=)/g;

/** The assignment whose left side is the subscript closed by the `]` at a match. */
function assignmentEndingAt(node: SyntaxNode): SyntaxNode | undefined {
  if (node.type !== 'assignment_expression' && node.type !== 'augmented_assignment_expression') return undefined;
  return unwrap(node.childForFieldName('left') ?? node).type === 'subscript_expression' ? node : undefined;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const prototypePollution = defineRule({
  kind: 'file',
  meta: {
    id: 'prototype-pollution',
    description:
      'Recursive merges, nested key writes and path setters that assign outside-controlled keys into existing objects without a __proto__/constructor guard',
    category: 'security',
    severity: 'high',
    // The product's own code: tests, examples, benchmarks and scripts are not judged.
    roles: ['production'],
    options,
    confidence: 70,
    docs: {
      whyItMatters:
        'Assigning `obj[key]` with a key from outside lets `__proto__` (or `constructor.prototype`) through: the ' +
        'write lands on Object.prototype and every object in the process inherits it. Attackers use it to flip ' +
        'flags such as `isAdmin`, crash the service, or reach code execution through template engines and child_process options.',
      suggestedAction:
        'Skip the keys `__proto__`, `constructor` and `prototype` before assigning (or allow-list the keys), build ' +
        'the target with `Object.create(null)` or a Map, and prefer structuredClone or a vetted merge library.',
    },
  },
  create(context) {
    if (!/\]\s*(?:=|\?\?=|\|\|=)[^=]/.test(context.source)) return {};
    const reported = new Set<number>();
    const reportedFunctions = new Set<number>();

    const report = (node: SyntaxNode, pattern: Pattern, severity: Severity, confidence: number, title: string, description: string) => {
      reported.add(node.startIndex);
      const place = placeOf(node, context.file.path);
      context.report({ node, title: `${title} in ${place.label}`, description, severity, confidence, symbol: place.symbol, data: { pattern } });
    };

    // Function texts are read once each: a large function may hold many subscript assignments.
    const texts = new Map<number, string>();
    const textOf = (fn: SyntaxNode): string => {
      let text = texts.get(fn.startIndex);
      if (text === undefined) texts.set(fn.startIndex, (text = fn.text));
      return text;
    };
    const walks = new Map<string, boolean>();
    /** Whether `fn` steps `name = name[…]` down a key path; asked once per function and name. */
    const walksPath = (fn: SyntaxNode, name: string): boolean => {
      const key = `${fn.startIndex}:${name}`;
      let result = walks.get(key);
      if (result === undefined) {
        const text = textOf(fn);
        result = text.includes(`${name}[`) && new RegExp(`\\b${escapeRegExp(name)}\\s*=\\s*${escapeRegExp(name)}\\s*\\[`).test(text);
        walks.set(key, result);
      }
      return result;
    };
    const guarded = (node: SyntaxNode): boolean => GUARD.test(textOf(enclosingFunction(node) ?? node));

    const checkLoop = (loop: KeyLoop, anchor: SyntaxNode) => {
      if (!isOutsideData(loop.source)) return;
      const assignments = keyedAssignments(loop).filter((a) => !reported.has(a.startIndex));
      if (assignments.length === 0 || guarded(anchor)) return;
      // `if (!(key in target))` skips `__proto__` and `constructor`, which every object has.
      if (new RegExp(`!\\(\\s*${escapeRegExp(loop.key)}\\s+in\\s`).test(loop.body.text)) return;
      // So does leaving the loop when the key is present: `if (key in a) throw …` / `continue` / `return`.
      if (new RegExp(`\\bif\\s*\\(\\s*${escapeRegExp(loop.key)}\\s+in\\s+[\\w$.]+\\s*\\)\\s*\\{?\\s*(?:throw|continue|return)\\b`).test(loop.body.text)) return;
      // A merge recurses through its own name, possibly from a callback nested inside it. A flat copy
      // (`target[key] = source[key]`) is not reported: with the key `__proto__` it replaces only the
      // target's own prototype, as Object.assign does; Object.prototype is reached only by recursing
      // into `target['__proto__']`.
      const names = new Set<string>();
      for (let fn = enclosingFunction(anchor); fn; fn = enclosingFunction(fn)) for (const name of functionNames(fn)) names.add(name);
      const calls = loop.body.descendantsOfType('call_expression').filter((call) => names.has(calleeOf(call)?.name ?? ''));
      if (calls.length === 0) return;
      for (const assignment of assignments) {
        const left = unwrap(assignment.childForFieldName('left') ?? assignment);
        const object = left.childForFieldName('object');
        // A clone writes into an object it has just built, and an in-place walk into the object whose own keys it reads.
        if (!object || isFreshObject(object, anchor.startIndex) || writesIntoSource(object, loop.source) || checksTargetOwnKey(loop.body, object, loop.key))
          continue;
        const call = calls.find((c) => recursesIntoTarget(c, object, loop.key, loop.body));
        if (!call) continue;
        const fnName = calleeOf(call)?.name ?? 'merge';
        report(
          assignment,
          'recursive-merge',
          'high',
          80,
          `Recursive merge \`${fnName}\` copies keys without a __proto__ guard`,
          `\`${fnName}\` walks the keys of ${quote(loop.source, 40)} and recurses into ${quote(unwrap(object), 30)}[${loop.key}] while assigning ${quote(assignment, 50)}; with a \`__proto__\` key in the input that value is Object.prototype, and the recursion writes into it.`,
        );
        return;
      }
    };

    const checkAssignment = (assignment: SyntaxNode) => {
      if (reported.has(assignment.startIndex)) return;
      const left = unwrap(assignment.childForFieldName('left') ?? assignment);
      if (left.type !== 'subscript_expression') return;
      if (isNestedKeyedAssignment(assignment)) {
        if (guarded(assignment)) return;
        report(
          assignment,
          'nested-keys',
          'medium',
          55,
          'Nested assignment by two dynamic keys without a __proto__ guard',
          `${quote(assignment, 60)} assigns through two computed keys; if the first is \`__proto__\`, the second is set on Object.prototype.`,
        );
        return;
      }
      const target = unwrap(left.childForFieldName('object') ?? left);
      const index = left.childForFieldName('index');
      const fn = enclosingFunction(assignment);
      if (target.type !== 'identifier' || !index || literalString(index) !== undefined || unwrap(index).type === 'number' || !fn) return;
      if (!fn.childForFieldName('parameters')?.namedChildren.length) return;
      for (let outer: SyntaxNode | undefined = fn; outer; outer = enclosingFunction(outer)) if (reportedFunctions.has(outer.startIndex)) return;
      if (!walksPath(fn, target.text) || GUARD.test(textOf(fn))) return;
      // One finding per setter, also when its walk sits in a nested callback.
      for (let outer: SyntaxNode | undefined = fn; outer; outer = enclosingFunction(outer)) reportedFunctions.add(outer.startIndex);
      report(
        assignment,
        'path-setter',
        'high',
        70,
        `Path setter assigns through \`${target.text}[…]\` without a __proto__ guard`,
        `The function walks \`${target.text} = ${target.text}[…]\` along a key path and assigns ${quote(assignment, 50)}; a path such as \`__proto__.polluted\` writes into Object.prototype.`,
      );
    };

    // Loops first, so that an assignment they report is not reported again as a path setter.
    return {
      program(root) {
        for (const loop of nodesAtMatches(root, context.source, FOR_KEYS, (n) => (n.type === 'for_in_statement' ? n : undefined), 2)) {
          const keyLoop = forKeyLoop(loop);
          if (keyLoop) checkLoop(keyLoop, loop);
        }
        for (const call of nodesAtMatches(root, context.source, FOR_EACH, callOfCallee)) {
          const keyLoop = forEachKeyLoop(call);
          if (keyLoop) checkLoop(keyLoop, call);
        }
        if (NESTED_KEYS_HINT.test(context.source) || hasSelfSubscriptAssignment(context.source)) {
          // `]` → subscript → assignment, with room for parentheses.
          nodesAtMatches(root, context.source, SUBSCRIPT_ASSIGNMENT, assignmentEndingAt, 4).forEach(checkAssignment);
        }
      },
    };
  },
});
