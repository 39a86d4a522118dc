// The testing analyzer on real code bases: rxjs 7.8.2 as published (sources without their specs)
// with what it finds stated exactly.
// This repository's own code is npm run self-check's (test/self-check/own-findings.test.ts).
import { beforeAll, describe, expect, it } from 'vitest';
import { obtainRxjs } from '../../../../test/helpers/corpora.js';
import { analyzeDirectory, type MiniRepoRun } from './fixtures/mini-repo.js';

describe('testing analyzer on rxjs 7.8.2 (npm package)', () => {
  let run: MiniRepoRun | undefined;
  beforeAll(async () => {
    const corpus = obtainRxjs();
    if (corpus.error !== undefined) console.warn(`SKIPPED: ${corpus.error}`);
    else run = await analyzeDirectory(corpus.root);
  });

  it('finds no test files, so one finding says so instead of 240 untested modules', (context) => {
    if (!run) return context.skip();
    expect(run.result.findings.map((f) => [f.ruleId, f.filePath, f.title])).toEqual([
      ['testing/untested-module', 'package.json', 'No test files in the repository'],
    ]);
    expect(run.result.findings[0].description).toContain('None of the 240 source modules is loaded by a test');
  });

  it('measures 0% structural coverage and leaves test ratios out', (context) => {
    if (!run) return context.skip();
    const { metrics } = run.result;
    expect([metrics.structuralCoveragePct, metrics.testCodeRatio, metrics.assertionDensity, metrics.mockUsagePct, metrics.actualCoveragePercent]).toEqual([
      0,
      0,
      undefined,
      undefined,
      null,
    ]);
    // 240 modules with code to run of 251 .ts files (the rest are type-only or barrels); 205 exported functions.
    expect([run.metric('sourceModules'), run.metric('exportedFunctions'), run.metric('testCases')]).toEqual([240, 205, 0]);
  });
});
