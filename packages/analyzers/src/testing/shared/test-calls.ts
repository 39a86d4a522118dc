// Recognises what test frameworks' calls mean in a syntax tree: test cases, suites, hooks,
// assertions and test doubles (Jest, Vitest, Mocha/Chai, Jasmine, node:test, AVA, tap, Sinon...).
import type { SyntaxNode } from '@codehealth/engine/kit';

export type FrameworkCall = 'test' | 'skipped' | 'suite' | 'hook';

const TEST_ROOTS: ReadonlySet<string> = new Set(['it', 'test', 'specify', 'fit']);
const SKIPPED_TEST_ROOTS: ReadonlySet<string> = new Set(['xit', 'xtest', 'xspecify']);
const SUITE_ROOTS: ReadonlySet<string> = new Set(['describe', 'context', 'suite', 'fdescribe']);
const SKIPPED_SUITE_ROOTS: ReadonlySet<string> = new Set(['xdescribe', 'xcontext']);
const HOOK_ROOTS: ReadonlySet<string> = new Set(['beforeEach', 'afterEach', 'beforeAll', 'afterAll', 'before', 'after', 'suiteSetup', 'suiteTeardown']);
/** `it.only`, `test.each(table)`, `it.skipIf(cond)`, `test.serial`...: still a test that runs. */
const RUNNING_MODIFIERS: ReadonlySet<string> = new Set([
  'only',
  'concurrent',
  'sequential',
  'serial',
  'each',
  'failing',
  'fails',
  'shuffle',
  'skipIf',
  'runIf',
  'for',
  'retry',
]);
const SKIPPING_MODIFIERS: ReadonlySet<string> = new Set(['skip', 'todo']);

/**
 * `expect`, `expectObservable`, `assert`, `assertEquals`, `verify`, `checkWindow` (visual testing);
 * not `expected`, `assertion` or `checkout`.
 */
const ASSERTION_NAME = /^(expect|assert|verify)([A-Z0-9_$]|$)|^check[A-Z0-9_$]/;
const ASSERTION_OBJECTS: ReadonlySet<string> = new Set(['assert', 'expect']);
/** Assertions on the test context of AVA, tap and node:test (`t.is`, `t.deepEqual`, `t.plan`...). */
const CONTEXT_ASSERTIONS: ReadonlySet<string> = new Set([
  'is',
  'not',
  'deepEqual',
  'notDeepEqual',
  'like',
  'true',
  'false',
  'truthy',
  'falsy',
  'throws',
  'throwsAsync',
  'notThrows',
  'notThrowsAsync',
  'regex',
  'notRegex',
  'snapshot',
  'pass',
  'fail',
  'assert',
  'plan',
  'equal',
  'notEqual',
  'strictEqual',
  'notStrictEqual',
  'deepStrictEqual',
  'ok',
  'notOk',
  'same',
  'notSame',
  'strictSame',
  'match',
  'notMatch',
  'has',
  'hasStrict',
  'rejects',
  'resolves',
  'resolveMatch',
  'error',
  'type',
  'matchSnapshot',
]);

/** A callee read from the left: `it.only.each(t)` is `{ root: 'it', path: ['only', 'each'] }`. */
export interface CalleeChain {
  root: string;
  path: string[];
}

export function calleeChain(callee: SyntaxNode | null): CalleeChain | undefined {
  const path: string[] = [];
  let node = callee;
  while (node) {
    if (node.type === 'identifier') return { root: node.text, path: path.reverse() };
    if (node.type === 'member_expression') {
      path.push(node.childForFieldName('property')?.text ?? '');
      node = node.childForFieldName('object');
    } else if (node.type === 'call_expression') {
      node = node.childForFieldName('function');
    } else if (node.type === 'parenthesized_expression' || node.type === 'non_null_expression') {
      node = node.firstNamedChild;
    } else {
      return undefined;
    }
  }
  return undefined;
}

const FUNCTION_VALUES: ReadonlySet<string> = new Set(['arrow_function', 'function_expression', 'function']);

/** The inline function a test, suite or hook call runs; the last function argument. */
export function callbackOf(call: SyntaxNode): SyntaxNode | undefined {
  const args = call.childForFieldName('arguments');
  if (args?.type !== 'arguments') return undefined;
  for (let i = args.namedChildCount - 1; i >= 0; i--) {
    const arg = args.namedChild(i)!;
    if (FUNCTION_VALUES.has(arg.type)) return arg;
  }
  return undefined;
}

