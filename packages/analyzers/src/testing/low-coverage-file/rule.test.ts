import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type TestRepo } from '../../../../../test/helpers/git-repo.js';
import { analyzeDirectory, analyzeFiles, type MiniRepoRun } from '../fixtures/mini-repo.js';
import { uncoveredRanges } from './rule.js';

const MATH = `export function add(a, b) {
  return a + b;
}

export function clamp(value, min, max) {
  if (value < min) {
    return min;
  }
  if (value > max) {
    return max;
  }
  return value;
}

export function describeNumber(n) {
  const parts = [];
  parts.push(n < 0 ? 'negative' : 'positive');
  parts.push(n % 2 === 0 ? 'even' : 'odd');
  return parts.join(' ');
}
`;

/** A real lcov report: the repository's tests run by node --test with its coverage reporter. */
function runNodeCoverage(repo: TestRepo): string | undefined {
  mkdirSync(join(repo.root, 'coverage'));
  try {
    execFileSync(
      process.execPath,
      ['--test', '--experimental-test-coverage', '--test-reporter=lcov', '--test-reporter-destination=coverage/lcov.info', 'test/'],
      { cwd: repo.root, stdio: 'pipe', timeout: 60_000 },
    );
  } catch (error) {
    return `node --test with the lcov reporter failed: ${String((error as { stderr?: Buffer }).stderr ?? error).split('\n')[0]}`;
  }
  return existsSync(join(repo.root, 'coverage/lcov.info')) ? undefined : 'node --test wrote no lcov report';
}

describe('testing/low-coverage-file with a report written by node --test', () => {
  let repo: TestRepo;
  let skipped: string | undefined;
  let run: MiniRepoRun;
  beforeAll(async () => {
    repo = createGitRepo({
      'package.json': '{ "name": "mini", "type": "module" }\n',
      '.gitignore': 'coverage/\n',
      'src/math.js': MATH,
      'test/math.test.js':
        "import { test } from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../src/math.js';\n" +
        "test('adds', () => {\n  assert.equal(add(1, 2), 3);\n});\n",
    });
    skipped = runNodeCoverage(repo);
    if (skipped) console.warn(`SKIPPED: ${skipped}`);
    else run = await analyzeDirectory(repo.root);
  });
  afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

  it('reads the gitignored report and anchors the finding on the longest uncovered range', (context) => {
    if (skipped) return context.skip();
    const [finding, ...rest] = run.findings('low-coverage-file');
    expect(rest).toEqual([]);
    // V8 counts the lines a module evaluates (declarations, blank lines) as run: 7 of 20.
    expect(finding.data).toEqual({ coveragePct: 35, linesFound: 20, linesHit: 7, threshold: 50 });
    expect([finding.filePath, finding.severity, finding.confidence, finding.title]).toEqual([
      'src/math.js',
      'low',
      85,
      'math.js has 35% line coverage (threshold 50%)',
    ]);
    // The bodies of clamp (6-13) and describeNumber (16-20) never ran.
    expect([finding.anchor.lineStart, finding.anchor.lineEnd]).toEqual([6, 13]);
    expect(finding.description).toContain('coverage/lcov.info says');
    expect(finding.description).toContain('Uncovered: lines 6-13, 16-20.');
  });

  it('publishes actual coverage over source files only (node instruments the tests too)', (context) => {
    if (skipped) return context.skip();
    expect(run.result.metrics.actualCoveragePercent).toBe(35);
    expect(run.metric('coverageReports')).toBe(1);
  });

  it('lowers confidence when the file changed after the report was written', async (context) => {
    if (skipped) return context.skip();
    const old = new Date('2001-01-01T00:00:00Z');
    utimesSync(join(repo.root, 'coverage/lcov.info'), old, old);
    const [finding] = (await analyzeDirectory(repo.root)).findings('low-coverage-file');
    expect(finding.confidence).toBe(50);
    expect(finding.description).toContain('The file changed after the report was written');
  });
});

