// Reduces an assessment result to the facts drift detection compares (what a store keeps): the
// assessed categories' scores, and the production files whose findings explain a change.
import type { DriftSnapshot } from '../contracts/drift.js';
import type { AssessmentResult } from '../pipeline/types.js';
import { HEALTH_CATEGORY_KEYS, type HealthCategoryKey } from '../domain/types.js';
import { healthKeyOf } from '../domain/categories.js';
import { countsInScore } from '../scoring/production-findings.js';

export function driftSnapshotOf(input: AssessmentResult | DriftSnapshot): DriftSnapshot {
  if (!('scores' in input)) return input;
  const { scores, metrics, findings } = input;
  // Not-assessed categories are left out: drift compares only what both runs saw.
  const categories: Partial<Record<HealthCategoryKey, number>> = {};
  for (const k of HEALTH_CATEGORY_KEYS) {
    const score = scores.categories[k].score;
    if (scores.categories[k].assessed && score !== null) categories[k] = score;
  }
  const files = new Map<HealthCategoryKey, Set<string>>();
  for (const f of findings) {
    if (!countsInScore(f)) continue;
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
