// The measured precision of a rule, as one line in the preamble of its README (before the first
// `## ` heading, which the README meta-test leaves free), replaced in place on every write.
import { intervalText, percent } from './statistics.mjs';

const PRECISION_LINE = /^Measured precision: .*$/m;

/**
 * The README line for one rule.
 * @param {{ tp: number, labelled: number, precision: number | null, interval: { low: number, high: number } | null, bar: number, status: string }} measured
 * @param {string} panelDate the panel's date (YYYY-MM-DD)
 */
export function precisionLine(measured, panelDate) {
  const notes = measured.notes ? measured.notes.tp + measured.notes.fp + measured.notes.debatable : 0;
  if ((measured.labelled === 0 || measured.precision === null) && notes > 0) {
    return (
      `Measured precision: reported at \`info\` (notes that cost no points); reviewers agreed with ${measured.notes.tp} of ${notes} ` +
      `labelled findings on the panel of ${panelDate} (see docs/precision.md).`
    );
  }
  if (measured.labelled === 0 || measured.precision === null)
    return `Measured precision: not yet measured (no labelled findings on the panel of ${panelDate}).`;
  return (
    `Measured precision: ${percent(measured.precision)} (${measured.tp}/${measured.labelled} labelled findings, ` +
    `95 % CI ${intervalText(measured.interval)}, panel of ${panelDate}; see docs/precision.md)` +
    (measured.status === 'fail' ? `, below the ${percent(measured.bar)} bar.` : '.')
  );
}

/**
 * The README with `line` as its precision line: replacing the one there, else inserted as its own
 * paragraph right before the first `## ` heading (or at the end when there is none).
 * @param {string} readme
 * @param {string} line
 */
export function withPrecisionLine(readme, line) {
  if (PRECISION_LINE.test(readme)) return readme.replace(PRECISION_LINE, line);
  const heading = readme.search(/^## /m);
  if (heading === -1) return `${readme.replace(/\s*$/, '')}\n\n${line}\n`;
  const before = readme.slice(0, heading).replace(/\s*$/, '');
  return `${before === '' ? '' : `${before}\n\n`}${line}\n\n${readme.slice(heading)}`;
}
