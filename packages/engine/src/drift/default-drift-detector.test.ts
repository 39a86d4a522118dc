import { describe, expect, it } from 'vitest';
import type { DriftSnapshot } from '../contracts/drift.js';
import { DefaultDriftDetector } from './default-drift-detector.js';

const cats = (v: number) => ({ security: v, runtime_risks: v, test_coverage: v, code_smell: v, duplication: v, dead_code: v, consistency: v, compliance: v });
const snap = (over: Partial<DriftSnapshot> = {}): DriftSnapshot => ({ overall: 80, categories: cats(80), ...over });
const detector = new DefaultDriftDetector();

describe('DefaultDriftDetector', () => {
  it('raises nothing for small moves', () => {
    expect(detector.detect(snap(), snap({ overall: 78, categories: { ...cats(80), security: 76 } }))).toEqual([]);
  });

  it('raises score alerts for the overall and each category past the threshold', () => {
    const alerts = detector.detect(snap(), snap({ overall: 70, categories: { ...cats(80), security: 60 }, filesByCategory: { security: ['a.ts'] } }));
    expect(alerts.map((a) => [a.driftType, a.category, a.change])).toEqual([
      ['score', 'overall', -10],
      ['score', 'security', -20],
    ]);
    expect(alerts[1].affectedFiles).toEqual(['a.ts']);
    expect(alerts[1].message).toContain('dropped by 20');
  });

  it('raises coverage, convention and churn alerts', () => {
    const alerts = detector.detect(
      snap({ structuralCoveragePct: 60, conventionConsistency: 95, churnRate: 30 }),
      snap({ structuralCoveragePct: 50, conventionConsistency: 85, churnRate: 60, hotFiles: ['hot.ts'] }),
    );
    expect(alerts.map((a) => a.driftType)).toEqual(['coverage', 'convention', 'churn']);
    expect(alerts[2].affectedFiles).toEqual(['hot.ts']);
  });

  it('uses configured thresholds and can report improvements', () => {
    expect(detector.detect(snap(), snap({ overall: 78 }), { overallScoreDrop: 1 })).toHaveLength(1);
    expect(detector.detect(snap(), snap({ overall: 90 }))).toHaveLength(0);
    expect(detector.detect(snap(), snap({ overall: 90 }), { includeImprovements: true })[0].change).toBe(10);
  });

  it('ignores churn below the minimum rate', () => {
    expect(detector.detect(snap({ churnRate: 2 }), snap({ churnRate: 10 }))).toEqual([]);
  });

  it('ignores categories either assessment did not assess, and the overall when either has no grade', () => {
    const { security: _s, test_coverage: _t, consistency: _c, ...partial } = cats(20);
    const notAssessed = snap({ overall: null, categories: partial, structuralCoveragePct: 0, conventionConsistency: 10 });
    const before = snap({ structuralCoveragePct: 90, conventionConsistency: 95 });
    // Every assessed category fell by 60 points: those alert; the three not assessed, the overall, coverage and conventions do not.
    const alerts = detector.detect(before, notAssessed);
    expect(alerts.map((a) => a.category).sort()).toEqual(['code_smell', 'compliance', 'dead_code', 'duplication', 'runtime_risks']);
    const rises = detector.detect(notAssessed, before, { includeImprovements: true });
    expect(rises.map((a) => a.category).sort()).toEqual(['code_smell', 'compliance', 'dead_code', 'duplication', 'runtime_risks']);
    expect(detector.detect(snap({ overall: null, categories: {} }), snap({ overall: 10, categories: cats(10) }), { includeImprovements: true })).toEqual([]);
    // Churn alerts are filed under code smell: none from a run without code (churn 0) to one with it.
    expect(detector.detect(snap({ overall: null, categories: {}, churnRate: 0 }), snap({ churnRate: 500 }))).toEqual([]);
  });
});
