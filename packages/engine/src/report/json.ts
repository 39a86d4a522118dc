// The machine-readable report: the spec's Health assessment and Issue objects, verbatim, plus the
// metrics that explain them. One vocabulary throughout (snake_case), so `jq` paths read alike.
import type { FileRole } from '../domain/types.js';
import type { AssessmentResult } from '../pipeline/types.js';
import { deriveAssessmentIds, type AssessmentIds } from './issue-id.js';
import { TOOL_NAME, TOOL_VERSION } from './tool-info.js';
import { toWireAssessment, toWireIssues, type WireAssessment, type WireIssue } from './wire.js';
import { toWireMetrics, type WireMetrics } from './wire-metrics.js';

export interface JsonReport {
  /** Which tool and which checkout produced the report; not a spec resource. */
  run: {
    tool: string;
    tool_version: string;
    root: string;
    head_sha: string | null;
    branch: string | null;
    /** Why the git history could not be read (a damaged or partial clone): churn and ages are left out. */
    history_error?: string;
    /** What the scores depend on (see `RunProvenance`): commit date, config digest, rule set, scoring model. */
    provenance: { commit_date: string | null; config_digest: string; rule_set: string; scoring_model: string };
  };
  assessment: WireAssessment;
  /** The spec's Issue objects, each with the role of its file (`production`, `benchmark`, ...), an extension. */
  issues: Array<WireIssue & { file_role: FileRole }>;
  metrics: WireMetrics;
}

/**
 * Ids default to `deriveAssessmentIds(result)`; a host with real ids (a server, a CI system with a
 * run id) passes them. Every issue's `context_id` is the assessment's `id`.
 */
export function toJsonReport(result: AssessmentResult, ids: Partial<AssessmentIds> = {}): JsonReport {
  const { projectId, repositoryId, assessmentId } = { ...deriveAssessmentIds(result), ...ids };
  return {
    run: {
      tool: TOOL_NAME,
      tool_version: TOOL_VERSION,
      root: result.root,
      head_sha: result.git.headSha ?? null,
      branch: result.git.branch ?? null,
      ...(result.git.historyError ? { history_error: result.git.historyError } : {}),
      provenance: {
        commit_date: result.provenance.commitDate ?? null,
        config_digest: result.provenance.configDigest,
        rule_set: result.provenance.ruleSet,
        scoring_model: result.provenance.scoringModel,
      },
    },
    assessment: toWireAssessment(result, { id: assessmentId, projectId, ledger: true }),
    issues: toWireIssues(result.findings, {
      projectId,
      repositoryId,
      contextId: assessmentId,
      contextType: 'health_assessment',
      createdAt: result.completedAt,
    }).map((issue, i) => ({ ...issue, file_role: result.findings[i].role ?? 'production' })),
    metrics: toWireMetrics(result),
  };
}
