// The default scoring model. Each category's score falls exponentially with the severity-weighted
// density of its findings per thousand lines of code, so size does not punish a large repository and
// every added or fixed issue moves the score. Metric-backed categories blend in their measurement.
// The formulas are documented in the README ("Scoring model"); keep the two in step.
import { inject, injectable } from 'tsyringe';
import type { CategoryScore, Grade, ScoreResult, ScoringMetrics, ScoringModel } from '../contracts/scoring.js';
import { HEALTH_CATEGORY_KEYS, type Finding, type HealthCategoryKey, type Severity } from '../domain/types.js';
import { healthKeyOf } from '../domain/categories.js';
import { TOKENS } from '../di/tokens.js';

export const SEVERITY_POINTS: Record<Severity, number> = { critical: 10, high: 5, medium: 2, low: 1, info: 0 };

/** Density (points per KLOC) at which a category's issue score is 50. */
export const HALF_SCORE_DENSITY: Record<HealthCategoryKey, number> = {
  security: 2,
  runtime_risks: 4,
  test_coverage: 4,
  code_smell: 8,
  duplication: 8,
  dead_code: 8,
  consistency: 10,
  compliance: 6,
};

export const DEFAULT_WEIGHTS: Record<HealthCategoryKey, number> = {
  security: 0.2,
  runtime_risks: 0.15,
  test_coverage: 0.15,
  code_smell: 0.15,
  duplication: 0.1,
  dead_code: 0.1,
  consistency: 0.075,
  compliance: 0.075,
};

export const GRADE_THRESHOLDS: ReadonlyArray<[Grade, number]> = [
  ['A', 90],
  ['B', 80],
  ['C', 70],
  ['D', 60],
];

/** Repositories under this size are scored as if they had it, so one issue in a tiny repo is not fatal. */
export const MIN_KLOC = 1;

export interface ScoringOptions {
  weights?: Partial<Record<HealthCategoryKey, number>>;
}

const round1 = (n: number) => Math.round(n * 10) / 10;
const clamp = (n: number) => Math.min(100, Math.max(0, n));

@injectable()
export class DefaultScoringModel implements ScoringModel {
  readonly id = 'default-v1';
  private readonly weights: Record<HealthCategoryKey, number>;

  constructor(@inject(TOKENS.ScoringOptions) options: ScoringOptions = {}) {
    this.weights = { ...DEFAULT_WEIGHTS, ...options.weights };
  }

  gradeOf(score: number): Grade {
    for (const [grade, min] of GRADE_THRESHOLDS) if (score >= min) return grade;
    return 'F';
  }

  score(findings: readonly Finding[], metrics: ScoringMetrics, assessed: ReadonlySet<HealthCategoryKey>): ScoreResult {
    const kloc = Math.max(MIN_KLOC, metrics.sourceLoc / 1000);
    const points = new Map<HealthCategoryKey, number>();
    const counts = new Map<HealthCategoryKey, number>();
    for (const f of findings) {
      const key = healthKeyOf(f.category);
      points.set(key, (points.get(key) ?? 0) + SEVERITY_POINTS[f.severity]);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const categories = {} as Record<HealthCategoryKey, CategoryScore>;
    for (const key of HEALTH_CATEGORY_KEYS) {
      const density = (points.get(key) ?? 0) / kloc;
      const issueScore = 100 * Math.pow(0.5, density / HALF_SCORE_DENSITY[key]);
      const measured = this.measuredScore(key, metrics);
      const score = measured === undefined ? issueScore : (issueScore + measured) / 2;
      categories[key] = {
        key,
        score: round1(clamp(score)),
        assessed: assessed.has(key) || measured !== undefined,
        findings: counts.get(key) ?? 0,
        density: round1(density * 100) / 100,
      };
    }
    let weighted = 0;
    let total = 0;
    for (const key of HEALTH_CATEGORY_KEYS) {
      if (!categories[key].assessed) continue;
      weighted += categories[key].score * this.weights[key];
      total += this.weights[key];
    }
    const overall = total === 0 ? 100 : round1(weighted / total);
    return { categories, overall, grade: this.gradeOf(overall) };
  }

  /** The measurement half of metric-backed categories; undefined when not measured. */
  private measuredScore(key: HealthCategoryKey, m: ScoringMetrics): number | undefined {
    switch (key) {
      case 'test_coverage':
        return m.actualCoveragePercent ?? m.structuralCoveragePct;
      case 'duplication':
        return m.duplicationIndex === undefined ? undefined : clamp(100 - 3 * m.duplicationIndex);
      case 'consistency':
        return m.conventionConsistency;
      default:
        return undefined;
    }
  }
}
