// @codehealth/worker — workflow definitions (plain functions over an activities interface), the
// activities factory, and the embedded runner. The Temporal worker wraps the same workflows.

// Workflows and their activities contract
export {
  WORKFLOWS,
  healthAssessmentWorkflow,
  onboardingWorkflow,
  prAnalysisWorkflow,
  architectureReviewWorkflow,
  conventionDetectionWorkflow,
} from './workflows/workflows.js';
export type { WorkflowName } from './workflows/workflows.js';
export { failureMessage } from './workflows/activities.js';
export type {
  Activities,
  HealthAssessmentInput,
  OnboardingInput,
  PrAnalysisInput,
  ArchitectureReviewInput,
  ConventionDetectionInput,
  OnboardingEvent,
  OnboardingStep,
} from './workflows/activities.js';
export { ACTIVITY_RETRY, ACTIVITY_TIMEOUT_MS, retryDelayMs, NonRetryableError } from './workflows/retry.js';
export type { RetryPolicy } from './workflows/retry.js';

// Embedded runner
export { EmbeddedRunner, CancelledError } from './embedded/embedded-runner.js';
export type { EmbeddedRunnerOptions } from './embedded/embedded-runner.js';

// Temporal
export { TemporalWorkflowStarter } from './temporal/temporal-starter.js';
export type { TemporalStarterOptions } from './temporal/temporal-starter.js';
export { createTemporalWorker, WORKFLOWS_PATH } from './temporal/temporal-worker.js';
export type { TemporalWorkerOptions } from './temporal/temporal-worker.js';
export { TEMPORAL_WORKFLOW_TYPES, DEFAULT_TASK_QUEUE, DEFAULT_NAMESPACE } from './temporal/names.js';

// Repository checkouts (activities' git access)
export { RepositoryCheckouts } from './activities/repository-checkout.js';
export type { CheckoutOptions, Checkout } from './activities/repository-checkout.js';

// Activities
export { createActivities } from './activities/create-activities.js';
export type { ActivityDeps } from './activities/create-activities.js';
export { rebuildGraphs } from './activities/graph-rebuild.js';
export type { GraphRebuildOutcome } from './activities/graph-rebuild.js';
