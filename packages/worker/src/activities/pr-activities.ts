// Activities of PR analyses: load the run, its PR and repository; fetch the mirror (which holds
// refs/pull/*); sync the repository's open PRs; check out head; take the project's latest
// completed assessment as the baseline when it assessed this repository at the merge base; run
// the PR pipeline (small model slot when configured); hand everything to the recorder in one
// transaction. Repeating the activity after it completed writes nothing again.
import type { Finding, IssueCategory, IssueSource, Severity } from '@codehealth/engine';
import {
  changedLinesOf,
  largeModelClient,
  llmSlotFromEnv,
  mergeBaseOf,
  OpenAiJsonClient,
  PrAnalysisPipeline,
  type LlmSlot,
  type PrBaseline,
  type PullRequestInfo,
  type Services,
} from '@codehealth/engine/server';
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

interface IssueRow {
  fingerprint: string;
  /** NULL on rows recorded before identity v2, whose fingerprint is the legacy one. */
  legacy_fingerprint: string | null;
  symbol: string | null;
  data: Finding['data'] | null;
  anchor_shape: string | null;
  source: IssueSource;
  severity: Severity;
  category: IssueCategory;
  file_path: string;
  file_group: string;
  line_start: number;
  line_end: number;
  code_snippet: string;
  validated: boolean;
  title: string;
  description: string;
  why_it_matters: string;
  suggested_action: string;
  rule_id: string;
  analyzer_name: string;
  confidence: number;
  auto_fixable: boolean;
}

/**
 * The project's latest completed assessment as a baseline, when it assessed exactly this
 * repository at `commitSha` (an assessment combining several repositories scores them together,
 * so its scores are not this repository's) and its stored issues are all of its findings (a run
 * over the per-rule cap lists only part of them, and retention may have removed a list).
 */
export async function storedBaseline(services: Services, projectId: string, repositoryId: string, commitSha: string): Promise<PrBaseline | undefined> {
  const [latest] = await services.db.query<{
    id: string;
    commits: Array<{ repository_id: string; sha: string }>;
    total_lines_of_code: number;
    test_lines_of_code: number;
    actual_coverage_percent: number | null;
    metrics: { structural_coverage_pct?: number | null; duplication_index?: number | null; convention_consistency?: number | null; production_lines_of_code?: number; issues_not_listed?: number };
    issues_pruned: boolean;
  }>(
    `SELECT id, commits, total_lines_of_code, test_lines_of_code, actual_coverage_percent, metrics, issues_pruned_at IS NOT NULL AS issues_pruned
       FROM health_assessments
      WHERE project_id = $1 AND status = 'completed' ORDER BY completed_at DESC, created_at DESC LIMIT 1`,
    [projectId],
  );
  if (!latest || latest.commits.length !== 1 || latest.commits[0]!.repository_id !== repositoryId || latest.commits[0]!.sha !== commitSha) return undefined;
  if ((latest.metrics.issues_not_listed ?? 0) > 0 || latest.issues_pruned) return undefined;
  const rows = await services.db.query<IssueRow>(
    `SELECT fingerprint, legacy_fingerprint, symbol, data, anchor_shape, source, severity, category, file_path, file_group, line_start, line_end, code_snippet, validated, title, description,
            why_it_matters, suggested_action, rule_id, analyzer_name, confidence, auto_fixable
       FROM issues WHERE project_id = $1 AND context_type = 'health_assessment' AND context_id = $2`,
    [projectId, latest.id],
  );
  const findings = rows.map((row): Finding & { fingerprint: string; legacyFingerprint?: string } => ({
    fingerprint: row.fingerprint,
    // A row recorded before identity v2 holds the former fingerprint only: head matches it by that.
    ...(row.legacy_fingerprint === null ? { legacyFingerprint: row.fingerprint } : {}),
    ...(row.symbol !== null ? { symbol: row.symbol } : {}),
    ...(row.data !== null ? { data: row.data } : {}),
    source: row.source,
    severity: row.severity,
    category: row.category,
    filePath: row.file_path,
    fileGroup: row.file_group,
    anchor: {
      lineStart: row.line_start,
      lineEnd: row.line_end,
      codeSnippet: row.code_snippet,
      validated: row.validated,
      ...(row.anchor_shape !== null ? { shape: row.anchor_shape } : {}),
    },
    title: row.title,
    description: row.description,
    whyItMatters: row.why_it_matters,
    suggestedAction: row.suggested_action,
    ruleId: row.rule_id,
    analyzerName: row.analyzer_name,
    confidence: row.confidence,
    autoFixable: row.auto_fixable,
  }));
  const measured = (value: number | null | undefined) => (value === null || value === undefined ? undefined : Number(value));
  return {
    commitSha,
    assessmentId: latest.id,
    findings,
    metrics: {
      // Scores are measured against production lines (all source lines in records made before roles).
      sourceLoc: latest.metrics.production_lines_of_code ?? latest.total_lines_of_code,
      testLoc: latest.test_lines_of_code,
      structuralCoveragePct: measured(latest.metrics.structural_coverage_pct),
      actualCoveragePercent: measured(latest.actual_coverage_percent),
      duplicationIndex: measured(latest.metrics.duplication_index),
      conventionConsistency: measured(latest.metrics.convention_consistency),
    },
  };
}

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
      await services.repositories.syncPullRequests(run.repositoryId).catch((error: Error) => deps.log?.(`pr #${run.prNumber}: open PRs not synced: ${error.message}`));
      const pulls = await services.db.query<PullRow>(
        `SELECT pr_number, title, body, state, author, base_branch, head_branch, base_sha, head_sha FROM pull_requests
          WHERE repository_id = $1 ORDER BY pr_number`,
        [run.repositoryId],
      );
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
        const pipeline = new PrAnalysisPipeline({ engine: deps.engine, llm, largeLlm: largeModelClient(deps.largeModel, deps.log), log: deps.log });
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
