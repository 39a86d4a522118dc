// What makes a call's result a promise, from syntax alone: a same-file async function or method,
// a promise API of Node or the platform, `new Promise`, an async IIFE or a `.then()` chain.
import { unwrapParentheses } from '@codehealth/engine/kit';
import type { SyntaxNode } from '@codehealth/engine/kit';
import { bodyCatchesEverything } from '../shared/guards.js';
import { resolveName, type Binding } from '../shared/scope.js';
import { calleeOf, isAsyncFunction, memberObject, propertyName, stringLiteralValue } from '../shared/syntax.js';

export interface PromiseSource {
  /** How the statement is described in the finding: `loadUser()`, `fetch()`, `new Promise()`. */
  label: string;
  /** Why this is a promise, for the description. */
  reason: string;
  confidence: number;
}

/** Promise-returning functions of Node's `<name>/promises` modules (sync helpers and iterators left out). */
const PROMISE_MODULE_FUNCTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  fs: new Set(
    'access appendFile chmod chown copyFile cp lchmod lchown link lstat lutimes mkdir mkdtemp open opendir readFile readdir readlink realpath rename rm rmdir stat statfs symlink truncate unlink utimes writeFile'.split(
      ' ',
    ),
  ),
  stream: new Set(['pipeline', 'finished']),
  timers: new Set(['setTimeout', 'setImmediate']),
  dns: new Set('lookup lookupService resolve resolve4 resolve6 resolveAny resolveCname resolveMx resolveNs resolveSrv resolveTxt reverse'.split(' ')),
};

const PROMISE_STATICS: ReadonlySet<string> = new Set(['all', 'race', 'any', 'reject']);
const FUNCTION_VALUES: ReadonlySet<string> = new Set(['arrow_function', 'function_expression']);

/** `fs/promises`, `node:fs/promises`, … → `fs`. */
function promisesModule(specifier: string | undefined): string | undefined {
  const match = /^(?:node:)?(fs|stream|timers|dns)\/promises$/.exec(specifier ?? '');
  return match?.[1];
}

/** `fs`, `node:fs`, … → `fs` (for `fs.promises` and `{ promises } from 'fs'`). */
function baseModule(specifier: string | undefined): string | undefined {
  const match = /^(?:node:)?(fs|dns)$/.exec(specifier ?? '');
  return match?.[1];
}

function importSource(binding: Binding): string | undefined {
  let statement: SyntaxNode | null = binding.node;
  while (statement && statement.type !== 'import_statement') statement = statement.parent;
  const source = statement?.childForFieldName('source');
  return source ? stringLiteralValue(source) : undefined;
}

/** `require('x')` → `x`. */
function requiredModule(value: SyntaxNode | undefined): string | undefined {
  if (value?.type !== 'call_expression' || calleeOf(value)?.text !== 'require') return undefined;
  const arg = value.childForFieldName('arguments')?.namedChildren[0];
  return arg ? stringLiteralValue(arg) : undefined;
}

/**
 * The `<name>/promises` module a name stands for: `import fsp from 'fs/promises'`, `import * as fsp`,
 * `import { promises as fsp } from 'fs'`, `const fsp = require('fs/promises')` or `require('fs').promises`.
 */
function promisesNamespace(name: string, at: SyntaxNode): string | undefined {
  const binding = resolveName(name, at);
  if (!binding) return undefined;
  if (binding.kind === 'import') {
    const source = importSource(binding);
    if (binding.node.type === 'import_specifier') {
      const imported = binding.node.childForFieldName('name')?.text;
      return imported === 'promises' ? baseModule(source) : undefined;
    }
    return promisesModule(source);
  }
  if (binding.kind !== 'const' || !binding.value) return undefined;
  const value = unwrapParentheses(binding.value);
  if (value.type === 'member_expression' && propertyName(value) === 'promises') {
    return baseModule(requiredModule(memberObject(value)));
  }
  return promisesModule(requiredModule(value));
}

/** A namespace of a base module: `import fs from 'fs'`, `import * as fs from 'node:fs'`, `const fs = require('fs')`. */
function baseNamespace(name: string, at: SyntaxNode): string | undefined {
  const binding = resolveName(name, at);
  if (binding?.kind === 'import' && binding.node.type !== 'import_specifier') return baseModule(importSource(binding));
  if (binding?.kind === 'const' && binding.value) return baseModule(requiredModule(unwrapParentheses(binding.value)));
  return undefined;
}

