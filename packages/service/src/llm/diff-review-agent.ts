// The large model's review of a PR diff, turned into engine findings with source `llm_agent`:
// the model is sent the changed hunks only (prompts.ts), answers with a strict JSON schema, and
// every finding it returns is checked against the diff before it is kept — its file must be a
// sent file, its lines on or near sent changed lines, and its quoted code is re-read from the
// head file to decide `anchor.validated`. Any failure of the model yields no findings and a reason:
// a PR analysis never fails because of the model.
import { z } from 'zod';
import { ISSUE_CATEGORIES, SEVERITIES, type Finding, normaliseSnippet, repositoryFiles } from '@codehealth/engine';
import type { FunctionSummary } from '@codehealth/engine';
import { isOutside } from '@codehealth/engine/internal';
import { fileGroupOf } from '@codehealth/engine/internal';
import type { PullRequestDiff } from '@codehealth/engine/internal';
import type { DiffReviewer, DiffReviewResult } from '@codehealth/engine/internal';
import type { JsonCompletionClient } from './json-completion.js';
import { llmSlotFromEnv, type LlmSlot } from './llm-slot.js';
import { OpenAiJsonClient } from './openai-json-client.js';
import { DIFF_REVIEW_DEFAULTS, DIFF_REVIEW_SYSTEM, diffExcerpt, type DiffReviewBudget, type HeadFile, type SentFile } from './prompts.js';

export { withLlmFindings, type DiffReviewResult, type DiffReviewer } from '@codehealth/engine/internal';

export const LLM_ANALYZER_NAME = 'llm-agent';
/** Per attempt for the large slot: a review answer of a few thousand tokens takes longer than a classification. */
export const LARGE_LLM_TIMEOUT_MS = 60_000;
/** A quote shorter than this (non-blank characters) proves nothing (`}`, `return`). */
const MIN_QUOTE_CHARS = 6;
/** Unvalidated findings keep at most this confidence. */
const UNVALIDATED_MAX_CONFIDENCE = 40;
const MAX_SNIPPET_LINES = 12;
const MAX_SNIPPET_CHARS = 1200;
/** Head files larger than this are not read for the review. */
const MAX_HEAD_FILE_BYTES = 1024 * 1024;

export const LlmDiffFindingSchema = z.strictObject({
  file: z.string().min(1),
  line_start: z.number().int(),
  line_end: z.number().int(),
  severity: z.enum(SEVERITIES),
  category: z.enum(ISSUE_CATEGORIES),
  title: z.string().trim().min(1),
  description: z.string().trim().min(1),
  why_it_matters: z.string().trim().min(1),
  suggested_action: z.string().trim().min(1),
  confidence: z.number().int().min(0).max(100),
  quoted_code: z.string(),
});
export const DiffReviewAnswerSchema = z.strictObject({ findings: z.array(LlmDiffFindingSchema) });
export type LlmDiffFinding = z.infer<typeof LlmDiffFindingSchema>;

export interface ReviewFile extends HeadFile {
  /** The engine's function summaries of the head file: names the enclosing symbol for fingerprints. */
  functions?: readonly FunctionSummary[];
}

export interface DiffReviewInput {
  diff: PullRequestDiff;
  files: readonly ReviewFile[];
  budget?: DiffReviewBudget;
  log?: (line: string) => void;
}

const SEVERITY_ORDER: Record<string, number> = Object.fromEntries(SEVERITIES.map((s, i) => [s, i]));
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The innermost named function around the lines, else the innermost changed symbol of the diff at head. */
function symbolAt(
  lineStart: number,
  functions: readonly FunctionSummary[] | undefined,
  diffFile: PullRequestDiff['files'][number] | undefined,
): string | undefined {
  const innermost = <T extends { lineStart: number; lineEnd: number }>(items: readonly T[]) =>
    items
      .filter((s) => lineStart >= s.lineStart && lineStart <= s.lineEnd)
      .sort((a, b) => a.lineEnd - a.lineStart - (b.lineEnd - b.lineStart) || b.lineStart - a.lineStart)[0];
  const fn = innermost((functions ?? []).filter((f) => !f.name.startsWith('<')));
  if (fn) return fn.name;
  return innermost((diffFile?.symbols ?? []).filter((s) => s.side === 'head'))?.name;
}

