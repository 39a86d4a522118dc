// The port through which the PR analysis has a model review the changed hunks: the application
// layer implements it over its model adapter (the service's llm/diff-review-agent.ts) and injects
// it into the pipeline; the engine only merges the findings it returns.
import type { Finding } from '../domain/types.js';
import { issueFingerprint } from '../report/issue-id.js';
import type { FunctionSummary } from '../pipeline/file-summary.js';
import type { PullRequestDiff } from '../pr/types.js';

export interface DiffReviewResult {
  findings: Finding[];
  /** Why no findings could be had from the model (nothing to send, timeout, invalid answer, ...); absent when it answered. */
  reason?: string;
  model: string;
  sent: { files: number; hunks: number; chars: number };
  /** Files, or parts of files, not sent to the model, with why. */
  skipped: Array<{ path: string; reason: string }>;
  /** Answers dropped by validation, with why. */
  dropped: Array<{ file: string; lineStart: number; lineEnd: number; reason: string }>;
}

export interface DiffReviewRequest {
  diff: PullRequestDiff;
  /** A work tree at head: the changed files' texts are read from it. */
  headDir: string;
  /** The engine's function summaries of head's files (name the enclosing symbol of a finding). */
  summaries?: ReadonlyArray<{ path: string; functions: readonly FunctionSummary[] }>;
  log?: (line: string) => void;
}

/** Reviews a pull request's changed hunks; never throws (a failure is a result with a `reason`). */
export type DiffReviewer = (request: DiffReviewRequest) => Promise<DiffReviewResult>;

/**
 * The run's issues with the model's findings added: all of them are new (they are found on the
 * PR's own changed lines). They do not enter the health projection or merge readiness, which stay
 * the deterministic analysis's.
 */
export function withLlmFindings(
  findings: Finding[],
  newFingerprints: Set<string>,
  review: DiffReviewResult | undefined,
): { findings: Finding[]; newFingerprints: Set<string> } {
  if (!review || review.findings.length === 0) return { findings, newFingerprints };
  return { findings: [...findings, ...review.findings], newFingerprints: new Set([...newFingerprints, ...review.findings.map((f) => issueFingerprint(f))]) };
}
