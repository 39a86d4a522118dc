// The common shape of a consistency rule: observe a convention over the repository, publish its
// statistics, and report the deviations when the convention is clear.
import {
  defineRule,
  roleOfFile,
  type FileSummary,
  type RepositoryRule,
  type RepositoryRuleContext,
  type RuleDocs,
  type Severity,
} from '@codehealth/engine/kit';
import { z } from 'zod';
import { tally, type Observation, type Tally } from './tally.js';

export const DEFAULT_CONVENTION_OPTIONS = { minConsistency: 80, minSamples: 10, maxIssuesPerPattern: 50 } as const;

export const conventionOptions = z
  .object({
    /** Deviations are reported only when the dominant value has at least this share (percent). */
    minConsistency: z.number().min(50).max(100).default(DEFAULT_CONVENTION_OPTIONS.minConsistency),
    /** ...and at least this many occurrences fit one value only (one-word names fit several). */
    minSamples: z.number().int().min(1).default(DEFAULT_CONVENTION_OPTIONS.minSamples),
    maxIssuesPerPattern: z.number().int().min(0).default(DEFAULT_CONVENTION_OPTIONS.maxIssuesPerPattern),
  })
  .strict();
export type ConventionOptions = z.infer<typeof conventionOptions>;

/** At or above this consistency a deviation stands out from a near-universal rule: `low`, else `info`. */
export const LOW_SEVERITY_CONSISTENCY = 95;

export interface ObservedPattern {
  name: string;
  observations: Observation[];
}

export interface DeviationText {
  title: string;
  description: string;
  suggestedAction?: string;
  confidence?: number;
}

export interface ConventionRuleDefinition<Options extends ConventionOptions> {
  id: string;
  description: string;
  docs: RuleDocs;
  confidence: number;
  options: z.ZodType<Options>;
  observe(context: RepositoryRuleContext<Options>): ObservedPattern[] | Promise<ObservedPattern[]>;
  /** The wording of a deviation's finding; undefined when this direction of deviation is not worth a finding. */
  describe(deviation: Observation, pattern: Tally['pattern']): DeviationText | undefined;
  /**
   * `info` for a rule whose deviations are notes that cost no points (its README says why); by
   * default a deviation is `low`, or `info` where the convention itself is weak.
   */
  severity?: 'info';
}

/**
 * The product's source files that were analysed: tests, generated and skipped files set no
 * conventions, nor do benchmarks, examples, documentation sites and scripts (often written in
 * another style: `.mjs` scripts, demo apps), which are not judged by the product's either. Every
 * consistency rule of a run asks (the run is its summaries array): the list is made once.
 */
export function sourceSummaries(summaries: readonly FileSummary[]): readonly FileSummary[] {
  let sources = sourcesByRun.get(summaries);
  if (!sources) sourcesByRun.set(summaries, (sources = summaries.filter((s) => s.kind === 'source' && roleOfFile(s) === 'production' && !s.skipped)));
  return sources;
}

const sourcesByRun = new WeakMap<readonly FileSummary[], readonly FileSummary[]>();

/**
 * Every consistency rule adds its patterns to the run's list and republishes the weighted average,
 * so the last rule to run leaves the figure for all enabled rules. The run is identified by its
 * summaries array, which the engine hands unchanged to every repository rule of a run.
 */
const patternsByRun = new WeakMap<readonly FileSummary[], Array<{ consistency: number; totalCount: number }>>();

function publishConsistency(context: RepositoryRuleContext<ConventionOptions>, tallies: readonly Tally[]): void {
  let run = patternsByRun.get(context.summaries);
  if (!run) patternsByRun.set(context.summaries, (run = []));
  // Patterns with too little evidence say nothing about the code base either way.
  for (const { pattern, judged } of tallies) if (judged >= context.options.minSamples) run.push(pattern);
  const total = run.reduce((sum, p) => sum + p.totalCount, 0);
  if (total === 0) return;
  const weighted = run.reduce((sum, p) => sum + p.consistency * p.totalCount, 0) / total;
  context.metric('conventionConsistency', Math.round(weighted * 10) / 10);
}

export function severityFor(consistency: number): Severity {
  return consistency >= LOW_SEVERITY_CONSISTENCY ? 'low' : 'info';
}

export function defineConventionRule<Options extends ConventionOptions>(definition: ConventionRuleDefinition<Options>): RepositoryRule<Options> {
  return defineRule<Options>({
    kind: 'repository',
    meta: {
      id: definition.id,
      description: definition.description,
      category: 'consistency',
      source: 'convention',
      severity: definition.severity ?? 'low',
      options: definition.options,
      confidence: definition.confidence,
      docs: definition.docs,
    },
    async analyze(context) {
      const tallies: Tally[] = [];
      for (const observed of await definition.observe(context)) {
        const result = tally(observed.name, observed.observations);
        if (result) tallies.push(result);
      }
      context.conventions(tallies.map((t) => t.pattern));
      publishConsistency(context, tallies);
      const { minConsistency, minSamples, maxIssuesPerPattern } = context.options;
      for (const { pattern, judged, deviations } of tallies) {
        if (judged < minSamples || pattern.consistency < minConsistency) continue;
        let reported = 0;
        for (const deviation of deviations) {
          if (reported >= maxIssuesPerPattern) break;
          const text = definition.describe(deviation, pattern);
          if (!text) continue;
          reported++;
          context.report({
            filePath: deviation.path,
            lineStart: deviation.line,
            ...text,
            severity: definition.severity ?? severityFor(pattern.consistency),
            ...(deviation.symbol ? { symbol: deviation.symbol } : {}),
            data: { pattern: pattern.name, value: deviation.values[0], dominantValue: pattern.dominantValue, consistency: pattern.consistency },
          });
        }
      }
    },
  });
}

/** `97.5% (312 of 320)`: the numbers a deviation's description quotes. */
export function share(pattern: Tally['pattern']): string {
  return `${pattern.consistency}% (${pattern.totalCount - pattern.deviationCount} of ${pattern.totalCount})`;
}
