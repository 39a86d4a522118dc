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
});
