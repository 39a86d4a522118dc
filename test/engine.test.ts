// End-to-end: the engine with its default plugin (@codehealth/analyzers, loaded from its sources under
// vitest) on real git repositories, a third-party plugin loaded through a config file, the cache and
// the worker pool. The worker threads and the plain-Node example run the built packages: those tests
// say so when the build is missing (test/helpers/built-packages.ts) instead of passing on nothing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine, renderText, toJsonReport } from '@codehealth/engine';
import { BUILT_FOR_WORKERS, skipWithoutBuild } from './helpers/built-packages.js';
import { createGitRepo } from './helpers/git-repo.js';

const complex = `export function tangled(a: number, b: number, c: number) {
  let total = 0;
  for (let i = 0; i < a; i++) {
    if (i % 2 === 0) {
      for (let j = 0; j < b; j++) {
        if (j > c && i > c) {
          total += i;
        } else if (j === c || i === b) {
          total -= j;
        } else {
          while (total > 100) {
            total = total / 2;
          }
        }
      }
    }
  }
  return total;
}
`;

function fixtureRepo() {
  return createGitRepo({
    'package.json': JSON.stringify({ name: 'fixture', type: 'module' }),
    '.gitignore': 'ignored/\n',
    'src/index.ts': "import { tangled } from './math.js';\nexport const run = () => tangled(1, 2, 3);\n",
    'src/math.ts': complex,
    'src/debug.ts': "export function hello(): void {\n  console.log('hi');\n}\n",
    'src/math.test.ts': "import { tangled } from './math.js';\nif (tangled(0, 0, 0) !== 0) throw new Error('x');\n",
    'ignored/big.ts': complex,
    'dist/bundle.js': complex,
    'assets/logo.bin': Buffer.from([0, 1, 2, 3, 0, 255]),
  });
}

