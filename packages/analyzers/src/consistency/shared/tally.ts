// Counting how often each value of a convention occurs, finding the dominant one and its deviations.
import type { ConventionPattern } from '@codehealth/engine/kit';

/** One occurrence of a convention in the code: where, what, and which values it is compatible with. */
export interface Observation {
  path: string;
  line: number;
  /** The thing observed, as a title names it (`parse_url`, `./util`, `loadUser`). */
  subject: string;
  /** Values this occurrence fits; more than one when it is ambiguous (`parse` fits camelCase and snake_case). */
  values: readonly string[];
  /** Enclosing function or the declared name, for the finding's symbol. */
  symbol?: string;
  /** Anything else the rule's wording needs (e.g. that a misnamed function is exported). */
  detail?: string;
}

export interface Tally {
  pattern: ConventionPattern;
  /** Occurrences that fit one value only: the evidence the dominant value rests on. */
  judged: number;
  /** Occurrences that do not fit the dominant value, in path and line order. */
  deviations: Observation[];
}

const round1 = (n: number): number => Math.round(n * 10) / 10;

// The order of String#localeCompare, which builds a collator per call (deviations can be thousands).
const collator = new Intl.Collator();

/**
 * The dominant value is the most frequent among unambiguous occurrences (ties broken by name, so
 * reruns agree). Then every occurrence counts once: under the dominant value when it fits it (an
 * ambiguous `parse` in a camelCase code base is consistent), else under its first value. Returns
 * undefined when no occurrence is unambiguous: nothing can be said about the convention.
 */
export function tally(name: string, observations: readonly Observation[]): Tally | undefined {
  const unambiguous = new Map<string, number>();
  for (const o of observations) {
    if (o.values.length === 1) unambiguous.set(o.values[0], (unambiguous.get(o.values[0]) ?? 0) + 1);
  }
  if (unambiguous.size === 0) return undefined;
  const judged = [...unambiguous.values()].reduce((sum, n) => sum + n, 0);
  const dominantValue = [...unambiguous].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0][0];
  const values: Record<string, number> = {};
  const deviations: Observation[] = [];
  for (const o of observations) {
    if (o.values.length === 0) continue;
    const value = o.values.includes(dominantValue) ? dominantValue : o.values[0];
    values[value] = (values[value] ?? 0) + 1;
    if (value !== dominantValue) deviations.push(o);
  }
  deviations.sort((a, b) => (a.path === b.path ? 0 : collator.compare(a.path, b.path)) || a.line - b.line);
  const totalCount = Object.values(values).reduce((sum, n) => sum + n, 0);
  const dominantCount = values[dominantValue];
  return {
    pattern: {
      name,
      consistency: round1((dominantCount / totalCount) * 100),
      dominantValue,
      totalCount,
      deviationCount: totalCount - dominantCount,
      values,
    },
    judged,
    deviations,
  };
}
