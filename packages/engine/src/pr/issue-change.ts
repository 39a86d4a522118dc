// How one issue changed between a PR's base and head: a head issue without a base counterpart is
// new; a metric issue (long function, complexity …) found on both sides is worsened, improved or
// unchanged by its measured values, so a complexity going 43 -> 71 is one issue that got worse,
// not one fixed and one new.
import type { Finding, MetricSpec } from '../domain/types.js';

export const ISSUE_CHANGES = ['new', 'worsened', 'improved', 'unchanged'] as const;
export type IssueChange = (typeof ISSUE_CHANGES)[number];

export interface IssueChangeOf {
  change: IssueChange;
  /** The headline measured value at base (the metric's first value), when the base side knew it. */
  previousValue?: number;
}

const numberOf = (data: Finding['data'], key: string): number | undefined => {
  const value = data?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};

/**
 * The key of a recorded issue's change: its fingerprint, and for the second and later findings of
 * one fingerprint in a run (two long `describe callback`s of a test file) their occurrence, in the
 * order the run's findings are recorded — as issue records number them.
 */
export const changeKeyOf = (fingerprint: string, occurrence: number): string => (occurrence === 0 ? fingerprint : `${fingerprint}#${occurrence}`);

/**
 * The change of a metric issue found at base and at head. Worsened when any measured value moved
 * the worse way (a class with fewer methods but more lines got worse), improved when none did and
 * one moved the better way; values missing on a side (stored before values were kept) compare as
 * unchanged, and so does code whose shape (formatting left out) is the same on both sides.
 */
export function metricChange(spec: MetricSpec, base: Pick<Finding, 'data' | 'anchor'>, head: Pick<Finding, 'data' | 'anchor'>): IssueChangeOf {
  const previousValue = spec.values.length > 0 ? numberOf(base.data, spec.values[0]!) : undefined;
  // The same code but for formatting: a line count that moved is the formatter's doing.
  if (spec.ofAnchor && base.anchor.shape !== undefined && base.anchor.shape === head.anchor.shape) {
    return previousValue === undefined ? { change: 'unchanged' } : { change: 'unchanged', previousValue };
  }
  const sign = spec.worseWhen === 'lower' ? -1 : 1;
  let worse = false;
  let better = false;
  for (const key of spec.values) {
    const before = numberOf(base.data, key);
    const after = numberOf(head.data, key);
    if (before === undefined || after === undefined || before === after) continue;
    if ((after - before) * sign > 0) worse = true;
    else better = true;
  }
  const change: IssueChange = worse ? 'worsened' : better ? 'improved' : 'unchanged';
  return previousValue === undefined ? { change } : { change, previousValue };
}
