// The workflow logic, written once as plain functions over the activities interface: Temporal's
// workflow wrappers and the embedded runner both call these. No I/O, no Node built-ins, no clock.
import {
  failureMessage,
  type Activities,
  type ArchitectureReviewInput,
  type ConventionDetectionInput,
  type HealthAssessmentInput,
  type OnboardingInput,
  type OnboardingStep,
  type PrAnalysisInput,
} from './activities.js';

export async function healthAssessmentWorkflow(input: HealthAssessmentInput, acts: Activities): Promise<{ overallScore: number | null }> {
  try {
    const result = await acts.assessHealth(input);
    return { overallScore: result.overallScore };
  } catch (error) {
    await acts.failAssessment({ assessmentId: input.assessmentId, message: failureMessage(error) });
    throw error;
  }
}

/**
 * A PR analysis, with the feedback on the code host (check run, sticky comment) as steps of their
 * own: each is retried by the activity policy, and one that still fails is recorded on the
 * analysis as not posted — feedback never fails the analysis.
 */
export async function prAnalysisWorkflow(input: PrAnalysisInput, acts: Activities): Promise<void> {
  await feedbackStep(input, () => acts.beginPrFeedback(input), acts);
  try {
    await acts.analyzePullRequest(input);
  } catch (error) {
    await acts.failPrAnalysis({ analysisId: input.analysisId, message: failureMessage(error) });
    await feedbackStep(input, () => acts.publishPrFeedback(input), acts);
    throw error;
  }
  await feedbackStep(input, () => acts.publishPrFeedback(input), acts);
}

async function feedbackStep(input: PrAnalysisInput, post: () => Promise<unknown>, acts: Activities): Promise<void> {
  try {
    await post();
  } catch (error) {
    try {
      await acts.recordPrFeedbackFailure({ analysisId: input.analysisId, message: failureMessage(error) });
    } catch {
      // Nothing more to do: the analysis' own record is what matters.
    }
  }
}

export async function architectureReviewWorkflow(input: ArchitectureReviewInput, acts: Activities): Promise<void> {
  try {
    await acts.reviewArchitecture(input);
  } catch (error) {
    await acts.failArchitectureReview({ reviewId: input.reviewId, message: failureMessage(error) });
    throw error;
  }
}

export async function conventionDetectionWorkflow(input: ConventionDetectionInput, acts: Activities): Promise<{ conventions: number }> {
  return acts.detectConventions(input);
}

/** Share of the onboarding done when each step finishes. */
const STEP_PERCENT: Record<OnboardingStep, [start: number, end: number]> = {
  clone: [0, 25],
  detect_analyzers: [25, 35],
  initial_assessment: [35, 85],
  architecture_documentation: [85, 100],
};

/**
 * Onboarding: clone, analyzer detection, initial assessment, architecture documentation. Each step
 * reports started/finished (or failed) with a percentage; the session ends `completed` or `failed`.
 */
export async function onboardingWorkflow(input: OnboardingInput, acts: Activities): Promise<{ assessmentId: string | null }> {
  const { sessionId } = input;
  let assessmentId: string | null = null;
  const step = async <T>(name: OnboardingStep, run: () => Promise<T>, detail: (result: T) => Record<string, unknown>): Promise<T> => {
    const [start, end] = STEP_PERCENT[name];
    await acts.recordOnboardingEvent({ sessionId, type: 'step_started', step: name, percent: start });
    try {
      const result = await run();
      await acts.recordOnboardingEvent({ sessionId, type: 'step_finished', step: name, percent: end, detail: detail(result) });
      return result;
    } catch (error) {
      await acts.recordOnboardingEvent({ sessionId, type: 'step_failed', step: name, percent: start, message: failureMessage(error) });
      throw error;
    }
  };
  try {
    const shas = await step(
      'clone',
      async () => {
        const out: Record<string, string> = {};
        for (const repositoryId of input.repositoryIds) out[repositoryId] = (await acts.fetchRepository({ repositoryId })).sha;
        return out;
      },
      (result) => ({ repositories: Object.keys(result).length, commits: result }),
    );
    await step(
      'detect_analyzers',
      async () => {
        let analyzers = 0;
        for (const repositoryId of Object.keys(shas)) analyzers += (await acts.detectAnalyzers({ repositoryId })).analyzers;
        return analyzers;
      },
      (analyzers) => ({ analyzers }),
    );
    const assessment = await step(
      'initial_assessment',
      async () => {
        const created = await acts.createOnboardingAssessment({ projectId: input.projectId, sessionId });
        assessmentId = created.assessmentId;
        const run = await healthAssessmentWorkflow({ projectId: input.projectId, assessmentId: created.assessmentId }, acts);
        return { assessmentId: created.assessmentId, overallScore: run.overallScore };
      },
      (result) => ({ assessment_id: result.assessmentId, overall_score: result.overallScore }),
    );
    await step(
      'architecture_documentation',
      () => acts.documentArchitecture({ projectId: input.projectId }),
      (result) => ({ conventions: result.conventions }),
    );
    await acts.finishOnboarding({ sessionId, status: 'completed' });
    await acts.recordOnboardingEvent({ sessionId, type: 'completed', percent: 100, detail: { assessment_id: assessment.assessmentId } });
    return { assessmentId };
  } catch (error) {
    const message = failureMessage(error);
    await acts.finishOnboarding({ sessionId, status: 'failed', error: message });
    await acts.recordOnboardingEvent({ sessionId, type: 'failed', percent: 100, message });
    throw error;
  }
}

/** Workflow functions by the kind of request (the WorkflowStarter port's `kind`). */
export const WORKFLOWS = {
  'health-assessment': healthAssessmentWorkflow,
  onboarding: onboardingWorkflow,
  'pr-analysis': prAnalysisWorkflow,
  'architecture-review': architectureReviewWorkflow,
  'convention-detection': conventionDetectionWorkflow,
} as const;

export type WorkflowName = keyof typeof WORKFLOWS;
