import { describe, expect, it } from 'vitest';
import { apportionTenths, ledgerTenths, settleLedger } from './score-ledger.js';

describe('apportionTenths', () => {
  it('splits the tenths in proportion, the rest to the largest remainders, so the parts add up exactly', () => {
    // Quotas 3.33.., 3.33.., 3.33..: one tenth left, to the first of equal remainders.
    expect(apportionTenths([1, 1, 1], 10)).toEqual([4, 3, 3]);
    expect(apportionTenths([2, 1], 10)).toEqual([7, 3]);
    expect(apportionTenths([0.1, 99.9], 7)).toEqual([0, 7]);
    for (const lost of [1, 17, 333, 1000]) expect(apportionTenths([0.3, 5, 11.7, 2], lost).reduce((a, b) => a + b, 0)).toBe(lost);
  });

  it('gives nothing when nothing was lost or nothing can carry it', () => {
    expect(apportionTenths([1, 2], 0)).toEqual([0, 0]);
    expect(apportionTenths([0, 0], 5)).toEqual([0, 0]);
    expect(apportionTenths([-1, 0], 5)).toEqual([0, 0]);
  });
});

describe('settleLedger', () => {
  it('rounds raw costs to tenths that add up to 100 − score, most costly first, then by id', () => {
    const raw = [
      { id: 'b/rule', raw: 1.25 },
      { id: 'a/rule', raw: 1.25 },
      { id: 'c/rule', raw: 10.03 },
    ];
    const settled = settleLedger<{ id: string; cost: number }>(raw, 87.5, (e) => e.id);
    expect(settled).toEqual([
      { id: 'c/rule', cost: 10 },
      { id: 'b/rule', cost: 1.3 },
      { id: 'a/rule', cost: 1.2 },
    ]);
    expect(ledgerTenths(settled.map((e) => ({ category: 'security' as const, share: 1, score: 0, cost: e.cost })))).toBe(125);
  });
});
