// Head's run derived from the merge base's recorded state (inventory, content hashes, git
// history) gives what a run reading everything gives: the same findings, graph, churn and PR result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createEngine, type Engine } from '../di/create-engine.js';
import { TOKENS } from '../di/tokens.js';
import { inventoryConfigKey, type RunStateStore } from '../cache/run-state-store.js';
import type { AssessmentResult } from '../pipeline/types.js';
import type { FileSummaryCache } from '../cache/file-summary-cache.js';
import { issueFingerprint } from '../report/issue-id.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { localCheckouts, type CommitCheckout } from './local-checkouts.js';
import { PrAnalysisPipeline } from './pipeline.js';
import { baselineOfResult } from './projection.js';
import type { PullRequestInfo } from './types.js';

const CONFIG = { exclude: ['vendor/**'] };
const BASE = {
  'codehealth.config.json': JSON.stringify(CONFIG),
  'package.json': JSON.stringify({ name: 'shop', version: '1.0.0', type: 'module' }),
  'src/cart.ts':
    "import { price } from './price.js';\n// TODO: handle discounts\nexport function total(items: number[]): number {\n  let sum = 0;\n  for (const item of items) sum += price(item);\n  return sum;\n}\n",
  'src/price.ts': 'export function price(cents: number): number {\n  if (cents == 0) return 0;\n  return cents / 100;\n}\nexport const unusedRate = 0.2;\n',
  'src/old-name.ts': "import { price } from './price.js';\nexport const label = (n: number) => `${price(n)} EUR`;\n",
  'src/gone.ts': 'export function gone(): string {\n  return JSON.parse("{}");\n}\n',
  'src/report.ts':
    "import { total } from './cart.js';\nimport { label } from './old-name.js';\nexport const report = (items: number[]) => label(total(items));\n",
  'src/cart.test.ts': "import { total } from './cart.js';\n// TODO: more cases\nif (total([100]) !== 1) throw new Error('total');\n",
  'vendor/lib.js': 'module.exports = 1;\n',
  'README.md': '# shop\n',
};

let engine: Engine;
let repo: TestRepo;
let pr: PullRequestInfo;
let base: AssessmentResult;
const open: CommitCheckout[] = [];
let stateHits = 0;

beforeAll(async () => {
  engine = await createEngine({ cacheDir: false, workers: 0 });
  const store = engine.resolve<RunStateStore>(TOKENS.RunStates);
  const get = store.get.bind(store);
  store.get = async (commit, key) => {
    const state = await get(commit, key);
    if (state) stateHits++;
    return state;
  };
  repo = createGitRepo(BASE);
  repo.write({ 'src/price.ts': `${BASE['src/price.ts']}export const tax = (n: number) => n * 0.2;\n` });
  repo.commit('price: tax');
  const baseSha = repo.git('rev-parse', 'HEAD');
  repo.git('checkout', '-q', '-b', 'topic');
  repo.write({
    'src/cart.ts': BASE['src/cart.ts'].replace('return sum;', 'if (sum == 0) return JSON.parse("0");\n  return sum;'),
    'src/fresh.ts': "import { total } from './cart.js';\n// FIXME: remove\nexport const fresh = (xs: number[]) => total(xs) * 2;\n",
    'vendor/lib.js': 'module.exports = 2;\n',
    'assets/logo.bin': Buffer.from([0, 1, 2, 3, 0, 255]),
  });
  repo.git('rm', '-q', 'src/gone.ts');
  repo.git('mv', 'src/old-name.ts', 'src/label.ts');
  repo.write({ 'src/report.ts': BASE['src/report.ts'].replace('./old-name.js', './label.js') });
  repo.commit('feat: fresh totals');
  repo.write({ 'src/price.ts': `${BASE['src/price.ts']}export const tax = (n: number) => n * 0.25;\n` });
  const headSha = repo.commit('fix: tax rate');
  repo.git('checkout', '-q', 'main');
  pr = { number: 7, title: 'feat: fresh totals', body: '', baseBranch: 'main', headBranch: 'topic', baseSha, headSha, author: 'Test' };

  const checkout = await localCheckouts(repo.root).checkout(baseSha);
  open.push(checkout);
  base = await engine.analyze(checkout.path, { allowCodeConfig: false });
});
afterAll(async () => {
  for (const checkout of open) await checkout.dispose();
});

