// Turns the collector's walk state into the facts it stores: propagates assertions through the
// file's helpers and hooks, and decides which tests are exempt from asserting themselves.
import type { SyntaxNode } from '@codehealth/engine/kit';
import type { FunctionFact, TestCaseFact, TestFileFacts } from './test-facts.js';

/** A test callback's first parameter with one of these names is a completion callback. */
const CALLBACK_NAMES: ReadonlySet<string> = new Set(['done', 'cb', 'callback', 'next', 'end', 'finish']);

export interface Suite {
  parent: number;
  title: string;
  hookAsserts: boolean;
  hookCalls: Set<string>;
}

export interface TestBuild {
  name: string;
  line: number;
  endLine: number;
  assertions: number;
  calls: Set<string>;
  param?: string;
  callback: SyntaxNode;
  suite: number;
  /** The test holds tests of its own. */
  nestedTests?: boolean;
  /** Generic functions declared in the test body (compile-only when the test never calls them). */
  typeOnlyFunctions?: string[];
  /** Identifiers handed to calls as arguments: a local function among them is called by the callee. */
  passed?: Set<string>;
}

/**
 * A title whose claim is the absence of a throw ("does not throw if…", "should not crash when…",
 * "never throws") or of a type error ("should mount routes with no type errors"): the test says
 * what it checks, and checks it. The no-throw must be the title's first predicate: "creates an
 * observable when the factory does not throw" claims the observable, and is still judged.
 */
const NO_THROW_CLAIM =
  /^(?:(?:it|that)\s+)?(?:(?:should|must|does|do|will|can|shall)\s+not|(?:does|do|should|must|ca|wo|sha)n['’]?t|never)\s+(?:throw|crash|error|fail)(?:s|es|ing)?\b|\b(?:no|without|any)\s+type[\s-]?errors?\b/i;

function escapeRegExp(text: string): string {
  return text.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&');
}

/** `done()`, `subscribe(done)`, `{ complete: done }`: the parameter used as a value, not as `t.is`. */
function usesParameterBare(callback: SyntaxNode, param: string): boolean {
  const body = callback.childForFieldName('body');
  if (!body) return false;
  return new RegExp(`(^|[^\\w$.])${escapeRegExp(param)}(?![\\w$])(?!\\s*\\.)`).test(body.text);
}

/**
 * Assertions the test makes without an assertion call of its own: each generic function it declares
 * and never calls (a compile-only check), and each asserting local function it hands to a call.
 */
function indirectAssertions(build: TestBuild, assertingLocal: (name: string) => boolean): number {
  const typeOnly = build.typeOnlyFunctions?.filter((name) => !build.calls.has(name)).length ?? 0;
  let passed = 0;
  for (const name of build.passed ?? []) if (!build.calls.has(name) && assertingLocal(name)) passed++;
  return typeOnly + passed;
}

/** Why a test needs no assertion of its own, if it needs none. */
function exemptionOf(build: TestBuild, hookAsserted: (suite: number) => boolean): TestCaseFact['exempt'] {
  const cut = build.name.lastIndexOf(' > ');
  const title = cut === -1 ? build.name : build.name.slice(cut + ' > '.length);
  if (build.nestedTests) return 'nested';
  if (NO_THROW_CLAIM.test(title)) return 'no-throw-claim';
  if (build.param !== undefined && (CALLBACK_NAMES.has(build.param) || usesParameterBare(build.callback, build.param))) return 'callback';
  if (hookAsserted(build.suite)) return 'hook';
  return undefined;
}

export function buildFacts(state: {
  mode: 'tests' | 'helpers';
  suites: Suite[];
  tests: TestBuild[];
  functions: Map<string, FunctionFact & { callSet: Set<string> }>;
  imports: Map<string, { specifier: string; name: string }>;
  mocks: Set<string>;
}): TestFileFacts {
  const { suites, functions, imports } = state;
  // Helpers calling helpers: propagate assertions inside the file until nothing changes.
  let changed = true;
  while (changed) {
    changed = false;
    for (const fn of functions.values()) {
      if (fn.asserts) continue;
      if ([...fn.callSet].some((call) => functions.get(call)?.asserts)) fn.asserts = changed = true;
    }
  }
  const assertingLocal = (name: string) => functions.get(name)?.asserts === true;
  const resolvable = (name: string) => functions.has(name) || imports.has(name.split('.')[0]);
  for (const suite of suites) if ([...suite.hookCalls].some(assertingLocal)) suite.hookAsserts = true;
  const hookAsserted = (id: number): boolean => {
    for (let s = id; s >= 0; s = suites[s].parent) if (suites[s].hookAsserts) return true;
    return false;
  };

  const tests: TestCaseFact[] = state.tests
    .sort((a, b) => a.line - b.line)
    .map((build) => {
      const calls = [...build.calls].filter(resolvable);
      const fact: TestCaseFact = {
        name: build.name,
        line: build.line,
        endLine: build.endLine,
        assertions: build.assertions + indirectAssertions(build, assertingLocal) + calls.filter(assertingLocal).length,
        calls: calls.filter((call) => !assertingLocal(call)),
      };
      const exempt = exemptionOf(build, hookAsserted);
      if (exempt) fact.exempt = exempt;
      return fact;
    });

  const functionFacts: Record<string, FunctionFact> = {};
  const usedImports = new Set<string>();
  for (const test of tests) for (const call of test.calls) usedImports.add(call.split('.')[0]);
  for (const [name, fn] of functions) {
    const calls = fn.asserts ? [] : [...fn.callSet].filter(resolvable);
    if (!fn.asserts && (state.mode === 'helpers' || calls.length === 0)) continue;
    functionFacts[name] = { asserts: fn.asserts, calls };
    for (const call of calls) usedImports.add(call.split('.')[0]);
  }
  const importFacts: Record<string, { specifier: string; name: string }> = {};
  for (const local of usedImports) {
    const record = imports.get(local);
    if (record) importFacts[local] = record;
  }
  return { tests, mocks: [...state.mocks].sort(), functions: functionFacts, imports: importFacts };
}
