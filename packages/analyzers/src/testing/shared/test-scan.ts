// The walk state behind the testing collector: a stack of test, suite and hook calls and of
// helper functions, so each assertion is credited to the test, hook and helper it is written in.
// Test files are full of calls: each costs a few native reads at most (the callee's text), and
// nodes are matched on exit by identity (the walk hands exit handlers the object it entered with).
import { FUNCTION_NODE_TYPES } from '@codehealth/engine/kit';
import type { NodeVisitor, SyntaxNode } from '@codehealth/engine/kit';
import { buildFacts, type Suite, type TestBuild } from './build-test-facts.js';
import { readImportBindings } from './import-bindings.js';
import type { FunctionFact, TestFileFacts } from './test-facts.js';
import {
  callbackOf,
  calleeChain,
  firstParameterName,
  FRAMEWORK_CALLEE,
  frameworkCallOf,
  isAssertionCallee,
  plainObject,
  readCalleeText,
  titleOf,
  TYPE_ASSERTION_COMMENT,
} from './test-calls.js';
import { isAssertionImport, mockCallLabel, mockImportLabel } from './test-libraries.js';

interface Frame {
  kind: 'test' | 'suite' | 'hook' | 'skipped';
  node: SyntaxNode;
  callbackStart: number;
  test?: TestBuild;
  suite: number;
}

/** A function outside tests and hooks: a possible assertion helper. */
interface FunctionFrame {
  node: SyntaxNode;
  /** The callback of a suite: assertions inside are not a helper's. */
  boundary: boolean;
  name?: string | null;
  asserts: boolean;
  calls: Set<string>;
}

/** `t` of `const t = { … }`: the variable an object literal is assigned to. */
function objectVariable(object: SyntaxNode | null): string | null {
  if (object?.type !== 'object') return null;
  const declarator = object.parent;
  const name = declarator?.type === 'variable_declarator' ? declarator.childForFieldName('name') : null;
  return name?.type === 'identifier' ? name.text : null;
}

function functionName(fn: SyntaxNode): string | null {
  const type = fn.type;
  if (type === 'function_declaration' || type === 'generator_function_declaration') return fn.childForFieldName('name')?.text ?? null;
  const parent = fn.parent;
  // A helper object's method, `const t = { equal(a, b) { expect(a).toBe(b) } }` or `{ equal: (a, b) => … }`: `t.equal`.
  const key = type === 'method_definition' ? fn.childForFieldName('name') : parent?.type === 'pair' ? parent.childForFieldName('key') : null;
  if (key) {
    const object = objectVariable(type === 'method_definition' ? parent : parent!.parent);
    return object && key.type === 'property_identifier' ? `${object}.${key.text}` : null;
  }
  if (type === 'method_definition' || parent?.type !== 'variable_declarator') return null;
  const name = parent.childForFieldName('name');
  return name?.type === 'identifier' ? name.text : null;
}

/**
 * A generic function that does nothing at run time (`<A, B>(_: Equal<A, B>): void => { void _; }`):
 * it exists so that the compiler checks its calls' type arguments — a type-level assertion helper.
 */
function isTypeLevelHelper(fn: SyntaxNode): boolean {
  if (!fn.childForFieldName('type_parameters')) return false;
  const body = fn.childForFieldName('body');
  if (body?.type !== 'statement_block') return false;
  return body.namedChildren.every(
    (statement) =>
      statement.type === 'comment' ||
      statement.type === 'empty_statement' ||
      (statement.type === 'expression_statement' &&
        statement.firstNamedChild?.type === 'unary_expression' &&
        statement.firstNamedChild.text.startsWith('void')),
  );
}

/**
 * `mode: 'tests'` records test cases, mocks and helpers of a test file; `mode: 'helpers'` only
 * the asserting functions of a source file that test files may import.
 */
