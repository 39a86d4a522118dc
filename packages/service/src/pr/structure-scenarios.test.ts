// Scenarios on real git repositories built here: PRs are refs/pull/N/head as the local code host
// reads them, diffs come from the real diff reader, the code graph from a real engine run at head.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { PrAnalysisResultSchema } from '../api/pr-analyses.js';
import { LocalGitCodeHost } from '../code-hosts/local-git-code-host.js';
import { createEngine, type Engine } from '@codehealth/engine';
import type { PullRequestMetadata } from '../ports/code-host.js';
import { classifyDeterministic } from '@codehealth/engine/internal';
import { detectConflicts } from '@codehealth/engine/internal';
import { readPullRequestChange, readPullRequestDiff } from '@codehealth/engine/internal';
import { computeGraphImpact } from '@codehealth/engine/internal';
import { analyzePrScope } from '@codehealth/engine/internal';
import { detectStackedPrs, listUnmergedCommits } from '@codehealth/engine/internal';
import type { ChangedFile } from '@codehealth/engine/internal';
import { workspacePackageRoots } from '@codehealth/engine/internal';

const SESSION = (login: string, logout: string) =>
  `export interface Session {\n  user: string;\n  expires: number;\n}\n\n` +
  `export function login(user: string, now: number): Session {\n${login}\n}\n\n` +
  `export function logout(session: Session): Session {\n${logout}\n}\n`;
const LOGIN = '  const expires = now + 3600;\n  return { user, expires };';
const LOGOUT = '  return { ...session, expires: 0 };';

let engine: Engine;
let repo: TestRepo;
let prs: PullRequestMetadata[];
const diffs = new Map<number, ChangedFile[]>();

/** Commits `files` on a branch from `from` and points refs/pull/<n>/head at it. */
function openPr(n: number, from: string, title: string, files: Record<string, string>): string {
  repo.git('checkout', '-q', '-B', `pr-${n}`, from);
  repo.write(files);
  const sha = repo.commit(title);
  repo.git('update-ref', `refs/pull/${n}/head`, sha);
  return sha;
}

async function graphAt(sha: string) {
  repo.git('checkout', '-q', '--detach', sha);
  return (await engine.analyze(repo.root, { allowCodeConfig: false })).graph;
}

beforeAll(async () => {
  engine = await createEngine({ cacheDir: false, workers: 0 });
  repo = createGitRepo({
    'package.json': JSON.stringify({ name: 'shop', type: 'module' }),
    'README.md': '# Shop\n',
    'src/auth/session.ts': SESSION(LOGIN, LOGOUT),
    'src/lib/money.ts':
      'export function total(xs: number[]): number {\n  return xs.reduce((a, b) => a + b, 0);\n}\n\nexport function cents(n: number): number {\n  return Math.round(n * 100);\n}\n',
    'src/billing/invoice.ts': "import { total } from '../lib/money.js';\n\nexport function invoice(xs: number[]): string {\n  return `due ${total(xs)}`;\n}\n",
    'src/cart/cart.ts': "import { total } from '../lib/money.js';\n\nexport const cartTotal = (xs: number[]) => total(xs);\n",
    'src/report/report.ts': "import * as money from '../lib/money.js';\n\nexport const line = (xs: number[]) => money.cents(money.total(xs));\n",
    'src/label/label.ts': "import { cents } from '../lib/money.js';\n\nexport const label = (n: number) => `${cents(n)}c`;\n",
    'src/checkout/checkout.ts': "import { cartTotal } from '../cart/cart.js';\n\nexport const pay = () => cartTotal([1, 2]);\n",
  });
  const main = repo.git('rev-parse', 'HEAD');
  const pr1 = openPr(1, main, 'fix(auth): sessions expire after 30 minutes', {
    'src/auth/session.ts': SESSION('  const expires = now + 1800;\n  return { user, expires };', LOGOUT),
  });
  openPr(2, main, 'fix(auth): refuse empty user names', {
    'src/auth/session.ts': SESSION("  if (user === '') throw new Error('empty user');\n  const expires = now + 3600;\n  return { user, expires };", LOGOUT),
  });
  openPr(3, main, 'fix(auth): logout keeps the user', { 'src/auth/session.ts': SESSION(LOGIN, '  return { user: session.user, expires: 0 };') });
  openPr(4, pr1, 'feat(auth): session tokens', {
    'src/auth/token.ts': "import type { Session } from './session.js';\n\nexport const token = (s: Session) => `${s.user}:${s.expires}`;\n",
  });
  openPr(5, main, 'perf(money): sum without reduce', {
    'src/lib/money.ts':
      'export function total(xs: number[]): number {\n  let sum = 0;\n  for (const x of xs) sum += x;\n  return sum;\n}\n\nexport function cents(n: number): number {\n  return Math.round(n * 100);\n}\n',
  });
  openPr(6, main, 'docs: describe invoices', {
    'README.md': '# Shop\n\nInvoices list what is due.\n',
    'src/billing/invoice.ts':
      "import { total } from '../lib/money.js';\n\nexport function invoice(xs: number[], currency = 'EUR'): string {\n  const due = total(xs);\n  if (due === 0) return 'nothing due';\n  return `due ${due} ${currency}`;\n}\n",
  });
  repo.git('checkout', '-q', 'main');
  const host = new LocalGitCodeHost();
  const metadata = await host.resolvePublic({ url: pathToFileURL(repo.root).href });
  prs = await host.listPullRequests(metadata);
  for (const pr of prs) diffs.set(pr.number, (await readPullRequestDiff(repo.root, pr.baseSha, pr.headSha)).files);
});

