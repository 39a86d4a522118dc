// Temporal workflow type names by request kind, and the default task queue.
import type { WorkflowKind } from '@codehealth/service';

export const TEMPORAL_WORKFLOW_TYPES: Record<WorkflowKind, string> = {
  'health-assessment': 'healthAssessment',
  onboarding: 'onboarding',
  'pr-analysis': 'prAnalysis',
  'architecture-review': 'architectureReview',
  'convention-detection': 'conventionDetection',
};

export const DEFAULT_TASK_QUEUE = 'codehealth';
export const DEFAULT_NAMESPACE = 'default';
