// Worker threads kept between runs (`keepWorkersMs`) against real threads (the built worker script
// and analyzers): the runs they serve give the results of runs without them, the rules worker
// adopts the summaries it kept instead of being sent them again, a derived run's rules get their
// earlier state and summaries in the worker too, and a kept pool never keeps the process alive.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../di/create-engine.js';
import { TOKENS } from '../di/tokens.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { chainRepoFiles, comparable } from './fixtures/chain-repo.js';
import { contentHashOf } from './analyze-file.js';
import type { WarmWorkers } from './warm-workers.js';
import type { AssessmentResult } from './types.js';
import { skipWithoutBuild } from '../../../../test/helpers/built-packages.js';

const skip = skipWithoutBuild('worker threads kept between runs');

const warmOf = (engine: Engine) => engine.resolve<WarmWorkers>(TOKENS.WarmWorkers);
const options = { allowCodeConfig: false } as const;

/** Edits two modules, adds one and deletes one: the head commit of a derived run. */
function change(repo: TestRepo): { changedPaths: string[] } {
  const files = chainRepoFiles();
  repo.write({
    'src/m3.ts': `${files['src/m3.ts']}export function total(items: number[]) {\n  let total = 0;\n  for (const item of items) {\n    if (item > 10) total += item * 2;\n    else total -= item;\n  }\n  return total > 100 ? total / 2 : total;\n}\n`,
    'src/m9.ts': files['src/m9.ts'].replace('+ 9', '+ 90'),
    'src/extra.ts': "import { step1 } from './m1.js';\nexport const extra = step1(2); // TODO: drop\n",
  });
  repo.git('rm', '-q', 'src/m63.ts');
  return { changedPaths: ['src/m3.ts', 'src/m9.ts', 'src/extra.ts', 'src/m63.ts'] };
}

