// The terminal report. Colour is the caller's decision (a TTY and no NO_COLOR), so the same function
// writes plain text to files and pipes.
import { SEVERITIES, type Severity } from '../domain/types.js';
import type { Grade } from '../contracts/scoring.js';
import type { AssessmentResult } from '../pipeline/types.js';
import { costText, ledgerEntryText, roleName } from './score-explanation.js';
import {
  buildReportView,
  type ReportView,
  formatCount,
  formatDuration,
  formatScore,
  locationOf,
  scoreBar,
  shortSha,
  DEFAULT_TOP_ISSUES,
} from './report-view.js';
import { TOOL_NAME, TOOL_VERSION } from './tool-info.js';

export interface TextReportOptions {
  /** Emit ANSI colours; the CLI sets it when stdout is a TTY and NO_COLOR is unset. */
  color?: boolean;
  /** How many issues to list; defaults to 10. */
  top?: number;
}

/** Files with parse errors the text report names; the count covers them all. */
const TEXT_PARSE_ERROR_FILES = 10;

type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';
const ANSI: Record<Style, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
};

const SEVERITY_STYLE: Record<Severity, Style[]> = {
  critical: ['red', 'bold'],
  high: ['red'],
  medium: ['yellow'],
  low: ['cyan'],
  info: ['dim'],
};

const GRADE_STYLE: Record<Grade, Style> = { A: 'green', B: 'green', C: 'yellow', D: 'red', F: 'red' };

function scoreStyle(score: number): Style {
  if (score >= 80) return 'green';
  return score >= 60 ? 'yellow' : 'red';
}

/** Rules listed under each category of the ledger; the rest are summed on one line. */
const TEXT_LEDGER_RULES = 3;

type Paint = (text: string, ...styles: Style[]) => string;

/** "Why 80.7 (grade B)": what each category cost of the overall, and under it what cost the category. */
function ledgerLines(view: ReportView, paint: Paint): string[] {
  if (view.overall === null || view.grade === null) return [];
  const costly = view.overallLedger.filter((e) => e.cost > 0);
  if (costly.length === 0) return [];
  const lost = formatScore(100 - view.overall);
  const out = [
    `${paint(`Why ${formatScore(view.overall)} (grade ${view.grade})`, 'bold')}: ${lost} points below 100, by category ${paint('(points of the overall; under each, points of its own score)', 'dim')}`,
  ];
  for (const entry of costly) {
    out.push(
      `  ${costText(entry.cost).padStart(6)}  ${entry.name} ${paint(`(score ${formatScore(entry.score)} × weight ${(entry.share * 100).toFixed(1)}%)`, 'dim')}`,
    );
    const category = view.categories.find((c) => c.key === entry.category);
    const ledger = (category?.ledger ?? []).filter((l) => l.cost > 0);
    for (const line of ledger.slice(0, TEXT_LEDGER_RULES)) out.push(`          ${costText(line.cost).padStart(6)}  ${ledgerEntryText(line)}`);
    const rest = ledger.slice(TEXT_LEDGER_RULES);
    if (rest.length > 0) {
      const tenths = rest.reduce((sum, l) => sum + Math.round(l.cost * 10), 0);
      out.push(paint(`          ${costText(tenths / 10).padStart(6)}  … ${rest.length} more`, 'dim'));
    }
  }
  out.push('');
  return out;
}