async function headCheckout(): Promise<CommitCheckout> {
  const checkout = await localCheckouts(repo.root).checkout(pr.headSha);
  open.push(checkout);
  return checkout;
}

const fingerprints = (result: AssessmentResult) => result.findings.map((f) => `${f.filePath} ${issueFingerprint(f)}`).sort();
const edges = (result: AssessmentResult) => result.graph.edges.map((e) => `${e.from} ${e.to ?? e.specifier} ${e.resolution}`).sort();

describe('incremental head run', () => {
  it('records the state of a clean full run, keyed by commit and inventory configuration', async () => {
    const store = engine.resolve<RunStateStore>(TOKENS.RunStates);
    const state = await store.get(pr.baseSha, inventoryConfigKey(CONFIG));
    expect(state?.files.map((f) => f.path)).toEqual(expect.arrayContaining(['src/gone.ts', 'src/old-name.ts', 'README.md']));
    expect(state?.files.map((f) => f.path)).not.toContain('vendor/lib.js');
    expect(Object.keys(state?.contentHashes ?? {}).sort()).toEqual(
      base.summaries
        .filter((s) => !s.skipped)
        .map((s) => s.path)
        .sort(),
    );
    expect(state?.git.headSha).toBe(pr.baseSha);
  });

  it('finds, builds and counts in head what a run reading everything does', async () => {
    const head = await headCheckout();
    const changedPaths = [
      'src/cart.ts',
      'src/fresh.ts',
      'vendor/lib.js',
      'assets/logo.bin',
      'src/gone.ts',
      'src/old-name.ts',
      'src/label.ts',
      'src/report.ts',
      'src/price.ts',
    ];
    const hitsBefore = stateHits;
    const derived = await engine.analyze(head.path, { allowCodeConfig: false, incremental: { baseCommit: pr.baseSha, headCommit: pr.headSha, changedPaths } });
    expect(stateHits).toBe(hitsBefore + 1);
    const full = await engine.analyze(head.path, { allowCodeConfig: false });

    expect(derived.summaries.map((s) => `${s.path} ${s.kind} ${s.contentHash}`)).toEqual(full.summaries.map((s) => `${s.path} ${s.kind} ${s.contentHash}`));
    expect(derived.summaries.map((s) => s.path)).toContain('src/label.ts');
    expect(derived.summaries.map((s) => s.path)).not.toContain('src/gone.ts');
    expect(fingerprints(derived)).toEqual(fingerprints(full));
    expect(fingerprints(derived).some((f) => f.startsWith('src/cart.ts'))).toBe(true);
    expect(edges(derived)).toEqual(edges(full));
    expect(derived.git).toEqual(full.git);
    expect(derived.git.files.get('src/price.ts')).toMatchObject({ commitsTotal: 3, commits90d: 3 });
    expect(derived.skipped).toEqual(full.skipped);
    const { durationMs: _d, parse: p1, ...derivedMetrics } = derived.metrics;
    const { durationMs: _f, parse: p2, ...fullMetrics } = full.metrics;
    expect(derivedMetrics).toEqual(fullMetrics);
    expect({ ...p1, cachedFiles: 0 }).toEqual({ ...p2, cachedFiles: 0 });
  });

  it('gives the same PR result, issues and scope as the pipeline reading everything', async () => {
    const run = async (incremental: boolean) => {
      const head = await headCheckout();
      const hitsBefore = stateHits;
      const out = await new PrAnalysisPipeline({ engine, incremental }).run({
        headDir: head.path,
        checkouts: localCheckouts(repo.root),
        pr,
        baseAssessment: baselineOfResult(base, pr.baseSha),
      });
      return { out, usedState: stateHits > hitsBefore };
    };
    const derived = await run(true);
    const full = await run(false);
    expect(derived.usedState).toBe(true);
    expect(full.usedState).toBe(false);
    expect(derived.out.result).toEqual(full.out.result);
    expect(derived.out.findings.map((f) => issueFingerprint(f)).sort()).toEqual(full.out.findings.map((f) => issueFingerprint(f)).sort());
    expect([...derived.out.newFingerprints].sort()).toEqual([...full.out.newFingerprints].sort());
    expect(derived.out.scope).toEqual(full.out.scope);
    expect(derived.out.findings.length).toBeGreaterThan(0);
  });

  it('starts head’s run while git diffs: it summarises the changed files, which the diff’s reader finds cached', async () => {
    // A fresh engine (nothing of head cached yet) that assessed the merge base.
    const fresh = await createEngine({ cacheDir: false, workers: 0 });
    const checkout = await localCheckouts(repo.root).checkout(pr.baseSha);
    open.push(checkout);
    const assessed = await fresh.analyze(checkout.path, { allowCodeConfig: false });
    const events: string[] = [];
    const spy: Engine = {
      ...fresh,
      analyze: (dir, options) => {
        events.push(`analyze ${options?.incremental ? 'derived' : 'full'}`);
        return fresh.analyze(dir, options);
      },
      summarizeSources: async (root, items, options) => {
        const out = await fresh.summarizeSources(root, items, options);
        events.push(`summarize ${out.filter((s) => s.cached).length}/${out.length} cached`);
        return out;
      },
    };
    const head = await headCheckout();
    const out = await new PrAnalysisPipeline({ engine: spy }).run({
      headDir: head.path,
      checkouts: localCheckouts(repo.root),
      pr,
      baseAssessment: baselineOfResult(assessed, pr.baseSha),
    });
    // No head start of its own: head's run began before the reader asked, and had cached both sides.
    expect(events).toEqual(['analyze derived', 'summarize 10/10 cached']);
    // Head's changed code files (cart, fresh, label, report, price) were analysed by head's run.
    expect(out.headFiles.analysed).toBe(5);
    const full = await new PrAnalysisPipeline({ engine: fresh, incremental: false }).run({
      headDir: head.path,
      checkouts: localCheckouts(repo.root),
      pr,
      baseAssessment: baselineOfResult(assessed, pr.baseSha),
    });
    expect(out.result).toEqual(full.result);
    expect(out.scope).toEqual(full.scope);
  });

  it('runs the rules on unchanged files the summary cache lost, so no importer needs predicting', async () => {
    // The derived run predicts no importers of the changed files (no git grep): an unchanged
    // neighbour missing from the cache must still get its findings rather than be unverified.
    const cache = engine.resolve<FileSummaryCache>(TOKENS.FileCache);
    const get = cache.get;
    const run = async (incremental: boolean, lose: boolean) => {
      const head = await headCheckout();
      cache.get = lose ? async () => undefined : get;
      try {
        return await new PrAnalysisPipeline({ engine, incremental }).run({
          headDir: head.path,
          checkouts: localCheckouts(repo.root),
          pr,
          baseAssessment: baselineOfResult(base, pr.baseSha),
        });
      } finally {
        cache.get = get;
      }
    };
    const lost = await run(true, true);
    const full = await run(false, false);
    expect(lost.scope.neighbours).toContain('src/cart.test.ts');
    expect(lost.scope.unverified).toEqual([]);
    expect(lost.headFiles.fromCache).toBe(0);
    expect(lost.scope).toEqual(full.scope);
    expect(lost.result).toEqual(full.result);
    expect(lost.findings.map((f) => issueFingerprint(f)).sort()).toEqual(full.findings.map((f) => issueFingerprint(f)).sort());
  });

  it('records nothing for a work tree with uncommitted files', async () => {
    const other = await createEngine({ cacheDir: false, workers: 0 });
    const checkout = await localCheckouts(repo.root).checkout(pr.baseSha);
    open.push(checkout);
    writeFileSync(join(checkout.path, 'src/scratch.ts'), 'export const scratch = 1;\n');
    await other.analyze(checkout.path, { allowCodeConfig: false });
    expect(await other.resolve<RunStateStore>(TOKENS.RunStates).get(pr.baseSha, inventoryConfigKey(CONFIG))).toBeUndefined();
  });
});