describe.skipIf(skip)(
  'warm workers',
  () => {
    let repo: TestRepo;
    beforeAll(() => {
      repo = createGitRepo(chainRepoFiles());
    });
    afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

    it('serve the next runs of the engine with the results of runs without them', async () => {
      const baseCommit = repo.git('rev-parse', 'HEAD');
      const warm = await createEngine({ cacheDir: false, workers: 1, keepWorkersMs: 60_000 });
      const alone = await createEngine({ cacheDir: false, workers: 0 });
      try {
        const base = await warm.analyze(repo.root, options);
        expect(comparable(base)).toEqual(comparable(await alone.analyze(repo.root, options)));
        // The rules worker kept every code file's summary.
        const code = base.summaries.filter((s) => !s.skipped);
        expect(code.length).toBeGreaterThan(64);
        expect(warmOf(warm).heldSummaries).toBe(code.length);

        // Summaries of texts: made partly by the kept worker, which keeps what it makes.
        const texts = [1, 2, 3].map((n) => ({
          file: { path: `src/n${n}.ts`, kind: 'source' as const, language: 'typescript' as const, sizeBytes: 0 },
          source: Array.from({ length: n }, (_, k) => `export function n${n}_${k}(a: number) {\n  if (a > ${k}) return a;\n  return -a; // FIXME\n}\n`).join(
            '',
          ),
        }));
        const made = await warm.summarizeSources(repo.root, texts, options);
        expect(made.map((s) => ({ ...s, parse: { ...s.parse, parseMs: 0 } }))).toEqual(
          (await alone.summarizeSources(repo.root, texts, options)).map((s) => ({ ...s, parse: { ...s.parse, parseMs: 0 } })),
        );
        expect(made.map((s) => s.module.exports.length)).toEqual([1, 2, 3]);
        expect(warmOf(warm).taken).toBe(1);
        // The largest text was made there (and kept), the two others here: about as many bytes.
        expect(warmOf(warm).heldSummaries).toBe(code.length + 1);

        // A derived run (a pull request's head) on the kept pool: the same result as without it.
        const { changedPaths } = change(repo);
        const headCommit = repo.commit('change');
        const incremental = { baseCommit, headCommit, changedPaths };
        const head = await warm.analyze(repo.root, { ...options, incremental });
        expect(head.derivedFrom).toBe(baseCommit);
        expect(comparable(head)).toEqual(comparable(await alone.analyze(repo.root, { ...options, incremental })));
        expect(warmOf(warm).taken).toBe(2);
        // Parked again, holding head's summaries: the new and edited files' too.
        expect(warmOf(warm).heldSummaries).toBe(head.summaries.filter((s) => !s.skipped).length);
        expect(head.findings.some((f) => f.filePath === 'src/m3.ts' && f.ruleId === 'duplication/duplicated-code')).toBe(true);
        expect(head.findings.some((f) => f.filePath === 'src/extra.ts' && f.ruleId === 'compliance/debt-marker')).toBe(true);
      } finally {
        await warm.close();
      }
      expect(warmOf(warm).heldSummaries).toBe(0);
    });

    it('serve one of two runs at once (the other runs without them) and stay parked after both', async () => {
      const warm = await createEngine({ cacheDir: false, workers: 1, keepWorkersMs: 60_000 });
      try {
        const first = await warm.analyze(repo.root, options);
        const [a, b] = await Promise.all([warm.analyze(repo.root, options), warm.analyze(repo.root, options)]);
        // The same results; only the second runs found their summaries cached.
        const uncached = (result: AssessmentResult) => {
          const { metrics, summaries, ...rest } = comparable(result);
          return { ...rest, metrics: { ...metrics, parse: { ...metrics.parse, cachedFiles: 0 } }, summaries: summaries.map(({ cached: _cached, ...s }) => s) };
        };
        expect(uncached(a)).toEqual(uncached(first));
        expect(uncached(b)).toEqual(uncached(first));
        expect(warmOf(warm).taken).toBe(1);
        expect(warmOf(warm).heldSummaries).toBe(first.summaries.filter((s) => !s.skipped).length);
      } finally {
        await warm.close();
      }
    });

    it('give a derived run rules in the worker their saved state and the earlier summaries', async () => {
      // A probe plugin: a graph-free rule (the worker claims it first) saving the file count and, on a
      // derived run, reporting what it learns of the earlier run; a graph-reading rule keeps the main
      // thread busy until it has run (a marker file; no fixed pause).
      const dir = mkdtempSync(join(tmpdir(), 'codehealth-probe-'));
      const probe = join(dir, 'probe.mjs');
      const docs = { whyItMatters: 'probe', suggestedAction: 'none' };
      writeFileSync(
        probe,
        `import { isMainThread } from 'node:worker_threads';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
const ran = ${JSON.stringify(join(dir, 'before-ran'))};
const meta = (id) => ({ id, description: id, category: 'compliance', severity: 'info', docs: ${JSON.stringify(docs)} });
const before = {
  kind: 'repository',
  meta: meta('before'),
  async analyze(context) {
    writeFileSync(ran, '');
    context.saveState?.({ files: context.summaries.length });
    if (!context.previous) return;
    for (const path of [...context.previous.changedPaths].sort()) {
      const earlier = await context.previous.summaryBefore(path);
      const title = [path, earlier ? earlier.contentHash : 'none', JSON.stringify(context.previous.state), isMainThread ? 'main' : 'worker'].join(' ');
      context.report({ filePath: 'src/m0.ts', lineStart: 1, title, description: title });
    }
  },
};
// Busy until 'before' has run (or 30 s have passed: then 'before' runs here, and the test says so).
const slow = { kind: 'repository', meta: meta('slow'), async analyze(context) {
  void context.graph;
  for (let i = 0; i < 1500 && !existsSync(ran); i++) await new Promise((r) => setTimeout(r, 20));
  rmSync(ran, { force: true });
} };
export default { name: 'probe', analyzers: [
  { id: 'probe-slow', description: 'slow', categories: ['compliance'], languages: ['typescript'], rules: [slow] },
  { id: 'probe', description: 'probe', categories: ['compliance'], languages: ['typescript'], readsGraph: false, rules: [before] },
] };
`,
      );
      const probeRepo = createGitRepo(chainRepoFiles());
      const engine = await createEngine({ plugins: [probe], cacheDir: false, workers: 1, keepWorkersMs: 60_000 });
      try {
        const baseCommit = probeRepo.git('rev-parse', 'HEAD');
        const m9 = chainRepoFiles()['src/m9.ts'];
        const base = await engine.analyze(probeRepo.root, options);
        const { changedPaths } = change(probeRepo);
        const headCommit = probeRepo.commit('change');
        const head = await engine.analyze(probeRepo.root, { ...options, incremental: { baseCommit, headCommit, changedPaths } });
        expect(warmOf(engine).taken).toBe(1);
        const titles = head.findings.filter((f) => f.ruleId === 'probe/before').map((f) => f.title);
        const state = JSON.stringify({ files: base.summaries.length });
        expect(titles).toEqual([
          `src/extra.ts none ${state} worker`,
          `src/m3.ts ${contentHashOf(chainRepoFiles()['src/m3.ts'])} ${state} worker`,
          `src/m63.ts ${contentHashOf(chainRepoFiles()['src/m63.ts'])} ${state} worker`,
          `src/m9.ts ${contentHashOf(m9)} ${state} worker`,
        ]);
      } finally {
        await engine.close();
        rmSync(probeRepo.root, { recursive: true, force: true });
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('never keep the process alive', () => {
      const engineUrl = new URL('../../dist/index.js', import.meta.url).href;
      const program = [
        `const { createEngine } = await import(${JSON.stringify(engineUrl)});`,
        'const engine = await createEngine({ cacheDir: false, workers: 1, keepWorkersMs: 600_000 });',
        `const result = await engine.analyze(${JSON.stringify(repo.root)}, { allowCodeConfig: false });`,
        "console.log(result.summaries.length, engine.resolve('codehealth:WarmWorkers').heldSummaries);",
      ].join('\n');
      const dir = mkdtempSync(join(tmpdir(), 'codehealth-warm-'));
      try {
        writeFileSync(join(dir, 'run.mjs'), program);
        // Kept for ten minutes, yet the process ends once its work is done (well within the timeout).
        const out = execFileSync(process.execPath, [join(dir, 'run.mjs')], { encoding: 'utf8', timeout: 120_000 });
        const [summaries, held] = out.trim().split(' ').map(Number);
        expect(held).toBeGreaterThan(60);
        expect(held).toBeLessThanOrEqual(summaries);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
  120_000,
);
