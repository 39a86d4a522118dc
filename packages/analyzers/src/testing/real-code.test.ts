// The testing analyzer on real code bases: rxjs 7.8.2 as published (sources without their specs)
// and this repository (vitest suites), with what it finds stated exactly or within tight bounds.
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { obtainRxjs } from '../../../../test/helpers/corpora.js';
import { analyzeDirectory, type MiniRepoRun } from './fixtures/mini-repo.js';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

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

describe('testing analyzer on this repository', () => {
  let run: MiniRepoRun;
  let tracked: Set<string>;
  beforeAll(async () => {
    tracked = new Set(execFileSync('git', ['ls-files'], { cwd: repositoryRoot, encoding: 'utf8' }).split('\n'));
    run = await analyzeDirectory(repositoryRoot);
  });

  it('finds every committed vitest test asserting, helpers named expect* included', () => {
    const committed = run.findings('tests-without-assertions').filter((f) => tracked.has(f.filePath));
    expect(committed.map((f) => `${f.filePath}:${f.anchor.lineStart} ${f.title}`)).toEqual([]);
    // Hundreds of test cases, each with a few assertions: the suite is measured, not skipped.
    expect(run.metric('testCases')).toBeGreaterThan(290);
    expect(run.result.metrics.assertionDensity).toBeGreaterThan(2);
    expect(run.result.metrics.assertionDensity).toBeLessThan(5);
  });

  it('sees the engine and the CLI loaded by their tests, and no test doubles', () => {
    const untested = run.findings('untested-module').filter((f) => /^packages\/(engine|cli)\//.test(f.filePath));
    expect(untested.map((f) => f.filePath)).toEqual([]);
    expect(run.result.metrics.structuralCoveragePct).toBeGreaterThan(85);
    // The suites run real parsers, git repositories and servers; nothing is mocked.
    expect(run.result.metrics.mockUsagePct).toBe(0);
  });
});
