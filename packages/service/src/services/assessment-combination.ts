// Turns the engine's results for a project's repositories into the one record a health assessment
// stores: the spec's score/count/size fields (through toWireAssessment), the dashboard metrics
// (through toWireMetrics), convention patterns, per-repository stats and the drift snapshot.
// Several repositories combine as a LOC-weighted average of scores (over the repositories that have
// each score: a category not assessed, or no grade, is NULL) and sums of counts.
import {
  driftSnapshotOf,
  HEALTH_CATEGORY_KEYS,
  SEVERITIES,
  type HealthCategoryKey,
  type Language,
  toWireAssessment,
  type WireAssessment,
  toWireMetrics,
  type WireMetrics,
} from '@codehealth/engine';
import type { Grade, DriftSnapshot, AssessmentResult } from '@codehealth/engine';
import { round1 } from '@codehealth/engine/internal';
import { toWireScoreLedger, type WireScoreLedger } from '@codehealth/engine/internal';
import { combineScoreLedgers } from './combined-score-ledger.js';
import type { ConventionPatternWire, RepoStat } from '../api/health.js';

export interface RepositoryAssessment {
  repositoryId: string;
  repository: { name: string; full_name: string };
  /** The commit that was assessed. */
  commitSha: string;
  result: AssessmentResult;
}

/** The `metrics` jsonb of an assessment: what the dashboard's trend, dynamics and test quality read. */
export interface StoredMetrics {
  churn_rate: number;
  lines_added_30d: number;
  lines_deleted_30d: number;
  /** Share (percent) of the last 30 days' changed lines that removed or replaced existing lines. */
  refactoring_rate: number;
  hot_files: string[];
  hot_files_count: number;
  duplication_index: number | null;
  duplicated_lines: number | null;
  structural_coverage_pct: number | null;
  mock_usage_pct: number | null;
  assertion_density: number | null;
  test_code_ratio: number | null;
  convention_consistency: number | null;
  parse_clean_percent: number;
  files_analysed: number;
  /** Lines of production source (the size scores are measured against); absent in records made before roles. */
  production_lines_of_code?: number;
  /**
   * What the score columns mean (absent in records made before it existed: every column scored).
   * A NULL score column is a category not assessed, a NULL overall no grade.
   */
  scoring?: StoredScoring;
}

/** The spec extension of an assessment (docs/rest-api.md): no grade, not-assessed categories, the ledger. */
export interface StoredScoring {
  graded: boolean;
  not_graded_reason: string | null;
  not_assessed: Partial<Record<HealthCategoryKey, string>>;
  ledger: WireScoreLedger;
}

/** The record's columns: a score is NULL when not assessed, the overall and grade NULL without a grade. */
export type ScoreColumns = { overall_score: number | null; overall_grade: Grade | null } & { [K in `${HealthCategoryKey}_score`]: number | null } & Pick<
    WireAssessment,
    | 'critical_count'
    | 'high_count'
    | 'medium_count'
    | 'low_count'
    | 'info_count'
    | 'total_lines_of_code'
    | 'test_lines_of_code'
    | 'actual_coverage_percent'
    | 'structural_coverage_pct'
    | 'mock_usage_pct'
  >;

