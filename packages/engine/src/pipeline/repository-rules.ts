// The repository-rules phase: runs every repository rule and merges what each publishes in rule
// order. The rules of one analyzer stay together (they share models memoised per run). When a
// worker thread holds every summary, the main thread and that worker claim analyzers from one
// shared array, so the second core works through this phase too: the worker starts with the
// analyzers that never read the graph (it builds its own graph only when a rule reads it), the
// main thread with the others. Outcomes are merged in rule order, so the result does not depend
// on which thread ran what.
import {
  WELL_KNOWN_METRICS,
  type ConventionPattern,
  type PreviousRun,
  type RepositoryReportDescriptor,
  type RepositoryRuleContext,
  type WellKnownMetric,
} from '../contracts/analyzer.js';
import type { Finding } from '../domain/types.js';
import type { ActiveRepositoryRule } from '../plugins/rule-set.js';
import { buildFinding, lineTableOf, type LineTable } from './findings.js';

/** What one rule published. */
export interface RuleOutcome {
  reports: RepositoryReportDescriptor[];
  /** Metric calls in the order made (a later value of a name wins). */
  metrics: Array<[string, number | null]>;
  conventions: ConventionPattern[];
  /** Progress messages of a rule that ran in a worker, replayed when its outcome arrives. */
  progress?: string[];
  /** What the rule saved with the run's recorded state (`RepositoryRuleContext.saveState`). */
  state?: unknown;
}

export type RuleInputs = Pick<RepositoryRuleContext, 'snapshot' | 'summaries' | 'graph' | 'scope' | 'signal'> & {
  /** The run records its state: rules may save theirs. */
  record?: boolean;
  /** A derived run's view of the earlier run, per rule (qualified id). */
  previous?: (qualifiedId: string) => PreviousRun | undefined;
};

export async function runRule(active: ActiveRepositoryRule, inputs: RuleInputs, progress: (message: string) => void): Promise<RuleOutcome> {
  const outcome: RuleOutcome = { reports: [], metrics: [], conventions: [] };
  const previous = inputs.previous?.(active.qualifiedId);
  await active.rule.analyze({
    snapshot: inputs.snapshot,
    summaries: inputs.summaries,
    // Read when the rule reads it: a worker builds its graph then (rules-worker.ts).
    get graph() {
      return inputs.graph;
    },
    git: () => inputs.snapshot.git(),
    options: active.options,
    ...(inputs.scope ? { scope: inputs.scope } : {}),
    signal: inputs.signal,
    progress,
    report: (descriptor) => outcome.reports.push(descriptor),
    metric: (name, value) => outcome.metrics.push([name, value]),
    conventions: (patterns) => outcome.conventions.push(...patterns),
    ...(inputs.record ? { saveState: (value: unknown) => void (outcome.state = value) } : {}),
    ...(previous ? { previous } : {}),
  });
  return outcome;
}

/** Indices of the rules, cut into runs of one analyzer each. */
export function groupsOf(rules: readonly ActiveRepositoryRule[]): number[][] {
  const groups: number[][] = [];
  rules.forEach((rule, i) => {
    const last = groups[groups.length - 1];
    if (last && rules[last[0]].analyzerId === rule.analyzerId) last.push(i);
    else groups.push([i]);
  });
  return groups;
}

/**
 * A worker that claims groups (`claimGroup` on `claim`, shared with this thread), trying them in
 * `order`, and runs them.
 */
export interface RemoteRules {
  run(groups: string[][], claim: Int32Array, order: number[], onGroup: (group: number, outcomes: RuleOutcome[]) => void): Promise<void>;
}

/** One slot per group: true for the first thread that claims it, false for any later one. */
export function claimGroup(claim: Int32Array, group: number): boolean {
  return Atomics.compareExchange(claim, group, 0, 1) === 0;
}

/**
 * The order each side tries the groups in: the worker first those of analyzers that declared they
 * never read the graph (in rule order), this thread, which holds the run's graph, first the others.
 */
export function claimOrders(rules: readonly ActiveRepositoryRule[], groups: readonly number[][]): { here: number[]; remote: number[] } {
  const graphFree: number[] = [];
  const reading: number[] = [];
  groups.forEach((group, i) => (rules[group[0]].readsGraph === false ? graphFree : reading).push(i));
  return { here: [...reading, ...graphFree], remote: [...graphFree, ...reading] };
}

export interface PhaseOptions {
  remote?: RemoteRules;
  /** Leave every group to the remote side (this thread serves requests); it runs here only if the worker fails. */
  offThread?: boolean;
  progress(message: string): void;
  /** Checked before each group run here; throws to stop. */
  checkpoint(): void;
}

