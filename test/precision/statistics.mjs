// Precision of a rule on its labelled sample (issue 17): tp / (tp + fp + debatable) — a debatable
// finding is not one a reviewer agrees with — with a Wilson score interval, and the bar it must reach.

/** z for a two-sided 95 % interval. */
const Z95 = 1.959963984540054;

/**
 * Wilson score interval of `successes` out of `trials` (95 % by default): better than the normal
 * approximation on small samples and near 0 or 1, and never outside [0, 1].
 * @returns {{ low: number, high: number } | null} null without trials
 */
export function wilsonInterval(successes, trials, z = Z95) {
  if (trials === 0) return null;
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/** The precision a rule must reach: 95 % for rules whose default severity is high or critical, else 90 %. */
export function precisionBar(severity) {
  return severity === 'high' || severity === 'critical' ? 0.95 : 0.9;
}

/**
 * Precision of one rule from its verdict counts.
 * @param {{ tp: number, fp: number, debatable: number }} counts
 * @param {string} severity the rule's default severity
 * @returns {{ labelled: number, precision: number | null, interval: { low: number, high: number } | null, bar: number, status: 'pass' | 'fail' | 'unmeasured' }}
 */
export function precisionOf(counts, severity) {
  const labelled = counts.tp + counts.fp + counts.debatable;
  const bar = precisionBar(severity);
  if (labelled === 0) return { labelled, precision: null, interval: null, bar, status: 'unmeasured' };
  const precision = counts.tp / labelled;
  return { labelled, precision, interval: wilsonInterval(counts.tp, labelled), bar, status: precision >= bar ? 'pass' : 'fail' };
}

/** A share as a whole percent: `94 %`. */
export function percent(share) {
  return `${Math.round(share * 100)} %`;
}

/** `84–98 %`, or `—` without an interval. */
export function intervalText(interval) {
  return interval ? `${Math.round(interval.low * 100)}–${Math.round(interval.high * 100)} %` : '—';
}
