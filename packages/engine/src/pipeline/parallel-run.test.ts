// A run that spreads the per-file pass and the repository rules over a worker thread gives the
// result of a run on the main thread alone: same findings in the same order, metrics, scores
// and conventions. Needs the built worker script and analyzers (as the pool does).
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../di/create-engine.js';
import { chainRepoFiles, comparable } from './fixtures/chain-repo.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { skipWithoutBuild } from '../../../../test/helpers/built-packages.js';

const skip = skipWithoutBuild('a run on worker threads compared with one in process');

describe.skipIf(skip)(
  'a run with a worker thread',
  () => {
    let repo: TestRepo;
    beforeAll(() => {
      repo = createGitRepo(chainRepoFiles());
    });
    afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

    it('gives the result of a run on the main thread alone', async () => {
      const alone = await (await createEngine({ cacheDir: false, workers: 0 })).analyze(repo.root, { allowCodeConfig: false });
      const shared = await (await createEngine({ cacheDir: false, workers: 1 })).analyze(repo.root, { allowCodeConfig: false });
      expect(comparable(shared)).toEqual(comparable(alone));
      // Repository rules of several analyzers took part.
      const rules = new Set(alone.findings.map((f) => f.ruleId));
      for (const id of ['duplication/duplicated-code', 'dead-code/unused-export', 'compliance/debt-marker']) expect(rules).toContain(id);
      // Summaries carry the hash the inventory took for its cache look-up (not taken twice): the file's own.
      const sha = (path: string) =>
        createHash('sha256')
          .update(readFileSync(join(repo.root, path), 'utf8'))
          .digest('hex');
      const code = shared.summaries.filter((s) => !s.skipped);
      expect(code.length).toBeGreaterThan(64);
      for (const s of code) expect(s.contentHash, s.path).toBe(sha(s.path));
    });
  },
  120_000,
);
