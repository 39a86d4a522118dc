// The scoring contract: findings and metrics in, eight category scores, overall and grade out.
import type { Finding, HealthCategoryKey } from '../domain/types.js';

export type Grade = 'A' | 'B' | 'C' | 'D' | 'F';

/** Size and quality metrics the scoring model may use; every field is optional but LOC. */
export interface ScoringMetrics {
  /** Lines of code (non-blank, non-comment) of analysed source files. */
  sourceLoc: number;
  testLoc: number;
  /** 0-100: share of source modules reached from tests; undefined when not measured. */
  structuralCoveragePct?: number;
  /** 0-100 from a coverage report; undefined when the repository has none. */
  actualCoveragePercent?: number;
  /** 0-100: share of duplicated lines. */
  duplicationIndex?: number;
  /** 0-100: convention consistency. */
  conventionConsistency?: number;
}

export interface CategoryScore {
  key: HealthCategoryKey;
  score: number;
  /** False when no enabled analyzer covers the category; the score is then 100 by convention. */
  assessed: boolean;
  findings: number;
  /** Severity-weighted points per thousand lines, the size-normalised input of the score. */
  density: number;
}

export interface ScoreResult {
  categories: Record<HealthCategoryKey, CategoryScore>;
  overall: number;
  grade: Grade;
}

export interface ScoringModel {
  readonly id: string;
  score(findings: readonly Finding[], metrics: ScoringMetrics, assessed: ReadonlySet<HealthCategoryKey>): ScoreResult;
  gradeOf(score: number): Grade;
}
