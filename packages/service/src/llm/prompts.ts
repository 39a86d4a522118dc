// What the large model slot is sent, and nothing else: the changed hunks of a PR (head lines with a
// few lines of context, credentials masked, within a character budget) for the diff review, and
// the computed findings and metrics of an architecture review (no code) for its narrative.
import type { ArchitectureReviewResult } from '../api/architecture.js';
import { ISSUE_CATEGORIES, SEVERITIES } from '@codehealth/engine';
import type { PullRequestDiff } from '@codehealth/engine/internal';

/** Findings may sit this many lines off the changed lines (the model often points at the statement around a change). */
export const ANCHOR_TOLERANCE = 3;
/** Longer lines (minified code, data) are cut in the excerpt. */
const MAX_LINE_CHARS = 400;
/** File kinds whose changes are reviewed; docs, assets, generated and vendored files are not. */
const REVIEWED_KINDS = ['source', 'test', 'config'] as const;

const maskSecret = (secret: string) => `${secret.length > 8 ? secret.slice(0, 4) : ''}${'*'.repeat(12)}`;
/** Bits per character: near log2(length) for random keys, well below it for identifiers and paths. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  return [...counts.values()].reduce((sum, n) => sum - (n / text.length) * Math.log2(n / text.length), 0);
}
/** Mixed case and digits with a high entropy: a generated key, not a word, path or identifier. */
const looksRandom = (text: string) => /\d/.test(text) && /[a-z]/.test(text) && /[A-Z]/.test(text) && entropy(text) > 0.8 * Math.log2(text.length);
const TOKEN_SHAPES: Array<[RegExp, (match: string) => boolean]> = [
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, () => true], // AWS access key ids
  [/\bgh[pousr]_[A-Za-z0-9]{36,}\b/g, () => true], // GitHub tokens
  [/\bgithub_pat_[A-Za-z0-9_]{40,}\b/g, () => true],
  [/\bxox[abprs]-\d+-[A-Za-z0-9-]{10,}\b/g, () => true], // Slack tokens
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, () => true], // Google API keys
  [/\bsk-[A-Za-z0-9_-]{20,}\b/g, (m) => looksRandom(m)], // OpenAI-style keys
  [/[A-Za-z0-9+/_-]{32,}={0,2}/g, looksRandom], // other generated secrets, PEM bodies
];
const ASSIGNED_SECRET =
  /((?:secret|token|passw(?:or)?d|pwd|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?token)\w*["']?\s*[:=]\s*["'`])([^"'`\s]{8,})(["'`])/gi;

/**
 * Masks credentials in a line (first 4 characters kept, as the static rules' snippets do): what
 * the model is sent, what its quotes are checked against and what the issue snippets show.
 */
export function redactSecrets(line: string): string {
  let out = line.replace(ASSIGNED_SECRET, (_, before: string, secret: string, after: string) => `${before}${maskSecret(secret)}${after}`);
  for (const [shape, accept] of TOKEN_SHAPES) out = out.replace(shape, (secret) => (secret.includes('*') || !accept(secret) ? secret : maskSecret(secret)));
  return out;
}

export const DIFF_REVIEW_SYSTEM = `You review the changed lines of a pull request like a careful senior engineer.
You see excerpts of the head version of changed files: each line is "<line number> <mark> <code>", where mark "+" is a line the pull request added or changed and " " an unchanged line shown for context; "(N lines removed)" marks deletions.
Report only real problems introduced or exposed by the "+" lines: bugs, runtime errors, security weaknesses, missing error handling, broken tests, dead or duplicated code, inconsistent or non-compliant code. No style nits, no praise, no speculation about code you cannot see. Often there is nothing to report: answer {"findings": []}.
For each finding:
- file: the path exactly as given after "=== "; line_start and line_end: head line numbers of the excerpt, on or within ${ANCHOR_TOLERANCE} lines of "+" lines;
- severity: one of ${SEVERITIES.join(', ')} (critical: exploitable or data-losing; high: a likely bug or vulnerability; medium: a real risk; low/info: minor);
- category: one of ${ISSUE_CATEGORIES.join(', ')};
- title (one line), description (what is wrong, grounded in the quoted code), why_it_matters, suggested_action (a concrete fix);
- confidence: 0-100, how sure you are that this is a real problem;
- quoted_code: the exact code of those lines, copied verbatim from the excerpt (without line numbers and marks).`;

