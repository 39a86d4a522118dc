// The shapes of prototype-polluting code: loops over the keys of outside data that assign by
// key, nested assignments by two dynamic keys, and path setters that walk `cur = cur[key]`.
import type { SyntaxNode } from '@codehealth/engine/kit';
import { mentionsRequestInput } from '../shared/request-input.js';
import { findBinding } from '../shared/scope.js';
import { argumentsOf, calleeOf, unwrap } from '../shared/syntax.js';

/**
 * A check against the dangerous keys anywhere in the function: the keys themselves, a prototype-less
 * target, a key check (`isConstructorOrProto`, `isSafeKey`), a deny-list, or a `safe…()` accessor.
 */
export const GUARD =
  /__proto__|['"`](?:constructor|prototype)['"`]|Object\.create\(\s*null\s*\)|\b(?:is|has)\w*(?:Proto|Constructor|Pollut|(?:Safe|Unsafe|Valid|Forbidden|Dangerous|Reserved)\w*Key)\w*\s*\(|\b(?:forbidden|unsafe|dangerous|blocked|reserved|denied)_?keys?\b|\bsafe[A-Z_]\w*\s*\(/i;

export interface KeyLoop {
  /** The loop variable holding each key. */
  key: string;
  /** What the keys are taken from. */
  source: SyntaxNode;
  body: SyntaxNode;
}

const KEY_FUNCTIONS = /^(?:Object\.(?:keys|entries|getOwnPropertyNames)|Reflect\.ownKeys)$/;

/** `Object.keys(x)` → `x`. */
function keysSource(node: SyntaxNode): SyntaxNode | undefined {
  const n = unwrap(node);
  if (n.type !== 'call_expression') return undefined;
  const fn = n.childForFieldName('function');
  return fn && KEY_FUNCTIONS.test(fn.text) ? argumentsOf(n)[0] : undefined;
}

/** The key name bound by `k`, `const k`, `[k, v]`. */
function keyName(pattern: SyntaxNode | null | undefined): string | undefined {
  if (!pattern) return undefined;
  const p = pattern.type === 'required_parameter' ? pattern.childForFieldName('pattern') : pattern;
  if (p?.type === 'identifier') return p.text;
  if (p?.type === 'array_pattern') return p.namedChildren.find((c) => c.type === 'identifier')?.text;
  return undefined;
}

/** `for (k in x)`, `for (k of Object.keys(x))`, `for ([k, v] of Object.entries(x))`. */
export function forKeyLoop(loop: SyntaxNode): KeyLoop | undefined {
  const right = loop.childForFieldName('right');
  const body = loop.childForFieldName('body');
  const key = keyName(loop.childForFieldName('left'));
  if (!right || !body || !key) return undefined;
  const operator = loop.childForFieldName('operator')?.text;
  const source = operator === 'in' ? right : keysSource(right);
  return source ? { key, source, body } : undefined;
}

/** `Object.keys(x).forEach((k) => …)` and `Object.entries(x).forEach(([k, v]) => …)`. */
export function forEachKeyLoop(call: SyntaxNode): KeyLoop | undefined {
  const callee = calleeOf(call);
  if (callee?.name !== 'forEach' || !callee.object) return undefined;
  const source = keysSource(callee.object);
  const callback = argumentsOf(call)[0];
  if (!source || !callback) return undefined;
  const cb = unwrap(callback);
  const params = cb.childForFieldName('parameters')?.namedChildren ?? [cb.childForFieldName('parameter')];
  const key = keyName(params[0]);
  const body = cb.childForFieldName('body');
  return key && body ? { key, source, body } : undefined;
}

/** Data from outside the function: a parameter, JSON.parse, request input, or a variable holding one. */
export function isOutsideData(node: SyntaxNode, depth = 0): boolean {
  const n = unwrap(node);
  if (mentionsRequestInput(n) || /^JSON\.parse\s*\(/.test(n.text)) return true;
  if (depth > 3) return false;
  let root = n;
  while (root.type === 'member_expression' || root.type === 'subscript_expression') root = unwrap(root.childForFieldName('object') ?? root);
  if (root.type !== 'identifier') return false;
  const binding = findBinding(root);
  if (!binding) return false;
  if (binding.kind === 'parameter') return true;
  return (
    !!binding.value && isOutsideData(binding.value.type === 'await_expression' ? (binding.value.namedChildren[0] ?? binding.value) : binding.value, depth + 1)
  );
}

/** Assignments `target[key] = …` (also `??=`, `||=`) by the loop's key inside its body. */
export function keyedAssignments(loop: KeyLoop): SyntaxNode[] {
  return loop.body.descendantsOfType(['assignment_expression', 'augmented_assignment_expression']).filter((assignment) => {
    const left = unwrap(assignment.childForFieldName('left') ?? assignment);
    const index = left.type === 'subscript_expression' ? left.childForFieldName('index') : undefined;
    return !!index && unwrap(index).type === 'identifier' && unwrap(index).text === loop.key;
  });
}

/** Index names that denote property keys rather than numeric positions. */
const KEY_LIKE =
  /^(?:k|p|key|prop|property|name|path|field|attr|attribute|section|part|segment|namespace)s?$|[a-z](?:Key|Name|Prop|Property|Path|Field|Attr|Attribute|Section|Segment)s?$/;

/** `obj[section][key] = v`: both indexes dynamic and named like keys (the `ini`-parser pattern). */
export function isNestedKeyedAssignment(assignment: SyntaxNode): boolean {
  const left = unwrap(assignment.childForFieldName('left') ?? assignment);
  if (left.type !== 'subscript_expression') return false;
  const inner = unwrap(left.childForFieldName('object') ?? left);
  if (inner.type !== 'subscript_expression') return false;
  const indexes = [inner.childForFieldName('index'), left.childForFieldName('index')].map((i) => (i ? unwrap(i) : undefined));
  return indexes.every((i) => i?.type === 'identifier' && KEY_LIKE.test(i.text));
}

/**
 * Every name a function is called by: its own name, and the names it is bound to
 * (`var deepExtend = module.exports = function () {…}` is both `deepExtend` and `exports`).
 */
export function functionNames(fn: SyntaxNode): Set<string> {
  const names = new Set<string>();
  const own = fn.childForFieldName('name')?.text;
  if (own) names.add(own);
  for (let current = fn.parent; current; current = current.parent) {
    if (current.type === 'variable_declarator') {
      const name = current.childForFieldName('name');
      if (name?.type === 'identifier') names.add(name.text);
      break;
    }
    if (current.type === 'assignment_expression') {
      const left = current.childForFieldName('left');
      const last = left?.type === 'member_expression' ? left.childForFieldName('property') : left;
      if (last) names.add(last.text);
    } else if (current.type === 'pair' || current.type === 'public_field_definition' || current.type === 'method_definition') {
      const key = current.childForFieldName(current.type === 'pair' ? 'key' : 'name');
      if (key) names.add(key.text);
      break;
    } else if (current.type !== 'parenthesized_expression') break;
  }
  return names;
}

/** `\w` of a pattern without the `u` flag. */
function isWordUnit(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95;
}

/** `\s` of a pattern. */
function isSpaceUnit(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 5760 ||
    (code >= 8192 && code <= 8202) ||
    code === 8232 ||
    code === 8233 ||
    code === 8239 ||
    code === 8287 ||
    code === 12288 ||
    code === 65279
  );
}

/**
 * Whether the text matches `\b([\w$]+)\s*=\s*\1\s*\[` (`cur = cur[key]`). The pattern tried and
 * backtracked every word of every file with a subscript assignment; this looks only around `=`.
 */
export function hasSelfSubscriptAssignment(source: string): boolean {
  const length = source.length;
  for (let eq = source.indexOf('='); eq >= 0; eq = source.indexOf('=', eq + 1)) {
    // The name ends where the blanks before `=` start.
    let end = eq;
    while (end > 0 && isSpaceUnit(source.charCodeAt(end - 1))) end--;
    let value = eq + 1;
    while (value < length && isSpaceUnit(source.charCodeAt(value))) value++;
    // Every start of the name where `\b` holds: the run's start, or a change between `\w` and `$`.
    for (let start = end - 1; start >= 0; start--) {
      const code = source.charCodeAt(start);
      if (!isWordUnit(code) && code !== 36) break;
      if ((start > 0 && isWordUnit(source.charCodeAt(start - 1))) === isWordUnit(code)) continue;
      const size = end - start;
      if (value + size > length) continue;
      let same = true;
      for (let k = 0; k < size && same; k++) same = source.charCodeAt(start + k) === source.charCodeAt(value + k);
      if (!same) continue;
      let after = value + size;
      while (after < length && isSpaceUnit(source.charCodeAt(after))) after++;
      if (source.charCodeAt(after) === 91) return true;
    }
  }
  return false;
}

/** Expressions that build a new object: a literal, a spread copy, `Object.create(…)`, `Object.assign({}, …)`, `new X()`. */
const FRESH = /^(?:\{|\[|new\s|Object\.create\s*\(|Object\.assign\s*\(\s*\{|structuredClone\s*\()/;

/** The identifier an object path starts from: `tracked.children` → `tracked`. */
function rootIdentifier(node: SyntaxNode): SyntaxNode | undefined {
  let root = unwrap(node);
  while (root.type === 'member_expression' || root.type === 'subscript_expression') root = unwrap(root.childForFieldName('object') ?? root);
  return root.type === 'identifier' ? root : undefined;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `object` (the object a loop writes into) was built by the function itself before the loop:
 * `const out = {}`, `const merged = { ...target }`, `acc = { ...acc }`. Writing `__proto__` into a new
 * object only replaces that object's own prototype; it cannot reach Object.prototype.
 */
export function isFreshObject(object: SyntaxNode, loopStart: number): boolean {
  const root = rootIdentifier(object);
  if (!root) return false;
  const binding = findBinding(root);
  if (binding && binding.kind !== 'parameter' && binding.value && FRESH.test(unwrap(binding.value).text)) return true;
  if (!binding || (binding.kind !== 'parameter' && binding.kind !== 'let' && binding.kind !== 'var')) return false;
  // A reassignment to a new object between the binding and the loop: `acc = { ...acc }`.
  const scope = binding.scope;
  const before = scope.text.slice(0, Math.max(0, loopStart - scope.startIndex));
  return new RegExp(`(?:^|[^\\w$.])${escapeRegExp(root.text)}\\s*=\\s*(?:\\{|\\[|new\\s|Object\\.create\\s*\\(|Object\\.assign\\s*\\(\\s*\\{)`).test(before);
}

/**
 * Whether a call in the loop passes the target's own value by the key (`merge(target[key], …)`,
 * or `toVal` declared as `target[key]`) into the recursion: with the key `__proto__` that value is
 * Object.prototype, and the recursive call writes into it.
 */
export function recursesIntoTarget(call: SyntaxNode, target: SyntaxNode, key: string, body: SyntaxNode): boolean {
  const targetText = unwrap(target).text.replace(/\s+/g, '');
  // `src = target[key]` assigned in the loop (deep-extend 0.5 declares `var src` outside it).
  const assignedInLoop = (name: string): boolean =>
    new RegExp(`(?:^|[^\\w$.])${escapeRegExp(name)}\\s*=\\s*${escapeRegExp(unwrap(target).text)}\\s*\\[\\s*${escapeRegExp(key)}\\s*\\]`).test(body.text);
  const isTargetByKey = (node: SyntaxNode): boolean => {
    let n = unwrap(node);
    if (n.type === 'augmented_assignment_expression' || n.type === 'assignment_expression') n = unwrap(n.childForFieldName('left') ?? n);
    if (n.type === 'subscript_expression') {
      const index = n.childForFieldName('index');
      return !!index && unwrap(index).text === key && unwrap(n.childForFieldName('object') ?? n).text.replace(/\s+/g, '') === targetText;
    }
    if (n.type === 'identifier') {
      const binding = findBinding(n);
      return (!!binding?.value && binding.kind !== 'parameter' && isTargetByKey(binding.value)) || assignedInLoop(n.text);
    }
    return false;
  };
  return argumentsOf(call).some(isTargetByKey);
}

/** Whether the loop writes into the very object whose keys it walks (`m[key] = f(m[key])`): those keys are its own. */
export function writesIntoSource(object: SyntaxNode, source: SyntaxNode): boolean {
  return unwrap(object).text.replace(/\s+/g, '') === unwrap(source).text.replace(/\s+/g, '');
}

/**
 * An own-property test of the target before the recursion (`Object.hasOwn(target, key)`,
 * `target.hasOwnProperty(key)`): no object has `__proto__` as its own property unless input put it there.
 */
export function checksTargetOwnKey(body: SyntaxNode, target: SyntaxNode, key: string): boolean {
  const t = escapeRegExp(unwrap(target).text);
  const k = escapeRegExp(key);
  return new RegExp(`(?:hasOwn(?:Property)?(?:\\.call)?\\s*\\(\\s*${t}\\s*,\\s*${k}\\s*\\)|${t}\\.hasOwnProperty\\s*\\(\\s*${k}\\s*\\))`).test(body.text);
}
