import { describe, expect, it } from 'vitest';
import { ImpactZoneSchema, ScopeDriftItemSchema } from '../api/pr-analyses.js';
import { both, changed, graphOf } from './fixtures/graph.js';
import { analyzePrScope, anchorsOf, detectScopeDrift } from '@codehealth/engine/internal';

const sources = {
  'src/auth/login.ts': "import { audit } from '../audit/log.js';\nexport function login(): boolean {\n  audit('login');\n  return true;\n}\n",
  'src/audit/log.ts': 'export function audit(event: string): void {\n  console.log(event);\n}\n',
  'src/billing/invoice.ts': 'export function invoice(): number {\n  return 1;\n}\n',
  'test/billing.test.ts': "import { invoice } from '../src/billing/invoice.js';\ninvoice();\n",
};
const graph = graphOf(sources);
const auth = changed('src/auth/login.ts', { additions: 20, deletions: 5, symbols: both('login', 2, 5) });
const billing = changed('src/billing/invoice.ts', { additions: 15, deletions: 4, symbols: both('invoice', 1, 3) });

describe('anchorsOf', () => {
  it('takes the conventional-commit scope, else the content words of the title', () => {
    expect(anchorsOf('fix(auth, billing): x', '').scope).toEqual(['auth', 'billing']);
    expect(anchorsOf('Add retry to the HTTP client', '').scope).toEqual(['retry', 'http', 'client']);
    expect([...anchorsOf('fix: typo', 'See `src/billing/invoice.ts`').mentioned]).toEqual(expect.arrayContaining(['billing', 'invoice']));
  });

  it('reads no anchor from merge-commit boilerplate: the PR title on the body’s first line stands for it', () => {
    // Before: 'merge', 'pull', 'request', 'from', 'next' were the title's content words, and 'next' named any zone called next.
    expect(anchorsOf('Merge pull request #3131 from pmndrs/next', '').scope).toEqual([]);
    expect([...anchorsOf('Merge pull request #3131 from pmndrs/next', '').mentioned]).toEqual([]);
    expect(anchorsOf("Merge branch 'next' into main", '').scope).toEqual([]);
    expect(anchorsOf('Merge pull request #12 from acme/fix-auth', 'fix(auth): reject expired sessions\n\nDetails.').scope).toEqual(['auth']);
    // A title that only starts with the word is a title.
    expect(anchorsOf('Merge adjacent invoices', '').scope).toEqual(['merge', 'adjacent', 'invoices']);
  });

  it('a merge commit of a PR branch named next does not anchor the zone src/next: no scope is guessed', () => {
    const next = changed('src/next/router.ts', { additions: 30, deletions: 2, symbols: both('route', 1, 3) });
    const { impactZones, scopeDrift } = analyzePrScope({
      files: [auth, next],
      graph,
      title: 'Merge pull request #3131 from pmndrs/next',
      body: '',
      primaryIntent: 'feature',
    });
    expect(impactZones.every((z) => z.scope_classification === 'primary')).toBe(true);
    expect(scopeDrift).toEqual([]);
  });
});