export function createTestScan(mode: 'tests' | 'helpers'): { visitor: NodeVisitor; result(): TestFileFacts } {
  const suites: Suite[] = [{ parent: -1, title: '', hookAsserts: false, hookCalls: new Set() }];
  const frames: Frame[] = [];
  const helpers: FunctionFrame[] = [];
  const functions = new Map<string, FunctionFact & { callSet: Set<string> }>();
  const tests: TestBuild[] = [];
  const imports = new Map<string, { specifier: string; name: string }>();
  const namespaces = new Set<string>();
  const assertionBindings = new Set<string>();
  const mocks = new Set<string>();
  /** Variables holding helper objects whose methods were recorded (`t` of `t.equal`). */
  const helperObjects = new Set<string>();

  const top = (): Frame | undefined => frames[frames.length - 1];
  const currentSuite = (): number => {
    for (let i = frames.length - 1; i >= 0; i--) if (frames[i].kind === 'suite') return frames[i].suite;
    return 0;
  };
  /** The innermost named helper around the current node; names are read only when needed. */
  const innermostHelper = (): FunctionFrame | undefined => {
    for (let i = helpers.length - 1; i >= 0; i--) {
      const frame = helpers[i];
      if (frame.boundary) return undefined;
      if (frame.name === undefined) frame.name = functionName(frame.node);
      if (frame.name !== null) return frame;
    }
    return undefined;
  };
  const suitePath = (id: number): string[] => {
    const titles: string[] = [];
    for (let s = id; s > 0; s = suites[s].parent) titles.unshift(suites[s].title);
    return titles;
  };

  const enterFrameworkCall = (call: SyntaxNode): boolean => {
    const kind = frameworkCallOf(call);
    if (!kind) return false;
    const callback = callbackOf(call)!;
    const callbackStart = callback.startIndex;
    const suite = currentSuite();
    if (kind === 'skipped' || frames.some((frame) => frame.kind === 'skipped')) {
      frames.push({ kind: 'skipped', node: call, callbackStart, suite });
    } else if (kind === 'suite') {
      suites.push({ parent: suite, title: titleOf(call), hookAsserts: false, hookCalls: new Set() });
      frames.push({ kind, node: call, callbackStart, suite: suites.length - 1 });
    } else if (kind === 'hook') {
      frames.push({ kind, node: call, callbackStart, suite });
    } else {
      // A test holding tests (vitest's type tests nest them) is judged by the tests it holds.
      const outer = top();
      if (outer?.kind === 'test') outer.test!.nestedTests = true;
      const test: TestBuild = {
        name: [...suitePath(suite), titleOf(call)].join(' > '),
        line: call.startPosition.row + 1,
        endLine: call.endPosition.row + 1,
        assertions: 0,
        calls: new Set(),
        // `it.each(table)('x', (row) => …)` passes table rows, not a done callback or a test context.
        param: calleeChain(call.childForFieldName('function'))?.path.some((m) => m === 'each' || m === 'for') ? undefined : firstParameterName(callback),
        callback,
        suite,
      };
      frames.push({ kind, node: call, callbackStart, test, suite });
    }
    return true;
  };

  const onCall = (call: SyntaxNode): void => {
    const calleeNode = call.firstChild;
    if (!calleeNode) return;
    const text = calleeNode.text;
    if (mode === 'tests' && FRAMEWORK_CALLEE.test(text) && enterFrameworkCall(call)) return;
    const callee = readCalleeText(text);
    if (!callee) return;
    const frame = top();
    const test = frame?.kind === 'test' ? frame.test : undefined;
    const helper = !frame || frame.kind === 'suite' ? innermostHelper() : undefined;
    if (mode === 'tests') {
      const label = mockCallLabel(callee);
      if (label) mocks.add(label);
    }
    if (isAssertionCallee(callee, assertionBindings, test?.param)) {
      if (test) test.assertions++;
      else if (frame?.kind === 'hook') suites[frame.suite].hookAsserts = true;
      if (helper) helper.asserts = true;
      return;
    }
    // A local function handed to a call (`runTestWithKeepAlive(testOutInBeforeFinish)`) is called by it:
    // when that function asserts, the test does.
    if (test) {
      for (const argument of call.childForFieldName('arguments')?.namedChildren ?? [])
        if (argument.type === 'identifier') (test.passed ??= new Set()).add(argument.text);
    }
    const object = plainObject(callee);
    const name =
      callee.identifier ?? (object !== undefined && (namespaces.has(object) || helperObjects.has(object)) ? `${object}.${callee.property}` : undefined);
    if (name === undefined) return;
    test?.calls.add(name);
    if (frame?.kind === 'hook') suites[frame.suite].hookCalls.add(name);
    helper?.calls.add(name);
  };

  const onTypeDeclaration = (): void => {
    const frame = top();
    if (frame?.kind === 'test') frame.test!.assertions++;
  };
  const visitor: NodeVisitor = {
    call_expression: onCall,
    'call_expression:exit': (call) => {
      const frame = top();
      if (frame?.node !== call) return;
      frames.pop();
      if (frame.test) tests.push(frame.test);
    },
    comment(node) {
      const frame = top();
      if (frame?.kind === 'test' && TYPE_ASSERTION_COMMENT.test(node.text)) frame.test!.assertions++;
    },
    // A type declared in a test body exists for the compiler: `type _ = Expect<Equal<A, B>>`, or the
    // types (aliases, interfaces) a compile-only test builds its case from. The type checker is the assertion.
    type_alias_declaration: onTypeDeclaration,
    interface_declaration: onTypeDeclaration,
    // CommonJS: `const { equal, deepEqual } = require('assert')`.
    variable_declarator(node) {
      const value = node.childForFieldName('value');
      const pattern = node.childForFieldName('name');
      if (value?.type !== 'call_expression' || pattern?.type !== 'object_pattern' || value.childForFieldName('function')?.text !== 'require') return;
      const specifier = value.childForFieldName('arguments')?.namedChildren[0];
      if (specifier?.type !== 'string') return;
      const module = specifier.text.slice(1, -1);
      for (const property of pattern.namedChildren) {
        const imported =
          property.type === 'pair_pattern'
            ? property.childForFieldName('key')?.text
            : property.type === 'shorthand_property_identifier_pattern'
              ? property.text
              : undefined;
        const local = property.type === 'pair_pattern' ? property.childForFieldName('value') : property;
        if (imported && local && (local.type === 'identifier' || local.type === 'shorthand_property_identifier_pattern') && isAssertionImport(module, imported))
          assertionBindings.add(local.text);
      }
    },
    import_statement(node) {
      const read = readImportBindings(node);
      if (!read) return;
      for (const { local, name } of read.bindings) {
        imports.set(local, { specifier: read.specifier, name });
        if (name === '*') namespaces.add(local);
        if (isAssertionImport(read.specifier, name)) assertionBindings.add(local);
      }
      if (mode !== 'tests') return;
      for (const name of read.bindings.length > 0 ? read.bindings.map((b) => b.name) : ['*']) {
        const label = mockImportLabel(read.specifier, name);
        if (label) mocks.add(label);
      }
    },
  };
  // Functions inside tests and hooks belong to them; only the others can be shared helpers.
  const onFunction = (fn: SyntaxNode): void => {
    const frame = top();
    // A generic function declared in a test body (`function _test<D extends Date>(arg: DateArg<D>) { … }`)
    // is compile-only when the test never calls it: the compiler checks the calls inside.
    if (frame?.kind === 'test' && fn.type === 'function_declaration' && fn.childForFieldName('type_parameters')) {
      const name = fn.childForFieldName('name')?.text;
      if (name) (frame.test!.typeOnlyFunctions ??= []).push(name);
    }
    if (frame && frame.kind !== 'suite') return;
    helpers.push({ node: fn, boundary: frame !== undefined && fn.startIndex === frame.callbackStart, asserts: false, calls: new Set() });
  };
  const onFunctionExit = (fn: SyntaxNode): void => {
    const done = helpers[helpers.length - 1];
    if (done?.node !== fn) return;
    helpers.pop();
    if (!done.asserts && isTypeLevelHelper(fn)) done.asserts = true;
    if (!done.asserts && done.calls.size === 0) return;
    const name = done.name === undefined ? functionName(fn) : done.name;
    if (name === null) return;
    const dot = name.indexOf('.');
    if (dot !== -1) helperObjects.add(name.slice(0, dot));
    const known = functions.get(name);
    if (!known) return void functions.set(name, { asserts: done.asserts, calls: [], callSet: new Set(done.calls) });
    known.asserts ||= done.asserts;
    for (const call of done.calls) known.callSet.add(call);
  };
  for (const type of FUNCTION_NODE_TYPES) {
    visitor[type] = onFunction;
    visitor[`${type}:exit`] = onFunctionExit;
  }

  return { visitor, result: () => buildFacts({ mode, suites, tests, functions, imports, mocks }) };
}