describe('engine end to end', () => {
  it('assesses a real git repository: findings, LOC, classification, graph', async () => {
    const repo = fixtureRepo();
    const engine = await createEngine({ cacheDir: false, workers: 0 });
    const result = await engine.analyze(repo.root);
    const cc = result.findings.filter((f) => f.ruleId === 'code-smell/cognitive-complexity');
    expect(cc).toHaveLength(1);
    expect(cc[0]).toMatchObject({ filePath: 'src/math.ts', symbol: 'tangled', category: 'code_smell', source: 'static_analyzer' });
    expect(cc[0].anchor.lineStart).toBe(1);
    expect(cc[0].anchor.validated).toBe(true);
    expect(cc[0].data?.complexity).toBeGreaterThan(15);
    // ignored/ is gitignored, dist/ is generated: neither is analysed.
    expect(result.summaries.map((s) => s.path).sort()).toEqual(['src/debug.ts', 'src/index.ts', 'src/math.test.ts', 'src/math.ts']);
    expect(result.metrics.totalLinesOfCode).toBe(2 + 19 + 3);
    expect(result.metrics.testLinesOfCode).toBe(2);
    expect(result.metrics.files.generated).toBe(1);
    expect(result.graph.modules.get('src/index.ts')?.imports[0]).toMatchObject({ to: 'src/math.ts', resolution: 'internal' });
    expect(result.scores.categories.code_smell.assessed).toBe(true);
    expect(result.scores.categories.code_smell.score).toBeLessThan(100);
    // Every family is assessed; security found nothing in this code.
    expect(result.scores.categories.security).toMatchObject({ assessed: true, score: 100, findings: 0 });
    expect(result.git.available).toBe(true);
    expect(result.metrics.churn.linesAdded30d).toBeGreaterThan(0);
  });

  it('scores a repository without tests: test coverage assessed and low on structural coverage, no actual coverage', async () => {
    const repo = createGitRepo({
      'package.json': JSON.stringify({ name: 'untested', type: 'module' }),
      'src/index.ts': "import { tangled } from './math.js';\nexport const run = () => tangled(1, 2, 3);\n",
      'src/math.ts': complex,
    });
    const result = await (await createEngine({ cacheDir: false, workers: 0 })).analyze(repo.root);
    const coverage = result.scores.categories.test_coverage;
    expect(coverage.assessed).toBe(true);
    expect(coverage.score).toBeLessThanOrEqual(50);
    expect(coverage.evidence).toEqual([
      { kind: 'findings', analyzers: ['testing'] },
      { kind: 'structural-coverage', value: 0 },
    ]);
    expect(coverage.ledger).toContainEqual({ kind: 'measurement', id: 'structural-coverage', value: 0, cost: 50 });
    expect(result.metrics.actualCoveragePercent).toBeNull();
    expect(toJsonReport(result).assessment.actual_coverage_percent).toBeNull();
    // Production code exists, so there is a grade, and the ledger explains all of it.
    expect(result.scores.overall).not.toBeNull();
    expect(result.scores.ledger!.reduce((sum, e) => sum + Math.round(e.cost * 10), 0)).toBe(Math.round((100 - result.scores.overall!) * 10));
  });

  it('grades production code only: problems planted in benchmarks and examples are reported with their role, counted apart, never in a score', async () => {
    const production = {
      'package.json': JSON.stringify({ name: 'lib', type: 'module' }),
      'src/index.ts': "import { tangled } from './math.js';\nexport const run = () => tangled(1, 2, 3);\n",
      'src/math.ts': complex,
      'src/math.test.ts': "import { tangled } from './math.js';\nif (tangled(0, 0, 0) !== 0) throw new Error('x');\n",
    };
    // weak-crypto judges every role (no-eval, command-injection and others check production code only).
    const planted = `${complex.replace('tangled', 'knotted')}\nimport { createHash } from 'node:crypto';\nexport function hashPassword(password: string) {\n  return createHash('md5').update(password).digest('hex');\n}\n`;
    const engine = await createEngine({ cacheDir: false, workers: 0 });
    const alone = await engine.analyze(createGitRepo(production).root);
    const withOthers = await engine.analyze(createGitRepo({ ...production, 'benchmarks/run.ts': planted, 'examples/demo.ts': planted }).root);
    const elsewhere = withOthers.findings.filter((f) => /^(benchmarks|examples)\//.test(f.filePath));
    expect(new Set(elsewhere.map((f) => f.role))).toEqual(new Set(['benchmark', 'example']));
    expect(elsewhere.some((f) => f.ruleId.startsWith('security/'))).toBe(true);
    expect(withOthers.scores.overall).toBe(alone.scores.overall);
    expect(withOthers.scores.categories).toEqual(alone.scores.categories);
    expect(withOthers.scores.ledger).toEqual(alone.scores.ledger);
    const points = { critical: 10, high: 5, medium: 2, low: 1, info: 0 };
    for (const role of ['benchmark', 'example'] as const) {
      const mine = elsewhere.filter((f) => f.role === role);
      expect(withOthers.scores.nonProduction?.[role]).toMatchObject({ findings: mine.length, points: mine.reduce((sum, f) => sum + points[f.severity], 0) });
    }
    expect(renderText(withOthers)).toMatch(/Outside {2}the grade: .*benchmarks \d+ lines, \d+ issues/);
  });

  it('loads a third-party plugin named in codehealth.config.json on a trusted run, with options and disabled rules', async () => {
    const repo = fixtureRepo();
    repo.write({
      'codehealth.config.json': JSON.stringify({
        plugins: ['codehealth-plugin-no-console'],
        rules: { 'code-smell/cognitive-complexity': 'off', 'no-console/no-console': { severity: 'high' } },
      }),
    });
    const engine = await createEngine({ cacheDir: false, workers: 0 });
    const result = await engine.analyze(repo.root, { allowCodeConfig: true });
    expect(result.findings.map((f) => [f.ruleId, f.filePath, f.anchor.lineStart, f.severity])).toContainEqual([
      'no-console/no-console',
      'src/debug.ts',
      2,
      'high',
    ]);
    expect(result.findings.some((f) => f.ruleId === 'code-smell/cognitive-complexity')).toBe(false);
    expect(result.analyzers.map((a) => a.id)).toContain('no-console');
    // Untrusted (the default): the same config imports nothing, and says so on its line.
    const untrusted = await engine.analyze(repo.root);
    expect(untrusted.analyzers.map((a) => a.id)).not.toContain('no-console');
    expect(untrusted.findings.filter((f) => f.ruleId === 'config/plugin-not-installed').map((f) => f.data?.plugin)).toEqual(['codehealth-plugin-no-console']);
    // A host that installed the plugin runs it for an untrusted repository that enables it.
    const host = await createEngine({ plugins: ['@codehealth/analyzers', 'codehealth-plugin-no-console'], cwd: repo.root, cacheDir: false, workers: 0 });
    const hosted = await host.analyze(repo.root);
    expect(hosted.findings.map((f) => [f.ruleId, f.severity])).toContainEqual(['no-console/no-console', 'high']);
    expect(hosted.findings.some((f) => f.ruleId === 'config/plugin-not-installed')).toBe(false);
  });

  it('re-parses only changed files on the second run (cache by content hash)', async () => {
    const repo = fixtureRepo();
    const cacheDir = mkdtempSync(join(tmpdir(), 'codehealth-cache-'));
    const first = await (await createEngine({ cacheDir, workers: 0 })).analyze(repo.root);
    expect(first.metrics.parse.cachedFiles).toBe(0);
    // A new engine (a new process, in effect) reads the disk cache.
    const second = await (await createEngine({ cacheDir, workers: 0 })).analyze(repo.root);
    expect(second.metrics.parse.cachedFiles).toBe(4);
    expect(second.findings).toEqual(first.findings);
    repo.write({ 'src/debug.ts': "export function hello(): void {\n  console.log('changed');\n}\n" });
    const third = await (await createEngine({ cacheDir, workers: 0 })).analyze(repo.root);
    expect(third.metrics.parse.cachedFiles).toBe(3);
    expect(third.summaries.find((s) => s.path === 'src/debug.ts')?.cached).toBeUndefined();
  });

  // Without the built worker script and analyzers the engine would run both in process and compare a run with itself.
  it.skipIf(skipWithoutBuild('worker threads compared with in process'))('gives identical results with worker threads and in process', async () => {
    // Real code, enough of it for the worker pool (48 files at least): this repository's graph and duplication
    // sources, copied (their fixtures hold deliberate cycles and unresolved imports). Bounds on the repository's
    // own code (no parse error, no cycle, ...) are npm run self-check's (test/self-check).
    const files: Record<string, string> = { 'package.json': JSON.stringify({ name: 'fixture', type: 'module' }) };
    for (const dir of ['packages/engine/src/graph', 'packages/analyzers/src/duplication']) {
      const base = resolve(import.meta.dirname, '..', dir);
      for (const path of readdirSync(base, { recursive: true, encoding: 'utf8' })) {
        if (/\.[mc]?[jt]sx?$/.test(path)) files[`${dir.split('/').pop()}/${path}`] = readFileSync(join(base, path), 'utf8');
      }
    }
    const repo = createGitRepo(files);
    const pooled = await (await createEngine({ cacheDir: false, workers: 2 })).analyze(repo.root);
    const inProcess = await (await createEngine({ cacheDir: false, workers: 0 })).analyze(repo.root);
    expect(pooled.summaries.length).toBeGreaterThanOrEqual(100);
    expect(pooled.findings.length).toBeGreaterThan(0);
    expect(pooled.findings).toEqual(inProcess.findings);
    expect(pooled.metrics.totalLinesOfCode).toBe(inProcess.metrics.totalLinesOfCode);
    expect(pooled.graph.edges).toEqual(inProcess.graph.edges);
    expect(pooled.graph.runtimeCycles).toEqual(inProcess.graph.runtimeCycles);
    expect(pooled.graph.runtimeCycles.length).toBeGreaterThan(0);
  });

  it('reports a missing directory and an invalid config as typed, exposable errors', async () => {
    const engine = await createEngine({ cacheDir: false, workers: 0 });
    await expect(engine.analyze('/nonexistent/dir')).rejects.toMatchObject({ name: 'SnapshotError', message: expect.stringContaining('directory not found') });
    const repo = fixtureRepo();
    repo.write({ 'codehealth.config.json': JSON.stringify({ rules: { 'code-smell/cognitive-complexity': { options: { threshold: -1 } } } }) });
    await expect(engine.analyze(repo.root)).rejects.toMatchObject({ name: 'ConfigError', expose: true });
    repo.write({ 'codehealth.config.json': JSON.stringify({ plugins: ['codehealth-plugin-missing'] }) });
    await expect(engine.analyze(repo.root, { allowCodeConfig: true })).rejects.toMatchObject({
      name: 'PluginLoadError',
      message: expect.stringContaining('not installed'),
    });
  });

  it('stops when aborted', async () => {
    const engine = await createEngine({ cacheDir: false, workers: 0 });
    const controller = new AbortController();
    controller.abort();
    await expect(engine.analyze(fixtureRepo().root, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('examples', () => {
  it.skipIf(skipWithoutBuild('examples/embed (plain Node: the built engine and analyzers)', [BUILT_FOR_WORKERS.engine, BUILT_FOR_WORKERS.analyzers]))(
    'examples/embed prints the scores of a repository',
    () => {
      const repo = fixtureRepo();
      const out = execFileSync(process.execPath, [resolve(import.meta.dirname, '../examples/embed/analyze.mjs'), repo.root], { encoding: 'utf8' });
      expect(out).toMatch(/^Overall \d+(\.\d)? \([A-F]\) over 24 lines of production code/m);
      expect(out).toMatch(/Code Smells\s+\d/);
      expect(out).toContain('src/math.ts:1 Cognitive Complexity of tangled');
    },
  );

  it('examples/embed depends on @codehealth/engine only, and imports nothing else', () => {
    const dir = resolve(import.meta.dirname, '../examples/embed');
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ private: true, type: 'module', scripts: { start: 'node analyze.mjs' } });
    expect(manifest.dependencies).toEqual({ '@codehealth/engine': '0.1.0' });
    expect(manifest.devDependencies ?? {}).toEqual({});
    const source = readFileSync(join(dir, 'analyze.mjs'), 'utf8');
    const imported = [...source.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)].map(([, specifier]) => specifier);
    expect(imported).toEqual(['@codehealth/engine']);
  });
});
