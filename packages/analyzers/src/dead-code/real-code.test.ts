// The dead-code rules on real code: rxjs 7.8.2 (exact results, checked by hand). The entry points of an
// npm-workspaces monorepo (`source` export conditions, a bin shim) are checked on this repository by npm run
// self-check (test/self-check/own-findings.test.ts).
import { createEngine, type AssessmentResult } from '@codehealth/engine';
import { describe, expect, it } from 'vitest';
import { obtainRxjs } from '../../../../test/helpers/corpora.js';
import { deadCode } from './index.js';

async function analyze(dir: string): Promise<AssessmentResult> {
  const engine = await createEngine({ plugins: [{ name: 'dead-code', analyzers: [deadCode] }], cacheDir: false, workers: 0 });
  return engine.analyze(dir);
}

describe('dead-code on real code', () => {
  it('rxjs 7.8.2: every module is public API through `exports`; one unused file; no unused private member', async (context) => {
    const rxjs = obtainRxjs();
    if (rxjs.error !== undefined) {
      console.warn(`SKIPPED: ${rxjs.error}`);
      return context.skip();
    }
    const result = await analyze(rxjs.root);
    // src/Rx.global.js sets a global `Rx` for the UMD bundle; only rxjs's build tools (not shipped) load it.
    expect(result.findings.map((f) => `${f.ruleId} ${f.filePath}`)).toEqual(['dead-code/unused-file src/Rx.global.js']);
    const metrics = result.metrics.analyzerMetrics;
    expect(metrics['dead-code.unusedExports']).toBe(0);
    expect(metrics['dead-code.unusedTypeExports']).toBe(0);
    expect(metrics['dead-code.reachableSourceFiles']).toBe(251);
    // `.`, the five subpath proxies/exports and `./internal/*` (245 modules) map dist paths back to src/.
    expect(metrics['dead-code.entryPoints']).toBe(251);
  });
});
