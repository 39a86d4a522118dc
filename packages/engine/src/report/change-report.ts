// Reports of one change (`engine.analyzeChange`, `codehealth review`): text for a terminal, Markdown
// for a pull-request comment, SARIF holding only what the change adds, and the gate a CI build
// fails on — new findings at or above a severity, or a readiness verdict.
import { SEVERITIES, type Finding, type Severity } from '../domain/types.js';
import type { ChangeAnalysis } from '../pr/analyze-change.js';
import { changeKeyOf, type IssueChangeOf } from '../pr/issue-change.js';
import { issueFingerprint } from './issue-id.js';
import { escapeCell } from './markdown.js';
import { READINESS_WORDS, renderPrMarkdown } from './pr-markdown.js';
import { sarifLogOf } from './sarif.js';
import type { SarifLog } from './sarif-types.js';
import { round1 } from './wire.js';

export type ReadinessStatus = ChangeAnalysis['readiness']['status'];

/** The gate of a review: fail on new findings at or above a severity, or on a readiness this bad or worse. */
export interface ChangeGate {
  failOn?: Severity;
  failOnReadiness?: Exclude<ReadinessStatus, 'ready'>;
}

export interface ChangeReportOptions {
  /** New and fixed findings listed at most; defaults to 20 (the rest are counted). */
  top?: number;
}

const READINESS_RANK: Record<ReadinessStatus, number> = { ready: 0, needs_review: 1, blocked: 2 };
const severityRank = (severity: Severity) => SEVERITIES.indexOf(severity);

/** Most severe first, then by place. */
function byImportance(a: Finding, b: Finding): number {
  return severityRank(a.severity) - severityRank(b.severity) || a.filePath.localeCompare(b.filePath) || a.anchor.lineStart - b.anchor.lineStart;
}

const short = (sha: string) => sha.slice(0, 12);
const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);

function subjectOf(analysis: ChangeAnalysis): string {
  return `${analysis.base.ref} → ${analysis.head.ref}`;
}

/** Why the gate fails the change, one reason per broken condition; empty when it passes. */
export function changeGateFailures(analysis: ChangeAnalysis, gate: ChangeGate): string[] {
  const failures: string[] = [];
  if (gate.failOn) {
    const limit = severityRank(gate.failOn);
    const over = analysis.newFindings.filter((finding) => severityRank(finding.severity) <= limit);
    if (over.length > 0) {
      const first = [...over].sort(byImportance)[0]!;
      const changeOf = changesOf(analysis);
      const worsened = over.filter((finding) => changeOf(finding)?.change === 'worsened').length;
      const what = worsened === 0 ? 'new' : worsened === over.length ? 'worsened' : 'new or worsened';
      failures.push(
        `${over.length} ${what} finding${over.length === 1 ? '' : 's'} at or above ${gate.failOn} (first: ${first.severity} ${first.filePath}:${first.anchor.lineStart} ${first.title})`,
      );
    }
  }
  if (gate.failOnReadiness && READINESS_RANK[analysis.readiness.status] >= READINESS_RANK[gate.failOnReadiness]) {
    failures.push(`merge readiness is ${READINESS_WORDS[analysis.readiness.status]} (the gate fails on ${READINESS_WORDS[gate.failOnReadiness]} or worse)`);
  }
  return failures;
}

/**
 * How each finding of `findings` (and so of `newFindings`, the same objects) changed against the
 * merge base, by `issueChanges`' keys: the fingerprint, and its occurrence in the order of `findings`.
 */
function changesOf(analysis: ChangeAnalysis): (finding: Finding) => IssueChangeOf | undefined {
  const byFinding = new Map<Finding, IssueChangeOf>();
  const seen = new Map<string, number>();
  for (const finding of analysis.findings) {
    const fingerprint = issueFingerprint(finding);
    const occurrence = seen.get(fingerprint) ?? 0;
    seen.set(fingerprint, occurrence + 1);
    const change = analysis.issueChanges[changeKeyOf(fingerprint, occurrence)];
    if (change) byFinding.set(finding, change);
  }
  return (finding) => byFinding.get(finding);
}

