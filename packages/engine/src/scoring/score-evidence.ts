// What a score may rest on: whether there is production code the analyzers could read at all (and,
// when not, a reason a person understands), and per category the findings and measurements behind it.
import type { ScoreEvidence, ScoreResult, ScoringEvidence, ScoringMetrics } from '../contracts/scoring.js';
import { HEALTH_CATEGORY_KEYS, type HealthCategoryKey } from '../domain/types.js';

export const NO_ANALYZER_REASON = 'no enabled analyzer covers it';

const ROLE_NOUNS: Record<string, string> = {
  test: 'test',
  fixture: 'test fixture',
  benchmark: 'benchmark',
  example: 'example',
  docs: 'documentation-site',
  tooling: 'script and tooling',
  generated: 'generated',
  vendored: 'vendored',
};

/** "3 Python files", "3 Python files and 1 Go file", "2 test files, 1 example file and 4 benchmark files". */
function countList(counts: Readonly<Record<string, number>>, noun: (name: string) => string): { text: string; total: number } {
  const items = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const total = items.reduce((sum, [, n]) => sum + n, 0);
  const parts = items.map(([name, n]) => `${n} ${noun(name)} file${n === 1 ? '' : 's'}`);
  const text = parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
  return { text, total };
}

/**
 * Why nothing can be graded, or undefined when there is production code to grade. Without run
 * evidence (a model called directly), code means production lines of code.
 */
export function noCodeReason(metrics: ScoringMetrics, evidence: ScoringEvidence | undefined): string | undefined {
  const files = evidence?.productionFiles;
  if (files === undefined ? metrics.sourceLoc > 0 : files > 0) return undefined;
  if (!evidence) return 'no production code was analysed';
  const unsupported = countList(evidence.unsupportedFiles ?? {}, (language) => language);
  const others = countList(evidence.otherRoleFiles ?? {}, (role) => ROLE_NOUNS[role] ?? role);
  const skipped = evidence.skippedFiles ?? 0;
  const notes: string[] = [];
  if (others.total > 0) notes.push(`the analysed ${others.total === 1 ? 'file is' : 'files are'} ${others.text}, not production code`);
  if (skipped > 0) notes.push(`${skipped} file${skipped === 1 ? ' was' : 's were'} skipped (too large or unreadable)`);
  const declarations = evidence.declarationFiles ?? 0;
  if (declarations > 0) {
    notes.push(
      `${declarations} TypeScript declaration file${declarations === 1 ? ' (.d.ts) holds' : 's (.d.ts) hold'} types only and ${declarations === 1 ? 'is' : 'are'} not analysed`,
    );
  }
  if (unsupported.total > 0) notes.push(`${unsupported.text} ${unsupported.total === 1 ? 'is' : 'are'} not analysed`);
  const head =
    others.total > 0 || skipped > 0
      ? 'no production TypeScript or JavaScript code to grade'
      : declarations > 0
        ? 'no TypeScript or JavaScript code to grade'
        : 'no TypeScript or JavaScript files';
  return notes.length === 0 ? head : `${head}: ${notes.join('; ')}`;
}

/** The measured half of a metric-backed category, as evidence; undefined when not measured. */
export function measurementOf(key: HealthCategoryKey, m: ScoringMetrics): Extract<ScoreEvidence, { value: number }> | undefined {
  switch (key) {
    case 'test_coverage':
      if (m.actualCoveragePercent !== undefined) return { kind: 'coverage-report', value: m.actualCoveragePercent };
      return m.structuralCoveragePct === undefined ? undefined : { kind: 'structural-coverage', value: m.structuralCoveragePct };
    case 'duplication':
      return m.duplicationIndex === undefined ? undefined : { kind: 'duplication-index', value: m.duplicationIndex };
    case 'consistency':
      return m.conventionConsistency === undefined ? undefined : { kind: 'convention-consistency', value: m.conventionConsistency };
    default:
      return undefined;
  }
}

/** 0-100: the score half a measurement gives (duplication: 100 − 3 × index). */
export function measuredScore(measurement: Extract<ScoreEvidence, { value: number }>): number {
  const clamp = (n: number) => Math.min(100, Math.max(0, n));
  return measurement.kind === 'duplication-index' ? clamp(100 - 3 * measurement.value) : clamp(measurement.value);
}

/**
 * Categories a run's enabled analyzers cover, read back from its scores (a PR's projection scores
 * other findings with the same analyzers): assessed on findings, or not assessed for want of code.
 */
export function coveredCategories(scores: ScoreResult): Set<HealthCategoryKey> {
  return new Set(
    HEALTH_CATEGORY_KEYS.filter((key) => {
      const c = scores.categories[key];
      if (!c.assessed) return c.notAssessedReason !== undefined && c.notAssessedReason !== NO_ANALYZER_REASON;
      return c.evidence === undefined || c.evidence.some((e) => e.kind === 'findings');
    }),
  );
}
