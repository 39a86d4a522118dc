// The two incremental entry points of the assessment pipeline the PR pipeline relies on:
// summaries of given texts that a later run finds in the cache, and runs whose findings are
// limited to a scope (with rules skipping per-file work outside it).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../di/create-engine.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';

const LEAKY = `export async function load(url: string): Promise<unknown> {
  // TODO: retry on 503
  try {
    return await fetch(url);
  } catch (e) {}
}
`;
const OTHER = `export function other(): void {
  // FIXME: remove once the client migrated
  try {
    JSON.parse('{}');
  } catch (e) {}
}
`;

describe('scoped and summarised runs', () => {
  let repo: TestRepo;
  let engine: Engine;

  beforeAll(async () => {
    repo = createGitRepo({ 'src/load.ts': LEAKY, 'src/other.ts': OTHER, 'src/index.ts': "export * from './load.js';\nexport * from './other.js';\n" });
    engine = await createEngine({ cacheDir: false, workers: 0 });
  });
  afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

  it('summarises a text as a run would, and the run then finds it cached', async () => {
    const [summary] = await engine.summarizeSources(repo.root, [
      { file: { path: 'src/load.ts', language: 'typescript', kind: 'source', sizeBytes: LEAKY.length }, source: LEAKY },
    ]);
    expect(summary!.cached).toBeUndefined();
    expect(summary!.module.symbols.map((s) => s.name)).toEqual(['load']);
    expect(summary!.findings.some((f) => f.ruleId.includes('empty-catch') || f.title.toLowerCase().includes('catch'))).toBe(true);

    const result = await engine.analyze(repo.root, { allowCodeConfig: false });
    const byPath = new Map(result.summaries.map((s) => [s.path, s]));
    expect(byPath.get('src/load.ts')!.cached).toBe(true);
    expect(byPath.get('src/other.ts')!.cached).toBeUndefined();

    const [again] = await engine.summarizeSources(repo.root, [
      { file: { path: 'src/other.ts', language: 'typescript', kind: 'source', sizeBytes: OTHER.length }, source: OTHER },
    ]);
    expect(again!.cached).toBe(true);
  });

  it('keeps findings of the scope only, and the debt-marker rule blames only the scope', async () => {
    const full = await engine.analyze(repo.root, { allowCodeConfig: false });
    const paths = new Set(full.findings.map((f) => f.filePath));
    expect(paths).toContain('src/other.ts');
    expect(paths).toContain('.'); // the repository's own findings (no license file)
    const markers = (r: typeof full) => r.findings.filter((f) => f.ruleId === 'compliance/debt-marker');
    expect(
      markers(full)
        .map((f) => f.filePath)
        .sort(),
    ).toEqual(['src/load.ts', 'src/other.ts']);
    expect(full.metrics.analyzerMetrics['compliance.debtMarkersOlderThanLow']).toBe(0);

    const scoped = await engine.analyze(repo.root, { allowCodeConfig: false, findingsScope: ['src/load.ts'] });
    expect(new Set(scoped.findings.map((f) => f.filePath))).toEqual(new Set(['src/load.ts']));
    // Same findings in the scope as the full run, word for word (ages from blame included).
    const inScope = full.findings.filter((f) => f.filePath === 'src/load.ts');
    expect(scoped.findings.map((f) => [f.ruleId, f.title, f.severity])).toEqual(inScope.map((f) => [f.ruleId, f.title, f.severity]));
    expect(markers(scoped)[0]!.title).toMatch(/\(today\)|\(\d+ days? old\)|days/);
    // Metrics that need the whole repository's blame are unknown in a scoped run, not wrong.
    expect(scoped.metrics.analyzerMetrics['compliance.debtMarkersOlderThanLow']).toBeUndefined();
    expect(scoped.metrics.analyzerMetrics['compliance.debtMarkers']).toBe(2);
    expect(scoped.metrics.totalLinesOfCode).toBe(full.metrics.totalLinesOfCode);
  });
});