/** The measured value of a metric finding now and at base, for a worsened issue: ` (worsened: 43 → 71)`. */
function worsenedNote(finding: Finding, change: IssueChangeOf | undefined): string {
  if (change?.change !== 'worsened') return '';
  const key = finding.metric?.values[0];
  const now = key !== undefined ? finding.data?.[key] : undefined;
  return change.previousValue !== undefined && typeof now === 'number' ? ` (worsened: ${change.previousValue} → ${now})` : ' (worsened)';
}

/** "New findings", or "New and worsened findings" when the change also made existing issues worse. */
/**
 * What a cold review did not evaluate (changed-files-scope.ts), one line each: the reason, the
 * repository rules not compared, the figures computed over the changed files only. Empty when every rule ran.
 */
export function notEvaluatedLines(analysis: ChangeAnalysis): string[] {
  const evaluation = analysis.evaluation;
  if (evaluation.mode !== 'changed-files') return [];
  const rules = evaluation.notEvaluatedRules;
  return [
    `${evaluation.reason}: only the changed files were analysed, with their file rules`,
    `repository rules not evaluated (${rules.length}): ${rules.join(', ')}`,
    ...evaluation.partial,
  ];
}

function introducedHeading(analysis: ChangeAnalysis, changeOf: (finding: Finding) => IssueChangeOf | undefined): string {
  const worsened = analysis.newFindings.some((finding) => changeOf(finding)?.change === 'worsened');
  return `${worsened ? 'New and worsened findings' : 'New findings'} (${analysis.newFindings.length})`;
}

/**
 * Only the findings the change adds, each with `baselineState` `new` — or `updated` for an issue of
 * the base the change made worse: code scanning shows just those.
 */
export function changeToSarif(analysis: ChangeAnalysis): SarifLog {
  const now = new Date().toISOString();
  const changeOf = changesOf(analysis);
  return sarifLogOf(analysis.newFindings, {
    root: analysis.root,
    startedAt: now,
    completedAt: now,
    properties: {
      baseSha: analysis.base.sha,
      mergeBaseSha: analysis.mergeBaseSha,
      mergeReadiness: analysis.readiness.status,
      fixedFindings: analysis.fixedFindings.length,
      projectedOverallScore: analysis.healthProjection.projected_overall,
      // A cold review without --full-base compares file rules on the changed files only: say what was not evaluated.
      evaluation: analysis.evaluation.mode,
      ...(analysis.evaluation.mode === 'changed-files'
        ? { notEvaluatedRules: analysis.evaluation.notEvaluatedRules, notEvaluated: notEvaluatedLines(analysis) }
        : {}),
    },
    headSha: analysis.head.sha,
    baselineState: (finding) => (changeOf(finding)?.change === 'worsened' ? 'updated' : 'new'),
  });
}

function findingLines(findings: readonly Finding[], top: number, line: (finding: Finding) => string): string[] {
  const sorted = [...findings].sort(byImportance);
  const lines = sorted.slice(0, top).map(line);
  if (sorted.length > top) lines.push(`…and ${sorted.length - top} more`);
  return lines;
}

/** The pull-request comment body: the verdict and why (report/pr-markdown.ts), then the new and fixed findings. */
export function renderChangeMarkdown(analysis: ChangeAnalysis, options: ChangeReportOptions = {}): string {
  const top = options.top ?? 20;
  const summary = renderPrMarkdown(
    {
      pr_number: 0,
      head_sha: analysis.head.sha,
      status: 'completed',
      classification: analysis.intent,
      merge_readiness: analysis.readiness,
      health_impact: analysis.healthImpact,
      health_projection: analysis.healthProjection,
    },
    { subject: `\`${escapeCell(analysis.base.ref)}\` → \`${escapeCell(analysis.head.ref)}\`` },
  );
  const lines = [summary.trimEnd()];
  const changeOf = changesOf(analysis);
  const row = (finding: Finding) =>
    `- **${finding.severity}** \`${escapeCell(finding.filePath)}:${finding.anchor.lineStart}\` ${escapeCell(finding.title)}${worsenedNote(finding, changeOf(finding))} (${finding.ruleId})`;
  lines.push('', `### ${introducedHeading(analysis, changeOf)}`, '');
  lines.push(...(analysis.newFindings.length > 0 ? findingLines(analysis.newFindings, top, row).map((l) => (l.startsWith('…') ? `- ${l}` : l)) : ['None.']));
  if (analysis.fixedFindings.length > 0) {
    lines.push('', `### Fixed findings (${analysis.fixedFindings.length})`, '');
    lines.push(...findingLines(analysis.fixedFindings, top, row).map((l) => (l.startsWith('…') ? `- ${l}` : l)));
  }
  const notEvaluated = notEvaluatedLines(analysis);
  if (notEvaluated.length > 0) lines.push('', '### Not evaluated', '', ...notEvaluated.map((line) => `- ${escapeCell(line)}`));
  lines.push('');
  return lines.join('\n');
}

