// Publishes the test suite's measurements: structural and actual coverage, assertion density,
// test-to-code ratio and the share of test files that use test doubles. Reports no issues.
import { defineRule } from '@codehealth/engine/kit';
import { resolveTestSuite } from '../shared/assertion-resolution.js';
import { loadCoverage } from '../shared/coverage-reports/load-coverage.js';
import { structuralCoverage } from '../shared/structural-coverage.js';
import { isSourceCode, isTestCode } from '../shared/test-code.js';

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

export const testSuiteMetrics = defineRule({
  kind: 'repository',
  meta: {
    id: 'test-suite-metrics',
    description: 'Measures the test suite: structural and actual coverage, assertion density, test-to-code ratio, mock usage',
    category: 'testing',
    severity: 'info',
    confidence: 100,
    docs: {
      whyItMatters:
        'Coverage, assertion density and the amount of test code tell how much of the code a change can break ' +
        'without any test noticing; following them over time shows whether the safety net keeps up with the code.',
      suggestedAction:
        'Add tests for the modules no test reaches, give every test case assertions, and run the tests with ' +
        'coverage (lcov or Istanbul json-summary) so that actual coverage replaces the structural estimate.',
    },
  },
  async analyze(context) {
    const { summaries, graph } = context;
    const structure = structuralCoverage(summaries, graph);
    context.metric('structuralCoveragePct', structure.modulePct ?? null);
    context.metric('sourceModules', structure.sourceModules.length);
    context.metric('testedSourceModules', structure.reachedSourceModules);
    context.metric('exportedFunctions', structure.exportedFunctions);
    context.metric('exercisedExportedFunctions', structure.exercisedFunctions);
    context.metric('exportedFunctionCoveragePct', structure.functionPct ?? null);

    const suite = resolveTestSuite(summaries, graph);
    const assertions = suite.tests.reduce((sum, test) => sum + test.effectiveAssertions, 0);
    context.metric('testFiles', suite.files.length);
    context.metric('testCases', suite.tests.length);
    context.metric('assertions', assertions);
    context.metric('assertionDensity', suite.tests.length === 0 ? null : round(assertions / suite.tests.length, 2));

    // Helper modules and manual mocks are test code but hold no test cases: the share is of files that test.
    const testingFiles = suite.files.filter(({ facts }) => (facts?.tests.length ?? 0) > 0);
    const withMocks = testingFiles.filter(({ facts }) => facts!.mocks.length > 0).length;
    context.metric('testFilesWithMocks', withMocks);
    context.metric('mockUsagePct', testingFiles.length === 0 ? null : round((withMocks / testingFiles.length) * 100, 1));

    let testLoc = 0;
    let sourceLoc = 0;
    for (const summary of summaries) {
      if (isTestCode(summary)) testLoc += summary.lines.code;
      else if (isSourceCode(summary)) sourceLoc += summary.lines.code;
    }
    context.metric('testCodeRatio', sourceLoc === 0 ? null : round(testLoc / sourceLoc, 2));

    const coverage = await loadCoverage(context.snapshot);
    context.metric('actualCoveragePercent', coverage.pct);
    context.metric('coverageReports', coverage.reports.length);
  },
});
