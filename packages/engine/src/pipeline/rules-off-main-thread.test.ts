// `rulesOffMainThread` against real threads (the built worker script): a host that answers
// requests on its main thread gets every repository rule run in a worker, also on a re-assessment
// whose files all come from the cache (where a CLI run uses no worker at all), with the same
// results. A probe plugin's rules, one reading the graph and one not, say which thread ran them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../di/create-engine.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { chainRepoFiles, comparable } from './fixtures/chain-repo.js';
import type { AssessmentResult } from './types.js';
import { skipWithoutBuild } from '../../../../test/helpers/built-packages.js';

const skip = skipWithoutBuild('rulesOffMainThread against real threads');
const options = { allowCodeConfig: false } as const;

const PROBE = `import { isMainThread } from 'node:worker_threads';
const meta = (id) => ({ id, description: id, category: 'compliance', severity: 'info', docs: { whyItMatters: 'probe', suggestedAction: 'none' } });
const where = (id, readGraph) => ({
  kind: 'repository',
  meta: meta(id),
  async analyze(context) {
    if (readGraph) void context.graph;
    const title = id + ' ran on the ' + (isMainThread ? 'main thread' : 'worker');
    context.report({ filePath: 'src/m0.ts', lineStart: 1, title, description: title });
  },
});
export default { name: 'probe', analyzers: [
  { id: 'probe-graph', description: 'reads the graph', categories: ['compliance'], languages: ['typescript'], rules: [where('graph', true)] },
  { id: 'probe-free', description: 'reads no graph', categories: ['compliance'], languages: ['typescript'], readsGraph: false, rules: [where('free', false)] },
] };
`;

const probeTitles = (result: AssessmentResult) =>
  result.findings
    .filter((f) => f.ruleId.startsWith('probe'))
    .map((f) => f.title)
    .sort();
/** The run as the other tests compare runs, the probe's findings (which name a thread) left out. */
const withoutProbe = (result: AssessmentResult) => {
  const out = comparable(result);
  return { ...out, findings: out.findings.filter(([ruleId]) => !String(ruleId).startsWith('probe')) };
};

describe.skipIf(skip)(
  'rulesOffMainThread',
  () => {
    let repo: TestRepo;
    let dir: string;
    let probe: string;
    beforeAll(() => {
      repo = createGitRepo(chainRepoFiles());
      dir = mkdtempSync(join(tmpdir(), 'codehealth-off-main-'));
      probe = join(dir, 'probe.mjs');
      writeFileSync(probe, PROBE);
    });
    afterAll(() => {
      rmSync(repo.root, { recursive: true, force: true });
      rmSync(dir, { recursive: true, force: true });
    });

    it('runs every repository rule in a worker, also when every file comes from the cache, with the same results', async () => {
      const served = await createEngine({ plugins: ['@codehealth/analyzers', probe], cacheDir: false, workers: 1, rulesOffMainThread: true });
      const cli = await createEngine({ plugins: ['@codehealth/analyzers', probe], cacheDir: false, workers: 1 });
      try {
        const first = await served.analyze(repo.root, options);
        const cached = await served.analyze(repo.root, options);
        expect(cached.metrics.parse.cachedFiles).toBe(cached.metrics.files.analysed);
        for (const run of [first, cached]) expect(probeTitles(run)).toEqual(['free ran on the worker', 'graph ran on the worker']);

        // Without the option a fully cached run uses no worker: the same rules ran here.
        await cli.analyze(repo.root, options);
        const cliCached = await cli.analyze(repo.root, options);
        expect(probeTitles(cliCached)).toEqual(['free ran on the main thread', 'graph ran on the main thread']);
        expect(withoutProbe(cached)).toEqual(withoutProbe(cliCached));
      } finally {
        await served.close();
        await cli.close();
      }
    });
  },
  120_000,
);
