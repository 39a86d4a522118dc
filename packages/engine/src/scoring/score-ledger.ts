// The score ledger's arithmetic: points lost, split among what lost them so that the shown parts,
// each rounded to one decimal like the score, add up to exactly the points lost (largest remainder).
import type { CategoryLedgerEntry, OverallLedgerEntry } from '../contracts/scoring.js';

/** Tenths of a point: the unit of every score shown. */
export const toTenths = (points: number): number => Math.round(points * 10);

/**
 * Splits `lostTenths` among `raw` (non-negative, in any unit) in proportion, in whole tenths: each
 * part is its quota rounded down, and the tenths left go to the largest remainders (earlier first
 * on ties). The parts add up to `lostTenths` whenever some raw value is positive.
 */
export function apportionTenths(raw: readonly number[], lostTenths: number): number[] {
  const total = raw.reduce((sum, value) => sum + Math.max(0, value), 0);
  if (total <= 0 || lostTenths <= 0) return raw.map(() => 0);
  const quotas = raw.map((value) => (Math.max(0, value) / total) * lostTenths);
  const parts = quotas.map(Math.floor);
  let left = lostTenths - parts.reduce((sum, part) => sum + part, 0);
  const order = quotas.map((quota, index) => ({ index, remainder: quota - Math.floor(quota) })).sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of order) {
    if (left <= 0) break;
    parts[index]++;
    left--;
  }
  return parts;
}

/** A ledger entry before its cost is rounded: `raw` is its exact share of the points lost. */
export type RawEntry<T> = Omit<T, 'cost'> & { raw: number };

/** Rounds raw costs so that they add up to `100 − score` (score with one decimal); most costly first, then by id. */
export function settleLedger<T extends { cost: number }>(entries: ReadonlyArray<RawEntry<T>>, score: number, idOf: (entry: RawEntry<T>) => string): T[] {
  const tenths = apportionTenths(
    entries.map((e) => e.raw),
    toTenths(100 - score),
  );
  return entries
    .map(({ raw: _raw, ...rest }, i) => ({ ...rest, cost: tenths[i]! / 10 }) as unknown as T)
    .map((entry, i) => ({ entry, id: idOf(entries[i]!) }))
    .sort((a, b) => b.entry.cost - a.entry.cost || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(({ entry }) => entry);
}

/** The sum of a ledger's costs in tenths (exact, whatever the floating-point sum says). */
export function ledgerTenths(entries: ReadonlyArray<CategoryLedgerEntry | OverallLedgerEntry>): number {
  return entries.reduce((sum, entry) => sum + toTenths(entry.cost), 0);
}
