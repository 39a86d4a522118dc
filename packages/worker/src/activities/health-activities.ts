// Activities of health assessments: check out every repository linked to the project at its
// default branch head, run the engine, and hand all results to the recorder, which writes them in
// one transaction. Repeating the activity after it completed writes nothing again. Each analysed
// commit's code graph goes to the graph store, whose rules add `graph_rule` issues.
import { readRepositoryFile } from '@codehealth/engine';
import { runGraphRules, storedGraphOf } from '@codehealth/service';
import type { Activities } from '../workflows/activities.js';
import { NonRetryableError } from '../workflows/retry.js';
import { checkoutHead, type ActivityDeps } from './repository-activities.js';

export function healthActivities(deps: ActivityDeps): Pick<Activities, 'assessHealth' | 'failAssessment'> {
  const { services } = deps;
  return {
    assessHealth: ({ projectId, assessmentId }) =>
      // Two workers never run a project's assessment at once (a retried attempt whose first one is
      // still alive, a duplicate delivery): the second waits for the first, then finds it finished.
      exclusively(deps, `assessment:${projectId}`, () => assessHealth(deps, projectId, assessmentId)),

    async failAssessment({ assessmentId, message }) {
      await services.assessments.fail(assessmentId, message);
    },
  };
}

/** Holds the lock this long past a crash of its holder; renewed while the work runs. */
const ASSESSMENT_LOCK_TTL_MS = 60_000;
/** A waiting attempt gives up after this (LockBusyError is retried by the workflow engine). */
const ASSESSMENT_LOCK_WAIT_MS = 5 * 60_000;

async function exclusively<T>(deps: ActivityDeps, name: string, work: () => Promise<T>): Promise<T> {
  const { cache } = deps.services;
  try {
    await cache.check();
  } catch (error) {
    // Without the cache there is no lock; the recorder's row lock still keeps results single.
    deps.log?.(`${name}: running without the lock (${(error as Error).message})`);
    return work();
  }
  return cache.withLock(name, { ttlMs: ASSESSMENT_LOCK_TTL_MS, waitMs: ASSESSMENT_LOCK_WAIT_MS }, work);
}

async function assessHealth(
  deps: ActivityDeps,
  projectId: string,
  assessmentId: string,
): Promise<{ status: 'completed' | 'already_finished'; overallScore: number | null }> {
  const { services } = deps;
  const run = await services.assessments.markRunning(assessmentId);
  if (run.status === 'completed' || run.status === 'failed') return { status: 'already_finished', overallScore: null };
  const linked = await services.repositories.linkedIds(projectId);
  if (linked.length === 0) throw new NonRetryableError('the project has no linked repository to assess');
  const results = [];
  for (const repositoryId of linked) {
    const { repository, checkout } = await checkoutHead(deps, repositoryId);
    try {
      const started = Date.now();
      const result = await deps.engine.analyze(checkout.path, { allowCodeConfig: false }); // never run repository code
      // The graph store keeps this commit's graph; its rules add graph_rule issues to the run.
      await services.graphStore.writeSnapshot({ repositoryId, commitSha: checkout.sha, graph: storedGraphOf(result.graph) });
      result.findings.push(...(await runGraphRules(services.graphStore, { repositoryId, readFile: (path) => readCheckoutFile(checkout.path, path) })));
      deps.log?.(`assessed ${repository.full_name}@${checkout.sha.slice(0, 12)}: ${result.findings.length} findings in ${Date.now() - started} ms`);
      results.push({ repositoryId, repository: { name: repository.name, full_name: repository.full_name }, commitSha: checkout.sha, result });
    } finally {
      await checkout.dispose();
    }
  }
  const completed = await services.assessments.complete(assessmentId, results);
  return { status: completed.status, overallScore: completed.overallScore };
}

/** A regular file inside the checkout (never through a symlink or `..`), for anchoring graph findings. */
async function readCheckoutFile(root: string, path: string): Promise<string | undefined> {
  const read = await readRepositoryFile(root, path, { links: 'never' });
  return read.ok ? read.bytes.toString('utf8') : undefined;
}
