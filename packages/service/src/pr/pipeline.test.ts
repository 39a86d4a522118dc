// PR analysis scenarios on real git repositories built in the test, run through the whole
// pipeline with the real engine and the built-in analyzers: a pure refactor, a feature without
// tests, a hard-coded secret, a docs-only change, a stored baseline at the merge base, and two
// open PRs editing the same function on top of one another.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PrAnalysisResultSchema } from '../api/pr-analyses.js';
import { createEngine, type Engine } from '@codehealth/engine';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { EmbeddedGraphStore } from '../graph-store/embedded-graph-store.js';
import { storedGraphOf } from '../ports/graph-store.js';
import { createTestDatabase } from '../store/test-database.js';
import { localCheckouts, type CommitCheckout } from '@codehealth/engine/internal';
import { PrAnalysisPipeline, type PrPipelineOutput } from '@codehealth/engine/internal';
import { baselineOfResult } from '@codehealth/engine/internal';
import type { PullRequestInfo } from '@codehealth/engine/internal';

const BASE = {
  'package.json': JSON.stringify({ name: 'calc', version: '1.0.0', type: 'module' }, null, 2),
  'README.md': '# calc\n\nA tiny calculator.\n',
  'src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
  'src/util.ts':
    "import { add } from './math.js';\n\nexport function twice(x: number): number {\n  return add(x, x);\n}\n\nexport function calc(x: number): number {\n  const y = x * 3;\n  return twice(y);\n}\n",
  'src/index.ts': "import { calc } from './util.js';\n\nexport function run(): number {\n  return calc(2);\n}\n",
  'src/math.test.ts': "import { add } from './math.js';\nimport { run } from './index.js';\nif (add(1, 1) !== 2 || run() !== 12) throw new Error('broken');\n",
};
const AWS_KEY = 'AKIA' + 'QX7PLM2ZK4RTV9WN';

let engine: Engine;
const open: CommitCheckout[] = [];
beforeAll(async () => {
  engine = await createEngine({ cacheDir: false, workers: 0 });
});
afterAll(async () => {
  for (const checkout of open) await checkout.dispose();
});

interface Scenario {
  repo: TestRepo;
  pr: PullRequestInfo;
}

function branch(repo: TestRepo, name: string, title: string, edit: (repo: TestRepo) => void, number = 1, from = 'main'): PullRequestInfo {
  repo.git('checkout', '-q', from);
  const baseSha = repo.git('rev-parse', 'HEAD');
  repo.git('checkout', '-q', '-b', name);
  edit(repo);
  const headSha = repo.commit(title);
  repo.git('checkout', '-q', 'main');
  return { number, title, body: '', baseBranch: from, headBranch: name, baseSha, headSha, author: 'Test' };
}

function scenario(title: string, edit: (repo: TestRepo) => void, headBranch = 'topic'): Scenario {
  const repo = createGitRepo(BASE);
  return { repo, pr: branch(repo, headBranch, title, edit) };
}

type RunInput = Parameters<PrAnalysisPipeline['run']>[0];