const pr = (n: number) => prs.find((p) => p.number === n)!;
const others = (n: number) => prs.filter((p) => p.number !== n).map((p) => ({ pr: p, files: diffs.get(p.number)! }));

describe('PR structure on a real repository', () => {
  it('reads the six PRs from refs/pull/N/head', () => {
    expect(prs.map((p) => [p.number, p.title])).toEqual([
      [1, 'fix(auth): sessions expire after 30 minutes'],
      [2, 'fix(auth): refuse empty user names'],
      [3, 'fix(auth): logout keeps the user'],
      [4, 'feat(auth): session tokens'],
      [5, 'perf(money): sum without reduce'],
      [6, 'docs: describe invoices'],
    ]);
  });

  it('finds the stack by ancestry (#4 is built on #1) and by base branch', async () => {
    const candidates = await listUnmergedCommits(repo.root, prs);
    const stack4 = detectStackedPrs({ prNumber: 4, openPrs: candidates });
    expect(stack4).toMatchObject({ is_stacked: true, stacked_prs: [1, 4], parent_prs: [1], child_prs: [] });
    expect(stack4.summary).toContain("#1 (its commits include #1's head commit)");
    expect(detectStackedPrs({ prNumber: 1, openPrs: candidates })).toMatchObject({ is_stacked: true, stacked_prs: [1, 4], parent_prs: [], child_prs: [4] });
    expect(detectStackedPrs({ prNumber: 2, openPrs: candidates }).is_stacked).toBe(false);
    // As GitHub reports it: #4 targets #1's branch, so its base sha is #1's head and its own commits
    // no longer include that head; the branch names still link them.
    const hosted = [
      { ...pr(1), headBranch: 'session-expiry' },
      { ...pr(4), baseBranch: 'session-expiry', baseSha: pr(1).headSha },
    ];
    const viaBranch = detectStackedPrs({ prNumber: 4, openPrs: await listUnmergedCommits(repo.root, hosted) });
    expect(viaBranch).toMatchObject({ is_stacked: true, parent_prs: [1] });
    expect(viaBranch.summary).toContain("its base branch is #1's head branch");
  });

  it('reports two PRs editing the same function as a semantic conflict, and different functions as an overlap only', async () => {
    const candidates = await listUnmergedCommits(repo.root, prs);
    const stack = detectStackedPrs({ prNumber: 1, openPrs: candidates }).stacked_prs;
    const result = detectConflicts({ pr: pr(1), files: diffs.get(1)!, others: others(1), stack });
    expect(result.checked_prs).toEqual([2, 3, 4, 5, 6]);
    const byPr = new Map(result.conflicts.map((c) => [c.pr_number, c]));
    expect([...byPr.keys()].sort()).toEqual([2, 3, 4]);
    expect(byPr.get(2)!.semantic_conflict).toContain('Both PRs change `login` in src/auth/session.ts');
    expect(byPr.get(2)!.overlapping_files).toEqual(['src/auth/session.ts']);
    expect(byPr.get(3)!.semantic_conflict).toMatch(/^None: the PRs edit different regions of src\/auth\/session\.ts/);
    // #4 carries #1's commit, so it edits login too, but it is stacked on #1: the order is known.
    expect(byPr.get(4)!.resolution_suggestion).toContain("#4 is in this PR's stack: merge in stack order (#1, then #4)");
    expect(result.conflicts[result.conflicts.length - 1].pr_number).toBe(3);
  });

  it('measures the graph impact of an exported function used by three modules', async () => {
    const graph = await graphAt(pr(5).headSha);
    const files = diffs.get(5)!;
    expect(files.map((f) => f.path)).toEqual(['src/lib/money.ts']);
    const near = await computeGraphImpact({ files, graph, depth: 1 });
    expect(near.changed_symbols).toEqual([{ name: 'total', file: 'src/lib/money.ts', kind: 'function' }]);
    expect(near.dependent_files).toEqual(['src/billing/invoice.ts', 'src/cart/cart.ts', 'src/report/report.ts']);
    const far = await computeGraphImpact({ files, graph, depth: 2 });
    // checkout imports cartTotal from cart, which uses total: two hops. label uses only cents.
    expect(far.dependent_files).toEqual(['src/billing/invoice.ts', 'src/cart/cart.ts', 'src/checkout/checkout.ts', 'src/report/report.ts']);
    expect(far.summary).toContain('4 files outside this PR depend on them within 2 import hops (deepest 2)');
  });

  it('reports scope drift for a docs-titled PR that changes source code', async () => {
    const change = await readPullRequestChange(repo.root, pr(6).baseSha, pr(6).headSha);
    const primaryIntent = classifyDeterministic(pr(6), change).classification.primary_intent;
    expect(primaryIntent).toBe('docs');
    const graph = await graphAt(pr(6).headSha);
    const { impactZones, scopeDrift } = analyzePrScope({ files: change.diff.files, graph, title: pr(6).title, body: pr(6).body, primaryIntent });
    expect(impactZones.map((z) => [z.name, z.scope_classification, z.intent])).toEqual([
      ['(root docs)', 'primary', 'docs'],
      ['src/billing', 'unrelated', 'chore'],
    ]);
    expect(scopeDrift).toEqual([
      {
        description: "src/billing is outside the PR's stated docs intent",
        reason: 'A documentation PR changes source code (1 file, +4/-2)',
        files: ['src/billing/invoice.ts'],
      },
    ]);
    // Everything the structure steps produce fits the wire schema.
    const result = PrAnalysisResultSchema.shape;
    result.scope_drift.parse(scopeDrift);
    result.impact_zones.parse(impactZones);
  });
});