export interface DiffReviewBudget {
  /** Characters of the user message at most (about 4 characters per token). Default 40,000. */
  maxPromptChars?: number;
  /** Unchanged lines shown before and after each hunk. Default 3. */
  contextLines?: number;
  /** Findings kept at most (most severe first). Default 15. */
  maxFindings?: number;
  /** Upper bound of the answer's tokens. Default 4,000. */
  maxOutputTokens?: number;
}

export const DIFF_REVIEW_DEFAULTS: Required<DiffReviewBudget> = { maxPromptChars: 40_000, contextLines: 3, maxFindings: 15, maxOutputTokens: 4_000 };

export interface HeadFile {
  path: string;
  headText: string;
}

/** A file as it was sent: its redacted head lines and the line ranges findings may point at. */
export interface SentFile {
  lines: string[];
  /** Inclusive head line ranges: changed lines ± ANCHOR_TOLERANCE, within the lines actually shown. */
  allowed: Array<[number, number]>;
}

export interface DiffExcerpt {
  user: string;
  sent: Map<string, SentFile>;
  /** Files or parts of files not sent, with why. */
  skipped: Array<{ path: string; reason: string }>;
  hunks: number;
}

interface Piece {
  /** Changed head lines (inclusive); a pure deletion is an empty range after `after`. */
  from: number;
  to: number;
  removedAfter?: { line: number; count: number };
}

/** Head-side pieces of a file's hunks: changed line ranges, and deletion points. */
function piecesOf(hunks: PullRequestDiff['files'][number]['hunks']): Piece[] {
  return hunks.map((h) =>
    h.newLines > 0
      ? { from: h.newStart, to: h.newStart + h.newLines - 1 }
      : { from: h.newStart + 1, to: h.newStart, removedAfter: { line: h.newStart, count: h.oldLines } },
  );
}

const removedNote = (count: number) => `(${count} line${count === 1 ? '' : 's'} removed)\n`;

const why = (file: PullRequestDiff['files'][number]): string | undefined =>
  file.binary
    ? 'binary'
    : file.generated
      ? 'generated or vendored'
      : file.status === 'deleted'
        ? 'deleted'
        : !(REVIEWED_KINDS as readonly string[]).includes(file.kind)
          ? `not reviewed (${file.kind})`
          : file.hunks.length === 0
            ? 'no changed lines'
            : undefined;

/**
 * The user message of a diff review: per reviewed file, its hunks with context, in the diff's
 * order (source, then tests, then config), until the character budget is spent. A hunk that no
 * longer fits is cut at a line; what is left out is listed in `skipped` and stated in the prompt.
 */
