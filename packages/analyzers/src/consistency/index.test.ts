import { describe, expect, it } from 'vitest';
import type { ConventionPattern } from '@codehealth/engine';
import { analyzeWith, MiniRepo } from '../shared/fixtures/mini-repo.js';
import { consistency } from './index.js';

const weighted = (patterns: ConventionPattern[]) => {
  const counted = patterns.filter((p) => p.totalCount >= 10);
  const total = counted.reduce((n, p) => n + p.totalCount, 0);
  return Math.round((counted.reduce((n, p) => n + p.consistency * p.totalCount, 0) / total) * 10) / 10;
};

/** Twelve modules in a ring; three functions are snake_case and three imports lack the `.js` extension. */
function repository(): MiniRepo {
  const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu'];
  const fn = (i: number) => (i % 5 ? `runTask${i}` : `run_task_${i}`);
  const files = Object.fromEntries(
    names.map((n, i) => {
      const prev = (i + 11) % 12;
      return [
        `src/${n}-module.ts`,
        `import { ${fn(prev)} } from './${names[prev]}-module${i % 4 ? '.js' : ''}';\nexport function ${fn(i)}() {\n  return ${fn(prev)};\n}\n`,
      ];
    }),
  );
  return new MiniRepo(files);
}

describe('consistency analyzer', () => {
  it('has the documented defaults for every rule', () => {
    expect(Object.fromEntries(consistency.rules.map((r) => [r.meta.id, r.meta.options?.parse(undefined)]))).toEqual({
      'naming-convention': { minConsistency: 80, minSamples: 10, maxIssuesPerPattern: 50, ignore: [] },
      'file-naming': { minConsistency: 80, minSamples: 10, maxIssuesPerPattern: 50 },
      'import-style': { minConsistency: 80, minSamples: 10, maxIssuesPerPattern: 50 },
      'error-handling-style': { minConsistency: 80, minSamples: 10, maxIssuesPerPattern: 50 },
      'async-style': { minConsistency: 80, minSamples: 10, maxIssuesPerPattern: 50 },
    });
    expect(consistency.rules.every((r) => r.kind === 'repository' && r.meta.category === 'consistency' && r.meta.source === 'convention')).toBe(true);
  });

  it('publishes conventionConsistency as the average of the patterns with enough samples, weighted by their counts', async () => {
    const repo = repository();
    const result = await analyzeWith(consistency, repo.root);
    const byName = Object.fromEntries(result.conventions.map((c) => [c.name, [c.totalCount, c.consistency]]));
    expect(byName).toMatchObject({ 'function-naming': [12, 75], 'file-naming': [12, 100], 'module-system': [12, 100], 'import-extension': [12, 75] });
    expect(result.metrics.conventionConsistency).toBe(weighted(result.conventions));
    // Five patterns of 12: (75 + 100 + 100 + 75 + 100) / 5.
    expect(result.metrics.conventionConsistency).toBe(90);
    // 75% is under the 80% bar: the statistics are published, no deviation is reported.
    expect(result.findings).toEqual([]);
    expect(result.scores.categories.consistency.assessed).toBe(true);
  });

  it('averages over the enabled rules only', async () => {
    const repo = repository();
    repo.write({ 'codehealth.config.json': JSON.stringify({ rules: { 'consistency/import-style': 'off' } }) });
    const result = await analyzeWith(consistency, repo.root);
    expect(result.conventions.map((c) => c.name)).not.toContain('module-system');
    expect(result.metrics.conventionConsistency).toBe(weighted(result.conventions));
    // Only function-naming (75) and file-naming (100) are left.
    expect(result.metrics.conventionConsistency).toBe(87.5);
  });
});