function fromPromisesModule(callee: SyntaxNode, call: SyntaxNode): PromiseSource | undefined {
  let module: string | undefined;
  let fn: string | undefined;
  if (callee.type === 'identifier') {
    const binding = resolveName(callee.text, call);
    if (binding?.kind !== 'import' || binding.node.type !== 'import_specifier') return undefined;
    module = promisesModule(importSource(binding));
    fn = binding.node.childForFieldName('name')?.text;
  } else if (callee.type === 'member_expression') {
    fn = propertyName(callee);
    const object = memberObject(callee);
    if (object?.type === 'identifier') module = promisesNamespace(object.text, call);
    else if (object?.type === 'member_expression' && propertyName(object) === 'promises') {
      const base = memberObject(object);
      if (base?.type === 'identifier') module = baseNamespace(base.text, call);
    }
  }
  if (!module || !fn || !PROMISE_MODULE_FUNCTIONS[module]?.has(fn)) return undefined;
  return { label: `${callee.text}()`, reason: `\`${fn}\` of \`${module}/promises\` returns a promise`, confidence: 95 };
}

/** The async function a binding declares; `let`/`var` bindings can be reassigned, so only `const` counts. */
function asyncFunctionOf(binding: Binding | undefined): SyntaxNode | undefined {
  if (!binding) return undefined;
  if (binding.kind === 'function' && binding.node.type === 'function_declaration') {
    return isAsyncFunction(binding.node) ? binding.node : undefined;
  }
  if (binding.kind !== 'const' || !binding.value) return undefined;
  const value = unwrapParentheses(binding.value);
  return FUNCTION_VALUES.has(value.type) && isAsyncFunction(value) ? value : undefined;
}

function isStatic(member: SyntaxNode): boolean {
  return member.children.some((child) => child.type === 'static');
}