/** Whether the quote (whitespace-normalised) is found in those lines of the (redacted) head text. */
function quoteFound(sent: SentFile, lineStart: number, lineEnd: number, quote: string): boolean {
  const wanted = normaliseSnippet(quote);
  if (wanted.replace(/\s/g, '').length < MIN_QUOTE_CHARS) return false;
  return normaliseSnippet(sent.lines.slice(lineStart - 1, lineEnd).join('\n')).includes(wanted);
}

function snippetOf(sent: SentFile, lineStart: number, lineEnd: number): string {
  const text = sent.lines.slice(lineStart - 1, Math.min(lineEnd, lineStart - 1 + MAX_SNIPPET_LINES)).join('\n');
  return clip(text, MAX_SNIPPET_CHARS);
}

/** Checks one answer against what was sent: a Finding, or why it is dropped. */
function toFinding(answer: LlmDiffFinding, sent: ReadonlyMap<string, SentFile>, input: DiffReviewInput, model: string): Finding | string {
  const path = answer.file.replace(/^\.\//, '');
  const file = sent.get(path);
  if (!file) return input.diff.files.some((f) => f.path === path) ? 'file was not sent' : 'file is not in the diff';
  const lineStart = Math.min(answer.line_start, answer.line_end);
  const lineEnd = Math.max(answer.line_start, answer.line_end);
  if (lineStart < 1 || lineEnd > file.lines.length) return 'lines outside the head file';
  if (!file.allowed.some(([from, to]) => lineStart >= from && lineEnd <= to)) return 'lines outside the changed hunks';
  const validated = quoteFound(file, lineStart, lineEnd, answer.quoted_code);
  const confidence = validated ? answer.confidence : Math.min(UNVALIDATED_MAX_CONFIDENCE, Math.round(answer.confidence / 2));
  const symbol = symbolAt(
    lineStart,
    input.files.find((f) => f.path === path)?.functions,
    input.diff.files.find((f) => f.path === path),
  );
  return {
    source: 'llm_agent',
    severity: answer.severity,
    category: answer.category,
    filePath: path,
    fileGroup: fileGroupOf(path),
    anchor: { lineStart, lineEnd, codeSnippet: snippetOf(file, lineStart, lineEnd), validated },
    title: clip(answer.title.split('\n')[0]!, 200),
    description: clip(answer.description, 2000),
    whyItMatters: clip(answer.why_it_matters, 1000),
    suggestedAction: clip(answer.suggested_action, 1000),
    ruleId: `llm/${answer.category}`,
    analyzerName: LLM_ANALYZER_NAME,
    confidence,
    autoFixable: false,
    ...(symbol ? { symbol } : {}),
    data: { model, quoteValidated: validated },
  };
}

/**
 * Reviews the diff's changed hunks with the model. Returns the kept findings (most severe first,
 * at most `budget.maxFindings`, one per file, lines and category), what was sent and skipped, and
 * what was dropped; on any failure of the model, no findings and the reason.
 */
export async function reviewDiffWithLlm(client: JsonCompletionClient, input: DiffReviewInput): Promise<DiffReviewResult> {
  const budget = { ...DIFF_REVIEW_DEFAULTS, ...input.budget };
  const excerpt = diffExcerpt(input.diff, input.files, budget);
  const base = {
    model: client.label,
    sent: { files: excerpt.sent.size, hunks: excerpt.hunks, chars: excerpt.user.length },
    skipped: excerpt.skipped,
    dropped: [] as DiffReviewResult['dropped'],
  };
  if (excerpt.sent.size === 0) return { ...base, findings: [], reason: 'no reviewable changed lines (nothing sent)' };
  let answer: z.infer<typeof DiffReviewAnswerSchema>;
  try {
    answer = await client.complete({
      name: 'pr_diff_review',
      system: DIFF_REVIEW_SYSTEM,
      user: excerpt.user,
      schema: DiffReviewAnswerSchema,
      maxOutputTokens: budget.maxOutputTokens,
    });
  } catch (error) {
    const reason = `${(error as { kind?: string }).kind ?? 'error'}: ${(error as Error)?.message ?? String(error)}`;
    input.log?.(`llm diff review: no findings from ${client.label} (${reason})`);
    return { ...base, findings: [], reason };
  }
  const kept = new Map<string, Finding>();
  for (const item of answer.findings) {
    const outcome = toFinding(item, excerpt.sent, input, client.label);
    if (typeof outcome === 'string') {
      base.dropped.push({ file: item.file, lineStart: item.line_start, lineEnd: item.line_end, reason: outcome });
      continue;
    }
    const key = `${outcome.filePath}\0${outcome.anchor.lineStart}\0${outcome.anchor.lineEnd}\0${outcome.category}`;
    const previous = kept.get(key);
    if (previous && previous.confidence >= outcome.confidence)
      base.dropped.push({ file: item.file, lineStart: item.line_start, lineEnd: item.line_end, reason: 'duplicate' });
    else kept.set(key, outcome);
  }
  const sorted = [...kept.values()].sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity]! - SEVERITY_ORDER[b.severity]! ||
      b.confidence - a.confidence ||
      a.filePath.localeCompare(b.filePath) ||
      a.anchor.lineStart - b.anchor.lineStart,
  );
  for (const extra of sorted.slice(budget.maxFindings))
    base.dropped.push({ file: extra.filePath, lineStart: extra.anchor.lineStart, lineEnd: extra.anchor.lineEnd, reason: 'over the findings limit' });
  const findings = sorted.slice(0, budget.maxFindings);
  input.log?.(
    `llm diff review: ${findings.length} findings kept (${findings.filter((f) => f.anchor.validated).length} quote-validated), ${base.dropped.length} dropped, ` +
      `${base.sent.hunks} hunks of ${base.sent.files} files sent (${base.sent.chars} chars), ${base.skipped.length} files or parts skipped`,
  );
  return { ...base, findings };
}