/** What a call means to a test framework, or undefined for any other call. */
export function frameworkCallOf(call: SyntaxNode): FrameworkCall | undefined {
  const chain = calleeChain(call.childForFieldName('function'));
  if (!chain) return undefined;
  const { root, path } = chain;
  const isTest = TEST_ROOTS.has(root) || SKIPPED_TEST_ROOTS.has(root);
  const isSuite = SUITE_ROOTS.has(root) || SKIPPED_SUITE_ROOTS.has(root);
  const isHook = HOOK_ROOTS.has(root) && path.length === 0;
  if (!isTest && !isSuite && !isHook) return undefined;
  if (!path.every((name) => RUNNING_MODIFIERS.has(name) || SKIPPING_MODIFIERS.has(name))) return undefined;
  // `it('pending')` and `it.todo('x')` have no body to run.
  if (!callbackOf(call)) return undefined;
  if (isHook) return 'hook';
  const skipped = SKIPPED_TEST_ROOTS.has(root) || SKIPPED_SUITE_ROOTS.has(root) || path.some((name) => SKIPPING_MODIFIERS.has(name));
  if (skipped) return 'skipped';
  return isTest ? 'test' : 'suite';
}

/** Titles that are expressions (`describe(SomeClass, …)`) are cut to this many characters. */
const MAX_TITLE = 60;

/** The title a test or suite call gives, for symbols and messages. */
export function titleOf(call: SyntaxNode): string {
  const first = call.childForFieldName('arguments')?.namedChild(0);
  if (!first) return '(untitled)';
  if (first.type === 'string' || first.type === 'template_string') return first.text.slice(1, -1);
  return first.text.length > MAX_TITLE ? `${first.text.slice(0, MAX_TITLE - '...'.length)}...` : first.text;
}

/** The name of a test callback's first parameter when it is a plain identifier (`done`, `t`). */
export function firstParameterName(callback: SyntaxNode): string | undefined {
  const single = callback.childForFieldName('parameter');
  if (single) return single.type === 'identifier' ? single.text : undefined;
  const first = callback.childForFieldName('parameters')?.namedChildren.find((child) => child.type !== 'comment');
  if (!first) return undefined;
  const pattern = first.type === 'identifier' ? first : first.childForFieldName('pattern');
  return pattern?.type === 'identifier' ? pattern.text : undefined;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * A callee read from its text, which costs one native call where walking its nodes costs many (the
 * collector sees every call of every test file). `a.b?.c` gives property `c` and object `a.b`.
 */
export interface CalleeText {
  text: string;
  identifier?: string;
  property?: string;
  object?: string;
}

const MEMBER_END = /\??\.\s*(#?[A-Za-z_$][\w$]*)$/;

/** Reads a callee's text: an identifier, a member access (`expect(a).toBe`), or nothing of use (`f()()`). */
export function readCalleeText(text: string): CalleeText | undefined {
  if (IDENTIFIER.test(text)) return { text, identifier: text };
  const member = MEMBER_END.exec(text);
  return member ? { text, property: member[1], object: text.slice(0, member.index).trim() } : undefined;
}

/** The last name of an object's text: `assert` in `sinon.assert`, none in `expect(a)`. */
function lastName(object: string): string | undefined {
  const name = object.slice(object.lastIndexOf('.') + 1).trim();
  return IDENTIFIER.test(name) ? name : undefined;
}

/** The object's text when it is a plain identifier. */
export function plainObject(callee: CalleeText): string | undefined {
  return callee.object !== undefined && IDENTIFIER.test(callee.object) ? callee.object : undefined;
}

/**
 * `x.should.equal(1)`, `x.should.have.property('a')`: `should` in the member chain after the last
 * call, so that `x.should.have.property('a').that.equals(1)` counts once.
 */
const SHOULD_CHAIN = /(^|\.)\s*should\s*\./;

/**
 * Whether a call asserts. Each assertion counts once: in `expect(a).toBe(b)` only `expect(a)`
 * does, in `assert.equal(a, b)` the call itself. `bindings` are local names imported from
 * assertion libraries (`import { strictEqual } from 'node:assert'`); `context` is the test
 * callback's parameter (`t` in AVA, tap and node:test).
 */
export function isAssertionCallee(callee: CalleeText, bindings: ReadonlySet<string>, context?: string): boolean {
  if (callee.identifier !== undefined) return ASSERTION_NAME.test(callee.identifier) || bindings.has(callee.identifier);
  const property = callee.property!;
  if (ASSERTION_NAME.test(property)) return true;
  const object = plainObject(callee);
  const objectName = object ?? lastName(callee.object!);
  if (objectName !== undefined && ASSERTION_OBJECTS.has(objectName)) return true;
  if (object !== undefined && (bindings.has(object) || (object === context && CONTEXT_ASSERTIONS.has(property)))) return true;
  return SHOULD_CHAIN.test(callee.text.slice(callee.text.lastIndexOf(')') + 1));
}

/** Callees that may be a test framework's: only these are read node by node. */
export const FRAMEWORK_CALLEE =
  /^(it|test|specify|fit|xit|xtest|xspecify|describe|context|suite|fdescribe|xdescribe|xcontext|beforeEach|afterEach|beforeAll|afterAll|before|after|suiteSetup|suiteTeardown)\b/;

/**
 * Comments that are type-level assertions checked by the compiler or dtslint (`$ExpectType`,
 * `$ExpectError`, `$ExpectDeprecation`, `$ExpectNoDeprecation`).
 */
export const TYPE_ASSERTION_COMMENT = /@ts-expect-error|\$Expect[A-Z]\w*/;
