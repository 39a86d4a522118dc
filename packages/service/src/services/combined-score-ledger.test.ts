import { describe, expect, it } from 'vitest';
import { HEALTH_CATEGORY_KEYS, type HealthCategoryKey } from '@codehealth/engine';
import type { WireCategoryLedger, WireScoreLedger } from '@codehealth/engine/internal';
import { combineScoreLedgers } from './combined-score-ledger.js';

const notAssessed = (reason: string): WireCategoryLedger => ({ assessed: false, not_assessed_reason: reason, evidence: [], ledger: [] });

function ledger(
  categories: Partial<Record<HealthCategoryKey, WireCategoryLedger>>,
  overall: WireScoreLedger['overall'],
  nonProduction: WireScoreLedger['non_production'] = {},
): WireScoreLedger {
  const all = Object.fromEntries(HEALTH_CATEGORY_KEYS.map((key) => [key, categories[key] ?? notAssessed('no enabled analyzer covers it')])) as Record<
    HealthCategoryKey,
    WireCategoryLedger
  >;
  return { scoring_model: 'default-v2', overall, categories: all, non_production: nonProduction };
}

const tenths = (entries: ReadonlyArray<{ cost: number }>) => entries.reduce((sum, e) => sum + Math.round(e.cost * 10), 0);

describe('combineScoreLedgers', () => {
  // Repository A (3,000 lines): security 60 (one rule), test coverage 70 (structural coverage 40).
  const a = ledger(
    {
      security: {
        assessed: true,
        not_assessed_reason: null,
        evidence: [{ kind: 'findings', analyzers: ['security'] }],
        ledger: [{ kind: 'rule', id: 'security/no-eval', findings: 2, points: 20, value: null, cost: 40 }],
      },
      test_coverage: {
        assessed: true,
        not_assessed_reason: null,
        evidence: [
          { kind: 'findings', analyzers: ['testing'] },
          { kind: 'structural-coverage', value: 40 },
        ],
        ledger: [{ kind: 'measurement', id: 'structural-coverage', findings: null, points: null, value: 40, cost: 30 }],
      },
    },
    [
      { category: 'security', share: 0.571, score: 60, cost: 22.9 },
      { category: 'test_coverage', share: 0.429, score: 70, cost: 12.9 },
    ],
    { example: { findings: 3, points: 7, lines_of_code: 120 } },
  );
  // Repository B (1,000 lines): security 90 (another rule), test coverage not assessed.
  const b = ledger(
    {
      security: {
        assessed: true,
        not_assessed_reason: null,
        evidence: [{ kind: 'findings', analyzers: ['security', 'sarif-import'] }],
        ledger: [{ kind: 'rule', id: 'security/hardcoded-secret', findings: 1, points: 10, value: null, cost: 10 }],
      },
    },
    [{ category: 'security', share: 1, score: 90, cost: 10 }],
    { example: { findings: 1, points: 2, lines_of_code: null }, benchmark: { findings: 2, points: 4, lines_of_code: 50 } },
  );

  it('weighs each line like the combined scores and settles it so the sums hold', () => {
    // Combined by LOC: security 0.75 × 60 + 0.25 × 90 = 67.5; test coverage from A only: 70; overall 0.75 × 64.3 + 0.25 × 90 = 70.7.
    const combined = combineScoreLedgers(
      [
        { ledger: a, weight: 3000, graded: true },
        { ledger: b, weight: 1000, graded: true },
      ],
      {
        overall: 70.7,
        categories: {
          security: 67.5,
          runtime_risks: null,
          test_coverage: 70,
          code_smell: null,
          duplication: null,
          dead_code: null,
          consistency: null,
          compliance: null,
        },
      },
      { runtime_risks: 'no enabled analyzer covers it' },
    );
    expect(combined.categories.security.ledger).toEqual([
      { kind: 'rule', id: 'security/no-eval', findings: 2, points: 20, value: null, cost: 30 },
      { kind: 'rule', id: 'security/hardcoded-secret', findings: 1, points: 10, value: null, cost: 2.5 },
    ]);
    expect(combined.categories.security.evidence).toEqual([{ kind: 'findings', analyzers: ['sarif-import', 'security'] }]);
    // Only A assessed test coverage: its line is A's, whole.
    expect(combined.categories.test_coverage.ledger).toEqual([
      { kind: 'measurement', id: 'structural-coverage', findings: null, points: null, value: 40, cost: 30 },
    ]);
    expect(combined.categories.runtime_risks).toEqual(notAssessed('no enabled analyzer covers it'));
    expect(tenths(combined.overall)).toBe(Math.round((100 - 70.7) * 10));
    expect(combined.overall.map((e) => e.category)).toEqual(['security', 'test_coverage']);
    expect(combined.non_production).toEqual({
      example: { findings: 4, points: 9, lines_of_code: 120 },
      benchmark: { findings: 2, points: 4, lines_of_code: 50 },
    });
  });

  it('leaves a repository without a grade out of the overall lines', () => {
    const none = ledger({}, []);
    const combined = combineScoreLedgers(
      [
        { ledger: b, weight: 1000, graded: true },
        { ledger: none, weight: 0, graded: false },
      ],
      {
        overall: 90,
        categories: {
          security: 90,
          runtime_risks: null,
          test_coverage: null,
          code_smell: null,
          duplication: null,
          dead_code: null,
          consistency: null,
          compliance: null,
        },
      },
      {},
    );
    expect(combined.overall).toEqual([{ category: 'security', share: 1, score: 90, cost: 10 }]);
  });
});
