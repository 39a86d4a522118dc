// The Markdown report: the terminal report's content as tables, for a pull-request comment or a file.
import { SEVERITIES, type Finding } from '../domain/types.js';
import type { AssessmentResult } from '../pipeline/types.js';
import { costText, ledgerEntryText, roleName } from './score-explanation.js';
import { buildReportView, type ReportView, formatCount, formatDuration, formatScore, shortSha, DEFAULT_TOP_ISSUES } from './report-view.js';
import { TOOL_NAME, TOOL_VERSION } from './tool-info.js';

export interface MarkdownReportOptions {
  /** How many issues to list; defaults to 10. */
  top?: number;
  /** Heading level of the title (2 suits a PR comment); defaults to 2. */
  headingLevel?: 1 | 2 | 3;
}

/** Text placed in a table cell: pipes and newlines would break the row, angle brackets become HTML. */
export function escapeCell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\*/g, '\\*').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\r?\n/g, ' ');
}

/** Code span that survives backticks in the content (CommonMark: a longer fence and padding). */
export function codeSpan(text: string): string {
  const clean = text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${clean} ${fence}` : `${fence}${clean}${fence}`;
}

function table(header: string[], align: Array<'l' | 'r'>, rows: string[][]): string[] {
  return [`| ${header.join(' | ')} |`, `|${align.map((a) => (a === 'r' ? '---:' : '---')).join('|')}|`, ...rows.map((row) => `| ${row.join(' | ')} |`)];
}

function issueRow(f: Finding): string[] {
  return [f.severity, codeSpan(`${f.filePath}:${f.anchor.lineStart}`), escapeCell(f.title), codeSpan(f.ruleId)];
}

/** "Where the points went": each category's cost to the overall, and the rules and measurements behind it. */
function ledgerSection(view: ReportView, h: string): string[] {
  if (view.overall === null || view.grade === null) return [];
  const costly = view.overallLedger.filter((e) => e.cost > 0);
  if (costly.length === 0) return [];
  const rows = costly.map((entry) => {
    const category = view.categories.find((c) => c.key === entry.category);
    const lines = (category?.ledger ?? []).filter((l) => l.cost > 0).map((l) => `${escapeCell(ledgerEntryText(l))} ${costText(l.cost)}`);
    return [entry.name, formatScore(entry.score), `${(entry.share * 100).toFixed(1)}%`, costText(entry.cost), lines.join('<br>')];
  });
  return [
    `${h}# Why ${formatScore(view.overall)} (grade ${view.grade})`,
    '',
    `${formatScore(100 - view.overall)} points below 100. Cost is in points of the overall score; the rules and measurements are in points of their category's score.`,
    '',
    ...table(['Category', 'Score', 'Weight', 'Cost', 'Where the category lost its points'], ['l', 'r', 'r', 'r', 'l'], rows),
    '',
  ];
}

/** Files and lines of code by role: the product beside its tests, benchmarks, examples, docs and scripts. */
function roleSection(view: ReportView, h: string): string[] {
  if (view.roleSizes.length === 0) return [];
  return [
    `${h}# Roles`,
    '',
    ...table(
      ['Role', 'Files', 'Lines of code'],
      ['l', 'r', 'r'],
      view.roleSizes.map((r) => [r.role, formatCount(r.files), formatCount(r.linesOfCode)]),
    ),
    '',
  ];
}

export function renderMarkdown(result: AssessmentResult, options: MarkdownReportOptions = {}): string {
  const view = buildReportView(result, options.top ?? DEFAULT_TOP_ISSUES);
  const h = '#'.repeat(options.headingLevel ?? 2);
  const checkout = [view.branch && `branch ${codeSpan(view.branch)}`, view.headSha && `commit ${codeSpan(shortSha(view.headSha) ?? '')}`]
    .filter(Boolean)
    .join(' · ');
  const out: string[] = [
    `${h} ${TOOL_NAME} report`,
    '',
    view.overall === null || view.grade === null
      ? `**No grade: ${escapeCell(view.notGradedReason ?? 'nothing could be assessed')}**`
      : `**Overall score: ${formatScore(view.overall)} / 100 — grade ${view.grade}**`,
    '',
    `Repository ${codeSpan(view.root)}${checkout ? ` · ${checkout}` : ''}`,
    '',
    `${h}# Categories`,
    '',
    ...table(
      ['Category', 'Score', 'Issues', 'Rests on'],
      ['l', 'r', 'r', 'l'],
      view.categories.map((c) => [
        c.name,
        c.score === null ? '—' : formatScore(c.score),
        formatCount(c.findings),
        escapeCell(c.score === null ? `not assessed: ${c.notAssessedReason ?? 'no evidence'}` : c.evidence.join('; ')),
      ]),
    ),
    '',
    ...ledgerSection(view, h),
    `${h}# Issues by severity`,
    '',
    ...table(
      ['Critical', 'High', 'Medium', 'Low', 'Info', 'Total'],
      ['r', 'r', 'r', 'r', 'r', 'r'],
      [[...SEVERITIES.map((s) => formatCount(view.severityCounts[s])), formatCount(view.totalIssues)]],
    ),
    '',
    `${h}# Code`,
    '',
    ...table(
      ['Metric', 'Value'],
      ['l', 'r'],
      [
        ['Lines of code', formatCount(view.linesOfCode)],
        ['Test lines of code', formatCount(view.testLinesOfCode)],
        ['Files analysed', `${formatCount(view.filesAnalysed)} of ${formatCount(view.filesTotal)}`],
        ['Parsed cleanly', `${view.parseCleanPercent.toFixed(1)}%`],
        ['Files with parse errors', `${formatCount(view.filesWithParseErrors)} (${view.filesWithParseErrorsPercent.toFixed(1)}%)`],
        ['Skipped files', formatCount(view.skippedFiles)],
        ...view.nonProduction.map((r) => [
          `Outside the grade: ${roleName(r.role)}`,
          `${r.linesOfCode === undefined ? '' : `${formatCount(r.linesOfCode)} lines, `}${formatCount(r.findings)} issue${r.findings === 1 ? '' : 's'} (${formatCount(r.points)} point${r.points === 1 ? '' : 's'})`,
        ]),
        ['Duration', formatDuration(view.durationMs)],
      ],
    ),
    '',
    ...roleSection(view, h),
  ];
  if (view.topIssues.length > 0) {
    out.push(`${h}# Top issues`, '', ...table(['Severity', 'Location', 'Issue', 'Rule'], ['l', 'l', 'l', 'l'], view.topIssues.map(issueRow)), '');
    if (view.moreIssues > 0) out.push(`_…and ${formatCount(view.moreIssues)} more._`, '');
  }
  out.push(`<sub>${TOOL_NAME} ${TOOL_VERSION}</sub>`);
  return `${out.join('\n')}\n`;
}