describe('testing/low-coverage-file with reports of other formats', () => {
  const lineElements = (hits: number[]) => hits.map((h, i) => `<line number="${i + 1}" hits="${h}"/>`).join('');
  const body = (n: number) => Array.from({ length: n }, (_, i) => `export const v${i} = ${i};`).join('\n');
  const files: Record<string, string> = {
    'package.json': '{ "private": true, "workspaces": ["packages/*"] }\n',
    'packages/a/package.json': '{ "name": "a" }\n',
    'packages/a/src/low.ts': body(20),
    'packages/a/src/high.ts': body(10),
    'packages/b/package.json': '{ "name": "b" }\n',
    'packages/b/src/tiny.ts': body(4),
    'packages/b/src/mid.ts': body(12),
    // Written on a CI machine: absolute paths of another checkout.
    'packages/a/coverage/coverage-summary.json': JSON.stringify({
      total: { lines: { total: 30, covered: 14, pct: 46.67 } },
      '/home/ci/work/packages/a/src/low.ts': { lines: { total: 20, covered: 4, pct: 20 } },
      '/home/ci/work/packages/a/src/high.ts': { lines: { total: 10, covered: 10, pct: 100 } },
    }),
    'packages/b/coverage/cobertura-coverage.xml':
      `<coverage lines-valid="16" lines-covered="8"><sources><source>/home/ci/work/packages/b</source></sources><packages><package><classes>` +
      `<class filename="src/tiny.ts"><lines>${lineElements([0, 0, 0, 0])}</lines></class>` +
      `<class filename="src/mid.ts"><lines>${lineElements([1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0])}</lines></class>` +
      `</classes></package></packages></coverage>`,
  };

  it('merges the reports of workspace packages, maps paths by suffix, and skips files under minLines', async () => {
    const run = await analyzeFiles(files);
    expect(run.findings('low-coverage-file').map((f) => [f.filePath, f.anchor.lineStart, f.title])).toEqual([
      ['packages/a/src/low.ts', 1, 'low.ts has 20% line coverage (threshold 50%)'],
    ]);
    expect(run.result.metrics.actualCoveragePercent).toBe(47.8);
    expect(run.metric('coverageReports')).toBe(2);
  });

  it('takes the threshold and minLines from the options', async () => {
    const run = await analyzeFiles(files, undefined, { rules: { 'testing/low-coverage-file': { options: { threshold: 70, minLines: 1 } } } });
    expect(run.findings('low-coverage-file').map((f) => [f.filePath, f.anchor.lineStart, f.anchor.lineEnd])).toEqual([
      ['packages/a/src/low.ts', 1, 1],
      ['packages/b/src/mid.ts', 9, 12],
      ['packages/b/src/tiny.ts', 1, 4],
    ]);
  });

  it('judges the coverage of production files only: a benchmark or an example the tests do not run is not under-tested', async () => {
    const lcov = (path: string, hit: number) =>
      `SF:${path}\n${Array.from({ length: 20 }, (_, i) => `DA:${i + 1},${i < hit ? 1 : 0}`).join('\n')}\nLF:20\nLH:${hit}\nend_of_record\n`;
    const run = await analyzeFiles({
      'src/low.ts': body(20),
      'benchmarks/suite.ts': body(20),
      'examples/basic.ts': body(20),
      'coverage/lcov.info': lcov('src/low.ts', 4) + lcov('benchmarks/suite.ts', 0) + lcov('examples/basic.ts', 0),
    });
    expect(run.findings('low-coverage-file').map((f) => f.filePath)).toEqual(['src/low.ts']);
  });

  it('reports nothing and publishes no actual coverage without a report', async () => {
    const run = await analyzeFiles({ 'src/a.ts': body(20) });
    expect(run.findings('low-coverage-file')).toEqual([]);
    expect(run.result.metrics.actualCoveragePercent).toBeNull();
    expect(run.metric('coverageReports')).toBe(0);
  });
});

describe('testing/low-coverage-file with reports behind symbolic links', () => {
  const body = Array.from({ length: 20 }, (_, i) => `export const v${i} = ${i};`).join('\n');
  const lcov = `TN:OUTSIDE-SECRET-c0v\nSF:src/low.ts\n${Array.from({ length: 20 }, (_, i) => `DA:${i + 1},${i < 4 ? 1 : 0}`).join('\n')}\nLF:20\nLH:4\nend_of_record\n`;
  let outside: TestRepo;
  beforeAll(() => {
    outside = createGitRepo({ 'lcov.info': lcov, 'coverage/lcov.info': lcov });
  });
  afterAll(() => rmSync(outside.root, { recursive: true, force: true }));

  it('never reads a report whose link (or whose linked coverage/ directory) leads outside the repository', async () => {
    for (const link of [
      ['coverage/lcov.info', join(outside.root, 'lcov.info')],
      ['coverage', join(outside.root, 'coverage')],
      ['lcov.info', '/proc/self/environ'],
    ]) {
      const repo = createGitRepo({ 'src/low.ts': body });
      mkdirSync(join(repo.root, 'coverage'), { recursive: true });
      if (link[0] === 'coverage') rmSync(join(repo.root, 'coverage'), { recursive: true });
      symlinkSync(link[1], join(repo.root, link[0]));
      repo.commit('link a report');
      const run = await analyzeDirectory(repo.root);
      expect(run.metric('coverageReports'), link[0]).toBe(0);
      expect(run.findings('low-coverage-file')).toEqual([]);
      expect(run.result.metrics.actualCoveragePercent).toBeNull();
      expect(JSON.stringify(run.result)).not.toContain('OUTSIDE-SECRET');
      rmSync(repo.root, { recursive: true, force: true });
    }
  });

  it('reads a report linked to a file inside the repository', async () => {
    const repo = createGitRepo({ 'src/low.ts': body, 'reports/lcov.info': lcov, 'coverage/.keep': '' });
    symlinkSync('../reports/lcov.info', join(repo.root, 'coverage', 'lcov.info'));
    repo.commit('link a report');
    const run = await analyzeDirectory(repo.root);
    expect(run.metric('coverageReports')).toBe(1);
    expect(run.findings('low-coverage-file').map((f) => [f.filePath, f.title])).toEqual([['src/low.ts', 'low.ts has 20% line coverage (threshold 50%)']]);
    rmSync(repo.root, { recursive: true, force: true });
  });
});

describe('uncoveredRanges', () => {
  it('groups consecutive lines', () => {
    expect(uncoveredRanges([1, 2, 3, 7, 9, 10])).toEqual([
      [1, 3],
      [7, 7],
      [9, 10],
    ]);
    expect(uncoveredRanges([])).toEqual([]);
  });
});