/**
 * Runs every rule once and returns their outcomes in rule order. `inputs` may be made on demand:
 * then the remote side is started first, and this thread makes them (builds the run's graph) while
 * the worker already runs rules.
 */
export async function runRepositoryRules(
  rules: readonly ActiveRepositoryRule[],
  inputsOrMake: RuleInputs | (() => Promise<RuleInputs>),
  options: PhaseOptions,
): Promise<RuleOutcome[]> {
  const { remote, progress } = options;
  const groups = groupsOf(rules);
  const outcomes: Array<RuleOutcome[] | undefined> = new Array(groups.length);
  let inputs = typeof inputsOrMake === 'function' ? undefined : inputsOrMake;
  const runHere = async (group: number): Promise<RuleOutcome[]> => {
    inputs ??= await (inputsOrMake as () => Promise<RuleInputs>)();
    const list: RuleOutcome[] = [];
    for (const i of groups[group]) {
      options.checkpoint();
      progress(`Running ${rules[i].qualifiedId}`);
      list.push(await runRule(rules[i], inputs, progress));
    }
    return list;
  };

  const claim = new Int32Array(new SharedArrayBuffer(4 * groups.length));
  const orders = claimOrders(rules, groups);
  // With a single analyzer there is nothing to share.
  const remoteDone = (groups.length > 1 ? remote : undefined)
    ?.run(
      groups.map((g) => g.map((i) => rules[i].qualifiedId)),
      claim,
      orders.remote,
      (group, list) => {
        outcomes[group] = list;
        groups[group].forEach((i, k) => {
          progress(`Running ${rules[i].qualifiedId}`);
          for (const message of list[k].progress ?? []) progress(message);
        });
      },
    )
    .catch(() => {
      // A worker that failed leaves its groups unanswered; they run here below, and a rule that
      // throws fails the run from this thread as it would without workers.
    });
  // Alone, this thread runs the rules in rule order, as a serial run does.
  const here = remoteDone ? (options.offThread ? [] : orders.here) : groups.map((_, i) => i);
  for (const group of here) if (claimGroup(claim, group)) outcomes[group] = await runHere(group);
  await remoteDone;
  for (let group = 0; group < groups.length; group++) outcomes[group] ??= await runHere(group);
  return outcomes.flatMap((list) => list!);
}

export interface Published {
  findings: Finding[];
  analyzerMetrics: Record<string, number>;
  wellKnown: Partial<Record<WellKnownMetric, number | null>>;
  conventions: ConventionPattern[];
  /** States the rules saved, by qualified id. */
  ruleStates: Record<string, unknown>;
}

/** Turns the outcomes (in rule order) into findings, metrics and conventions, as each rule's calls would have. */
export async function publishOutcomes(
  rules: readonly ActiveRepositoryRule[],
  outcomes: readonly RuleOutcome[],
  readFile: (path: string) => Promise<string>,
  inScope: (path: string) => boolean,
): Promise<Published> {
  const published: Published = { findings: [], analyzerMetrics: {}, wellKnown: {}, conventions: [], ruleStates: {} };
  const linesByFile = new Map<string, LineTable>();
  for (let i = 0; i < rules.length; i++) {
    const active = rules[i];
    const { reports, metrics, conventions, state } = outcomes[i];
    if (state !== undefined) published.ruleStates[active.qualifiedId] = state;
    for (const [name, value] of metrics) {
      if ((WELL_KNOWN_METRICS as readonly string[]).includes(name)) published.wellKnown[name as WellKnownMetric] = value;
      else if (value !== null) published.analyzerMetrics[`${active.analyzerId}.${name}`] = value;
    }
    published.conventions.push(...conventions);
    const origin = { analyzerId: active.analyzerId, meta: active.rule.meta, severityOverride: active.severityOverride };
    for (const r of reports) {
      if (!inScope(r.filePath)) continue;
      let lines = linesByFile.get(r.filePath);
      if (!lines) {
        // A file outside the inventory (or unreadable) gives no lines, so its anchor stays unvalidated.
        lines = lineTableOf(await readFile(r.filePath).catch(() => ''));
        linesByFile.set(r.filePath, lines);
      }
      const finding = buildFinding(origin, r.filePath, lines, r);
      if (r.origin) {
        finding.ruleId = r.origin.ruleId;
        finding.analyzerName = r.origin.analyzerName;
        finding.category = r.origin.category ?? finding.category;
        finding.source = r.origin.source ?? finding.source;
        finding.autoFixable = r.origin.autoFixable ?? finding.autoFixable;
      }
      published.findings.push(finding);
    }
  }
  return published;
}
