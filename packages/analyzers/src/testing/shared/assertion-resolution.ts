// Counts each test case's assertions across files: a call to an imported helper counts as an
// assertion when the helper asserts, directly or through other helpers, however many modules and
// re-exports away it is declared.
import type { CodeGraph, FileSummary } from '@codehealth/engine/kit';
import { hasTestFacts, testFactsOf, type TestCaseFact, type TestFileFacts } from './test-facts.js';
import { moduleLookup } from './module-lookup.js';
import { isTestCode } from './test-code.js';

export interface ResolvedTest extends TestCaseFact {
  path: string;
  /** Assertions including calls to helpers that assert. */
  effectiveAssertions: number;
  /** Calls to imported bindings whose code the analysis cannot see (packages, unresolved paths). */
  opaqueCalls: string[];
  /** Calls into repository modules that were not scanned in this run, so whether they assert is unknown. */
  unreadCalls: string[];
}

export interface TestSuiteFacts {
  /** Test files (not fixtures) with their facts, in path order. */
  files: Array<{ summary: FileSummary; facts: TestFileFacts | undefined }>;
  tests: ResolvedTest[];
}

const MAX_REEXPORT_DEPTH = 16;
const memo = new WeakMap<readonly FileSummary[], TestSuiteFacts>();

export function resolveTestSuite(summaries: readonly FileSummary[], graph: CodeGraph): TestSuiteFacts {
  const cached = memo.get(summaries);
  if (cached) return cached;
  const factsByPath = new Map<string, TestFileFacts>();
  const scanned = new Set<string>();
  for (const summary of summaries) {
    if (hasTestFacts(summary)) scanned.add(summary.path);
    const facts = testFactsOf(summary);
    if (facts) factsByPath.set(summary.path, facts);
  }
  // Asserting functions by module and name: no `path\0name` key built per call looked up.
  const asserting = new Map<string, Set<string>>();
  const asserts = (path: string, name: string): boolean => asserting.get(path)?.has(name) === true;
  const markAsserting = (path: string, name: string): void => {
    const names = asserting.get(path);
    if (names) names.add(name);
    else asserting.set(path, new Set([name]));
  };
  // Functions not known to assert yet, in file and declaration order: listed once, not per round below.
  const pending: Array<{ path: string; facts: TestFileFacts; name: string; calls: readonly string[] }> = [];
  for (const [path, facts] of factsByPath) {
    for (const [name, fn] of Object.entries(facts.functions)) {
      if (fn.asserts) markAsserting(path, name);
      else pending.push({ path, facts, name, calls: fn.calls });
    }
  }

  const lookup = moduleLookup(graph);
  const targetOf = (from: string, specifier: string): string | undefined => lookup.importTarget(from, specifier);

  /** Whether export `name` of module `path` is (or forwards to) an asserting function. */
  const exportAsserts = (path: string, name: string, depth = 0): boolean => {
    if (depth > MAX_REEXPORT_DEPTH) return false;
    const module = graph.modules.get(path);
    if (!module) return false;
    const record = lookup.exportRecord(path, name);
    if (record?.from !== undefined) {
      const target = targetOf(path, record.from);
      return target !== undefined && record.importedName !== undefined && exportAsserts(target, record.importedName, depth + 1);
    }
    if (record) return asserts(path, name);
    return module.imports.some((edge) => edge.kind === 're-export-all' && edge.to !== undefined && exportAsserts(edge.to, name, depth + 1));
  };

  /** A call as a test or helper in `path` wrote it: a local function, an import, or `ns.member`. */
  const callAsserts = (path: string, facts: TestFileFacts, call: string): boolean => {
    if (asserts(path, call)) return true;
    const dot = call.indexOf('.');
    const local = dot === -1 ? call : call.slice(0, dot);
    const imported = facts.imports[local];
    if (!imported) return false;
    const target = targetOf(path, imported.specifier);
    if (target === undefined) return false;
    return exportAsserts(target, dot === -1 ? imported.name : call.slice(dot + 1));
  };

  // Helpers calling imported helpers: propagate until nothing changes.
  let changed = true;
  while (changed) {
    changed = false;
    for (const fn of pending) {
      if (asserts(fn.path, fn.name)) continue;
      if (fn.calls.some((call) => callAsserts(fn.path, fn.facts, call))) {
        markAsserting(fn.path, fn.name);
        changed = true;
      }
    }
  }

  const files: TestSuiteFacts['files'] = [];
  for (const summary of summaries) if (isTestCode(summary)) files.push({ summary, facts: factsByPath.get(summary.path) });
  files.sort((a, b) => a.summary.path.localeCompare(b.summary.path));
  // Listed in the files' order, and in line order within a file (the collector's), the tests need
  // no real sorting: the sort below only confirms it (a comparison per test, not n log n of them),
  // with the same result as sorting them in the summaries' order.
  const tests: ResolvedTest[] = [];
  for (const { summary, facts } of files) {
    for (const test of facts?.tests ?? []) {
      const helperAssertions = test.calls.filter((call) => callAsserts(summary.path, facts!, call)).length;
      const opaqueCalls: string[] = [];
      const unreadCalls: string[] = [];
      for (const call of test.calls) {
        const imported = facts!.imports[call.split('.')[0]];
        if (imported === undefined) continue;
        const target = targetOf(summary.path, imported.specifier);
        if (target === undefined) opaqueCalls.push(call);
        // The collector did not run on the module (outside a pull request's paths): it may hold an asserting helper.
        else if (!scanned.has(target)) unreadCalls.push(call);
      }
      tests.push(resolvedTest(test, summary.path, test.assertions + helperAssertions, opaqueCalls, unreadCalls));
    }
  }
  tests.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
  const result = { files, tests };
  memo.set(summaries, result);
  return result;
}

/**
 * The test's fact with what resolution found, field by field: spreading the fact (`{ ...test }`)
 * cost ~5 µs a test, because facts arrive structured-cloned from the file workers or read from the
 * cache, and object spread takes V8's slow path on such objects (most of this function's time on
 * the large corpus). Same fields, in the same order.
 */
function resolvedTest(test: TestCaseFact, path: string, effectiveAssertions: number, opaqueCalls: string[], unreadCalls: string[]): ResolvedTest {
  const { name, line, endLine, assertions, calls, exempt } = test;
  const resolved: TestCaseFact = { name, line, endLine, assertions, calls };
  if (exempt !== undefined) resolved.exempt = exempt;
  return Object.assign(resolved, { path, effectiveAssertions, opaqueCalls, unreadCalls });
}
