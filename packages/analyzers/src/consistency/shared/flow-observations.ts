// Turns the flow collector's per-file samples into observations for the async and error-handling rules.
import type { FileSummary } from '@codehealth/engine/kit';
import { enclosingFunctionName } from '../../shared/enclosing-function.js';
import { sourceSummaries } from './convention-rule.js';
import { append, FileMemo } from './file-memo.js';
import { FLOW_COLLECTOR_ID, type FlowFacts, type FlowPattern } from './flow-collector.js';
import type { Observation } from './tally.js';

const FACTS_KEY = `consistency/${FLOW_COLLECTOR_ID}`;

/** `detail` of an async-style observation whose function writes both styles. */
export const MIXED = 'mixed';

/**
 * The observations of `pattern` over the run's source files. Each file's are kept for later runs
 * (keyed by its flow facts; they also depend on its path and functions): they must not be mutated.
 */
export function flowObservations(summaries: readonly FileSummary[], pattern: FlowPattern): Observation[] {
  const observations: Observation[] = [];
  for (const summary of sourceSummaries(summaries)) {
    const facts = summary.facts[FACTS_KEY] as FlowFacts | undefined;
    if (!facts) continue;
    // The rules ask for different patterns: each is worked out when first asked.
    const byPattern = observedFlows.get(facts, [summary.path, summary.functions], () => ({}));
    append(observations, (byPattern[pattern] ??= observeFlow(summary, facts, pattern)));
  }
  return observations;
}

const observedFlows = new FileMemo<FlowFacts, Partial<Record<FlowPattern, Observation[]>>>();

function observeFlow(summary: FileSummary, facts: FlowFacts, pattern: FlowPattern): Observation[] {
  const observations: Observation[] = [];
  for (const [value, line, subject, mixed] of facts[pattern] ?? []) {
    const symbol = enclosingFunctionName(summary.functions, line);
    observations.push({
      path: summary.path,
      line,
      subject: subject || symbol || '(top level)',
      values: [value],
      ...(symbol ? { symbol } : {}),
      ...(mixed ? { detail: MIXED } : {}),
    });
  }
  return observations;
}

export function fileNameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
