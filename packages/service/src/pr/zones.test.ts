import { describe, expect, it } from 'vitest';
import { ImpactZoneSchema } from '../api/pr-analyses.js';
import type { FileChurn } from '@codehealth/engine';
import { both, changed, graphOf } from './fixtures/graph.js';
import { groupZones, toImpactZones, workspacePackageRoots } from '@codehealth/engine/internal';

const churn = (commits90d: number): FileChurn => ({
  linesAdded30d: 0,
  linesDeleted30d: 0,
  linesAdded90d: 0,
  linesDeleted90d: 0,
  commits30d: 0,
  commits90d,
  commitsTotal: commits90d,
  authors: [],
});

describe('groupZones', () => {
  it('groups by top-level directory, one level deeper under src/ and test/, and merges files that import each other', () => {
    const graph = graphOf({
      'src/auth/login.ts': 'export function login(): boolean {\n  return true;\n}\n',
      'src/billing/invoice.ts': 'export const invoice = 1;\n',
      'test/auth/login.test.ts': "import { login } from '../../src/auth/login.js';\nlogin();\n",
      'scripts/release.ts': 'export {};\n',
    });
    const files = [
      changed('src/auth/login.ts'),
      changed('src/billing/invoice.ts'),
      changed('test/auth/login.test.ts'),
      changed('scripts/release.ts'),
      changed('README.md'),
      changed('package.json'),
    ];
    const zones = groupZones({ files, graph });
    // Largest first (the merged zone has two files), then by name.
    expect(zones.map((z) => [z.name, z.files.map((f) => f.path)])).toEqual([
      ['src/auth + test/auth', ['src/auth/login.ts', 'test/auth/login.test.ts']],
      ['(root dependency)', ['package.json']],
      ['(root docs)', ['README.md']],
      ['scripts', ['scripts/release.ts']],
      ['src/billing', ['src/billing/invoice.ts']],
    ]);
  });

  it('a test of the PR covers the files it reaches through a barrel or the package’s own name; a file no test reaches is still untested', () => {
    const graph = graphOf({
      'package.json': JSON.stringify({ name: 'calc', version: '1.0.0', type: 'module', exports: './src/index.ts' }),
      'src/index.ts': "export { add } from './math/add.js';\n",
      'src/math/add.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
      'src/format/money.ts': 'export function money(n: number): string {\n  return `$${n}`;\n}\n',
      'test/add.test.ts': "import { add } from '../src/index.js';\nif (add(1, 2) !== 3) throw new Error('add');\n",
      'test/self.test.ts': "import { add } from 'calc';\nadd(1, 1);\n",
    });
    const zonesOf = (tests: string[]) =>
      groupZones({
        files: [
          changed('src/math/add.ts', { additions: 3 }),
          changed('src/format/money.ts', { additions: 3 }),
          ...tests.map((t) => changed(t, { kind: 'test', additions: 1 })),
        ],
        graph,
      });
    for (const test of ['test/add.test.ts', 'test/self.test.ts']) {
      const zones = zonesOf([test]);
      // Before: only a direct import counted, so src/math was 'no test changes cover it' although the test reaches it through src/index.ts.
      expect(zones.find((z) => z.name.startsWith('src/math'))!.riskReasons, test).not.toContain('no test changes cover it');
      expect(zones.find((z) => z.name === 'src/format')!.riskReasons, test).toContain('no test changes cover it');
    }
  });

  it('keeps workspace packages apart even when one imports the other', () => {
    const graph = graphOf({
      'package.json': JSON.stringify({ name: 'root', workspaces: ['packages/*'] }),
      'packages/core/package.json': JSON.stringify({ name: '@acme/core', main: 'src/index.ts' }),
      'packages/core/src/index.ts': 'export const one = 1;\n',
      'packages/app/package.json': JSON.stringify({ name: '@acme/app' }),
      'packages/app/src/main.ts': "import { one } from '@acme/core';\nexport const two = one + 1;\n",
    });
    expect(graph.modules.get('packages/app/src/main.ts')?.imports[0].to).toBe('packages/core/src/index.ts');
    const manifests: Record<string, unknown> = {
      'package.json': { name: 'root', workspaces: ['packages/*'] },
      'packages/core/package.json': { name: '@acme/core' },
      'packages/app/package.json': { name: '@acme/app' },
    };
    const withManifests = workspacePackageRoots(Object.keys(manifests), (path) => manifests[path]);
    expect(withManifests.sort((a, b) => a.dir.localeCompare(b.dir))).toEqual([
      { name: '@acme/app', dir: 'packages/app' },
      { name: '@acme/core', dir: 'packages/core' },
    ]);
    const zones = groupZones({ files: [changed('packages/core/src/index.ts'), changed('packages/app/src/main.ts')], graph, packages: withManifests });
    expect(zones.map((z) => z.name).sort()).toEqual(['@acme/app', '@acme/core']);
  });

  it('rates risk from documented points and says why', () => {
    const graph = graphOf({
      'src/auth/session.ts': 'export function refresh(): void {}\n',
      ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`src/ui/view${i}.ts`, "import { refresh } from '../auth/session.js';\nrefresh();\n"])),
    });
    const risky = changed('src/auth/session.ts', { additions: 160, deletions: 20, symbols: both('refresh', 1, 1) });
    const [zone] = groupZones({ files: [risky], graph, churn: new Map([['src/auth/session.ts', churn(12)]]) });
    // 1 size + 1 exported API + 1 importers + 2 security + 1 churn + 1 no tests = 7.
    expect(zone.risk).toBe('critical');
    expect(zone.riskReasons).toEqual([
      'sizeable change (180 lines)',
      'exported API touched (refresh)',
      'imported by 6 modules outside the zone',
      'security-sensitive code (auth, session)',
      'frequently changed files (src/auth/session.ts: 12 commits in 90 days)',
      'no test changes cover it',
    ]);
    const [docs] = groupZones({ files: [changed('docs/guide.md', { kind: 'documentation' })] });
    expect(docs).toMatchObject({ risk: 'low', riskReasons: [], intent: 'docs', category: 'docs' });
  });

  it('counts a test elsewhere in the PR that imports the zone as test presence', () => {
    const graph = graphOf({
      'src/util/math.ts': 'export const add = (a: number, b: number) => a + b;\n',
      'src/app/main.ts': "import { add } from '../util/math.js';\nadd(1, 2);\n",
      'test/math.test.ts': "import { add } from '../src/util/math.js';\nadd(1, 1);\n",
    });
    const zones = groupZones({ files: [changed('src/util/math.ts'), changed('test/math.test.ts'), changed('src/app/main.ts')], graph });
    const util = zones.find((z) => z.files.some((f) => f.path === 'src/util/math.ts'))!;
    expect(util.riskReasons).not.toContain('no test changes cover it');
  });

  it('derives each zone intent from its files', () => {
    const zones = groupZones({
      files: [
        changed('src/new/feature.ts', { status: 'added', deletions: 0 }),
        changed('lib/moved.ts', { status: 'renamed', oldPath: 'lib/old.ts', additions: 1, deletions: 1 }),
        changed('package-lock.json', { kind: 'generated', generated: true }),
        changed('tsconfig.json', { kind: 'config' }),
        changed('test/a.test.ts'),
      ],
    });
    const intent = Object.fromEntries(zones.map((z) => [z.name, z.intent]));
    expect(intent).toEqual({ 'src/new': 'feature', lib: 'refactor', '(root dependency)': 'dependency', '(root config)': 'config', test: 'test' });
    // A code zone carries the PR's code intent unless its files say otherwise.
    const fix = groupZones({
      files: [changed('src/a/x.ts'), changed('lib/moved.ts', { status: 'renamed', oldPath: 'lib/old.ts', additions: 1, deletions: 1 })],
      primaryIntent: 'bugfix',
    });
    expect(Object.fromEntries(fix.map((z) => [z.name, z.intent]))).toEqual({ 'src/a': 'bugfix', lib: 'refactor' });
  });
});

describe('toImpactZones', () => {
  it('produces the wire shape with facts, risk and scope in the summary', () => {
    const zones = groupZones({
      files: [
        changed('src/cart/cart.ts', {
          additions: 12,
          deletions: 3,
          symbols: [...both('Cart', 1, 30, true, 'class'), ...both('Cart.add', 5, 9, false, 'method')],
        }),
      ],
    });
    const [zone] = toImpactZones(zones, [{ classification: 'primary', reason: 'the title names it (cart)' }]);
    expect(ImpactZoneSchema.parse(zone)).toEqual({
      name: 'src/cart',
      risk: 'medium',
      scope_classification: 'primary',
      summary:
        '1 file (1 source), +12/-3; symbols: Cart (exported), Cart.add. Risk medium: exported API touched (Cart), no test changes cover it. Scope primary: the title names it (cart).',
      intent: 'chore',
      files: [{ path: 'src/cart/cart.ts', additions: 12, deletions: 3 }],
    });
  });
});
