// Rebuilds the graph store from Postgres (the source of truth): for every repository, the commit
// of its project's latest completed assessment is checked out again, analysed and written, so a
// lost or new graph database (a fresh Neo4j, a restore) holds what the assessments saw.
import { storedGraphOf } from '@codehealth/service';
import { repositoryRow, type ActivityDeps } from './repository-activities.js';

export interface GraphRebuildOutcome {
  rebuilt: Array<{ repositoryId: string; fullName: string; sha: string; files: number; imports: number }>;
  failed: Array<{ repositoryId: string; sha: string; error: string }>;
}

export async function rebuildGraphs(deps: ActivityDeps, options: { projectId?: string; progress?: (line: string) => void } = {}): Promise<GraphRebuildOutcome> {
  const { services } = deps;
  const rows = await services.assessments.latestCompletedCommits(options.projectId);
  // A repository linked to several projects: the first commit found wins (each is an assessed one).
  const commits = new Map<string, string>();
  for (const assessed of rows) for (const c of assessed) if (!commits.has(c.repository_id)) commits.set(c.repository_id, c.sha);
  const outcome: GraphRebuildOutcome = { rebuilt: [], failed: [] };
  let n = 0;
  for (const [repositoryId, sha] of commits) {
    n++;
    try {
      const repository = await repositoryRow(services, repositoryId);
      options.progress?.(`[${n}/${commits.size}] ${repository.full_name}@${sha.slice(0, 12)}`);
      await deps.checkouts.fetch(repositoryId, repository.clone_url);
      const checkout = await deps.checkouts.checkout(repositoryId, sha);
      try {
        const result = await deps.engine.analyze(checkout.path, { allowCodeConfig: false }); // never run repository code
        const graph = storedGraphOf(result.graph);
        await services.graphStore.writeSnapshot({ repositoryId, commitSha: sha, graph });
        outcome.rebuilt.push({ repositoryId, fullName: repository.full_name, sha, files: graph.files.length, imports: graph.imports.length });
      } finally {
        await checkout.dispose();
      }
    } catch (error) {
      const message = (error as Error).message;
      options.progress?.(`[${n}/${commits.size}] ${repositoryId}: failed: ${message}`);
      outcome.failed.push({ repositoryId, sha, error: message });
    }
  }
  return outcome;
}