export function diffExcerpt(diff: PullRequestDiff, files: readonly HeadFile[], budget: Required<DiffReviewBudget>): DiffExcerpt {
  const texts = new Map(files.map((f) => [f.path, f.headText]));
  const sent = new Map<string, SentFile>();
  const skipped: DiffExcerpt['skipped'] = [];
  const order = (kind: string) => (REVIEWED_KINDS as readonly string[]).indexOf(kind);
  const candidates = diff.files.filter((file) => {
    const reason = why(file) ?? (texts.has(file.path) ? undefined : 'head text not available');
    if (reason) skipped.push({ path: file.path, reason });
    return !reason;
  });
  candidates.sort((a, b) => order(a.kind) - order(b.kind));
  const header = 'Changed hunks of the pull request (head line numbers):\n';
  let user = header;
  let hunks = 0;
  const room = () => budget.maxPromptChars - user.length - 120; // keeps space for the closing note
  for (const file of candidates) {
    const lines = texts
      .get(file.path)!
      .split(/\r\n|\n|\r/)
      .map(redactSecrets);
    if (lines.length > 1 && lines.at(-1) === '') lines.pop(); // the final newline ends the last line
    const fileHeader = `\n=== ${file.path} (${file.status}${file.oldPath ? ` from ${file.oldPath}` : ''}) ===\n`;
    if (room() < fileHeader.length + 40) {
      skipped.push({ path: file.path, reason: 'budget: not sent' });
      continue;
    }
    let text = fileHeader;
    const allowed: Array<[number, number]> = [];
    const pieces = piecesOf(file.hunks);
    const changed = (n: number) => pieces.some((p) => n >= p.from && n <= p.to);
    const removedAt = new Map(pieces.flatMap((p) => (p.removedAfter ? [[p.removedAfter.line, p.removedAfter.count] as const] : [])));
    const rowOf = (n: number) => {
      const code = lines[n - 1]!.length > MAX_LINE_CHARS ? `${lines[n - 1]!.slice(0, MAX_LINE_CHARS)}…` : lines[n - 1]!;
      return `${n} ${changed(n) ? '+' : ' '} ${code}\n${removedAt.has(n) ? removedNote(removedAt.get(n)!) : ''}`;
    };
    let shownTo = 0;
    let sentPieces = 0;
    let cut = false;
    for (const piece of pieces) {
      const end = Math.max(piece.to, piece.removedAfter?.line ?? 0);
      const first = Math.max(1, piece.from - budget.contextLines, shownTo + 1);
      const last = Math.min(lines.length, end + budget.contextLines);
      let block = first > shownTo + 1 && first <= last ? '…\n' : '';
      if (piece.removedAfter?.line === 0 && shownTo === 0) block += removedNote(piece.removedAfter.count);
      let shownLast = Math.min(shownTo, last);
      for (let n = first; n <= last; n++) {
        const row = rowOf(n);
        if (user.length + text.length + block.length + row.length > budget.maxPromptChars - 120) {
          cut = true;
          break;
        }
        block += row;
        shownLast = n;
      }
      // Cut before any changed line of the piece (or before the deletion point): nothing of it was shown.
      if (cut && shownLast < Math.min(piece.from, end)) break;
      text += block;
      sentPieces++;
      shownTo = Math.max(shownTo, shownLast);
      const anchor = piece.removedAfter ? piece.removedAfter.line : piece.from;
      allowed.push([Math.max(1, anchor - ANCHOR_TOLERANCE, piece.from - budget.contextLines), Math.min(shownLast, end + ANCHOR_TOLERANCE)]);
      if (cut) break;
    }
    hunks += sentPieces;
    const notSent = pieces.length - sentPieces;
    if (sentPieces === 0) skipped.push({ path: file.path, reason: 'budget: not sent' });
    else if (cut || notSent > 0)
      skipped.push({ path: file.path, reason: `budget: cut at line ${shownTo}${notSent ? `, ${notSent} of ${pieces.length} hunks not sent` : ''}` });
    if (sentPieces === 0) continue;
    user += text;
    sent.set(file.path, { lines, allowed });
  }
  const left = skipped.filter((s) => s.reason.startsWith('budget'));
  if (left.length > 0) user += `\n(Budget reached: ${left.length} file${left.length === 1 ? '' : 's'} not or only partly sent; review what is shown.)\n`;
  return { user, sent, skipped, hunks };
}

export const ARCHITECTURE_NARRATIVE_SYSTEM = `You write the summary of an automated architecture review for engineers and their leads.
You are given only what the review computed: metrics of the code graph (modules, components, import cycles, layering violations, unstable dependencies, hub modules, instability and distance from the main sequence) and its findings.
Write "narrative": 3 to 6 plain sentences, at most 900 characters, no markdown, no lists. Say what the structure looks like, which problems matter most and why, and what to do first.
Use only the facts given: every number and every file or component you mention must appear in them. Do not invent modules, counts or causes. If there are no findings, say the structure shows none of the reviewed problems.`;

/** The facts the narrator sees: metrics, counts and findings without code, bounded in size. */
export function architectureFacts(review: ArchitectureReviewResult, maxFindings = 25, maxComponents = 15): Record<string, unknown> {
  const { component_metrics, ...metrics } = review.metrics;
  const count = (key: (f: ArchitectureReviewResult['findings'][number]) => string) =>
    review.findings.reduce<Record<string, number>>((acc, f) => ({ ...acc, [key(f)]: (acc[key(f)] ?? 0) + 1 }), {});
  const components = [...component_metrics].sort((a, b) => (b.distance ?? -1) - (a.distance ?? -1) || a.path.localeCompare(b.path)).slice(0, maxComponents);
  return {
    computed_summary: review.summary,
    metrics,
    findings_total: review.findings.length,
    findings_by_rule: count((f) => f.rule_id),
    findings_by_severity: count((f) => f.severity),
    components: components.map((c) => ({
      path: c.path,
      modules: c.modules,
      ca: c.afferent_coupling,
      ce: c.efferent_coupling,
      instability: c.instability,
      abstractness: c.abstractness,
      distance: c.distance,
    })),
    ...(component_metrics.length > maxComponents ? { components_listed: maxComponents } : {}),
    findings: review.findings.slice(0, maxFindings).map((f) => ({
      rule: f.rule_id,
      severity: f.severity,
      title: f.title,
      description: f.description,
      components: f.components,
      modules: f.modules.slice(0, 8),
    })),
    ...(review.findings.length > maxFindings ? { findings_listed: maxFindings } : {}),
  };
}
