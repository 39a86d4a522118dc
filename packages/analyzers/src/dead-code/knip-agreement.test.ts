// The comparison: our unused exports, types and files against knip 6 on this repository and
// on rxjs 7.8.2, with every disagreement classified. knip is installed into the OS temp directory
// (never into package.json); both are skipped, visibly, when the registry cannot be reached.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { obtainRxjs } from '../../../../test/helpers/corpora.js';
import { obtainKnip } from '../../../../test/compare/knip.js';
import { compareWithKnip, formatReport, type ComparisonReport } from '../../../../test/compare/unused-exports.js';
import { UNCLASSIFIED } from '../../../../test/compare/unused-exports-classify.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
// knip and the engine each analyse the corpus; on a loaded 2-core machine that takes a while.
const TIMEOUT = 240_000;

function unclassified(report: ComparisonReport): string[] {
  return report.disagreements.filter((d) => d.reason === UNCLASSIFIED).map((d) => `${d.side} only: ${d.key}`);
}

describe('dead-code agrees with knip 6 up to classified differences', () => {
  let knipBin: string | undefined;
  beforeAll(() => {
    const knip = obtainKnip();
    if (knip.error !== undefined) console.warn(`SKIPPED: ${knip.error}`);
    knipBin = knip.bin;
  });

  it(
    'on this repository',
    async (context) => {
      if (!knipBin) return context.skip();
      const report = await compareWithKnip('this repository', root, knipBin);
      console.log(formatReport(report));
      expect(unclassified(report)).toEqual([]);
      // A comparison of almost nothing would pass trivially.
      expect(report.counts.export.both + report.counts.type.both).toBeGreaterThanOrEqual(30);
      // Every export knip finds in a file we analyse as source, we find too, or we report its only users as unused files.
      const knipOnlyExports = report.disagreements.filter((d) => d.side === 'knip' && d.type !== 'file' && !/^test or fixture file/.test(d.reason));
      // (Declaration files such as test/helpers/corpora.d.ts are generated-kind for us: not analysed.)
      expect(knipOnlyExports.filter((d) => !d.reason.startsWith('used only by modules that are unreachable') && !d.reason.startsWith('build output'))).toEqual(
        [],
      );
      // Where we report a value export knip does not, knip reports the whole file or counts a reference we document.
      for (const d of report.disagreements.filter((x) => x.side === 'ours' && x.type === 'export')) {
        expect(d.reason).toMatch(
          /^(knip reports the whole file as unused|value referenced in the declaration of a used exported value|export of an imported binding)/,
        );
      }
    },
    TIMEOUT,
  );

  it(
    'on rxjs 7.8.2 (npm package: src/ and package.json with an exports map)',
    async (context) => {
      const rxjs = obtainRxjs();
      if (rxjs.error !== undefined) console.warn(`SKIPPED: ${rxjs.error}`);
      if (!knipBin || !rxjs.root) return context.skip();
      const report = await compareWithKnip('rxjs 7.8.2', rxjs.root, knipBin);
      console.log(formatReport(report));
      expect(unclassified(report)).toEqual([]);
      // Ours: one unused file (the UMD global shim, loaded only by rxjs's build tooling), nothing else:
      // every module is public API through `exports` (`./internal/*` included).
      expect(report.counts.file).toEqual({ both: 1, ours: 0, knip: 16 });
      expect(report.counts.export.both + report.counts.export.ours + report.counts.type.both + report.counts.type.ours).toBe(0);
      // knip's 141 exports and 22 types are all in entry points knip does not map to sources.
      expect(report.counts.export.knip).toBe(141);
      expect(report.counts.type.knip).toBe(22);
      const reasons = new Set(report.disagreements.map((d) => d.reason.replace(/:.*/, '')));
      expect([...reasons].sort()).toEqual([
        'build output (dist/, bundles)',
        'entry point knip did not map to its source file (knip takes the build output the manifest names as the entry)',
      ]);
    },
    TIMEOUT,
  );

  it(
    'on rxjs 7.8.2 with `./internal/*` removed from its exports (internal modules private)',
    async (context) => {
      const rxjs = obtainRxjs();
      if (!knipBin || !rxjs.root) return context.skip();
      const dir = mkdtempSync(join(tmpdir(), 'codehealth-rxjs-private-'));
      try {
        cpSync(rxjs.root, dir, { recursive: true });
        const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
        delete manifest.exports['./internal/*'];
        writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
        const report = await compareWithKnip('rxjs 7.8.2, internal modules private', dir, knipBin);
        console.log(formatReport(report));
        expect(unclassified(report)).toEqual([]);
        // Checked by hand: 3 internal modules nothing imports plus the UMD global shim; 12 exports, 25 types.
        expect(report.counts.file).toMatchObject({ both: 4, ours: 0 });
        expect(report.counts.export).toMatchObject({ both: 11, ours: 1 });
        expect(report.counts.type).toMatchObject({ both: 21, ours: 4 });
        const oursOnly = report.disagreements.filter((d) => d.side === 'ours');
        expect(new Set(oursOnly.map((d) => d.reason))).toEqual(new Set(['knip reports the whole file as unused']));
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    TIMEOUT,
  );
});
