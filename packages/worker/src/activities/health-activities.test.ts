// The assessment activity's per-project lock: two attempts of the same run at once (a retry whose
// first attempt is still alive, on two workers sharing the cache) analyse once; the second waits,
// then finds the run finished. Run on the in-process cache and, when available, on real Redis.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '@codehealth/engine';
import { defaultCodeHosts, MemoryCache, RedisCache, type Cache } from '@codehealth/service';
import { createTestApi } from '../../../../test/helpers/test-api.js';
import { createGitRepo } from '../../../../test/helpers/git-repo.js';
import { healthActivities } from './health-activities.js';
import { RepositoryCheckouts } from './repository-checkout.js';

const caches: Array<[string, (() => Cache) | undefined]> = [
  ['in-process cache', () => new MemoryCache()],
  ['Redis', process.env.TEST_REDIS_URL ? () => new RedisCache(process.env.TEST_REDIS_URL!) : undefined],
];

describe.each(caches)('assessment lock (%s)', (_name, makeCache) => {
  it.skipIf(!makeCache)(
    'runs two simultaneous attempts of one assessment once',
    async () => {
      const cache = makeCache!();
      const api = await createTestApi({ cache, codeHosts: defaultCodeHosts({ allowLocalRepos: true }), serviceOptions: { allowLocalRepos: true } });
      const repo = createGitRepo({ 'src/a.ts': 'export function run(code: string) {\n  return eval(code);\n}\n' });
      const workDir = mkdtempSync(join(tmpdir(), 'codehealth-lock-'));
      try {
        const owner = await api.createUser();
        const projectId = await api.createProject(owner);
        await api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
          key: owner.key,
          body: { url: `file://${repo.root}`, skip_onboarding: true },
        });
        const { assessmentId } = await api.services.health.enqueue(projectId, 'manual');
        const log: string[] = [];
        const engine = await createEngine({ cacheDir: false, workers: 0 });
        // Two workers: separate checkouts, one shared cache (the services).
        const workers = [0, 1].map((n) =>
          healthActivities({
            services: api.services,
            engine,
            checkouts: new RepositoryCheckouts({ workDir: join(workDir, `w${n}`), allowLocal: true }),
            log: (line) => log.push(line),
          }),
        );
        const outcomes = await Promise.all(workers.map((w) => w.assessHealth({ projectId, assessmentId })));
        expect(outcomes.map((o) => o.status).sort()).toEqual(['already_finished', 'completed']);
        expect(log.filter((line) => line.startsWith('assessed '))).toHaveLength(1);
        const [{ n }] = await api.db.query<{ n: number }>("SELECT count(*)::int AS n FROM issues WHERE context_id = $1 AND rule_id = 'security/no-eval'", [
          assessmentId,
        ]);
        expect(n).toBe(1);
      } finally {
        await api.close();
        await cache.close();
        rmSync(workDir, { recursive: true, force: true });
        rmSync(repo.root, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

describe('graph store in the assessment', () => {
  it('keeps the assessed commit graph and records the graph rules as graph_rule issues', async () => {
    const api = await createTestApi({ codeHosts: defaultCodeHosts({ allowLocalRepos: true }), serviceOptions: { allowLocalRepos: true } });
    const repo = createGitRepo({
      'src/a.ts': "import { b } from './b.js';\nexport const a = () => b();\n",
      'src/b.ts': "import { a } from './a.js';\nexport const b = (): number => (a ? 1 : 0);\n",
    });
    const workDir = mkdtempSync(join(tmpdir(), 'codehealth-graph-'));
    try {
      const owner = await api.createUser();
      const projectId = await api.createProject(owner);
      const linked = await api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
        key: owner.key,
        body: { url: `file://${repo.root}`, skip_onboarding: true },
      });
      const repositoryId = linked.body.repository.id as string;
      const { assessmentId } = await api.services.health.enqueue(projectId, 'manual');
      const engine = await createEngine({ cacheDir: false, workers: 0 });
      const activities = healthActivities({ services: api.services, engine, checkouts: new RepositoryCheckouts({ workDir, allowLocal: true }) });
      expect((await activities.assessHealth({ projectId, assessmentId })).status).toBe('completed');

      expect(await api.services.graphStore.commitOf(repositoryId)).toBe(repo.git('rev-parse', 'HEAD'));
      const issues = await api.request('GET', `/api/v1/projects/${projectId}/analysis/issues?source=graph_rule`, { key: owner.key });
      // (The dead-code rules, graph-based too, report their findings with source graph_rule as well.)
      const fromStore = issues.body.issues.filter((i: { rule_id: string }) => i.rule_id.startsWith('graph/'));
      expect(
        fromStore.map((i: { rule_id: string; file_path: string; anchor: { line_start: number; code_snippet: string; validated: boolean } }) => [
          i.rule_id,
          i.file_path,
          i.anchor.line_start,
          i.anchor.code_snippet,
          i.anchor.validated,
        ]),
      ).toEqual([['graph/import-cycle', 'src/a.ts', 1, "import { b } from './b.js';", true]]);
    } finally {
      await api.close();
      rmSync(workDir, { recursive: true, force: true });
      rmSync(repo.root, { recursive: true, force: true });
    }
  }, 60_000);
});
