// Activities of PR analyses: load the run, its PR and repository; fetch the mirror (which holds
// refs/pull/*); sync the repository's open PRs; check out head; take the project's latest
// completed assessment as the baseline when it assessed this repository at the merge base; run
// the PR pipeline (small model slot when configured); hand everything to the recorder in one
// transaction. Repeating the activity after it completed writes nothing again.
import {
  changedLinesOf,
  largeModelClient,
  diffReviewerOf,
  llmSlotFromEnv,
  mergeBaseOf,
  OpenAiJsonClient,
  PrAnalysisPipeline,
  storedPrBaseline,
  type LlmSlot,
  type PrBaseline,
  type PullRequestInfo,
  type Services,
} from '@codehealth/service';
import { NonRetryableError } from '../workflows/retry.js';
import type { Activities } from '../workflows/activities.js';
import { repositoryRow, type ActivityDeps } from './repository-activities.js';

export interface PrActivityDeps extends ActivityDeps {
  /** The small model slot. Undefined: read `LLM_SMALL_*` from the environment; null: classify by rules only. */
  smallModel?: LlmSlot | null;
  /** The large model slot (review of the changed hunks). Undefined: read `LLM_LARGE_*` from the environment; null: no model review. */
  largeModel?: LlmSlot | null;
}

interface PullRow {
  pr_number: number;
  title: string;
  body: string;
  state: string;
  author: string;
  base_branch: string;
  head_branch: string;
  base_sha: string;
  head_sha: string;
}

const infoOf = (row: PullRow, headSha = row.head_sha): PullRequestInfo => ({
  number: row.pr_number,
  title: row.title,
  body: row.body,
  baseBranch: row.base_branch,
  headBranch: row.head_branch,
  baseSha: row.base_sha,
  headSha,
  author: row.author,
});

/** The stored baseline of a PR analysis (see storedPrBaseline in the service). */
export const storedBaseline = (services: Services, projectId: string, repositoryId: string, commitSha: string): Promise<PrBaseline | undefined> =>
  storedPrBaseline(services.db, projectId, repositoryId, commitSha);

export function prActivities(
  deps: PrActivityDeps,
): Pick<Activities, 'analyzePullRequest' | 'failPrAnalysis' | 'beginPrFeedback' | 'publishPrFeedback' | 'recordPrFeedbackFailure'> {
  const { services } = deps;
  return {
    async analyzePullRequest({ projectId, analysisId }) {
      const run = await services.prAnalysisRecorder.markRunning(analysisId);
      if (run.status === 'completed' || run.status === 'failed') return { status: 'already_finished' };
      if (run.projectId !== projectId) throw new NonRetryableError(`PR analysis ${analysisId} belongs to another project`);
      const repository = await repositoryRow(services, run.repositoryId);
      await deps.checkouts.fetch(run.repositoryId, repository.clone_url);
      // Fresh open-PR metadata for conflicts and stacking; the stored rows serve when the host cannot answer.
      await services.repositories
        .syncPullRequests(run.repositoryId)
        .catch((error: Error) => deps.log?.(`pr #${run.prNumber}: open PRs not synced: ${error.message}`));
      const pulls: PullRow[] = await services.repositories.pullRequestRows(run.repositoryId);
      const row = pulls.find((p) => p.pr_number === run.prNumber);
      if (!row) throw new NonRetryableError(`pull request #${run.prNumber} is not known for ${repository.full_name}`);
      const headSha = await deps.checkouts.resolve(run.repositoryId, run.headSha);
      // The synced base commit, else the base branch's (or default branch's) tip in the mirror.
      const baseSha = await deps.checkouts
        .resolve(run.repositoryId, row.base_sha || run.baseSha || `refs/heads/${row.base_branch || repository.default_branch}`)
        .catch(() => deps.checkouts.resolve(run.repositoryId, `refs/heads/${row.base_branch || repository.default_branch}`));
      const pr = { ...infoOf(row, headSha), baseSha };
      const others = pulls.filter((p) => p.state === 'open' && p.pr_number !== run.prNumber && p.head_sha).map((p) => infoOf(p));

      const head = await deps.checkouts.checkout(run.repositoryId, headSha);
      try {
        const mergeBase = await mergeBaseOf(head.path, baseSha, headSha);
        const baseline = await storedBaseline(services, projectId, run.repositoryId, mergeBase);
        const slot = deps.smallModel === undefined ? llmSlotFromEnv('small') : (deps.smallModel ?? undefined);
        const llm = slot ? new OpenAiJsonClient(slot, { log: deps.log }) : undefined; // one client per run: its token budget is the run's
        const pipeline = new PrAnalysisPipeline({
          engine: deps.engine,
          llm,
          reviewer: diffReviewerOf(largeModelClient(deps.largeModel, deps.log)),
          log: deps.log,
        });
        const started = Date.now();
        const output = await pipeline.run({
          headDir: head.path,
          checkouts: { checkout: (sha) => deps.checkouts.checkout(run.repositoryId, sha) },
          pr,
          otherOpenPrs: others,
          baseAssessment: baseline,
          graphStore: { store: services.graphStore, repositoryId: run.repositoryId },
        });
        deps.log?.(
          `pr #${pr.number} of ${repository.full_name}@${headSha.slice(0, 12)}: ${output.result.classification.primary_intent}, ` +
            `${output.result.merge_readiness.status}, ${output.result.health_impact.issues_added} added / ${output.result.health_impact.issues_fixed} fixed, ` +
            `classified by ${output.classifier.method}, ${Date.now() - started} ms (${JSON.stringify(output.timingsMs)})`,
        );
        // Before completion: a completed run is never analysed again, and its feedback annotates these lines.
        await services.prFeedback.recordChangedLines(analysisId, changedLinesOf(output.diff.files));
        const completed = await services.prAnalysisRecorder.complete(analysisId, {
          result: output.result,
          findings: output.findings,
          baseSha: output.mergeBaseSha,
          baselineContextIds: output.baselineAssessmentId ? [output.baselineAssessmentId] : [],
          // The pipeline follows renamed files and renamed or moved symbols, and knows the base
          // even when it was analysed afresh: its verdict decides is_new, in the same transaction.
          newFingerprints: [...output.newFingerprints],
          // New, worsened, improved or unchanged against the base, with the former value of metric issues.
          issueChanges: output.issueChanges,
        });
        return { status: completed.status };
      } finally {
        await head.dispose();
      }
    },

    async failPrAnalysis({ analysisId, message }) {
      await services.prAnalysisRecorder.fail(analysisId, message);
    },

    async beginPrFeedback({ analysisId }) {
      return { status: (await services.prFeedback.begin(analysisId)).status };
    },

    async publishPrFeedback({ analysisId }) {
      return { status: (await services.prFeedback.publish(analysisId)).status };
    },

    async recordPrFeedbackFailure({ analysisId, message }) {
      await services.prFeedback.recordFailure(analysisId, message);
    },
  };
}