/** The changed files' head texts from a work tree at head (text files within the size cap), with their function summaries. */
export async function headFilesOf(
  headDir: string,
  diff: PullRequestDiff,
  summaries: ReadonlyArray<{ path: string; functions: readonly FunctionSummary[] }> = [],
): Promise<ReviewFile[]> {
  const functions = new Map(summaries.map((s) => [s.path, s.functions]));
  const files: ReviewFile[] = [];
  const checkout = repositoryFiles(headDir);
  for (const file of diff.files) {
    if (file.binary || file.generated || file.status === 'deleted' || isOutside(file.path)) continue;
    // Sent to a model: a regular file reached through no symbolic link (a link's target may lie
    // outside the repository, and a link's head text is its target's path, not this file's).
    const read = await checkout.read(file.path, { links: 'never', maxBytes: MAX_HEAD_FILE_BYTES });
    const text = read.ok && !read.bytes.includes(0) ? read.bytes.toString('utf8') : undefined;
    if (text !== undefined) files.push({ path: file.path, headText: text, ...(functions.has(file.path) ? { functions: functions.get(file.path)! } : {}) });
  }
  return files;
}

/**
 * The large slot's client for one run (its token budget is the run's): `slot` undefined reads
 * `LLM_LARGE_*` from the environment, null means no model. Undefined when none is configured.
 */
export function largeModelClient(slot: LlmSlot | null | undefined, log?: (line: string) => void): JsonCompletionClient | undefined {
  const resolved = slot === undefined ? llmSlotFromEnv('large') : (slot ?? undefined);
  return resolved ? new OpenAiJsonClient(resolved, { timeoutMs: LARGE_LLM_TIMEOUT_MS, ...(log ? { log } : {}) }) : undefined;
}

/** The PR pipeline's call: head texts from the work tree at head, then the review. Never throws. */
export async function reviewPullRequestWithLlm(
  client: JsonCompletionClient,
  input: {
    diff: PullRequestDiff;
    headDir: string;
    summaries?: ReadonlyArray<{ path: string; functions: readonly FunctionSummary[] }>;
    budget?: DiffReviewBudget;
    log?: (line: string) => void;
  },
): Promise<DiffReviewResult> {
  try {
    const files = await headFilesOf(input.headDir, input.diff, input.summaries);
    return await reviewDiffWithLlm(client, {
      diff: input.diff,
      files,
      ...(input.budget ? { budget: input.budget } : {}),
      ...(input.log ? { log: input.log } : {}),
    });
  } catch (error) {
    const reason = `error: ${(error as Error)?.message ?? String(error)}`;
    input.log?.(`llm diff review: no findings (${reason})`);
    return { findings: [], reason, model: client.label, sent: { files: 0, hunks: 0, chars: 0 }, skipped: [], dropped: [] };
  }
}

/** The PR pipeline's reviewer over the large slot's client (undefined: no model, no review). */
export function diffReviewerOf(client: JsonCompletionClient | undefined): DiffReviewer | undefined {
  return client ? (request) => reviewPullRequestWithLlm(client, request) : undefined;
}