export interface CombinedAssessment {
  columns: ScoreColumns;
  metrics: StoredMetrics;
  conventions: ConventionPatternWire[];
  repoStats: RepoStat[];
  commits: Array<{ repository_id: string; sha: string }>;
  /** Current side of drift detection, with affected files. */
  drift: DriftSnapshot;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

const roundTo = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Weighted average over the entries that have a value; null when none has one. */
function weighted(values: ReadonlyArray<number | null>, weights: readonly number[], digits = 1): number | null {
  let total = 0;
  let weight = 0;
  let seen = 0;
  values.forEach((value, i) => {
    if (value === null) return;
    seen++;
    total += value * weights[i]!;
    weight += weights[i]!;
  });
  if (seen === 0) return null;
  // Repositories without code (weight 0) still count when no other one has a value.
  if (weight === 0) return roundTo(sum(values.filter((v): v is number => v !== null)) / seen, digits);
  return roundTo(total / weight, digits);
}

/** Merges patterns by name: counts add up, consistency is weighted by occurrences, the largest repository's dominant value wins. */
function mergeConventions(lists: ReadonlyArray<WireMetrics['convention_patterns']>): ConventionPatternWire[] {
  const byName = new Map<string, Array<WireMetrics['convention_patterns'][number]>>();
  for (const list of lists) for (const p of list) byName.set(p.name, [...(byName.get(p.name) ?? []), p]);
  return [...byName.entries()].map(([name, parts]) => {
    const largest = parts.reduce((a, b) => (b.total_count > a.total_count ? b : a));
    const total = sum(parts.map((p) => p.total_count));
    return {
      name,
      consistency:
        weighted(
          parts.map((p) => p.consistency),
          parts.map((p) => p.total_count),
        ) ?? 0,
      dominant_value: largest.dominant_value,
      total_count: total,
      deviation_count: sum(parts.map((p) => p.deviation_count)),
    };
  });
}

const LANGUAGE_FAMILY: Partial<Record<Language, string>> = { tsx: 'typescript', jsx: 'javascript' };

/** The language with the most source lines; `unknown` for a repository without analysed source. */
function dominantLanguage(result: AssessmentResult): string {
  const loc = new Map<string, number>();
  for (const s of result.summaries) {
    if (s.kind !== 'source' || s.skipped || s.language === 'other') continue;
    const language = LANGUAGE_FAMILY[s.language] ?? s.language;
    loc.set(language, (loc.get(language) ?? 0) + s.lines.code);
  }
  const [best] = [...loc.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return best ? best[0] : 'unknown';
}

/** Percent of changed lines that were deletions: a rewrite shows as lines deleted and added. */
export function refactoringRateOf(added: number, deleted: number): number {
  return added + deleted === 0 ? 0 : round1((deleted / (added + deleted)) * 100);
}

export function combineResults(
  results: readonly RepositoryAssessment[],
  gradeOf: (score: number) => Grade,
  prCounts: ReadonlyMap<string, number>,
): CombinedAssessment {
  const wires = results.map((r) => toWireAssessment(r.result));
  const metrics = results.map((r) => toWireMetrics(r.result));
  const locs = wires.map((w) => w.total_lines_of_code);
  const testLocs = wires.map((w) => w.test_lines_of_code);
  const totalLoc = sum(locs);
  // A project of empty repositories has no size to weigh by: each counts equally then.
  const weights = totalLoc === 0 ? locs.map(() => 1) : locs;
  // Averages over the repositories that have the score: one without a grade, or without evidence
  // for a category, does not pull the others towards its placeholder 0.
  const single = wires.length === 1 ? wires[0] : undefined;
  const overall = weighted(
    wires.map((w) => (w.graded ? w.overall_score : null)),
    weights,
  );
  const categoryScores = Object.fromEntries(
    HEALTH_CATEGORY_KEYS.map((key) => [
      key,
      weighted(
        wires.map((w) => (key in w.not_assessed ? null : w[`${key}_score`])),
        weights,
      ),
    ]),
  ) as Record<HealthCategoryKey, number | null>;
  const scores = Object.fromEntries(HEALTH_CATEGORY_KEYS.map((key) => [`${key}_score`, categoryScores[key]]));
  const counts = Object.fromEntries(SEVERITIES.map((s) => [`${s}_count`, sum(wires.map((w) => w[`${s}_count`]))]));
  const measured = (pick: (m: WireMetrics) => number | null, by: readonly number[] = weights, digits = 1) => weighted(metrics.map(pick), by, digits);
  const structural = measured((m) => m.structural_coverage_pct);
  const mock = measured((m) => m.mock_usage_pct);
  const added = sum(metrics.map((m) => m.churn.lines_added_30d));
  const deleted = sum(metrics.map((m) => m.churn.lines_deleted_30d));
  // Paths are repository-relative; with several repositories they are prefixed with `full_name/`.
  const qualify = (i: number, path: string) => (results.length === 1 ? path : `${results[i]!.repository.full_name}/${path}`);
  const hotFiles = metrics.flatMap((m, i) => m.churn.hot_files.map((path) => qualify(i, path)));

  const columns = {
    overall_score: overall,
    overall_grade: overall === null ? null : single ? single.overall_grade : gradeOf(overall),
    ...scores,
    ...counts,
    total_lines_of_code: totalLoc,
    test_lines_of_code: sum(testLocs),
    actual_coverage_percent: measured((m) => m.actual_coverage_percent),
    structural_coverage_pct: structural ?? 0,
    mock_usage_pct: mock ?? 0,
  } as ScoreColumns;

  const conventions = mergeConventions(metrics.map((m) => m.convention_patterns));
  const stored: StoredMetrics = {
    churn_rate: totalLoc === 0 ? 0 : round1(((added + deleted) / totalLoc) * 1000),
    lines_added_30d: added,
    lines_deleted_30d: deleted,
    refactoring_rate: refactoringRateOf(added, deleted),
    hot_files: hotFiles,
    hot_files_count: hotFiles.length,
    duplication_index: measured((m) => m.duplication_index),
    duplicated_lines: metrics.some((m) => m.duplicated_lines !== null) ? sum(metrics.map((m) => m.duplicated_lines ?? 0)) : null,
    structural_coverage_pct: structural,
    mock_usage_pct: mock,
    // Assertions per test function: weighed by test code, not source code.
    assertion_density: measured((m) => m.assertion_density, testLocs),
    test_code_ratio: measured((m) => m.test_code_ratio, weights, 3),
    // Without a published overall figure, the patterns' consistencies weighed by occurrences.
    convention_consistency:
      measured((m) => m.convention_consistency) ??
      weighted(
        conventions.map((p) => p.consistency),
        conventions.map((p) => p.total_count),
      ),
    parse_clean_percent:
      measured(
        (m) => m.parse.clean_percent,
        metrics.map((m) => m.parse.files),
      ) ?? 100,
    files_analysed: sum(metrics.map((m) => m.files.analysed)),
    production_lines_of_code: sum(metrics.map((m) => m.production_lines_of_code)),
    scoring: scoringOf(results, wires, weights, { overall, categories: categoryScores }),
  };

  const repoStats: RepoStat[] = results.map((r, i) => ({
    id: r.repositoryId,
    name: r.repository.name,
    full_name: r.repository.full_name,
    language: dominantLanguage(r.result),
    total_loc: locs[i]!,
    test_loc: testLocs[i]!,
    lines_added_30d: metrics[i]!.churn.lines_added_30d,
    lines_deleted_30d: metrics[i]!.churn.lines_deleted_30d,
    pr_count: prCounts.get(r.repositoryId) ?? 0,
  }));

  const filesByCategory: Partial<Record<HealthCategoryKey, string[]>> = {};
  results.forEach((r, i) => {
    for (const [key, files] of Object.entries(driftSnapshotOf(r.result).filesByCategory ?? {})) {
      const list = (filesByCategory[key as HealthCategoryKey] ??= []);
      list.push(...files.map((path) => qualify(i, path)));
    }
  });

  return {
    columns,
    metrics: stored,
    conventions,
    repoStats,
    commits: results.map((r) => ({ repository_id: r.repositoryId, sha: r.commitSha })),
    drift: {
      ...snapshotOfRecord(columns, stored),
      filesByCategory,
      hotFiles,
    },
  };
}

/** The stored extension: one repository's as it is, several combined (reasons of the first repository that lacks a category). */
function scoringOf(
  results: readonly RepositoryAssessment[],
  wires: readonly WireAssessment[],
  weights: readonly number[],
  scores: { overall: number | null; categories: Record<HealthCategoryKey, number | null> },
): StoredScoring {
  const notAssessed: Partial<Record<HealthCategoryKey, string>> = {};
  for (const key of HEALTH_CATEGORY_KEYS) {
    if (scores.categories[key] === null) notAssessed[key] = wires.find((w) => w.not_assessed[key])?.not_assessed[key] ?? 'not assessed';
  }
  const reasons = [...new Set(wires.map((w) => w.not_graded_reason).filter((r): r is string => r !== null))];
  const ledgers = results.map((r) => toWireScoreLedger(r.result.scores, r.result.provenance.scoringModel));
  const ledger =
    ledgers.length === 1
      ? ledgers[0]!
      : combineScoreLedgers(
          ledgers.map((l, i) => ({ ledger: l, weight: weights[i]!, graded: wires[i]!.graded })),
          scores,
          notAssessed,
        );
  return {
    graded: scores.overall !== null,
    not_graded_reason: scores.overall === null ? reasons.join('; ') || 'nothing could be assessed' : null,
    not_assessed: notAssessed,
    ledger,
  };
}

/** The drift facts of a stored record (a previous assessment, or the one being written): NULL scores are not compared. */
export function snapshotOfRecord(columns: ScoreColumns, metrics: Partial<StoredMetrics>): DriftSnapshot {
  const categories: Partial<Record<HealthCategoryKey, number>> = {};
  for (const key of HEALTH_CATEGORY_KEYS) {
    const score = columns[`${key}_score`];
    if (score !== null && score !== undefined) categories[key] = score;
  }
  return {
    overall: columns.overall_score ?? null,
    categories,
    structuralCoveragePct: metrics.structural_coverage_pct ?? undefined,
    actualCoveragePercent: columns.actual_coverage_percent ?? undefined,
    conventionConsistency: metrics.convention_consistency ?? undefined,
    churnRate: metrics.churn_rate ?? undefined,
  };
}
