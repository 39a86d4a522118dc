// Turns the flow collector's per-file samples into observations for the async and error-handling rules.
import type { FileSummary } from '@codehealth/engine/kit';
import { enclosingFunctionName } from '../../shared/enclosing-function.js';
import { sourceSummaries } from './convention-rule.js';
import { FLOW_COLLECTOR_ID, type FlowFacts, type FlowPattern } from './flow-collector.js';
import type { Observation } from './tally.js';

const FACTS_KEY = `consistency/${FLOW_COLLECTOR_ID}`;

export function flowObservations(summaries: readonly FileSummary[], pattern: FlowPattern): Observation[] {
  const observations: Observation[] = [];
  for (const summary of sourceSummaries(summaries)) {
    const facts = summary.facts[FACTS_KEY] as FlowFacts | undefined;
    for (const [value, line, subject] of facts?.[pattern] ?? []) {
      const symbol = enclosingFunctionName(summary.functions, line);
      observations.push({ path: summary.path, line, subject: subject || symbol || '(top level)', values: [value], ...(symbol ? { symbol } : {}) });
    }
  }
  return observations;
}

export function fileNameOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