describe('impact zones on a two-package workspace', () => {
  it('keeps the packages apart, relates them to the feature and rates them', async () => {
    const ws = createGitRepo({
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      'packages/core/package.json': JSON.stringify({ name: '@acme/core', main: 'src/index.ts' }),
      'packages/core/src/index.ts': "export { add } from './math.js';\n",
      'packages/core/src/math.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
      'packages/app/package.json': JSON.stringify({ name: '@acme/app', dependencies: { '@acme/core': '*' } }),
      'packages/app/src/main.ts': "import { add } from '@acme/core';\n\nexport const three = add(1, 2);\n",
      'docs/math.md': '# Math\n',
    });
    const base = ws.git('rev-parse', 'HEAD');
    ws.write({
      'packages/core/src/math.ts': 'export function add(a: number, b: number, c = 0): number {\n  return a + b + c;\n}\n',
      'packages/core/src/math.test.ts': "import { add } from './math.js';\n\nif (add(1, 2, 3) !== 6) throw new Error('add');\n",
      'packages/app/src/main.ts': "import { add } from '@acme/core';\n\nexport const three = add(1, 2);\nexport const six = add(1, 2, 3);\n",
      'docs/math.md': '# Math\n\n`add` takes an optional third term.\n',
    });
    const head = ws.commit('feat(core): add takes a third term');
    const files = (await readPullRequestDiff(ws.root, base, head)).files;
    const graph = (await engine.analyze(ws.root, { allowCodeConfig: false })).graph;
    const paths = ws.git('ls-files').split('\n');
    const packages = workspacePackageRoots(paths, (path) =>
      path.endsWith('.json') && paths.includes(path) ? JSON.parse(readFileSync(join(ws.root, path), 'utf8')) : undefined,
    );
    const { impactZones, scopeDrift } = analyzePrScope({
      files,
      graph,
      packages,
      title: 'feat(core): add takes a third term',
      body: '',
      primaryIntent: 'feature',
    });
    expect(impactZones.map((z) => ({ name: z.name, scope: z.scope_classification, intent: z.intent, files: z.files.map((f) => f.path) }))).toEqual([
      { name: '@acme/core', scope: 'primary', intent: 'feature', files: ['packages/core/src/math.test.ts', 'packages/core/src/math.ts'] },
      { name: '@acme/app', scope: 'supporting', intent: 'feature', files: ['packages/app/src/main.ts'] },
      { name: 'docs', scope: 'supporting', intent: 'docs', files: ['docs/math.md'] },
    ]);
    const [core, app] = impactZones;
    expect(core.summary).toContain('symbols: add (exported)');
    expect(core.summary).toContain('Risk low: exported API touched (add)');
    expect(core.summary).toContain('Scope primary: the title names it (core)');
    expect(app.summary).toContain('no test changes cover it');
    expect(app.summary).toContain('an import path joins it to @acme/core');
    expect(scopeDrift).toEqual([]);
  });
});