/** The async method or async-arrow field `name` of a class body or object literal. */
function asyncMember(container: SyntaxNode, name: string, wantStatic: boolean | undefined): SyntaxNode | undefined {
  for (const member of container.namedChildren) {
    let fn: SyntaxNode | null;
    if (member.type === 'method_definition') fn = member;
    else if (member.type === 'public_field_definition' || member.type === 'pair') fn = member.childForFieldName('value');
    else continue;
    const key = member.childForFieldName(member.type === 'pair' ? 'key' : 'name');
    if (key?.text.replace(/^['"]|['"]$/g, '') !== name) continue;
    if (wantStatic !== undefined && isStatic(member) !== wantStatic) continue;
    // A getter, a setter or an overload signature of the same name is not a call target we understand.
    if (member.children.some((child) => child.type === 'get' || child.type === 'set')) return undefined;
    const value = fn ? unwrapParentheses(fn) : undefined;
    return value && (value.type === 'method_definition' || FUNCTION_VALUES.has(value.type)) && isAsyncFunction(value) ? value : undefined;
  }
  return undefined;
}

/** The class body `this` refers to at `at`, and whether it is the class itself (static code). */
function thisClass(at: SyntaxNode): { body: SyntaxNode; isStatic: boolean } | undefined {
  for (let parent = at.parent; parent; parent = parent.parent) {
    if (parent.type === 'arrow_function') continue;
    if (parent.type === 'method_definition' || parent.type === 'public_field_definition' || parent.type === 'class_static_block') {
      const body = parent.parent;
      if (body?.type !== 'class_body') return undefined;
      return { body, isStatic: parent.type === 'class_static_block' || isStatic(parent) };
    }
    if (
      parent.type === 'function_declaration' ||
      parent.type === 'function_expression' ||
      parent.type === 'generator_function' ||
      parent.type === 'generator_function_declaration'
    ) {
      return undefined;
    }
  }
  return undefined;
}

function lineOf(node: SyntaxNode): number {
  return node.startPosition.row + 1;
}

function asyncSource(label: string, fn: SyntaxNode, what: string, confidence: number): PromiseSource | undefined {
  // An async function whose whole body is `try … catch` without rethrow cannot reject in practice.
  if (bodyCatchesEverything(fn)) return undefined;
  return { label, reason: `${what} is declared \`async\` on line ${lineOf(fn)}, so the call returns a promise`, confidence };
}

export interface SourceLookup {
  /** Names declared `async` anywhere in the file: only these are worth resolving. */
  asyncNames: ReadonlySet<string>;
  /** The file mentions a `promises` module at all. */
  mentionsPromisesModule: boolean;
}

export const PROMISE_MODULE_NAMES: ReadonlySet<string> = new Set(Object.values(PROMISE_MODULE_FUNCTIONS).flatMap((names) => [...names]));

function memberCallSource(callee: SyntaxNode, call: SyntaxNode, lookup: SourceLookup): PromiseSource | undefined {
  const method = propertyName(callee);
  const object = memberObject(callee);
  if (!method || !object) return undefined;
  if (method === 'then' || method === 'finally') {
    return { label: `${callee.text}()`, reason: `\`.${method}()\` returns a new promise`, confidence: 85 };
  }
  if (lookup.asyncNames.has(method)) {
    if (object.type === 'this') {
      const owner = thisClass(call);
      const fn = owner && asyncMember(owner.body, method, owner.isStatic);
      if (fn) return asyncSource(`this.${method}()`, fn, `\`${method}\``, 90);
    } else if (object.type === 'identifier') {
      const binding = resolveName(object.text, call);
      let container: SyntaxNode | undefined;
      if (binding?.kind === 'class') container = binding.node.childForFieldName('body') ?? undefined;
      else if (binding?.kind === 'const' && binding.value && unwrapParentheses(binding.value).type === 'object') container = unwrapParentheses(binding.value);
      const fn = container && asyncMember(container, method, binding?.kind === 'class' ? true : undefined);
      if (fn) return asyncSource(`${object.text}.${method}()`, fn, `\`${object.text}.${method}\``, 90);
    }
  }
  if (object.type === 'identifier' && object.text === 'Promise' && PROMISE_STATICS.has(method) && !resolveName('Promise', call)) {
    return {
      label: `Promise.${method}()`,
      reason: `\`Promise.${method}()\` returns a promise that rejects when ${method === 'reject' ? 'it is created' : 'an input rejects'}`,
      confidence: 95,
    };
  }
  if (method === 'fetch' && ['window', 'globalThis', 'self'].includes(object.text)) {
    return { label: `${object.text}.fetch()`, reason: '`fetch()` returns a promise that rejects on network errors', confidence: 90 };
  }
  if (lookup.mentionsPromisesModule && PROMISE_MODULE_NAMES.has(method)) return fromPromisesModule(callee, call);
  return undefined;
}

/** Why `expression` evaluates to a promise, or undefined when syntax cannot tell. */
export function promiseSource(expression: SyntaxNode, lookup: SourceLookup): PromiseSource | undefined {
  const node = unwrapParentheses(expression);
  if (node.type === 'new_expression') {
    const constructor = node.childForFieldName('constructor');
    if (constructor?.text !== 'Promise' || resolveName('Promise', node)) return undefined;
    return { label: 'new Promise()', reason: 'a promise built as a statement is referenced by nobody', confidence: 90 };
  }
  if (node.type !== 'call_expression') return undefined;
  const callee = calleeOf(node);
  if (!callee) return undefined;
  if (FUNCTION_VALUES.has(callee.type)) {
    return isAsyncFunction(callee) && !bodyCatchesEverything(callee)
      ? { label: 'async IIFE', reason: 'an immediately invoked async function returns a promise', confidence: 90 }
      : undefined;
  }
  if (callee.type === 'member_expression') return memberCallSource(callee, node, lookup);
  if (callee.type !== 'identifier') return undefined;
  const name = callee.text;
  if (lookup.asyncNames.has(name)) {
    const fn = asyncFunctionOf(resolveName(name, node));
    return fn ? asyncSource(`${name}()`, fn, `\`${name}\``, 90) : undefined;
  }
  if (name === 'fetch' && !resolveName(name, node)) {
    return { label: 'fetch()', reason: '`fetch()` returns a promise that rejects on network errors', confidence: 90 };
  }
  if (lookup.mentionsPromisesModule && PROMISE_MODULE_NAMES.has(name)) return fromPromisesModule(callee, node);
  return undefined;
}
