// The rule's promise: the same numbers as eslint-plugin-sonarjs on real code. Compared on this
// repository's sources and on rxjs 7.8.2 (fetched once with `npm pack`, skipped when offline).
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareFiles, formatReport, listTypeScriptFiles, obtainRxjsSources, type ComparisonReport } from '../../../../../test/compare/cognitive-complexity.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');
const REQUIRED_AGREEMENT = 0.99;

function expectAgreement(report: ComparisonReport, minimumFunctions: number): void {
  console.log(formatReport(report));
  // A comparison of almost nothing would pass trivially.
  expect(report.functions).toBeGreaterThanOrEqual(minimumFunctions);
  expect(report.unparsed.length, 'files ESLint could not parse').toBeLessThanOrEqual(report.files * 0.01);
  expect(report.agreement).toBeGreaterThanOrEqual(REQUIRED_AGREEMENT);
}

describe('cognitive-complexity agrees with eslint-plugin-sonarjs 4', () => {
  it('on this repository (packages/*/src)', () => {
    const packages = join(root, 'packages');
    const files = readdirSync(packages).flatMap((name) => listTypeScriptFiles(join(packages, name, 'src')));
    expectAgreement(compareFiles('this repository (packages/*/src)', root, files), 100);
  });

  describe('on rxjs 7.8.2', () => {
    let src: string | undefined;
    beforeAll(() => {
      src = obtainRxjsSources((message) => console.warn(`SKIPPED: ${message}`));
    });

    it('src/**/*.ts', (context) => {
      if (!src) return context.skip();
      expectAgreement(compareFiles('rxjs 7.8.2 src', src, listTypeScriptFiles(src)), 300);
    });
  });
});
