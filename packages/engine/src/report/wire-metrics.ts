// The snake_case metrics block of the JSON report: AssessmentMetrics plus what only the full result
// knows (category details, skipped files, analyzers, cycle members). Not part of the spec, so values
// that were not measured stay null here instead of the 0 the spec's assessment fields force.
import { HEALTH_CATEGORIES } from '../domain/categories.js';
import type { FileRole, HealthCategoryKey, Severity } from '../domain/types.js';
import type { AssessmentResult } from '../pipeline/types.js';
import { round1 } from './wire.js';

export interface WireCategoryDetail {
  name: string;
  /** Null when not assessed. */
  score: number | null;
  /** False when the run had no evidence for the category (`not_assessed_reason` says why). */
  assessed: boolean;
  not_assessed_reason: string | null;
  findings: number;
  /** Severity-weighted points per thousand lines. */
  density: number;
}

export interface WireMetrics {
  files: {
    total: number;
    analysed: number;
    source: number;
    test: number;
    generated: number;
    vendored: number;
    config: number;
    other: number;
    skipped: number;
  };
  total_lines_of_code: number;
  test_lines_of_code: number;
  /** Lines of production source, the size the scores are measured against. */
  production_lines_of_code: number;
  /**
   * Files and lines of code by role (production, test, fixture, benchmark, example, docs, tooling,
   * generated, vendored): every inventoried file, code lines of the analysed ones. Null in results
   * made before roles were classified.
   */
  roles: Record<FileRole, { files: number; lines_of_code: number }> | null;
  parse: {
    files: number;
    /** Files counted, not bytes: a byte share hides a central file that failed. */
    files_with_errors: number;
    files_with_errors_percent: number;
    clean_percent: number;
    repaired_files: number;
    /** Files with errors and their first error line, by path (at most 100; `files_with_errors` is the total). */
    error_files: Array<{ path: string; line: number }>;
    cached_files: number;
  };
  severity_counts: Record<Severity, number>;
  category_counts: Record<HealthCategoryKey, number>;
  categories: Record<HealthCategoryKey, WireCategoryDetail>;
  structural_coverage_pct: number | null;
  actual_coverage_percent: number | null;
  mock_usage_pct: number | null;
  assertion_density: number | null;
  test_code_ratio: number | null;
  duplication_index: number | null;
  duplicated_lines: number | null;
  convention_consistency: number | null;
  /** Convention patterns as the spec's dashboard shows them. */
  convention_patterns: Array<{ name: string; consistency: number; dominant_value: string; total_count: number; deviation_count: number }>;
  churn: { lines_added_30d: number; lines_deleted_30d: number; churn_rate: number; hot_files: string[] };
  graph: {
    modules: number;
    internal_edges: number;
    external_edges: number;
    unresolved_edges: number;
    cycles: number;
    /** Members of each import cycle, as repository-relative paths. */
    cycle_modules: string[][];
  };
  skipped_files: Array<{ path: string; reason: string }>;
  analyzers: Array<{ id: string; rules: string[] }>;
  /** Keyed `<analyzer>.<name>` as the analyzers wrote them; keys are not converted. */
  analyzer_metrics: Record<string, number>;
  duration_ms: number;
}

function optional(value: number | null | undefined): number | null {
  return value == null ? null : round1(value);
}

function categoryDetails(result: AssessmentResult): Record<HealthCategoryKey, WireCategoryDetail> {
  const entries = HEALTH_CATEGORIES.map(({ key, name }) => {
    const c = result.scores.categories[key];
    const detail: WireCategoryDetail = {
      name,
      score: c.score === null || !c.assessed ? null : round1(c.score),
      assessed: c.assessed,
      not_assessed_reason: c.assessed ? null : (c.notAssessedReason ?? 'not assessed'),
      findings: c.findings,
      density: round1(c.density),
    };
    return [key, detail] as const;
  });
  return Object.fromEntries(entries) as Record<HealthCategoryKey, WireCategoryDetail>;
}

export function toWireMetrics(result: AssessmentResult): WireMetrics {
  const m = result.metrics;
  return {
    files: { ...m.files },
    total_lines_of_code: m.totalLinesOfCode,
    test_lines_of_code: m.testLinesOfCode,
    production_lines_of_code: m.productionLinesOfCode ?? m.totalLinesOfCode,
    roles: m.roles
      ? (Object.fromEntries(
          Object.entries(m.roles).map(([role, size]) => [role, { files: size.files, lines_of_code: size.linesOfCode }]),
        ) as WireMetrics['roles'])
      : null,
    parse: {
      files: m.parse.files,
      files_with_errors: m.parse.filesWithErrors,
      files_with_errors_percent: round1(m.parse.filesWithErrorsPercent),
      clean_percent: round1(m.parse.cleanPercent),
      repaired_files: m.parse.repairedFiles,
      error_files: m.parse.errorFiles.map((f) => ({ ...f })),
      cached_files: m.parse.cachedFiles,
    },
    severity_counts: { ...m.severityCounts },
    category_counts: { ...m.categoryCounts },
    categories: categoryDetails(result),
    structural_coverage_pct: optional(m.structuralCoveragePct),
    actual_coverage_percent: optional(m.actualCoveragePercent),
    mock_usage_pct: optional(m.mockUsagePct),
    assertion_density: optional(m.assertionDensity),
    test_code_ratio: m.testCodeRatio == null ? null : Math.round(m.testCodeRatio * 1000) / 1000,
    duplication_index: optional(m.duplicationIndex),
    duplicated_lines: m.duplicatedLines ?? null,
    convention_consistency: optional(m.conventionConsistency),
    convention_patterns: result.conventions.map((p) => ({
      name: p.name,
      consistency: round1(p.consistency),
      dominant_value: p.dominantValue,
      total_count: p.totalCount,
      deviation_count: p.deviationCount,
    })),
    churn: {
      lines_added_30d: m.churn.linesAdded30d,
      lines_deleted_30d: m.churn.linesDeleted30d,
      churn_rate: round1(m.churn.churnRate),
      hot_files: [...m.churn.hotFiles],
    },
    graph: {
      modules: m.graph.modules,
      internal_edges: m.graph.internalEdges,
      external_edges: m.graph.externalEdges,
      unresolved_edges: m.graph.unresolvedEdges,
      cycles: m.graph.cycles,
      cycle_modules: result.graph.cycles.map((cycle) => [...cycle]),
    },
    skipped_files: result.skipped.map(({ path, reason }) => ({ path, reason })),
    analyzers: result.analyzers.map(({ id, rules }) => ({ id, rules: [...rules] })),
    analyzer_metrics: { ...m.analyzerMetrics },
    duration_ms: Math.round(m.durationMs),
  };
}
