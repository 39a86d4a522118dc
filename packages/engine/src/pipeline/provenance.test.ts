import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../di/create-engine.js';
import { TempRepo } from '../snapshot/fixtures/temp-repo.js';
import { configDigest } from './provenance.js';

const repo = new TempRepo('codehealth-provenance-');
afterAll(() => repo.remove());

describe("a run's provenance", () => {
  it('records the commit and its date, the config digest, the engine version, the rule set and the scoring model', async () => {
    repo.write('src/a.ts', 'export const a = 1;\n');
    const date = new Date('2024-03-01T12:00:00Z');
    const sha = repo.commit('first', { name: 'Ada', email: 'ada@example.com' }, date);
    const engine = await createEngine({ plugins: [{ name: 'none', analyzers: [] }], cacheDir: false, workers: 0 });
    const first = await engine.analyze(repo.root);
    expect(first.provenance).toEqual({
      commit: sha.trim(),
      commitDate: date.toISOString(),
      configDigest: configDigest({}),
      engineVersion: expect.stringMatching(/^\d+\.\d+\.\d+/),
      ruleSet: expect.stringMatching(/^[0-9a-f]{16}$/),
      scoringModel: 'default-v2',
    });
    // The same commit, configuration and engine: the same provenance, whenever it runs.
    expect((await engine.analyze(repo.root)).provenance).toEqual(first.provenance);
    const configured = await engine.analyze(repo.root, { config: { exclude: ['dist/**'] } });
    expect(configured.provenance.configDigest).not.toBe(first.provenance.configDigest);
    expect(configured.provenance.commit).toBe(first.provenance.commit);
  });

  it('digests equal configurations equally, whatever their key order', () => {
    expect(configDigest({ exclude: ['a'], tests: ['b'] })).toBe(configDigest({ tests: ['b'], exclude: ['a'] }));
    expect(configDigest({ exclude: ['a'] })).not.toBe(configDigest({ exclude: ['b'] }));
  });
});
