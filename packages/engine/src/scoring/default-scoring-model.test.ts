import { describe, expect, it } from 'vitest';
import type { Finding, HealthCategoryKey, IssueCategory, Severity } from '../domain/types.js';
import { HEALTH_CATEGORY_KEYS } from '../domain/types.js';
import { DefaultScoringModel } from './default-scoring-model.js';

function finding(category: IssueCategory, severity: Severity, i = 0): Finding {
  return {
    source: 'static_analyzer', severity, category, filePath: `src/f${i}.ts`, fileGroup: 'src',
    anchor: { lineStart: 1, lineEnd: 1, codeSnippet: 'x', validated: true },
    title: 't', description: 'd', whyItMatters: 'w', suggestedAction: 's',
    ruleId: 'a/r', analyzerName: 'a', confidence: 90, autoFixable: false,
  };
}
const all = new Set<HealthCategoryKey>(HEALTH_CATEGORY_KEYS);
const model = new DefaultScoringModel({});

describe('DefaultScoringModel', () => {
  it('gives 100 and grade A with no findings', () => {
    const r = model.score([], { sourceLoc: 5000, testLoc: 0 }, all);
    expect(r.overall).toBe(100);
    expect(r.grade).toBe('A');
    expect(r.categories.security.score).toBe(100);
  });

  it('halves a category score at its half-score density', () => {
    // security: 2 points per KLOC -> 50. 10 KLOC and two critical (20 points) = 2/KLOC.
    const r = model.score([finding('security', 'critical'), finding('security', 'critical', 1)], { sourceLoc: 10_000, testLoc: 0 }, all);
    expect(r.categories.security.score).toBe(50);
    expect(r.categories.security.density).toBe(2);
    expect(r.categories.security.findings).toBe(2);
  });

  it('normalises by size: the same density scores the same at 10k and 1M lines', () => {
    const small = model.score(Array.from({ length: 3 }, (_, i) => finding('code_smell', 'high', i)), { sourceLoc: 10_000, testLoc: 0 }, all);
    const large = model.score(Array.from({ length: 300 }, (_, i) => finding('code_smell', 'high', i)), { sourceLoc: 1_000_000, testLoc: 0 }, all);
    expect(large.categories.code_smell.score).toBe(small.categories.code_smell.score);
    expect(small.categories.code_smell.score).toBeLessThan(100);
  });

  it('moves when one issue is added or fixed', () => {
    const base = Array.from({ length: 5 }, (_, i) => finding('runtime', 'medium', i));
    const before = model.score(base, { sourceLoc: 20_000, testLoc: 0 }, all);
    const after = model.score([...base, finding('runtime', 'medium', 9)], { sourceLoc: 20_000, testLoc: 0 }, all);
    expect(after.categories.runtime_risks.score).toBeLessThan(before.categories.runtime_risks.score);
    expect(after.overall).toBeLessThan(before.overall);
  });

  it('weights the overall score and leaves unassessed categories out of it', () => {
    const findings = Array.from({ length: 10 }, (_, i) => finding('security', 'critical', i));
    const onlySecurity = model.score(findings, { sourceLoc: 1000, testLoc: 0 }, new Set<HealthCategoryKey>(['security']));
    expect(onlySecurity.overall).toBe(onlySecurity.categories.security.score);
    expect(onlySecurity.categories.dead_code.assessed).toBe(false);
    const everything = model.score(findings, { sourceLoc: 1000, testLoc: 0 }, all);
    // security has weight 0.2, the other seven are 100.
    expect(everything.overall).toBeCloseTo(0.2 * everything.categories.security.score + 80, 0);
  });

  it('blends measured coverage and duplication into their categories', () => {
    const r = model.score([], { sourceLoc: 1000, testLoc: 0, structuralCoveragePct: 40, duplicationIndex: 10 }, new Set());
    expect(r.categories.test_coverage.score).toBe(70);
    expect(r.categories.test_coverage.assessed).toBe(true);
    expect(r.categories.duplication.score).toBe(85);
  });

  it('maps scores to grades at documented thresholds', () => {
    expect([95, 90, 89.9, 80, 70, 60, 59.9, 0].map((s) => model.gradeOf(s))).toEqual(['A', 'A', 'B', 'B', 'C', 'D', 'F', 'F']);
  });

  it('honours configured weights', () => {
    const heavy = new DefaultScoringModel({ weights: { security: 10 } });
    const r = heavy.score([finding('security', 'critical')], { sourceLoc: 1000, testLoc: 0 }, all);
    expect(r.overall).toBeLessThan(model.score([finding('security', 'critical')], { sourceLoc: 1000, testLoc: 0 }, all).overall);
  });
});
