// What the human-readable reports (terminal text, Markdown) show, computed once so that both say the
// same thing: category rows, the top issues, counts and formatted numbers.
import { HEALTH_CATEGORIES } from '../domain/categories.js';
import { SEVERITIES, type Finding, type HealthCategoryKey, type Severity } from '../domain/types.js';
import type { Grade } from '../contracts/scoring.js';
import type { AssessmentResult } from '../pipeline/types.js';
import { round1 } from './wire.js';

export const DEFAULT_TOP_ISSUES = 10;

export interface CategoryRow {
  key: HealthCategoryKey;
  name: string;
  score: number;
  assessed: boolean;
  findings: number;
}

export interface ReportView {
  root: string;
  branch?: string;
  headSha?: string;
  overall: number;
  grade: Grade;
  categories: CategoryRow[];
  severityCounts: Record<Severity, number>;
  totalIssues: number;
  linesOfCode: number;
  testLinesOfCode: number;
  filesAnalysed: number;
  filesTotal: number;
  parseCleanPercent: number;
  /** Files parsed (TypeScript and JavaScript). */
  parsedFiles: number;
  filesWithParseErrors: number;
  /** 0-100: share of parsed files with parse errors. */
  filesWithParseErrorsPercent: number;
  /** The first files with parse errors and their first error line (metrics list at most PARSE_ERROR_FILE_LIMIT). */
  parseErrorFiles: Array<{ path: string; line: number }>;
  topIssues: Finding[];
  /** Issues beyond the top list. */
  moreIssues: number;
  skippedFiles: number;
  durationMs: number;
}

const SEVERITY_RANK = new Map(SEVERITIES.map((s, i) => [s, i]));

/** Most severe first; among equals the more certain, then by place in the repository. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    (SEVERITY_RANK.get(a.severity) ?? 99) - (SEVERITY_RANK.get(b.severity) ?? 99) ||
    b.confidence - a.confidence ||
    a.filePath.localeCompare(b.filePath) ||
    a.anchor.lineStart - b.anchor.lineStart
  );
}

export function buildReportView(result: AssessmentResult, top = DEFAULT_TOP_ISSUES): ReportView {
  const m = result.metrics;
  const sorted = [...result.findings].sort(compareFindings);
  const topIssues = sorted.slice(0, Math.max(0, top));
  return {
    root: result.root,
    ...(result.git.branch ? { branch: result.git.branch } : {}),
    ...(result.git.headSha ? { headSha: result.git.headSha } : {}),
    overall: round1(result.scores.overall),
    grade: result.scores.grade,
    categories: HEALTH_CATEGORIES.map(({ key, name }) => {
      const c = result.scores.categories[key];
      return { key, name, score: round1(c.score), assessed: c.assessed, findings: c.findings };
    }),
    severityCounts: { ...m.severityCounts },
    totalIssues: result.findings.length,
    linesOfCode: m.totalLinesOfCode,
    testLinesOfCode: m.testLinesOfCode,
    filesAnalysed: m.files.analysed,
    filesTotal: m.files.total,
    parseCleanPercent: round1(m.parse.cleanPercent),
    parsedFiles: m.parse.files,
    filesWithParseErrors: m.parse.filesWithErrors,
    filesWithParseErrorsPercent: round1(m.parse.filesWithErrorsPercent),
    parseErrorFiles: m.parse.errorFiles,
    topIssues,
    moreIssues: sorted.length - topIssues.length,
    skippedFiles: result.skipped.length,
    durationMs: m.durationMs,
  };
}

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function formatScore(score: number): string {
  return score.toFixed(1);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1000)} s`;
}

/** `path:line`, the form terminals and editors turn into links. */
export function locationOf(finding: Finding): string {
  return `${finding.filePath}:${finding.anchor.lineStart}`;
}

/** A fixed-width bar of full and light blocks; `width` cells stand for 100 points. */
export function scoreBar(score: number, width = 10): string {
  const filled = Math.round((Math.min(100, Math.max(0, score)) / 100) * width);
  return '█'.repeat(filled) + '░'.repeat(width - filled);
}

export function shortSha(sha: string | undefined): string | undefined {
  return sha?.slice(0, 7);
}
