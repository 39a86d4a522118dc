// The drift contract: a previous and a current assessment in, alerts out.
import type { HealthCategoryKey } from '../domain/types.js';

export type DriftType = 'score' | 'coverage' | 'convention' | 'churn';

/** The facts of one assessment that drift detection compares. */
export interface DriftSnapshot {
  /** Null when the assessment has no grade: nothing to compare. */
  overall: number | null;
  /** Scores of the assessed categories; a category not assessed is absent and never compared. */
  categories: Partial<Record<HealthCategoryKey, number>>;
  structuralCoveragePct?: number;
  actualCoveragePercent?: number;
  conventionConsistency?: number;
  /** Lines added + deleted in the last 30 days per 1000 lines of code. */
  churnRate?: number;
  /** Files per category that carry findings, to fill `affected_files`. */
  filesByCategory?: Partial<Record<HealthCategoryKey, string[]>>;
  hotFiles?: string[];
}

export interface DriftAlert {
  driftType: DriftType;
  /** A health category key, or `overall`. */
  category: HealthCategoryKey | 'overall';
  previousValue: number;
  currentValue: number;
  change: number;
  message: string;
  affectedFiles: string[];
}

export interface DriftThresholds {
  /** Minimum drop (points) of a category score that raises a `score` alert. */
  categoryScoreDrop: number;
  /** Minimum drop of the overall score. */
  overallScoreDrop: number;
  /** Minimum drop of coverage (percentage points). */
  coverageDrop: number;
  /** Minimum drop of convention consistency (percentage points). */
  conventionDrop: number;
  /** Relative churn-rate rise that raises a `churn` alert (0.5 = +50%). */
  churnRise: number;
  /** Churn alerts need at least this churn rate, so that tiny repositories do not alert. */
  churnMinRate: number;
  /** Also alert on improvements of at least the same size. */
  includeImprovements: boolean;
}

export interface DriftDetector {
  readonly id: string;
  detect(previous: DriftSnapshot, current: DriftSnapshot, thresholds?: Partial<DriftThresholds>): DriftAlert[];
}