async function analyse(
  { repo, pr }: Scenario,
  options: { others?: PullRequestInfo[]; baseline?: RunInput['baseAssessment']; graphStore?: RunInput['graphStore'] } = {},
): Promise<PrPipelineOutput> {
  const checkouts = localCheckouts(repo.root);
  const head = await checkouts.checkout(pr.headSha);
  open.push(head);
  const lines: string[] = [];
  const output = await new PrAnalysisPipeline({ engine, log: (line) => lines.push(line) }).run({
    headDir: head.path,
    checkouts,
    pr,
    otherOpenPrs: options.others,
    baseAssessment: options.baseline,
    graphStore: options.graphStore,
  });
  // Whatever the scenario, the payload is what the recorder accepts.
  expect(PrAnalysisResultSchema.safeParse(output.result).success).toBe(true);
  expect(lines[0]).toMatch(/^pr #\d+: \d+ changed files/);
  return output;
}

describe('PrAnalysisPipeline scenarios', () => {
  it('summarises head’s changed code files from the checkout while git diffs: the diff’s reader then finds them cached', async () => {
    const { repo, pr } = scenario('feat: percent', (repo) =>
      repo.write({
        'src/math.ts': `${BASE['src/math.ts']}\nexport function percent(part: number, whole: number): number {\n  return (part / whole) * 100;\n}\n`,
        'README.md': '# calc\n',
      }),
    );
    const calls: Array<{ paths: string[]; cached: boolean[] }> = [];
    const spy: Engine = {
      ...engine,
      summarizeSources: async (root, items, options) => {
        const out = await engine.summarizeSources(root, items, options);
        calls.push({ paths: items.map((item) => item.file.path), cached: out.map((summary) => summary.cached === true) });
        return out;
      },
    };
    const checkouts = localCheckouts(repo.root);
    const head = await checkouts.checkout(pr.headSha);
    open.push(head);
    const out = await new PrAnalysisPipeline({ engine: spy }).run({ headDir: head.path, checkouts, pr });
    // First the head start (code files only, head side), then the reader's batch: the base side
    // (not assessed in this engine yet) and the head side, which the head start left cached.
    expect(calls[0]).toEqual({ paths: ['src/math.ts'], cached: [false] });
    expect(calls[1]).toEqual({ paths: ['src/math.ts', 'src/math.ts'], cached: [false, true] });
    expect(out.diff.files.find((f) => f.path === 'src/math.ts')?.symbols.map((s) => `${s.change} ${s.name}`)).toContain('added percent');
  });

  it('a pure refactor (file renamed, function renamed, callers updated) is a ready refactor', async () => {
    const out = await analyse(
      scenario('Tidy up the helpers', (repo) => {
        repo.git('mv', 'src/util.ts', 'src/helpers.ts');
        repo.write({
          'src/helpers.ts': BASE['src/util.ts'].replace('function calc', 'function compute'),
          'src/index.ts': BASE['src/index.ts']
            .replace("import { calc } from './util.js'", "import { compute } from './helpers.js'")
            .replace('calc(2)', 'compute(2)'),
        });
      }),
    );
    expect(out.result.classification.primary_intent).toBe('refactor');
    expect(out.result.merge_readiness).toMatchObject({ status: 'ready', blocking_count: 0, advisory_count: 0, confidence: 100 });
    expect(out.result.health_impact).toMatchObject({ issues_added: 0, issues_fixed: 0 });
    expect(out.result.health_projection.overall_delta).toBe(0);
    expect(out.scope.changed).toEqual(['src/helpers.ts', 'src/index.ts']);
    expect(out.scope.neighbours).toContain('src/math.ts');
  });

  it('a feature without tests is a feature with the no-tests risk', async () => {
    const out = await analyse(
      scenario('Add percentages', (repo) =>
        repo.write({
          'src/math.ts': `${BASE['src/math.ts']}\nexport function percent(part: number, whole: number): number {\n  return (part / whole) * 100;\n}\n`,
        }),
      ),
    );
    expect(out.result.classification.primary_intent).toBe('feature');
    expect(out.result.classification.risk_signals).toContain('no tests for changed source: src/math.ts');
    expect(out.result.graph_impact.changed_symbols).toEqual([{ name: 'percent', file: 'src/math.ts', kind: 'function' }]);
    expect(out.result.impact_zones.flatMap((z) => z.files.map((f) => f.path))).toEqual(['src/math.ts']);
  });

  it('a hard-coded AWS key blocks the merge as a new critical security issue, projected score down', async () => {
    const out = await analyse(scenario('feat: cloud upload', (repo) => repo.write({ 'src/upload.ts': `export const ACCESS_KEY_ID = '${AWS_KEY}';\n` })));
    expect(out.result.merge_readiness.status).toBe('blocked');
    expect(out.result.merge_readiness.blocking_count).toBeGreaterThanOrEqual(1);
    const secret = out.findings.find((f) => f.ruleId.endsWith('hard-coded-secret'));
    expect(secret).toMatchObject({ filePath: 'src/upload.ts', severity: 'critical', category: 'security' });
    expect(out.newFingerprints.size).toBe(out.result.health_impact.issues_added);
    expect(out.readinessReasons[0]).toMatch(/^blocking: new critical security issue .*src\/upload\.ts:1$/);
    expect(out.result.health_impact.impact_rating).toBe('critical_regression');
    expect(out.result.health_projection.overall_delta).toBeLessThan(0);
    const security = out.result.health_projection.category_deltas.find((d) => d.category === 'security')!;
    expect(security.delta).toBeLessThan(0);
    expect(security.issues_in_pr).toBeGreaterThanOrEqual(1);
  });

  it('a docs-only change is docs and ready, with nothing analysed', async () => {
    const out = await analyse(scenario('Explain usage', (repo) => repo.write({ 'README.md': `${BASE['README.md']}\n## Usage\n\nCall run().\n` })));
    expect(out.result.classification).toMatchObject({ primary_intent: 'docs', change_categories: ['docs'], risk_signals: [] });
    expect(out.result.merge_readiness).toMatchObject({ status: 'ready', confidence: 100 });
    expect(out.result.health_impact).toEqual({
      overall_delta: 0,
      issues_added: 0,
      issues_fixed: 0,
      impact_rating: 'neutral',
      issues_new: 0,
      issues_worsened: 0,
      issues_pre_existing: 0,
      issues_improved: 0,
    });
    expect(out.result.merge_readiness).toMatchObject({
      reasons: ['ready: the change introduces or worsens no blocking or advisory issue'],
      confidence_reasons: [],
    });
    expect(out.findings).toEqual([]);
  });

  it("explains its verdict (issue 18 §5): readiness reasons, what lowered the confidence, the change's issues apart from those already in its files", async () => {
    const repo = createGitRepo({ ...BASE, 'src/keys.ts': `export const ACCESS_KEY_ID = '${AWS_KEY}';\n` });
    const pr = branch(repo, 'topic', 'feat: keys and types', (r) =>
      r.write({
        // The old key stays (pre-existing); a second one is the change's own.
        'src/keys.ts': `export const ACCESS_KEY_ID = '${AWS_KEY}';\nexport const BACKUP_KEY_ID = 'AKIA' + 'ZZ9PLM2ZK4RTV9WN';\nexport const SECOND_KEY_ID = '${AWS_KEY.replace('QX7', 'QY8')}';\n`,
        'src/types.ts': 'export interface Shape {\n  kind: ((( string\n  <<< = = ;\n}}} ]] export type = ;\n',
      }),
    );
    const out = await analyse({ repo, pr });
    const { merge_readiness: readiness, health_impact: impact } = out.result;
    expect(readiness.status).toBe('blocked');
    expect(readiness.reasons).toEqual(out.readinessReasons);
    expect(readiness.reasons![0]).toMatch(/^blocking: new critical security issue .*src\/keys\.ts:3$/);
    // The new file did not parse cleanly: the confidence says so, by name.
    expect(readiness.confidence).toBeLessThan(100);
    expect(readiness.confidence_reasons).toEqual([expect.stringMatching(/^src\/types\.ts( could not be parsed|: \d+ % parsed cleanly)$/)]);
    // The old key is the base's, seen again in a changed file: pre-existing, not the change's.
    expect(impact).toMatchObject({ issues_new: 1, issues_worsened: 0, issues_added: 1, issues_improved: 0 });
    expect(impact.issues_pre_existing).toBeGreaterThanOrEqual(1);
    const oldKey = out.findings.find((f) => f.filePath === 'src/keys.ts' && f.anchor.lineStart === 1 && f.ruleId.endsWith('hard-coded-secret'));
    expect(oldKey).toBeDefined();
    const changes = Object.values(out.issueChanges).map((c) => c.change);
    expect(changes.filter((c) => c === 'unchanged' || c === 'improved')).toHaveLength(impact.issues_pre_existing!);
    expect(changes.filter((c) => c === 'new')).toHaveLength(impact.issues_new!);
  });

  it('uses a stored baseline at the merge base instead of analysing base again, with the same verdict', async () => {
    const s = scenario('feat: cloud upload', (repo) => repo.write({ 'src/upload.ts': `export const ACCESS_KEY_ID = '${AWS_KEY}';\n` }));
    const fresh = await analyse(s);
    expect(fresh.timingsMs.baseAnalysis).toBeGreaterThan(0);
    const baseDir = await localCheckouts(s.repo.root).checkout(s.pr.baseSha);
    open.push(baseDir);
    const stored = { ...baselineOfResult(await engine.analyze(baseDir.path), s.pr.baseSha), assessmentId: '00000000-0000-4000-8000-000000000001' };
    const reused = await analyse(s, { baseline: stored });
    expect(reused.timingsMs.baseAnalysis).toBeUndefined();
    expect(reused.baselineAssessmentId).toBe(stored.assessmentId);
    expect(reused.result.health_projection).toEqual(fresh.result.health_projection);
    expect(reused.result.merge_readiness).toEqual(fresh.result.merge_readiness);
    // A baseline of another commit is not used.
    const stale = await analyse(s, { baseline: { ...stored, commitSha: s.pr.headSha } });
    expect(stale.baselineAssessmentId).toBeUndefined();
  });

  it("queries graph impact from the graph store, with the PR's own files overlaid from its head", async () => {
    const s = scenario('fix: add rounds', (repo) =>
      repo.write({
        'src/math.ts': BASE['src/math.ts'].replace('return a + b;', 'return Math.round(a + b);'),
        // The PR's new module calls add: it comes from the head's graph, not from the store.
        'src/report.ts': "import { add } from './math.js';\n\nexport function sum(): number {\n  return add(1, 2);\n}\n",
      }),
    );
    const db = await createTestDatabase('pglite');
    try {
      const repositoryId = randomUUID();
      await db.db.query("INSERT INTO repositories (id, provider, owner, name, full_name, url, clone_url) VALUES ($1, 'local', 'acme', 'r', 'acme/r', $2, $2)", [
        repositoryId,
        `file://${s.repo.root}`,
      ]);
      const store = new EmbeddedGraphStore(db.db);
      const baseDir = await localCheckouts(s.repo.root).checkout(s.pr.baseSha);
      open.push(baseDir);
      const baseGraph = storedGraphOf((await engine.analyze(baseDir.path)).graph);
      await store.writeSnapshot({ repositoryId, commitSha: s.pr.baseSha, graph: baseGraph });
      const inMemory = await analyse(s);
      const fromStore = await analyse(s, { graphStore: { store, repositoryId } });
      expect(fromStore.result.graph_impact).toEqual(inMemory.result.graph_impact);
      expect(inMemory.result.graph_impact.dependent_files).toEqual(['src/index.ts', 'src/math.test.ts', 'src/util.ts']);
      expect(inMemory.result.graph_impact.summary).toContain('add (src/math.ts, changed): 3 dependents, up to 2 hops, called by 2 functions');
      expect(inMemory.result.graph_impact.summary).toContain('1 file of this PR uses them too');

      // What the store holds is what is walked: a module only the stored graph has shows up.
      await store.writeSnapshot({
        repositoryId,
        commitSha: s.pr.baseSha,
        graph: {
          ...baseGraph,
          files: [...baseGraph.files, 'src/legacy.ts'],
          imports: [...baseGraph.imports, { from: 'src/legacy.ts', to: 'src/math.ts', kind: 'static', names: ['add'], aliases: [], typeOnly: false, line: 1 }],
          calls: [...baseGraph.calls, { from: 'src/legacy.ts', caller: 'old', to: 'src/math.ts', name: 'add', line: 3, count: 1 }],
        },
      });
      const widened = await analyse(s, { graphStore: { store, repositoryId } });
      expect(widened.result.graph_impact.dependent_files).toEqual(['src/index.ts', 'src/legacy.ts', 'src/math.test.ts', 'src/util.ts']);
      expect(widened.result.graph_impact.summary).toContain('called by 3 functions');
    } finally {
      await db.dispose();
    }
  });

  it('two open PRs editing the same function conflict; one built on the other is stacked', async () => {
    const repo = createGitRepo(BASE);
    const first = branch(repo, 'triple', 'Triple instead', (r) => r.write({ 'src/util.ts': BASE['src/util.ts'].replace('x * 3', 'x * 4') }), 1);
    const second = branch(repo, 'quad', 'Quadruple instead', (r) => r.write({ 'src/util.ts': BASE['src/util.ts'].replace('x * 3', 'x * 5') }), 2);
    const stackedOn = branch(repo, 'on-triple', 'Document triple', (r) => r.write({ 'README.md': `${BASE['README.md']}\nTriples.\n` }), 3, 'triple');
    const out = await analyse({ repo, pr: second }, { others: [first, stackedOn] });
    expect(out.result.conflicts.checked_prs).toEqual([1, 3]);
    expect(out.result.conflicts.conflicts.map((c) => c.pr_number)).toEqual([1]);
    expect(out.result.conflicts.conflicts[0]!.overlapping_files).toEqual(['src/util.ts']);
    expect(out.result.stacked_prs.is_stacked).toBe(false);
    const top = await analyse({ repo, pr: stackedOn }, { others: [first, second] });
    expect(top.result.stacked_prs).toMatchObject({ is_stacked: true, parent_prs: [1], stacked_prs: [1, 3] });
  });
});