/** The terminal report: the verdict, its reasons, the projection and the findings the change adds and fixes. */
export function renderChangeText(analysis: ChangeAnalysis, options: ChangeReportOptions = {}): string {
  const top = options.top ?? 20;
  const { readiness, healthImpact: impact, healthProjection: projection, intent } = analysis;
  const lines = [
    `CodeHealth review: ${subjectOf(analysis)} (merge base ${short(analysis.mergeBaseSha)}, head ${short(analysis.head.sha)})`,
    '',
    `Merge readiness  ${READINESS_WORDS[readiness.status]} (${readiness.blocking_count} blocking, ${readiness.advisory_count} advisory, ${readiness.info_count} info), confidence ${readiness.confidence}/100`,
  ];
  for (const reason of readiness.reasons ?? []) lines.push(`  - ${reason}`);
  if (readiness.confidence_reasons && readiness.confidence_reasons.length > 0) {
    lines.push(`Confidence ${readiness.confidence}/100, because:`);
    for (const reason of readiness.confidence_reasons) lines.push(`  - ${reason}`);
  }
  const introduced =
    impact.issues_new !== undefined
      ? `${impact.issues_added} introduced (${impact.issues_new} new, ${impact.issues_worsened ?? 0} worsened)`
      : `${impact.issues_added} introduced`;
  const preExisting = impact.issues_pre_existing !== undefined ? `, ${impact.issues_pre_existing} pre-existing in the changed files` : '';
  lines.push(
    `Issues           ${introduced}${preExisting}, ${impact.issues_fixed} fixed`,
    `Health           ${round1(projection.current_overall)} (${projection.current_grade}) → ${round1(projection.projected_overall)} (${projection.projected_grade}), ${signed(impact.overall_delta)}, ${impact.impact_rating.replace(/_/g, ' ')}`,
    `Intent           ${intent.primary_intent}${intent.summary ? ` — ${intent.summary}` : ''}`,
  );
  if (intent.risk_signals.length > 0) lines.push(`Risk signals     ${intent.risk_signals.join('; ')}`);
  const changeOf = changesOf(analysis);
  const row = (finding: Finding) =>
    `  ${finding.severity.padEnd(8)} ${`${finding.filePath}:${finding.anchor.lineStart}`.padEnd(40)} ${finding.title}${worsenedNote(finding, changeOf(finding))}  [${finding.ruleId}]`;
  lines.push('', introducedHeading(analysis, changeOf));
  lines.push(...(analysis.newFindings.length > 0 ? findingLines(analysis.newFindings, top, row).map((l) => (l.startsWith('…') ? `  ${l}` : l)) : ['  none']));
  if (analysis.fixedFindings.length > 0) {
    lines.push('', `Fixed findings (${analysis.fixedFindings.length})`);
    lines.push(...findingLines(analysis.fixedFindings, top, row).map((l) => (l.startsWith('…') ? `  ${l}` : l)));
  }
  const notEvaluated = notEvaluatedLines(analysis);
  if (notEvaluated.length > 0) lines.push('', 'Not evaluated', ...notEvaluated.map((line) => `  - ${line}`));
  const baseline = analysis.baseline === 'changed-files' ? 'of the changed files only' : analysis.baseline;
  lines.push('', `${analysis.changedFiles.length} changed file${analysis.changedFiles.length === 1 ? '' : 's'}; merge base findings ${baseline}.`, '');
  return lines.join('\n');
}
