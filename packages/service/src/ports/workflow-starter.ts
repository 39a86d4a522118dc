// The workflow-engine port: the REST host starts long work through it and returns the
// workflow id. The embedded runner (jobs table) and Temporal both implement it.

export type WorkflowRequest =
  | { kind: 'health-assessment'; projectId: string; assessmentId: string }
  | { kind: 'onboarding'; projectId: string; sessionId: string; repositoryIds: string[] }
  | { kind: 'pr-analysis'; projectId: string; analysisId: string }
  | { kind: 'architecture-review'; projectId: string; reviewId: string }
  | { kind: 'convention-detection'; projectId: string };

export type WorkflowKind = WorkflowRequest['kind'];

export interface StartOptions {
  workflowId?: string;
  /**
   * The user who asked for the run (a REST call). Engines that schedule fairly count it against
   * this user, and may refuse it when the user has too much work queued; work the system starts
   * (webhooks, schedules) names no user and is never refused.
   */
  requestedBy?: string;
}

export interface WorkflowStarter {
  /** Starts (or, for the same id, returns) a workflow; `workflowId` is what the API returns. */
  start(request: WorkflowRequest, options?: StartOptions): Promise<{ workflowId: string }>;
}

/** Deterministic workflow ids: retrying a start for the same record reuses the same workflow. */
export function workflowIdOf(request: WorkflowRequest): string {
  switch (request.kind) {
    case 'health-assessment':
      return `health-assessment-${request.assessmentId}`;
    case 'onboarding':
      return `onboarding-${request.sessionId}`;
    case 'pr-analysis':
      return `pr-analysis-${request.analysisId}`;
    case 'architecture-review':
      return `architecture-review-${request.reviewId}`;
    case 'convention-detection':
      return `convention-detection-${request.projectId}-${Date.now()}`;
  }
}
