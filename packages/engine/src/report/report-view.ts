// What the human-readable reports (terminal text, Markdown) show, computed once so that both say the
// same thing: category rows (or why not assessed), the score ledger, roles outside the grade, the
// top issues, counts and formatted numbers.
import { HEALTH_CATEGORIES } from '../domain/categories.js';
import { FILE_ROLES, SEVERITIES, type FileRole, type Finding, type HealthCategoryKey, type Severity } from '../domain/types.js';
import type { CategoryLedgerEntry, Grade, OverallLedgerEntry, RoleFigures } from '../contracts/scoring.js';
import type { AssessmentResult } from '../pipeline/types.js';
import { round1 } from './wire.js';
import { evidenceText } from './score-explanation.js';

const nameOf = new Map(HEALTH_CATEGORIES.map((c) => [c.key as string, c.name]));

export const DEFAULT_TOP_ISSUES = 10;

export interface CategoryRow {
  key: HealthCategoryKey;
  name: string;
  /** Null when not assessed. */
  score: number | null;
  assessed: boolean;
  findings: number;
  notAssessedReason?: string;
  /** What the score rests on, in words. */
  evidence: string[];
  /** Where the category's points went (points of its own score). */
  ledger: CategoryLedgerEntry[];
}

/** One category's cost to the overall score. */
export interface OverallLedgerRow extends OverallLedgerEntry {
  name: string;
}

/** Findings and lines of a role outside the grade. */
export interface RoleRow extends RoleFigures {
  role: string;
}

export interface ReportView {
  root: string;
  branch?: string;
  headSha?: string;
  /** Why the git history could not be read (GitFacts.historyError). */
  historyError?: string;
  /** Null when nothing could be graded (`notGradedReason` says why). */
  overall: number | null;
  grade: Grade | null;
  notGradedReason?: string;
  categories: CategoryRow[];
  /** What each category cost of the overall score, most costly first. */
  overallLedger: OverallLedgerRow[];
  /** Roles outside the grade, largest first. */
  nonProduction: RoleRow[];
  /** Files and lines of code of each role that has files, in the order of FILE_ROLES; empty before roles were classified. */
  roleSizes: Array<{ role: FileRole; files: number; linesOfCode: number }>;
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
  const scores = result.scores;
  return {
    root: result.root,
    ...(result.git.branch ? { branch: result.git.branch } : {}),
    ...(result.git.headSha ? { headSha: result.git.headSha } : {}),
    ...(result.git.historyError ? { historyError: result.git.historyError } : {}),
    overall: scores.overall === null ? null : round1(scores.overall),
    grade: scores.grade,
    ...(scores.notGradedReason ? { notGradedReason: scores.notGradedReason } : {}),
    categories: HEALTH_CATEGORIES.map(({ key, name }) => {
      const c = scores.categories[key];
      return {
        key,
        name,
        score: c.score === null || !c.assessed ? null : round1(c.score),
        assessed: c.assessed,
        findings: c.findings,
        ...(c.notAssessedReason ? { notAssessedReason: c.notAssessedReason } : {}),
        evidence: (c.evidence ?? []).map(evidenceText),
        ledger: c.ledger ?? [],
      };
    }),
    overallLedger: (scores.ledger ?? []).map((entry) => ({ ...entry, name: nameOf.get(entry.category) ?? entry.category })),
    nonProduction: Object.entries(scores.nonProduction ?? {})
      .map(([role, figures]) => ({ role, ...figures! }))
      .sort((a, b) => b.points - a.points || (b.linesOfCode ?? 0) - (a.linesOfCode ?? 0) || a.role.localeCompare(b.role)),
    roleSizes: m.roles ? FILE_ROLES.filter((role) => m.roles![role].files > 0).map((role) => ({ role, ...m.roles![role] })) : [],
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
