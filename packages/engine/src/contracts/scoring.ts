// The scoring contract: findings and metrics in, eight category scores, overall and grade out —
// or "not assessed" with a reason where nothing was seen, and a ledger saying where points went.
import type { Finding, HealthCategoryKey } from '../domain/types.js';

export type Grade = 'A' | 'B' | 'C' | 'D' | 'F';

/** Size and quality metrics the scoring model may use; every field is optional but LOC. */
export interface ScoringMetrics {
  /** Lines of code (non-blank, non-comment) of the analysed production source files. */
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

/**
 * What the run could see, so that a model can tell "nothing wrong" from "nothing looked at".
 * Without it a model falls back on `ScoringMetrics.sourceLoc > 0` for "there is code".
 */
export interface ScoringEvidence {
  /** Ids of the enabled analyzers whose rules report in each category. */
  analyzers?: Partial<Record<HealthCategoryKey, readonly string[]>>;
  /** Production TypeScript/JavaScript files that were analysed (not skipped). */
  productionFiles?: number;
  /** Analysed TypeScript/JavaScript files of other roles, by role (`test`, `example`, ...). */
  otherRoleFiles?: Readonly<Record<string, number>>;
  /** Lines of code of analysed files of other roles, by role. */
  otherRoleLoc?: Readonly<Record<string, number>>;
  /** Code files in languages no analyzer reads, by language name (`{ Python: 3 }`). */
  unsupportedFiles?: Readonly<Record<string, number>>;
  /** TypeScript/JavaScript production files present but skipped (too large, unreadable). */
  skippedFiles?: number;
  /** TypeScript declaration files (`.d.ts`) outside vendored folders: types only, not analysed. */
  declarationFiles?: number;
}

/** What a category's score rests on. */
export type ScoreEvidence =
  /** Rules of these analyzers looked for findings (none found is evidence too). */
  | { kind: 'findings'; analyzers: string[] }
  /** Share of source modules reached from tests (no coverage report). */
  | { kind: 'structural-coverage'; value: number }
  /** Line coverage from a coverage report in the repository. */
  | { kind: 'coverage-report'; value: number }
  | { kind: 'duplication-index'; value: number }
  | { kind: 'convention-consistency'; value: number };

/** One line of a category's ledger: what cost how many points of its score. */
export interface CategoryLedgerEntry {
  /** `rule`: a rule's findings; `measurement`: the measured half of a metric-backed category. */
  kind: 'rule' | 'measurement';
  /** The rule id (`<analyzer>/<rule>`), or the measurement (`structural-coverage`, `coverage-report`, `duplication-index`, `convention-consistency`). */
  id: string;
  /** Rule entries: findings of the rule that count in the score, and their severity points. */
  findings?: number;
  points?: number;
  /** Measurement entries: the measured value (0-100, or the duplication index). */
  value?: number;
  /** Points of the score this costs, one decimal. The entries of a category add up to 100 − score exactly. */
  cost: number;
}

/** One line of the overall ledger: what a category cost of the weighted total. */
export interface OverallLedgerEntry {
  category: HealthCategoryKey;
  /** The category's share of the weighted average (its weight ÷ the assessed categories' weights). */
  share: number;
  score: number;
  /** Points of the overall score this costs, one decimal. The entries add up to 100 − overall exactly. */
  cost: number;
}

/** Findings of one non-production role: reported, counted here, left out of every score. */
export interface RoleFigures {
  findings: number;
  /** Severity points of those findings. */
  points: number;
  /** Lines of code of analysed files in the role, when the run knows them. */
  linesOfCode?: number;
}

export interface CategoryScore {
  key: HealthCategoryKey;
  /** 0-100; null when the category is not assessed. */
  score: number | null;
  /** False when the run had no evidence for the category (see `notAssessedReason`). */
  assessed: boolean;
  /** Findings that count in the score (production code). */
  findings: number;
  /** Severity-weighted points per thousand lines, the size-normalised input of the score. */
  density: number;
  /** Why the category is not assessed ("no TypeScript or JavaScript files: 3 Python files are not analysed"). */
  notAssessedReason?: string;
  /** What the score rests on; empty when not assessed. */
  evidence?: ScoreEvidence[];
  /** Where the points below 100 went; sums to 100 − score. Empty when not assessed. */
  ledger?: CategoryLedgerEntry[];
}

export interface ScoreResult {
  categories: Record<HealthCategoryKey, CategoryScore>;
  /** Weighted average of the assessed categories; null when none is assessed (no grade). */
  overall: number | null;
  grade: Grade | null;
  /** Why there is no grade, when `overall` is null. */
  notGradedReason?: string;
  /** What each assessed category cost of the overall score; sums to 100 − overall. */
  ledger?: OverallLedgerEntry[];
  /** Findings outside production code, by role: reported, never in a score. */
  nonProduction?: Partial<Record<string, RoleFigures>>;
}

export interface ScoringModel {
  readonly id: string;
  /**
   * `assessed`: categories some enabled analyzer covers. `evidence` says what the run could see;
   * models written before it existed ignore it.
   */
  score(findings: readonly Finding[], metrics: ScoringMetrics, assessed: ReadonlySet<HealthCategoryKey>, evidence?: ScoringEvidence): ScoreResult;
  gradeOf(score: number): Grade;
}
