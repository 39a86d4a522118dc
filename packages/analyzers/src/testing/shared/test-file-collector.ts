// The testing analyzer's collector: during the single walk of each test file it records test
// cases with their assertions, helper functions that assert, calls to imported helpers and the
// use of test doubles. Source files are scanned only when they look like assertion helpers.
import type { Collector, NodeVisitor } from '@codehealth/engine/kit';
import { TEST_FACTS_COLLECTOR, type TestFileFacts } from './test-facts.js';
import { isTestFile } from './test-code.js';
import { createTestScan } from './test-scan.js';

/**
 * Source files worth scanning for asserting helpers (a `testing/` module of a library): they
 * import a test framework's assertions or call `expect(`. `node:assert` in source code is usually
 * a run-time invariant, which must not make the tests that reach it look asserted.
 */
const ASSERTION_HELPER_SOURCE = /from\s+['"](vitest|@jest\/globals|chai|@playwright\/test|expect)['"]|\bexpect\s*\(/;

const NOTHING = { visitor: {} as NodeVisitor, result: (): TestFileFacts | null => null };

export const testFactsCollector: Collector<TestFileFacts | null> = {
  id: TEST_FACTS_COLLECTOR,
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  create({ file, source }) {
    if (file.kind === 'test') return isTestFile(file) ? createTestScan('tests') : NOTHING;
    if (file.kind === 'source' && ASSERTION_HELPER_SOURCE.test(source)) return createTestScan('helpers');
    return NOTHING;
  },
};
