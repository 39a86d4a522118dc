// A project with one repository linked through the GitHub App, as the recorded fixtures describe it
// (test/helpers/fake-github.ts), and its open pull request #2 at `head`: the state the PR-feedback
// tests start from, on the embedded runner and on Temporal alike. Earlier projects and
// repositories are deleted first, and the fake GitHub forgets what it saw.
import { createHash, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { pendingPrAnalysisResult, type Database, type Services } from '@codehealth/service';
import { recorded, type FakeGitHub } from './fake-github.js';

export async function seedLinkedPullRequest(db: Database, github: FakeGitHub, head: string): Promise<{ projectId: string; repositoryId: string }> {
  await db.query('DELETE FROM projects');
  await db.query('DELETE FROM repositories');
  github.exchanges.length = 0;
  github.failures.length = 0;
  github.checkRuns.clear();
  github.comments.clear();
  const projectId = randomUUID();
  const repositoryId = randomUUID();
  await db.query('INSERT INTO projects (id, name, key) VALUES ($1, $2, $3)', [projectId, 'P', `p-${projectId}`]);
  await db.query(
    `INSERT INTO repositories (id, provider, vcs_id, installation_id, owner, name, full_name, url, clone_url)
     VALUES ($1, 'github', $2, $3, 'Codertocat', 'Hello-World', 'Codertocat/Hello-World', $4, $5)`,
    [
      repositoryId,
      recorded.installedPublic.id,
      recorded.activeInstallation.id,
      `${recorded.installedPublic.html_url}-${repositoryId}`,
      recorded.installedPublic.clone_url,
    ],
  );
  await db.query('INSERT INTO project_repositories (project_id, repository_id) VALUES ($1, $2)', [projectId, repositoryId]);
  await db.query("INSERT INTO pull_requests (id, repository_id, pr_number, state, head_sha) VALUES ($1, $2, 2, 'open', $3)", [
    randomUUID(),
    repositoryId,
    head,
  ]);
  return { projectId, repositoryId };
}

const webhookExamples = createRequire(import.meta.url)('@octokit/webhooks-examples') as Array<{ name: string; examples: Array<Record<string, any>> }>;

/** GitHub's recorded `pull_request` "opened" event (@octokit/webhooks-examples), its head moved to `head`. */
export function openedPullRequestEvent(head: string): Record<string, any> {
  const opened = webhookExamples.find((event) => event.name === 'pull_request')!.examples.find((example) => example.action === 'opened')!;
  return { ...opened, pull_request: { ...opened.pull_request, head: { ...opened.pull_request.head, sha: head } } };
}

/** A verified `pull_request` delivery as the webhook route hands it to the service. */
export const pullRequestDelivery = (id: string, payload: unknown) => ({
  id,
  bodySha256: createHash('sha256').update(JSON.stringify(payload)).digest('hex'),
  event: 'pull_request',
  payload,
});

/**
 * The PR activities' analysis step replaced by a fixed result (a `ready` verdict, no finding), so
 * that PR-feedback tests exercise the feedback activities and the workflow without analysing code.
 */
export function readyAnalysis(services: Services): (input: { analysisId: string }) => Promise<{ status: 'completed' }> {
  return async ({ analysisId }) => {
    await services.prAnalysisRecorder.markRunning(analysisId);
    const result = pendingPrAnalysisResult();
    result.merge_readiness = { status: 'ready', blocking_count: 0, advisory_count: 0, info_count: 0, confidence: 95, reasons: ['nothing blocks it'] };
    await services.prAnalysisRecorder.complete(analysisId, { result, findings: [] });
    return { status: 'completed' };
  };
}
