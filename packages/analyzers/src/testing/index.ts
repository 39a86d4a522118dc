// The `testing` analyzer: how well the tests cover and check the code (health key test_coverage).
import { defineAnalyzer } from '@codehealth/engine/kit';
import { lowCoverageFile } from './low-coverage-file/rule.js';
import { testFactsCollector } from './shared/test-file-collector.js';
import { testSuiteMetrics } from './test-suite-metrics/rule.js';
import { testsWithoutAssertions } from './tests-without-assertions/rule.js';
import { untestedModule } from './untested-module/rule.js';

export const testing = defineAnalyzer({
  id: 'testing',
  description:
    'Measures structural and actual test coverage, assertion density, test-to-code ratio and mock usage; finds untested modules and tests without assertions',
  categories: ['testing'],
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  rules: [testSuiteMetrics, untestedModule, testsWithoutAssertions, lowCoverageFile],
  collectors: [testFactsCollector],
});
