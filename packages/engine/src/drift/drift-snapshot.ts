// Reduces an assessment result to the facts drift detection compares (what a store keeps).
import type { DriftSnapshot } from '../contracts/drift.js';
import type { AssessmentResult } from '../pipeline/types.js';
import { HEALTH_CATEGORY_KEYS, type HealthCategoryKey } from '../domain/types.js';
import { healthKeyOf } from '../domain/categories.js';

export function driftSnapshotOf(input: AssessmentResult | DriftSnapshot): DriftSnapshot {
  if (!('scores' in input)) return input;
  const { scores, metrics, findings } = input;
  const categories = Object.fromEntries(HEALTH_CATEGORY_KEYS.map((k) => [k, scores.categories[k].score])) as Record<HealthCategoryKey, number>;
  const files = new Map<HealthCategoryKey, Set<string>>();
  for (const f of findings) {
    const key = healthKeyOf(f.category);
    if (!files.has(key)) files.set(key, new Set());
    files.get(key)!.add(f.filePath);
  }
  const filesByCategory = Object.fromEntries([...files].map(([k, set]) => [k, [...set]]));
  return {
    overall: scores.overall,
    categories,
    structuralCoveragePct: metrics.structuralCoveragePct,
    actualCoveragePercent: metrics.actualCoveragePercent ?? undefined,
    conventionConsistency: metrics.conventionConsistency,
    churnRate: metrics.churn.churnRate,
    filesByCategory,
    hotFiles: metrics.churn.hotFiles,
  };
}
