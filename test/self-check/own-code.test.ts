// Self-check (npm run self-check): bounds on this repository's own code, from one analysis of it.
// Moved from test/engine.test.ts ('gives identical results with worker threads and in process, on
// this repository'), which keeps the pooled-versus-in-process equality on a fixture repository.
import { beforeAll, describe, expect, it } from 'vitest';
import type { AssessmentResult } from '@codehealth/engine';
import { ownAnalysis } from './own-code.js';

let result: AssessmentResult;
beforeAll(async () => {
  result = await ownAnalysis();
});

describe('our own code', () => {
  it('is analysed whole: it parses cleanly and nothing is skipped', () => {
    expect(result.summaries.length).toBeGreaterThan(100);
    expect(result.metrics.parse.errorFiles).toEqual([]);
    expect(result.metrics.parse.filesWithErrors).toBe(0);
    expect(result.skipped).toEqual([]);
  });

  it('has import cycles and unresolved imports only in the graph’s deliberately broken fixtures', () => {
    // Type-only cycles are allowed: the flat tree's node, cursor and tree classes name each other's types.
    expect(result.graph.runtimeCycles.flat().filter((p) => !p.includes('/fixtures/'))).toEqual([]);
    expect(result.graph.cycles.flat().filter((p) => !p.includes('/fixtures/') && !p.includes('/parsing/flat-'))).toEqual([]);
    expect(result.graph.runtimeCycles.length).toBeGreaterThan(0);
    const unresolved = result.graph.edges.filter((e) => e.resolution === 'unresolved' && !e.from.includes('/fixtures/'));
    expect(unresolved.map((e) => `${e.from} -> ${e.specifier}`)).toEqual([]);
    // The CLI's bin shim imports the gitignored build output, which maps back to its source.
    expect(result.graph.edges.find((e) => e.from === 'packages/cli/bin/codehealth.js' && e.specifier === '../dist/main.js')?.to).toBe(
      'packages/cli/src/main.ts',
    );
  });
});