export function renderText(result: AssessmentResult, options: TextReportOptions = {}): string {
  const paint = (text: string, ...styles: Style[]): string =>
    options.color && text.length > 0 ? styles.reduce((t, s) => `\u001b[${ANSI[s][0]}m${t}\u001b[${ANSI[s][1]}m`, text) : text;
  const view = buildReportView(result, options.top ?? DEFAULT_TOP_ISSUES);
  const lines: string[] = [];

  const checkout = view.branch || view.headSha ? ` (${[view.branch, shortSha(view.headSha)].filter(Boolean).join(' @ ')})` : '';
  lines.push(`${paint(`${TOOL_NAME} ${TOOL_VERSION}`, 'bold')}  ${view.root}${checkout}`, '');
  if (view.overall === null || view.grade === null) {
    lines.push(`Overall  ${paint('no grade', 'bold', 'yellow')}: ${view.notGradedReason ?? 'nothing could be assessed'}`, '');
  } else {
    lines.push(
      `Overall  ${paint(formatScore(view.overall), 'bold', scoreStyle(view.overall))} / 100   grade ${paint(view.grade, 'bold', GRADE_STYLE[view.grade])}`,
      '',
    );
  }

  lines.push(paint('Categories', 'bold'));
  const nameWidth = Math.max(...view.categories.map((c) => c.name.length));
  for (const c of view.categories) {
    if (c.score === null) {
      // The reason is given once above when it is why nothing was graded.
      const why = c.notAssessedReason && c.notAssessedReason !== view.notGradedReason ? `: ${c.notAssessedReason}` : '';
      lines.push(`  ${c.name.padEnd(nameWidth)}  ${paint(scoreBar(0), 'dim')}  ${'—'.padStart(5)}${paint(`  not assessed${why}`, 'dim')}`);
      continue;
    }
    const note = c.findings > 0 ? `  ${formatCount(c.findings)} issue${c.findings === 1 ? '' : 's'}` : '';
    lines.push(`  ${c.name.padEnd(nameWidth)}  ${paint(scoreBar(c.score), scoreStyle(c.score))}  ${formatScore(c.score).padStart(5)}${paint(note, 'dim')}`);
  }
  lines.push('');
  lines.push(...ledgerLines(view, paint));

  const counts = SEVERITIES.map((s) =>
    paint(`${formatCount(view.severityCounts[s])} ${s}`, ...(view.severityCounts[s] > 0 ? SEVERITY_STYLE[s] : ['dim' as const])),
  );
  lines.push(`Issues   ${counts.join(' · ')}   (${formatCount(view.totalIssues)} total)`);
  lines.push(
    `Code     ${formatCount(view.linesOfCode)} lines · ${formatCount(view.testLinesOfCode)} test lines · ` +
      `${formatCount(view.filesAnalysed)} of ${formatCount(view.filesTotal)} files analysed`,
  );
  lines.push(
    `Parsing  ${formatCount(view.parsedFiles - view.filesWithParseErrors)} of ${formatCount(view.parsedFiles)} files parsed cleanly · ` +
      `${formatCount(view.filesWithParseErrors)} file${view.filesWithParseErrors === 1 ? '' : 's'} with parse errors ` +
      `(${view.filesWithParseErrorsPercent.toFixed(1)}%) · ${view.parseCleanPercent.toFixed(1)}% of bytes clean`,
  );
  // Where parsing failed, by file and first error line: rules read less of those files.
  for (const f of view.parseErrorFiles.slice(0, TEXT_PARSE_ERROR_FILES)) lines.push(paint(`         ${f.path}:${f.line}`, 'dim'));
  const unlisted = view.filesWithParseErrors - Math.min(view.parseErrorFiles.length, TEXT_PARSE_ERROR_FILES);
  if (unlisted > 0) lines.push(paint(`         … and ${formatCount(unlisted)} more`, 'dim'));
  if (view.historyError) lines.push(`History  ${paint(view.historyError, 'yellow')}`);
  // Lines of code by role: what the product is, beside its tests, benchmarks, examples and scripts.
  const coded = view.roleSizes.filter((r) => r.linesOfCode > 0);
  if (coded.length > 0) lines.push(`Roles    ${coded.map((r) => `${r.role} ${formatCount(r.linesOfCode)}`).join(' · ')} ${paint('(lines of code)', 'dim')}`);
  lines.push(`Skipped  ${formatCount(view.skippedFiles)} file${view.skippedFiles === 1 ? '' : 's'}`);
  if (view.nonProduction.length > 0) {
    const roles = view.nonProduction.map((r) => {
      const size = r.linesOfCode === undefined ? '' : `${formatCount(r.linesOfCode)} lines, `;
      return `${roleName(r.role)} ${size}${formatCount(r.findings)} issue${r.findings === 1 ? '' : 's'} (${formatCount(r.points)} point${r.points === 1 ? '' : 's'})`;
    });
    lines.push(`Outside  the grade: ${roles.join(' · ')}`);
  }
  lines.push('');

  if (view.topIssues.length > 0) {
    lines.push(paint(`Top ${view.topIssues.length} issue${view.topIssues.length === 1 ? '' : 's'}`, 'bold'));
    const locWidth = Math.min(60, Math.max(...view.topIssues.map((f) => locationOf(f).length)));
    for (const f of view.topIssues) {
      const severity = paint(f.severity.toUpperCase().padEnd(8), ...SEVERITY_STYLE[f.severity]);
      lines.push(`  ${severity}  ${locationOf(f).padEnd(locWidth)}  ${f.title}`);
    }
    if (view.moreIssues > 0) lines.push(paint(`  … and ${formatCount(view.moreIssues)} more`, 'dim'));
    lines.push('');
  }

  lines.push(`Done in ${formatDuration(view.durationMs)}`);
  return `${lines.join('\n')}\n`;
}
