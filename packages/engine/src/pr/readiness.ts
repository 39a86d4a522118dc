// Merge readiness of a PR from the issues it introduces, by documented rules (pr/README.md,
// "Merge readiness"), and the confidence of the verdict from how much of the change the
// analysis could actually read.
import type { MergeReadiness } from './result.js';
import type { Finding } from '../domain/types.js';
import { isLockFile } from './change-facts.js';
import type { ChangedFile } from './types.js';

export type IssueWeight = 'blocking' | 'advisory' | 'info';

/** Critical issues, and high ones in security or runtime, block; other high and medium issues advise; low and info inform. */
export function issueWeight(finding: Pick<Finding, 'severity' | 'category'>): IssueWeight {
  if (finding.severity === 'critical') return 'blocking';
  if (finding.severity === 'high') return finding.category === 'security' || finding.category === 'runtime' ? 'blocking' : 'advisory';
  if (finding.severity === 'medium') return 'advisory';
  return 'info';
}

/** A binary file counts as this many changed lines when weighing what could be analysed. */
export const BINARY_FILE_WEIGHT = 20;

export interface ConfidenceInput {
  files: readonly ChangedFile[];
  /** 0-1 share of a code file's bytes that parsed cleanly (head side; base side for deletions); absent when it was not parsed. */
  parseHealth: ReadonlyMap<string, number>;
  /** Changed or neighbour files whose head findings could not be computed (no analyzer ran on them). */
  unverified: ReadonlySet<string>;
}

/**
 * 0-100: the changed lines the analysis could read, weighted by lines changed. Generated,
 * vendored and binary files count as unread (lock files excepted: dependency data, not code); code files count by their parse health (an
 * unparsed language counts as unread); docs, config and other text count as read (there is no
 * code in them to miss).
 */
export function analysisConfidence(input: ConfidenceInput): number {
  return explainConfidence(input).confidence;
}

/** Confidence reasons listed by name at most; the rest are summed up in one line. */
export const MAX_CONFIDENCE_REASONS = 20;

/**
 * The confidence and why it is below 100: one line per file that was not (fully) read, the
 * largest loss first (`src/types.ts could not be parsed`, `src/a.ts: 62 % parsed cleanly`).
 */
export function explainConfidence(input: ConfidenceInput): { confidence: number; reasons: string[] } {
  let total = 0;
  let read = 0;
  const losses: Array<{ lost: number; reason: string }> = [];
  for (const file of input.files) {
    const weight = file.binary ? BINARY_FILE_WEIGHT : Math.max(1, file.additions + file.deletions);
    total += weight;
    const reason = unreadReason(file, input);
    if (reason !== undefined) {
      losses.push({ lost: weight, reason });
      continue;
    }
    if (file.kind === 'source' || file.kind === 'test') {
      const health = input.parseHealth.get(file.path);
      if (health === undefined) {
        losses.push({ lost: weight, reason: `${file.path} was not parsed (its language or size is not analysed)` });
        continue;
      }
      read += weight * health;
      if (health === 0) losses.push({ lost: weight, reason: `${file.path} could not be parsed` });
      else if (health < 1) losses.push({ lost: weight * (1 - health), reason: `${file.path}: ${Math.floor(health * 100)} % parsed cleanly` });
    } else read += weight;
  }
  // Unchanged neighbours whose findings are missing weaken the comparison too: one line each.
  for (const path of input.unverified) {
    if (input.files.some((f) => f.path === path)) continue;
    total += 1;
    losses.push({ lost: 1, reason: `${path} (a neighbour of the change): its issues at head could not be computed` });
  }
  const confidence = total === 0 ? 100 : Math.round((100 * read) / total);
  if (confidence === 100) return { confidence, reasons: [] };
  losses.sort((a, b) => b.lost - a.lost || a.reason.localeCompare(b.reason));
  const reasons = losses.slice(0, MAX_CONFIDENCE_REASONS).map((l) => l.reason);
  if (losses.length > MAX_CONFIDENCE_REASONS) reasons.push(`…and ${losses.length - MAX_CONFIDENCE_REASONS} more files not fully read`);
  return { confidence, reasons };
}

/** Why a changed file was not read at all, or undefined when it was (or was parsed in part). */
function unreadReason(file: ChangedFile, input: ConfidenceInput): string | undefined {
  if (file.binary) return `${file.path} is binary: not analysed`;
  if (file.generated && !isLockFile(file.path)) return `${file.path} is generated or vendored: not analysed`;
  if (input.unverified.has(file.path)) return `${file.path}: its issues at head could not be computed`;
  return undefined;
}

export interface Readiness {
  readiness: MergeReadiness;
  /** One line per issue that weighs, worst first: what it is and why it counts so. */
  reasons: string[];
}

/** A metric issue the PR made worse, with its headline value at base when known. */
export interface WorsenedIssue {
  finding: Finding;
  previousValue?: number;
}

/** `(complexity 43 -> 71)`: the headline measure of a worsened metric issue, when both values are known. */
function movement({ finding, previousValue }: WorsenedIssue): string {
  const key = finding.metric?.values[0];
  const now = key === undefined ? undefined : finding.data?.[key];
  return key !== undefined && previousValue !== undefined && now !== undefined ? ` (${key} ${previousValue} -> ${now})` : '';
}

/** Readiness weighs the issues the PR introduced: new ones and metric issues it made worse. */
export function mergeReadiness(added: readonly Finding[], confidence: number, worsened: readonly WorsenedIssue[] = []): Readiness {
  const counts = { blocking: 0, advisory: 0, info: 0 };
  const weighed = [
    ...added.map((finding) => ({ finding, weight: issueWeight(finding), what: 'new', how: '' })),
    ...worsened.map((w) => ({ finding: w.finding, weight: issueWeight(w.finding), what: 'worsened', how: movement(w) })),
  ];
  for (const { weight } of weighed) counts[weight]++;
  const status: MergeReadiness['status'] = counts.blocking > 0 ? 'blocked' : counts.advisory > 0 ? 'needs_review' : 'ready';
  const order: Record<IssueWeight, number> = { blocking: 0, advisory: 1, info: 2 };
  const reasons = weighed
    .filter((w) => w.weight !== 'info')
    .sort((a, b) => order[a.weight] - order[b.weight])
    .map(
      ({ finding, weight, what, how }) =>
        `${weight}: ${what} ${finding.severity} ${finding.category} issue '${finding.title}'${how} (${finding.ruleId}) at ${finding.filePath}:${finding.anchor.lineStart}`,
    );
  if (status === 'ready') reasons.push(readyReason(counts.info));
  return {
    readiness: { status, blocking_count: counts.blocking, advisory_count: counts.advisory, info_count: counts.info, confidence },
    reasons,
  };
}

/** Why a PR is ready: nothing it introduced weighs (info issues inform only). */
function readyReason(info: number): string {
  const informing = info === 0 ? '' : ` (${info} new or worsened info issue${info === 1 ? '' : 's'}, which only inform)`;
  return `ready: the change introduces or worsens no blocking or advisory issue${informing}`;
}
