// The default scoring model (`default-v2`). Each category's score falls exponentially with the
// severity-weighted density of its production findings per thousand production lines, so size does
// not punish a large repository and every added or fixed issue moves the score; metric-backed
// categories blend in their measurement. A category without evidence is not assessed (never 100),
// no supported production code means no grade, and every score carries a ledger of its lost points.
// The formulas are documented in the README ("Scoring model"); keep the two in step.
import { inject, injectable } from 'tsyringe';
import type {
  CategoryLedgerEntry,
  CategoryScore,
  Grade,
  OverallLedgerEntry,
  ScoreEvidence,
  ScoreResult,
  ScoringEvidence,
  ScoringMetrics,
  ScoringModel,
} from '../contracts/scoring.js';
import { HEALTH_CATEGORY_KEYS, type Finding, type HealthCategoryKey, type Severity } from '../domain/types.js';
import { TOKENS } from '../di/tokens.js';
import { measuredScore, measurementOf, noCodeReason, NO_ANALYZER_REASON } from './score-evidence.js';
import { settleLedger, type RawEntry } from './score-ledger.js';
import { countsInScore, nonProductionFigures, type RuleTally, tallyByCategory } from './production-findings.js';

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

function notAssessed(key: HealthCategoryKey, reason: string): CategoryScore {
  return { key, score: null, assessed: false, findings: 0, density: 0, notAssessedReason: reason, evidence: [], ledger: [] };
}

@injectable()
export class DefaultScoringModel implements ScoringModel {
  /** v2: not-assessed categories and no grade instead of 100s, production findings only, ledgers. */
  readonly id = 'default-v2';
  private readonly weights: Record<HealthCategoryKey, number>;

  constructor(@inject(TOKENS.ScoringOptions) options: ScoringOptions = {}) {
    this.weights = { ...DEFAULT_WEIGHTS, ...options.weights };
  }

  gradeOf(score: number): Grade {
    for (const [grade, min] of GRADE_THRESHOLDS) if (score >= min) return grade;
    return 'F';
  }

  score(findings: readonly Finding[], metrics: ScoringMetrics, assessed: ReadonlySet<HealthCategoryKey>, evidence?: ScoringEvidence): ScoreResult {
    const kloc = Math.max(MIN_KLOC, metrics.sourceLoc / 1000);
    const tallies = tallyByCategory(findings.filter(countsInScore), SEVERITY_POINTS);
    const noCode = noCodeReason(metrics, evidence);
    const categories = {} as Record<HealthCategoryKey, CategoryScore>;
    for (const key of HEALTH_CATEGORY_KEYS) {
      const tally = tallies.get(key) ?? new Map<string, RuleTally>();
      const analyzers = new Set([...(evidence?.analyzers?.[key] ?? []), ...[...tally.values()].map((t) => t.analyzer)]);
      const covered = assessed.has(key) || tally.size > 0;
      const measurement = measurementOf(key, metrics);
      if (noCode) categories[key] = notAssessed(key, noCode);
      else if (!covered && !measurement) categories[key] = notAssessed(key, NO_ANALYZER_REASON);
      else categories[key] = this.categoryScore(key, tally, kloc, covered ? [...analyzers].sort() : undefined, measurement);
    }
    const nonProduction = nonProductionFigures(findings, SEVERITY_POINTS, evidence?.otherRoleLoc);
    return { categories, ...this.overallOf(categories, noCode), ...(Object.keys(nonProduction).length > 0 ? { nonProduction } : {}) };
  }

  private categoryScore(
    key: HealthCategoryKey,
    tally: ReadonlyMap<string, RuleTally>,
    kloc: number,
    analyzers: string[] | undefined,
    measurement: Extract<ScoreEvidence, { value: number }> | undefined,
  ): CategoryScore {
    let points = 0;
    let count = 0;
    for (const t of tally.values()) {
      points += t.points;
      count += t.findings;
    }
    const density = points / kloc;
    const issueScore = 100 * Math.pow(0.5, density / HALF_SCORE_DENSITY[key]);
    const measured = measurement && measuredScore(measurement);
    const score = round1(clamp(measured === undefined ? issueScore : (issueScore + measured) / 2));
    // The findings' lost points are shared by the rules in proportion to their severity points; a
    // measurement carries half of the score, so each half loses its own points at half weight.
    const half = measured === undefined ? 1 : 0.5;
    const raw: Array<RawEntry<CategoryLedgerEntry>> = [...tally]
      .filter(([, t]) => t.points > 0)
      .map(([id, t]) => ({ kind: 'rule', id, findings: t.findings, points: t.points, raw: (100 - issueScore) * (t.points / points) * half }));
    if (measurement && measured !== undefined)
      raw.push({ kind: 'measurement', id: measurement.kind, value: round1(measurement.value), raw: (100 - measured) / 2 });
    const evidence: ScoreEvidence[] = [
      ...(analyzers ? [{ kind: 'findings' as const, analyzers }] : []),
      ...(measurement ? [{ ...measurement, value: round1(measurement.value) }] : []),
    ];
    return {
      key,
      score,
      assessed: true,
      findings: count,
      density: round1(density * 100) / 100,
      evidence,
      ledger: settleLedger(raw, score, (e) => e.id),
    };
  }

  private overallOf(
    categories: Record<HealthCategoryKey, CategoryScore>,
    noCode: string | undefined,
  ): Pick<ScoreResult, 'overall' | 'grade' | 'notGradedReason' | 'ledger'> {
    const scored = HEALTH_CATEGORY_KEYS.filter((key) => categories[key].score !== null);
    const total = scored.reduce((sum, key) => sum + this.weights[key], 0);
    if (scored.length === 0 || total <= 0) {
      const reason = noCode ?? (scored.length === 0 ? 'no category is assessed: no enabled analyzer covers any' : 'every assessed category has weight 0');
      return { overall: null, grade: null, notGradedReason: reason, ledger: [] };
    }
    const weighted = scored.reduce((sum, key) => sum + categories[key].score! * this.weights[key], 0);
    const overall = round1(weighted / total);
    const raw: Array<RawEntry<OverallLedgerEntry>> = scored.map((key) => {
      const share = this.weights[key] / total;
      const score = categories[key].score!;
      return { category: key, share: Math.round(share * 1000) / 1000, score, raw: share * (100 - score) };
    });
    return { overall, grade: this.gradeOf(overall), ledger: settleLedger(raw, overall, (e) => e.category) };
  }
}
