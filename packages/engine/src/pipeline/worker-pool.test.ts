// The worker pool against real worker threads (the built worker script and the built analyzers):
// closing never cuts a worker short, whether it is still loading or in the middle of a batch.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RepoFile } from '../snapshot/types.js';
import { FilePool, workerScriptUrl } from './worker-pool.js';

const script = workerScriptUrl();
const analyzers = new URL('../../../analyzers/dist/index.js', import.meta.url);
const built = script !== undefined && existsSync(fileURLToPath(analyzers));

function item(index: number) {
  const source = Array.from({ length: 200 }, (_, i) => `export function f${i}(a: number) { return a > ${i} ? a : -a; }`).join('\n');
  const file: RepoFile = { path: `src/f${index}.ts`, language: 'typescript', kind: 'source', sizeBytes: source.length };
  return { file, source, rules: true };
}

describe.skipIf(!built)('FilePool', () => {
  it('closes a pool whose workers are still loading', async () => {
    for (let round = 0; round < 3; round++) {
      const pool = new FilePool(script!, 2, { pluginUrls: [analyzers.href], config: {} });
      await pool.close();
    }
    // Reaching this line means the process survived.
    expect(true).toBe(true);
  });

  it('lets a batch in flight finish before its worker stops', async () => {
    const pool = new FilePool(script!, 1, { pluginUrls: [analyzers.href], config: {} });
    const batch = pool.run([item(0), item(1)], 0);
    const closed = pool.close();
    const summaries = await batch;
    await closed;
    expect(summaries.map((s) => [s.path, s.module.exports.length, s.skipped])).toEqual([
      ['src/f0.ts', 200, undefined],
      ['src/f1.ts', 200, undefined],
    ]);
    await expect(pool.run([item(2)], 0)).rejects.toThrow('closed');
  });
}, 60_000);
