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
}

function escapeRegExp(text: string): string {
  return text.replace(/[$()*+.?[\\\]^{|}]/g, '\\$&');
}

/** `done()`, `subscribe(done)`, `{ complete: done }`: the parameter used as a value, not as `t.is`. */
function usesParameterBare(callback: SyntaxNode, param: string): boolean {
  const body = callback.childForFieldName('body');
  if (!body) return false;
  return new RegExp(`(^|[^\\w$.])${escapeRegExp(param)}(?![\\w$])(?!\\s*\\.)`).test(body.text);
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
        assertions: build.assertions + calls.filter(assertingLocal).length,
        calls: calls.filter((call) => !assertingLocal(call)),
      };
      if (build.param !== undefined && (CALLBACK_NAMES.has(build.param) || usesParameterBare(build.callback, build.param))) {
        fact.exempt = 'callback';
      } else if (hookAsserted(build.suite)) {
        fact.exempt = 'hook';
      }
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
