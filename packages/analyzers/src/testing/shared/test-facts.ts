// The per-file facts the testing collector stores in summaries (JSON: they cross threads and are
// cached on disk), and how repository rules read them back.
import type { FileSummary } from '@codehealth/engine/kit';

/** Collector id; summaries hold the facts under `testing/test-facts`. */
export const TEST_FACTS_COLLECTOR = 'test-facts';
const FACTS_KEY = `testing/${TEST_FACTS_COLLECTOR}`;

export interface TestCaseFact {
  /** Suite titles and the test's title: `math > adds numbers`. */
  name: string;
  line: number;
  endLine: number;
  /** Assertion calls inside the test (helpers not yet counted). */
  assertions: number;
  /** Called local functions and imported bindings (`helper`, `ns.member`): helpers that may assert. */
  calls: string[];
  /**
   * Why the test needs no assertion of its own: it takes a `done`-style callback (the framework
   * fails it when the callback is not called or gets an error), a hook of an enclosing suite
   * asserts, it holds tests of its own (judged one by one), or its title says that not throwing is
   * what it checks.
   */
  exempt?: 'callback' | 'hook' | 'nested' | 'no-throw-claim';
}

export interface FunctionFact {
  /** The function calls an assertion directly (or through a nested callback). */
  asserts: boolean;
  calls: string[];
}

export interface TestFileFacts {
  /** Test cases; empty for source files scanned only for asserting helpers. */
  tests: TestCaseFact[];
  /** Doubles libraries and APIs the file uses (`vi.fn`, `sinon`, `nock`). */
  mocks: string[];
  /** Named functions that assert or call other functions, by local name. */
  functions: Record<string, FunctionFact>;
  /** Imported bindings that tests or functions call: local name → module specifier and imported name. */
  imports: Record<string, { specifier: string; name: string }>;
}

export function testFactsOf(summary: FileSummary): TestFileFacts | undefined {
  const facts = summary.facts[FACTS_KEY];
  return facts === null || facts === undefined ? undefined : (facts as TestFileFacts);
}

/** Whether the collector ran on the file (its result may be null: nothing to record). */
export function hasTestFacts(summary: FileSummary): boolean {
  return Object.prototype.hasOwnProperty.call(summary.facts, FACTS_KEY);
}
