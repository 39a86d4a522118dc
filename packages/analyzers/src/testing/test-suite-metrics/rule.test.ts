import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeFiles, type MiniRepoRun } from '../fixtures/mini-repo.js';

const FILES: Record<string, string> = {
  'src/math.ts': 'export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport function sub(a: number, b: number) {\n  return a - b;\n}\n',
  'src/db.ts': 'export function query() {\n  return [];\n}\n',
  'src/cli.ts': 'export function main() {\n  return 0;\n}\n',
  'src/types.ts': 'export interface Row {\n  id: number;\n}\n',
  // 3 tests, 4 assertions, a double.
  'test/math.test.ts':
    "import { vi } from 'vitest';\nimport { add } from '../src/math.js';\nimport { query } from '../src/db.js';\n" +
    "it('adds', () => {\n  expect(add(1, 2)).toBe(3);\n  expect(add(0, 0)).toBe(0);\n});\n" +
    "it('queries', () => {\n  const spy = vi.fn(query);\n  spy();\n  expect(spy).toHaveBeenCalled();\n});\n" +
    "it('smoke', () => {\n  assert.ok(query());\n});\n",
  // 1 test, 0 assertions, no doubles.
  'test/smoke.test.ts': "import { sub } from '../src/math.js';\nit('runs', () => {\n  sub(1, 1);\n});\n",
  // Test code without tests: counts as test code, not as a test file that could use doubles.
  'test/helpers.ts': 'export const fixture = () => ({ id: 1 });\n',
  // Fixtures are data that tests read: neither tests nor test code, and they load nothing.
  'test/fixtures/sample.ts': "import { main } from '../../src/cli.js';\nmain();\nexport const x = 1;\n",
};

describe('testing/test-suite-metrics on a mini-repository', () => {
  let run: MiniRepoRun;
  beforeAll(async () => {
    run = await analyzeFiles(FILES);
  });

  it('publishes the well-known metrics the scoring reads', () => {
    const { metrics } = run.result;
    // Runtime source modules: math, db, cli (types.ts has none); tests load math and db.
    expect(metrics.structuralCoveragePct).toBe(66.7);
    expect(metrics.assertionDensity).toBe(1);
    // One of the two files with test cases uses a double; helpers.ts has none.
    expect(metrics.mockUsagePct).toBe(50);
    // Test code lines (15 + 4 + 1) over source code lines (6 + 3 + 3 + 3).
    expect(metrics.testCodeRatio).toBe(1.33);
    expect(metrics.actualCoveragePercent).toBeNull();
  });

  it('publishes the counts behind them as analyzer metrics', () => {
    expect(run.result.metrics.analyzerMetrics).toMatchObject({
      'testing.sourceModules': 3,
      'testing.testedSourceModules': 2,
      'testing.exportedFunctions': 4,
      'testing.exercisedExportedFunctions': 3,
      'testing.exportedFunctionCoveragePct': 75,
      'testing.testFiles': 3,
      'testing.testCases': 4,
      'testing.assertions': 4,
      'testing.testFilesWithMocks': 1,
      'testing.coverageReports': 0,
    });
  });

  it('reports no issues of its own', () => {
    expect(run.findings('test-suite-metrics')).toEqual([]);
  });

  it('leaves ratios and shares out when there is nothing to divide by', async () => {
    const empty = await analyzeFiles({ 'src/types.ts': 'export type A = 1;\n' });
    const { metrics } = empty.result;
    expect([metrics.structuralCoveragePct, metrics.assertionDensity, metrics.mockUsagePct, metrics.testCodeRatio]).toEqual([
      undefined,
      undefined,
      undefined,
      0,
    ]);
  });
});
