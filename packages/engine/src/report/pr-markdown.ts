// The Markdown summary of one pull-request analysis (a PR comment body): the verdict and why —
// readiness with its reasons, the confidence and what lowered it, the issues the change introduced
// apart from those already in the changed files, the projection — or why there is no verdict.
import { escapeCell } from './markdown.js';

/** What the summary reads: a PR analysis as the REST API returns it (its fields, structurally). */
export interface PrSummaryInput {
  pr_number: number;
  head_sha: string;
  status: 'pending' | 'running' | 'completed' | 'failed';
  failure_reason?: string | null;
  classification: { primary_intent: string; summary: string; risk_signals: readonly string[] };
  merge_readiness: {
    status: 'ready' | 'needs_review' | 'blocked';
    blocking_count: number;
    advisory_count: number;
    info_count: number;
    confidence: number;
    reasons?: readonly string[];
    confidence_reasons?: readonly string[];
  };
  health_impact: {
    overall_delta: number;
    issues_added: number;
    issues_fixed: number;
    impact_rating: string;
    issues_new?: number;
    issues_worsened?: number;
    issues_pre_existing?: number;
    issues_improved?: number;
  };
  health_projection: { current_overall: number; projected_overall: number; current_grade: string; projected_grade: string };
}

export interface PrMarkdownOptions {
  /** Heading level of the title (2 suits a PR comment); defaults to 2. */
  headingLevel?: 1 | 2 | 3;
  /** Reasons listed per section at most; defaults to 10 (the rest are counted). */
  maxReasons?: number;
  /** What the title names; defaults to `pull request #<pr_number>` (a local review names its revisions). */
  subject?: string;
}

export const READINESS_WORDS = { ready: 'ready to merge', needs_review: 'needs review', blocked: 'blocked' } as const;

/** A list of reasons, the first `max` by name and the rest counted. */
function reasonList(reasons: readonly string[], max: number): string[] {
  const lines = reasons.slice(0, max).map((reason) => `- ${escapeCell(reason)}`);
  if (reasons.length > max) lines.push(`- …and ${reasons.length - max} more`);
  return lines;
}

const signed = (n: number) => (n > 0 ? `+${n}` : `${n}`);

/** The issue counts, the change's own apart from the pre-existing ones (older records: the spec's two counts). */
function issueLine(impact: PrSummaryInput['health_impact']): string {
  const { issues_new: added, issues_worsened: worsened, issues_pre_existing: preExisting, issues_improved: improved } = impact;
  if (added === undefined || worsened === undefined || preExisting === undefined) {
    return `**Issues:** ${impact.issues_added} introduced · ${impact.issues_fixed} fixed`;
  }
  const improvedText = improved ? ` (${improved} improved)` : '';
  return (
    `**Issues:** ${impact.issues_added} introduced by this change (${added} new, ${worsened} worsened) · ` +
    `${preExisting} pre-existing in the changed files${improvedText} · ${impact.issues_fixed} fixed`
  );
}

export function renderPrMarkdown(analysis: PrSummaryInput, options: PrMarkdownOptions = {}): string {
  const h = '#'.repeat(options.headingLevel ?? 2);
  const max = options.maxReasons ?? 10;
  const head = `\`${analysis.head_sha.slice(0, 12)}\``;
  const readiness = analysis.merge_readiness;
  if (analysis.status !== 'completed') {
    const title = analysis.status === 'failed' ? 'analysis failed' : `analysis ${analysis.status}`;
    const why =
      analysis.status === 'failed'
        ? `The analysis of ${head} failed: ${escapeCell(analysis.failure_reason ?? 'no reason was recorded')}`
        : `The analysis of ${head} is ${analysis.status}.`;
    return [
      `${h} CodeHealth: ${options.subject ?? `pull request #${analysis.pr_number}`} — ${title}`,
      '',
      why,
      '',
      'No merge readiness verdict: nothing was measured.',
      '',
    ].join('\n');
  }
  const subject = options.subject ?? `pull request #${analysis.pr_number}`;
  const lines = [`${h} CodeHealth: ${subject} — ${READINESS_WORDS[readiness.status]}`, ''];
  lines.push(
    `**Merge readiness:** ${READINESS_WORDS[readiness.status]} (${readiness.blocking_count} blocking, ${readiness.advisory_count} advisory, ` +
      `${readiness.info_count} info) · confidence ${readiness.confidence}/100 · head ${head}`,
  );
  if (readiness.reasons && readiness.reasons.length > 0) lines.push('', 'Why:', ...reasonList(readiness.reasons, max));
  if (readiness.confidence_reasons && readiness.confidence_reasons.length > 0) {
    lines.push('', `Confidence ${readiness.confidence}/100, because:`, ...reasonList(readiness.confidence_reasons, max));
  }
  const projection = analysis.health_projection;
  const impact = analysis.health_impact;
  lines.push(
    '',
    issueLine(impact),
    '',
    `**Health:** ${projection.current_overall} (${projection.current_grade}) → ${projection.projected_overall} (${projection.projected_grade}), ` +
      `${signed(impact.overall_delta)} · ${impact.impact_rating.replace(/_/g, ' ')}`,
    '',
    `**Intent:** ${analysis.classification.primary_intent}${analysis.classification.summary ? ` — ${escapeCell(analysis.classification.summary)}` : ''}`,
  );
  if (analysis.classification.risk_signals.length > 0) lines.push('', 'Risk signals:', ...reasonList(analysis.classification.risk_signals, max));
  lines.push('');
  return lines.join('\n');
}
