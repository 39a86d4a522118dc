// Rebuilding the graph store from the database: the graph of the latest assessed commit comes back
// after the store lost it — into the embedded tables, and into an empty real Neo4j when available.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '@codehealth/engine';
import { defaultCodeHosts, Neo4jGraphStore, Services } from '@codehealth/service';
import { createTestApi } from '../../../../test/helpers/test-api.js';
import { createGitRepo } from '../../../../test/helpers/git-repo.js';
import { rebuildGraphs } from './graph-rebuild.js';
import { healthActivities } from './health-activities.js';
import { RepositoryCheckouts } from './repository-checkout.js';

describe('graph rebuild', () => {
  it('restores the graph of the latest completed assessment, not of a later commit', async () => {
    const api = await createTestApi({ codeHosts: defaultCodeHosts({ allowLocalRepos: true }), serviceOptions: { allowLocalRepos: true } });
    const repo = createGitRepo({ 'src/a.ts': 'export const a = 1;\n', 'src/b.ts': "import { a } from './a.js';\nexport const b = a + 1;\n" });
    const workDir = mkdtempSync(join(tmpdir(), 'codehealth-rebuild-'));
    const neo4j = process.env.TEST_NEO4J_ADDRESS ? new Neo4jGraphStore({ address: process.env.TEST_NEO4J_ADDRESS }) : undefined;
    try {
      const owner = await api.createUser();
      const projectId = await api.createProject(owner);
      const linked = await api.request('POST', `/api/v1/projects/${projectId}/repos/add-public`, {
        key: owner.key,
        body: { url: `file://${repo.root}`, skip_onboarding: true },
      });
      const repositoryId = linked.body.repository.id as string;
      const engine = await createEngine({ cacheDir: false, workers: 0 });
      const checkouts = new RepositoryCheckouts({ workDir, allowLocal: true });
      const { assessmentId } = await api.services.health.enqueue(projectId, 'manual');
      await healthActivities({ services: api.services, engine, checkouts }).assessHealth({ projectId, assessmentId });
      const assessed = repo.git('rev-parse', 'HEAD');
      // A later commit nobody assessed yet: the rebuild must not pick it up.
      repo.write({ 'src/c.ts': "import { b } from './b.js';\nexport const c = b;\n" });
      repo.commit('add c');

      await api.services.graphStore.deleteRepository(repositoryId);
      expect(await api.services.graphStore.commitOf(repositoryId)).toBeUndefined();
      const lines: string[] = [];
      const outcome = await rebuildGraphs({ services: api.services, engine, checkouts }, { progress: (line) => lines.push(line) });
      expect(outcome.failed).toEqual([]);
      expect(outcome.rebuilt).toEqual([{ repositoryId, fullName: expect.any(String), sha: assessed, files: 2, imports: 1 }]);
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^\\[1/1\\] .+@${assessed.slice(0, 12)}$`))]);
      expect(await api.services.graphStore.commitOf(repositoryId)).toBe(assessed);
      expect(await api.services.graphStore.dependents({ repositoryId, files: ['src/a.ts'], maxDepth: 3 })).toEqual([{ path: 'src/b.ts', depth: 1 }]);

      if (neo4j) {
        const target = new Services({ db: api.db, workflows: api.workflows, codeHosts: api.services.codeHosts, graphStore: neo4j });
        await neo4j.deleteRepository(repositoryId);
        const intoNeo4j = await rebuildGraphs({ services: target, engine, checkouts }, { projectId });
        expect(intoNeo4j.rebuilt.map((r) => r.sha)).toEqual([assessed]);
        expect(await neo4j.commitOf(repositoryId)).toBe(assessed);
        expect(await neo4j.dependents({ repositoryId, files: ['src/a.ts'], maxDepth: 3 })).toEqual([{ path: 'src/b.ts', depth: 1 }]);
      }
      // Another project's id: nothing to rebuild.
      expect(await rebuildGraphs({ services: api.services, engine, checkouts }, { projectId: randomUUID() })).toEqual({ rebuilt: [], failed: [] });
    } finally {
      await neo4j?.close();
      await api.close();
      rmSync(workDir, { recursive: true, force: true });
      rmSync(repo.root, { recursive: true, force: true });
    }
  }, 90_000);
});
