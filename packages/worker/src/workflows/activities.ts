// The activities interface: every piece of I/O a workflow may do. Workflows import only these
// types (never the engine), so the same workflow functions run in Temporal's sandbox and in the
// embedded runner.

export interface HealthAssessmentInput {
  projectId: string;
  assessmentId: string;
}

export interface OnboardingInput {
  projectId: string;
  sessionId: string;
  repositoryIds: string[];
}

export interface PrAnalysisInput {
  projectId: string;
  analysisId: string;
}

export interface ArchitectureReviewInput {
  projectId: string;
  reviewId: string;
}

export interface ConventionDetectionInput {
  projectId: string;
}

export type OnboardingStep = 'clone' | 'detect_analyzers' | 'initial_assessment' | 'architecture_documentation';

export interface OnboardingEvent {
  sessionId: string;
  type: 'step_started' | 'step_finished' | 'step_failed' | 'progress' | 'completed' | 'failed';
  step?: OnboardingStep;
  percent: number;
  message?: string;
  detail?: Record<string, unknown>;
}

export interface Activities {
  /** Checks out the project's repositories, runs the engine, persists the result in one transaction. Idempotent. */
  assessHealth(input: HealthAssessmentInput): Promise<{ status: 'completed' | 'already_finished'; overallScore: number | null }>;
  failAssessment(input: { assessmentId: string; message: string }): Promise<void>;

  recordOnboardingEvent(event: OnboardingEvent): Promise<void>;
  /** Clones or fetches a repository into the worker's cache; returns the default branch head. */
  fetchRepository(input: { repositoryId: string }): Promise<{ sha: string }>;
  /** Runs the analyzers' detection and stores the result in the repository's `analyzers`. */
  detectAnalyzers(input: { repositoryId: string }): Promise<{ analyzers: number }>;
  /** Creates the onboarding's initial assessment record (pending); idempotent per session. */
  createOnboardingAssessment(input: { projectId: string; sessionId: string }): Promise<{ assessmentId: string }>;
  /** Architecture overview + detected conventions from the latest completed assessment's code. */
  documentArchitecture(input: { projectId: string }): Promise<{ conventions: number }>;
  finishOnboarding(input: { sessionId: string; status: 'completed' | 'failed'; error?: string }): Promise<void>;

  analyzePullRequest(input: PrAnalysisInput): Promise<{ status: 'completed' | 'already_finished' }>;
  failPrAnalysis(input: { analysisId: string; message: string }): Promise<void>;
  /** The code host's check run goes in progress (GitHub App repositories with feedback on; else recorded as skipped). */
  beginPrFeedback(input: PrAnalysisInput): Promise<{ status: 'posted' | 'skipped' }>;
  /** The check run completed with annotations and the sticky PR comment; retried per the policy. */
  publishPrFeedback(input: PrAnalysisInput): Promise<{ status: 'posted' | 'skipped' }>;
  /** The analysis notes that its feedback could not be posted (after the retries). */
  recordPrFeedbackFailure(input: { analysisId: string; message: string }): Promise<void>;

  reviewArchitecture(input: ArchitectureReviewInput): Promise<{ status: 'completed' | 'already_finished' }>;
  failArchitectureReview(input: { reviewId: string; message: string }): Promise<void>;

  detectConventions(input: ConventionDetectionInput): Promise<{ conventions: number }>;
}

/** The message of an activity failure, as workflows record it (Temporal wraps errors in `cause`). */
export function failureMessage(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const cause = (current as { cause?: unknown }).cause;
    if (!(cause instanceof Error)) break;
    current = cause;
  }
  const message = current instanceof Error ? current.message : String(current);
  return message.length > 2000 ? `${message.slice(0, 2000)}…` : message;
}
