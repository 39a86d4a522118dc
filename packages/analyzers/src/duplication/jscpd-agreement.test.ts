// The analyzer's promise: with jscpd's settings it finds what jscpd 5.3.3 finds (at least 95 % of
// its clones), on this repository's sources and on rxjs 7.8.2. jscpd's binary and rxjs are
// fetched once with `npm pack`; the comparison is skipped, visibly, when they cannot be had.
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compareClones,
  copyProjectSources,
  formatComparison,
  JSCPD_COMPATIBLE,
  obtainJscpd,
  runJscpd,
  runOurs,
  THRESHOLDS,
  type ComparisonReport,
} from '../../../../test/compare/clones.js';
import { obtainRxjs } from '../../../../test/helpers/corpora.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
const REQUIRED_AGREEMENT = 0.95;

let jscpdBin: string | undefined;
beforeAll(() => {
  const jscpd = obtainJscpd();
  if (jscpd.error !== undefined) console.warn(`SKIPPED: ${jscpd.error}`);
  else jscpdBin = jscpd.bin;
});

async function compare(corpus: string, dir: string, options: Record<string, unknown> = JSCPD_COMPATIBLE): Promise<ComparisonReport> {
  const report = compareClones(corpus, dir, runJscpd(jscpdBin!, dir, THRESHOLDS), await runOurs(dir, options));
  console.log(formatComparison(report));
  return report;
}

describe('duplication agrees with jscpd 5.3.3', () => {
  describe('on this repository (packages/*/src)', () => {
    let copy: string | undefined;
    afterAll(() => copy && rmSync(copy, { recursive: true, force: true }));

    it('finds at least 95 % of the clones jscpd finds, with its settings', async (context) => {
      if (!jscpdBin) return context.skip();
      copy = copyProjectSources(root);
      const report = await compare('this repository (packages/*/src)', copy);
      expect(report.agreement).toBeGreaterThanOrEqual(REQUIRED_AGREEMENT);
      // Whatever else we report is one of the documented differences, never unexplained.
      expect(report.oursOnly.filter((o) => o.reason === 'other')).toEqual([]);
    });
  });

  describe('on rxjs 7.8.2', () => {
    let src: string | undefined;
    beforeAll(() => {
      const rxjs = obtainRxjs();
      if (rxjs.error !== undefined) console.warn(`SKIPPED: ${rxjs.error}`);
      else src = join(rxjs.root, 'src');
    });

    it("finds 32 of jscpd's 33 clones with its settings; the other has 4 lines of code", async (context) => {
      if (!jscpdBin || !src) return context.skip();
      const report = await compare('rxjs 7.8.2 src', src);
      expect(report.jscpd.clones).toHaveLength(33);
      expect(report.found).toBe(32);
      expect(report.agreement).toBeGreaterThanOrEqual(REQUIRED_AGREEMENT);
      expect(report.missed.map((m) => `${m.clone.a.path}:${m.clone.a.lineStart} ${m.reason}`)).toEqual([
        'internal/observable/bindCallback.ts:14 fewer than 5 lines of code (jscpd counts the comment and blank lines inside)',
      ]);
      expect(report.oursOnly.filter((o) => o.reason === 'other')).toEqual([]);
    });

    it('leaves out, with its defaults, only overload sets and imports of what jscpd finds', async (context) => {
      if (!jscpdBin || !src) return context.skip();
      const compatible = await runOurs(src, JSCPD_COMPATIBLE);
      const report = compareClones('rxjs 7.8.2 src, our defaults', src, runJscpd(jscpdBin, src, THRESHOLDS), await runOurs(src), compatible);
      console.log(formatComparison(report));
      const reasons = new Map<string, number>();
      for (const { reason } of report.missed) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
      expect(Object.fromEntries(reasons)).toEqual({
        'left out by default: inside one overload set': 19,
        'left out by default: import declarations': 1,
        'fewer than 5 lines of code (jscpd counts the comment and blank lines inside)': 1,
      });
      expect(report.found).toBe(12);
    });
  });
});
