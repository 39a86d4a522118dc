// The dead-code rules on real code: rxjs 7.8.2 (exact results, checked by hand) and this repository
// (entry points of an npm-workspaces monorepo with `source` export conditions and a bin shim).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, createSnapshot, type AssessmentResult, type RepositoryRuleContext } from '@codehealth/engine';
import { describe, expect, it } from 'vitest';
import { obtainRxjs } from '../../../../test/helpers/corpora.js';
import { deadCode } from './index.js';
import { deadCodeModel } from './shared/dead-code-model.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

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

  it('this repository: package exports (source condition), the bin shim into dist and the worker URL are followed', async () => {
    const result = await analyze(root);
    const snapshot = await createSnapshot(root);
    const context = { snapshot, summaries: result.summaries, graph: result.graph } as unknown as RepositoryRuleContext<unknown>;
    const model = await deadCodeModel(context, { entries: [] });
    expect(model.entries.get('packages/engine/src/index.ts')).toBe('package.json "main" of @codehealth/engine');
    expect(model.entries.get('packages/engine/src/testing/index.ts')).toBe('package.json "exports" "./testing" of @codehealth/engine');
    expect(model.entries.get('packages/cli/bin/codehealth.js')).toBe('package.json "bin" "codehealth" of @codehealth/cli');
    // bin/codehealth.js imports ../dist/main.js, which exists only as src/main.ts.
    expect(model.importersOf('packages/cli/src/main.ts')).toContain('packages/cli/bin/codehealth.js');
    // The worker pool starts `new URL('./file-worker.js', import.meta.url)`.
    expect(model.importersOf('packages/engine/src/pipeline/file-worker.ts')).toContain('packages/engine/src/pipeline/worker-pool.ts');
    const unusedFiles = result.findings.filter((f) => f.ruleId === 'dead-code/unused-file').map((f) => f.filePath);
    expect(unusedFiles.filter((p) => /^packages\/(engine|cli|http|worker)\//.test(p))).toEqual([]);
    // The exports the CLI re-exports through its entry are used; an export nobody imports is found.
    const unusedExports = result.findings.filter((f) => f.ruleId === 'dead-code/unused-export');
    expect(unusedExports.filter((f) => f.filePath.endsWith('/index.ts') && model.entries.has(f.filePath))).toEqual([]);
    expect(unusedExports.length).toBeGreaterThan(20);
    expect(result.findings.filter((f) => f.ruleId === 'dead-code/unused-private-member')).toEqual([]);
  });
});
