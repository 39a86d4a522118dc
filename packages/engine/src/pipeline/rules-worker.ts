// Worker-thread side of the repository-rules phase (see repository-rules.ts). The worker that
// runs rules keeps the summaries it made during the per-file pass and is sent every other one,
// by slot, so that it holds the run's summaries without a copy of them all at the end. A worker
// kept warm between runs (warm-workers.ts) also keeps the last run's summaries by cache key, and
// the next run has it adopt those it shares instead of sending them again.
import type { PreviousRun, RepositoryReportDescriptor } from '../contracts/analyzer.js';
import type { RepoFile, GitFacts } from '../snapshot/types.js';
import { snapshotOfInventory } from '../snapshot/snapshot.js';
import { repositoryGraphBuilder } from '../graph/repository-graph.js';
import type { RuleSet } from '../plugins/rule-set.js';
import type { FileSummary } from './file-summary.js';
import { lineRangeOf } from './findings.js';
import { claimGroup, runRule, type RuleInputs, type RuleOutcome } from './repository-rules.js';
import { WorkerThreadError } from './worker-error.js';
import { gitHelper } from '../git-process/git-helper.js';

export interface RulesRequest {
  /** Number of summaries of the run (slots 0..total-1). */
  total: number;
  root: string;
  files: RepoFile[];
  git: GitFacts;
  scope?: readonly string[];
  /** The run records its state: rules may save theirs (sent back with their outcomes). */
  record?: boolean;
  /** Qualified rule ids per group, in rule order. */
  groups: string[][];
  /** One slot per group, shared with the main thread (`claimGroup`). */
  claim: Int32Array;
  /** The order to try the groups in. */
  order: number[];
  /** Cache key of each slot's summary (null: not reusable): the worker keeps them by key for the next run. */
  keep?: Array<string | null>;
  /** A derived run: what the rules saved in the earlier run, and the paths that changed since. */
  previous?: { states: Record<string, unknown>; changedPaths: string[] };
}

/** The summaries this worker holds, by slot. */
export const retained = new Map<number, FileSummary>();

/** The last run's summaries by cache key (`RulesRequest.keep`), until the next run adopts them. */
let kept = new Map<string, FileSummary>();

/** Keeps a summary made outside a run (`PoolItem.keepAs`) for the next run to adopt. */
export function keepSummary(key: string, summary: FileSummary): void {
  kept.set(key, summary);
}

/** Takes kept summaries into this run's slots; the others are dropped. */
export function adoptKept(entries: ReadonlyArray<[number, string]>): void {
  for (const [slot, key] of entries) {
    const summary = kept.get(key);
    if (summary) retained.set(slot, summary);
  }
  kept = new Map();
}

const asked = new Map<number, (summary: FileSummary | undefined) => void>();
let nextAsk = 0;

/** The main thread's answer to `summaryBefore`. */
export function answerBefore(ask: number, summary: FileSummary | undefined): void {
  asked.get(ask)?.(summary);
  asked.delete(ask);
}

/** `PreviousRun` per rule, with `summaryBefore` answered by the main thread (it holds the cache). */
function previousOf(
  previous: NonNullable<RulesRequest['previous']>,
  askBefore: (path: string, ask: number) => void,
): (qualifiedId: string) => PreviousRun | undefined {
  const changedPaths: ReadonlySet<string> = new Set(previous.changedPaths);
  const summaryBefore = (path: string) =>
    new Promise<FileSummary | undefined>((resolve) => {
      const ask = nextAsk++;
      asked.set(ask, resolve);
      askBefore(path, ask);
    });
  return (qualifiedId) => (Object.hasOwn(previous.states, qualifiedId) ? { state: previous.states[qualifiedId], changedPaths, summaryBefore } : undefined);
}

/** Nodes do not cross threads; their line range is all a finding needs of them. */
function withoutNode(report: RepositoryReportDescriptor): RepositoryReportDescriptor {
  if (!('node' in report)) return report;
  const { node: _node, ...rest } = report;
  return { ...rest, ...lineRangeOf(report) };
}

/** Claims groups in the request's order until none is left, posting each group's outcomes. */
export async function runClaimedRules(
  request: RulesRequest,
  ruleSet: RuleSet,
  post: (group: number, outcomes: RuleOutcome[]) => void,
  askBefore: (path: string, ask: number) => void = (_path, ask) => answerBefore(ask, undefined),
): Promise<void> {
  // Rules may run git (debt-marker's blame): this thread's git helper process starts now, while
  // the first groups run, rather than when the first command waits for it (tens of milliseconds).
  gitHelper().warm();
  const summaries: FileSummary[] = new Array(request.total);
  for (let slot = 0; slot < request.total; slot++) {
    const summary = retained.get(slot);
    if (!summary) throw new WorkerThreadError(`the rules worker lacks summary ${slot}`);
    summaries[slot] = summary;
  }
  retained.clear();
  const byId = new Map(ruleSet.repositoryRules.map((r) => [r.qualifiedId, r]));
  for (const id of request.groups.flat()) if (!byId.has(id)) throw new WorkerThreadError(`the rules worker has no rule ${id}`);
  const snapshot = snapshotOfInventory(request.root, request.files, request.git);
  // Built when a rule first reads it: the groups tried first here are those that never do.
  const graphOf = await repositoryGraphBuilder(snapshot, summaries);
  const inputs: RuleInputs = {
    snapshot,
    summaries,
    get graph() {
      return graphOf();
    },
    ...(request.scope ? { scope: new Set(request.scope) } : {}),
    ...(request.record ? { record: true } : {}),
    ...(request.previous ? { previous: previousOf(request.previous, askBefore) } : {}),
    // The main thread stops waiting for this worker when its run is aborted.
    signal: new AbortController().signal,
  };
  for (const group of request.order) {
    if (!claimGroup(request.claim, group)) continue;
    const outcomes: RuleOutcome[] = [];
    for (const id of request.groups[group]) {
      const progress: string[] = [];
      const outcome = await runRule(byId.get(id)!, inputs, (message) => progress.push(message));
      const reports = outcome.reports.map(withoutNode);
      outcomes.push({ ...outcome, reports, progress });
    }
    post(group, outcomes);
  }
  if (request.keep) {
    kept = new Map();
    request.keep.forEach((key, slot) => {
      if (key !== null) kept.set(key, summaries[slot]);
    });
  }
}