describe('scope drift', () => {
  it('flags a fix(auth) PR changing billing with no import path between them', () => {
    const stated = { title: 'fix(auth): reject expired sessions', body: '', primaryIntent: 'bugfix' as const };
    const { impactZones, scopeDrift } = analyzePrScope({ files: [auth, billing], graph, ...stated });
    expect(impactZones.map((z) => [z.name, z.scope_classification])).toEqual([
      ['src/auth', 'primary'],
      ['src/billing', 'unrelated'],
    ]);
    expect(scopeDrift.map((d) => ScopeDriftItemSchema.parse(d))).toEqual([
      {
        description: "src/billing is outside the PR's stated bugfix intent",
        reason: 'The title scopes the PR to auth, but src/billing is neither named nor joined to src/auth by any import path (1 file, +15/-4)',
        files: ['src/billing/invoice.ts'],
      },
    ]);
    for (const zone of impactZones) ImpactZoneSchema.parse(zone);
  });

  it('in a connected repository (everything behind one barrel) a zone is joined only by what the anchored code uses', () => {
    const connected = graphOf({
      'src/core/index.ts': "export { sign } from '../tokens/jwt.js';\nexport { invoice } from '../billing/invoice.js';\nexport * from '../audit/log.js';\n",
      'src/auth/login.ts': "import { sign } from '../core/index.js';\nexport function login(): string {\n  return sign('user');\n}\n",
      'src/tokens/jwt.ts': 'export function sign(subject: string): string {\n  return subject;\n}\n',
      'src/billing/invoice.ts': 'export function invoice(): number {\n  return 1;\n}\n',
      'src/audit/log.ts': 'export function audit(event: string): void {\n  console.log(event);\n}\n',
      'src/app.ts': "import * as core from './core/index.js';\ncore.audit(String(core.invoice()));\n",
    });
    const tokens = changed('src/tokens/jwt.ts', { additions: 12, deletions: 3, symbols: both('sign', 1, 3) });
    const stated = { title: 'fix(auth): reject expired sessions', body: '', primaryIntent: 'bugfix' as const };
    const { impactZones } = analyzePrScope({ files: [auth, billing, tokens], graph: connected, ...stated });
    // Before: login reached the barrel, the barrel reached billing, so every zone was supporting.
    expect(Object.fromEntries(impactZones.map((z) => [z.name, z.scope_classification]))).toEqual({
      'src/auth': 'primary',
      'src/tokens': 'supporting',
      'src/billing': 'unrelated',
    });
  });

  it('keeps zones joined by an import path, named in the description, or edited in passing', () => {
    const stated = { title: 'fix(auth): reject expired sessions', body: '', primaryIntent: 'bugfix' as const };
    const audit = changed('src/audit/log.ts', { additions: 10, deletions: 2, symbols: both('audit', 1, 3) });
    const joined = analyzePrScope({ files: [auth, audit], graph, ...stated });
    expect(joined.impactZones.find((z) => z.name === 'src/auth + src/audit' || z.name === 'src/audit')).toBeDefined();
    expect(joined.scopeDrift).toEqual([]);
    // Without the graph the two zones stay apart, and an import path can no longer excuse audit.
    expect(detectScopeDrift({ files: [auth, audit], ...stated }).map((d) => d.files)).toEqual([['src/audit/log.ts']]);
    expect(detectScopeDrift({ files: [auth, billing], graph, ...stated, body: 'Also rounds invoice totals.' })).toEqual([]);
    const typo = changed('src/billing/invoice.ts', { additions: 1, deletions: 1, symbols: both('invoice', 1, 3, false) });
    const small = analyzePrScope({ files: [auth, typo], graph, ...stated });
    expect(small.impactZones.map((z) => z.scope_classification)).toEqual(['primary', 'incidental']);
    expect(small.scopeDrift).toEqual([]);
  });

  it('does not guess a scope the title does not give', () => {
    const stated = { title: 'Handle empty carts', body: '', primaryIntent: 'bugfix' as const };
    const result = analyzePrScope({ files: [auth, billing], graph, ...stated });
    expect(result.impactZones.map((z) => z.scope_classification)).toEqual(['primary', 'primary']);
    expect(result.scopeDrift).toEqual([]);
  });

  it('flags a documentation PR changing source, unless it is about doc comments', () => {
    const docs = changed('docs/auth.md', { kind: 'documentation', additions: 40, deletions: 0 });
    const stated = { title: 'docs: explain the login flow', body: '', primaryIntent: 'docs' as const };
    const drift = detectScopeDrift({ files: [docs, auth], graph, ...stated });
    expect(drift).toEqual([
      {
        description: "src/auth is outside the PR's stated docs intent",
        reason: 'A documentation PR changes source code (1 file, +20/-5)',
        files: ['src/auth/login.ts'],
      },
    ]);
    expect(detectScopeDrift({ files: [docs, auth], graph, ...stated, body: 'Adds JSDoc to login.' })).toEqual([]);
  });

  it('flags a lockfile in a refactor PR unless the description speaks of dependencies', () => {
    const lock = changed('package-lock.json', { kind: 'generated', generated: true, additions: 120, deletions: 80 });
    const stated = { title: 'refactor(auth): split login', body: '', primaryIntent: 'refactor' as const };
    const drift = detectScopeDrift({ files: [auth, lock], graph, ...stated });
    expect(drift).toHaveLength(1);
    expect(drift[0].files).toEqual(['package-lock.json']);
    expect(drift[0].reason).toMatch(/^A refactor should leave dependencies alone/);
    expect(detectScopeDrift({ files: [auth, lock], graph, ...stated, body: 'Also bumps zod.' })).toEqual([]);
    // A package's own lockfile is split off its code into a zone of its own, and reported.
    const inner = changed('tools/gen/package-lock.json', { kind: 'generated', generated: true });
    const nested = analyzePrScope({ files: [changed('tools/gen/index.ts'), inner], ...stated, packages: [{ name: 'gen', dir: 'tools/gen' }] });
    expect(nested.impactZones.map((z) => [z.name, z.scope_classification])).toEqual([
      ['gen', 'primary'],
      ['gen (dependencies)', 'unrelated'],
    ]);
    expect(nested.scopeDrift).toEqual([
      expect.objectContaining({ description: "gen (dependencies) is outside the PR's stated refactor intent", files: ['tools/gen/package-lock.json'] }),
    ]);
  });

  it('keeps the documentation of a package apart from its code in a docs PR', () => {
    const stated = { title: 'docs: explain sessions', body: '', primaryIntent: 'docs' as const };
    const files = [
      changed('packages/auth/README.md', { kind: 'documentation', additions: 30 }),
      changed('packages/auth/src/session.ts', { additions: 1, deletions: 1 }),
    ];
    const result = analyzePrScope({ files, ...stated, packages: [{ name: '@acme/auth', dir: 'packages/auth' }] });
    expect(result.impactZones.map((z) => [z.name, z.scope_classification])).toEqual([
      ['@acme/auth (docs)', 'primary'],
      ['@acme/auth', 'incidental'],
    ]);
    expect(result.scopeDrift).toEqual([]);
  });

  it('accepts source changed with the tests that import it in a test PR, not production code nobody tests', () => {
    const stated = { title: 'test: cover invoices', body: '', primaryIntent: 'test' as const };
    const tested = [changed('test/billing.test.ts', { additions: 30 }), billing];
    expect(detectScopeDrift({ files: tested, graph, ...stated })).toEqual([]);
    const drift = detectScopeDrift({ files: [changed('test/billing.test.ts', { additions: 30 }), auth], graph, ...stated });
    expect(drift.map((d) => d.reason)).toEqual(['A test PR changes production code that none of its tests import (1 file, +20/-5)']);
  });
});
