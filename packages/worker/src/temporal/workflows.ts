// Temporal workflow definitions: thin wrappers that hand the shared workflow functions a proxy of
// the activities (timeouts and the shared retry policy). Bundled into Temporal's sandbox, so this
// file and everything it imports use no Node built-ins and import only types of the engine.
import { proxyActivities } from '@temporalio/workflow';
import type {
  Activities,
  ArchitectureReviewInput,
  ConventionDetectionInput,
  HealthAssessmentInput,
  OnboardingInput,
  PrAnalysisInput,
} from '../workflows/activities.js';
import { ACTIVITY_HEARTBEAT_TIMEOUT_MS, ACTIVITY_RETRY, ACTIVITY_TIMEOUT_MS } from '../workflows/retry.js';
import {
  architectureReviewWorkflow,
  conventionDetectionWorkflow,
  healthAssessmentWorkflow,
  onboardingWorkflow,
  prAnalysisWorkflow,
} from '../workflows/workflows.js';

const acts = proxyActivities<Activities>({
  startToCloseTimeout: ACTIVITY_TIMEOUT_MS,
  heartbeatTimeout: ACTIVITY_HEARTBEAT_TIMEOUT_MS,
  retry: {
    maximumAttempts: ACTIVITY_RETRY.maximumAttempts,
    initialInterval: ACTIVITY_RETRY.initialIntervalMs,
    backoffCoefficient: ACTIVITY_RETRY.backoffCoefficient,
    maximumInterval: ACTIVITY_RETRY.maximumIntervalMs,
    nonRetryableErrorTypes: ACTIVITY_RETRY.nonRetryableErrorTypes,
  },
});

export async function healthAssessment(input: HealthAssessmentInput): Promise<{ overallScore: number | null }> {
  return healthAssessmentWorkflow(input, acts);
}

export async function onboarding(input: OnboardingInput): Promise<{ assessmentId: string | null }> {
  return onboardingWorkflow(input, acts);
}

export async function prAnalysis(input: PrAnalysisInput): Promise<void> {
  return prAnalysisWorkflow(input, acts);
}

export async function architectureReview(input: ArchitectureReviewInput): Promise<void> {
  return architectureReviewWorkflow(input, acts);
}

export async function conventionDetection(input: ConventionDetectionInput): Promise<{ conventions: number }> {
  return conventionDetectionWorkflow(input, acts);
}
