// The default drift detector: compares two assessments and raises `score`, `coverage`,
// `convention` and `churn` alerts when a value moves past its threshold (README, "Drift").
import { injectable } from 'tsyringe';
import type { DriftAlert, DriftDetector, DriftSnapshot, DriftThresholds } from '../contracts/drift.js';
import { HEALTH_CATEGORY_KEYS, type HealthCategoryKey } from '../domain/types.js';

export const DEFAULT_DRIFT_THRESHOLDS: DriftThresholds = {
  categoryScoreDrop: 5,
  overallScoreDrop: 3,
  coverageDrop: 5,
  conventionDrop: 5,
  churnRise: 0.5,
  churnMinRate: 20,
  includeImprovements: false,
};

const round1 = (n: number) => Math.round(n * 10) / 10;

@injectable()
export class DefaultDriftDetector implements DriftDetector {
  readonly id = 'default-v1';

  detect(previous: DriftSnapshot, current: DriftSnapshot, overrides: Partial<DriftThresholds> = {}): DriftAlert[] {
    const t = { ...DEFAULT_DRIFT_THRESHOLDS, ...overrides };
    const alerts: DriftAlert[] = [];
    const moved = (change: number, threshold: number) => change <= -threshold || (t.includeImprovements && change >= threshold);

    // A run without a grade, or a category one of the two runs did not assess, is not compared.
    const overallChange = previous.overall === null || current.overall === null ? 0 : round1(current.overall - previous.overall);
    if (previous.overall !== null && current.overall !== null && moved(overallChange, t.overallScoreDrop)) {
      alerts.push({
        driftType: 'score',
        category: 'overall',
        previousValue: previous.overall,
        currentValue: current.overall,
        change: overallChange,
        message: `Overall health ${overallChange < 0 ? 'dropped' : 'rose'} by ${Math.abs(overallChange)} points (${previous.overall} → ${current.overall})`,
        affectedFiles: [],
      });
    }
    for (const key of HEALTH_CATEGORY_KEYS) {
      const before = previous.categories[key];
      const after = current.categories[key];
      if (before === undefined || after === undefined) continue;
      const change = round1(after - before);
      if (!moved(change, t.categoryScoreDrop)) continue;
      alerts.push({
        driftType: 'score',
        category: key,
        previousValue: before,
        currentValue: after,
        change,
        message: `${key} score ${change < 0 ? 'dropped' : 'rose'} by ${Math.abs(change)} points (${before} → ${after})`,
        affectedFiles: current.filesByCategory?.[key]?.slice(0, 20) ?? [],
      });
    }
    const assessed = (key: HealthCategoryKey) => previous.categories[key] !== undefined && current.categories[key] !== undefined;
    const coverage = (s: DriftSnapshot) => (assessed('test_coverage') ? (s.actualCoveragePercent ?? s.structuralCoveragePct) : undefined);
    const covBefore = coverage(previous);
    const covAfter = coverage(current);
    if (covBefore !== undefined && covAfter !== undefined && moved(round1(covAfter - covBefore), t.coverageDrop)) {
      const change = round1(covAfter - covBefore);
      alerts.push({
        driftType: 'coverage',
        category: 'test_coverage',
        previousValue: covBefore,
        currentValue: covAfter,
        change,
        message: `Test coverage ${change < 0 ? 'fell' : 'rose'} by ${Math.abs(change)} points (${covBefore}% → ${covAfter}%)`,
        affectedFiles: [],
      });
    }
    const conv = assessed('consistency') ? [previous.conventionConsistency, current.conventionConsistency] : [undefined, undefined];
    if (conv[0] !== undefined && conv[1] !== undefined && moved(round1(conv[1] - conv[0]), t.conventionDrop)) {
      const change = round1(conv[1] - conv[0]);
      alerts.push({
        driftType: 'convention',
        category: 'consistency',
        previousValue: conv[0],
        currentValue: conv[1],
        change,
        message: `Convention consistency ${change < 0 ? 'fell' : 'rose'} by ${Math.abs(change)} points (${conv[0]}% → ${conv[1]}%)`,
        affectedFiles: current.filesByCategory?.consistency?.slice(0, 20) ?? [],
      });
    }
    // Churn alerts are filed under code smell: a run that did not assess it had no code to churn.
    const churn = assessed('code_smell') ? [previous.churnRate, current.churnRate] : [undefined, undefined];
    if (churn[0] !== undefined && churn[1] !== undefined && churn[1] >= t.churnMinRate) {
      const rise = churn[0] === 0 ? Infinity : (churn[1] - churn[0]) / churn[0];
      if (rise >= t.churnRise) {
        alerts.push({
          driftType: 'churn',
          category: 'code_smell',
          previousValue: churn[0],
          currentValue: churn[1],
          change: round1(churn[1] - churn[0]),
          message: `Churn rose ${Number.isFinite(rise) ? `by ${Math.round(rise * 100)}%` : 'from zero'} (${churn[0]} → ${churn[1]} changed lines per KLOC in 30 days)`,
          affectedFiles: current.hotFiles?.slice(0, 20) ?? [],
        });
      }
    }
    return alerts;
  }
}
