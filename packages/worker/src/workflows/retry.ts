// One retry policy for activities, used by Temporal's proxyActivities and by the embedded
// runner's activity wrapper, so both engines retry the same failures the same way.

export interface RetryPolicy {
  maximumAttempts: number;
  initialIntervalMs: number;
  backoffCoefficient: number;
  maximumIntervalMs: number;
  /** Error names that retrying cannot fix (bad input, missing records, unreadable repositories). */
  nonRetryableErrorTypes: string[];
}

export const ACTIVITY_RETRY: RetryPolicy = {
  maximumAttempts: 3,
  initialIntervalMs: 2_000,
  backoffCoefficient: 2,
  maximumIntervalMs: 30_000,
  nonRetryableErrorTypes: ['InvalidInputError', 'NotFoundError', 'NonRetryableError', 'SnapshotError', 'ConfigError', 'CancelledError'],
};

/** Time limit of one activity attempt (clone + full assessment of a large repository). */
export const ACTIVITY_TIMEOUT_MS = 30 * 60_000;

/**
 * A running activity tells Temporal it is alive this often; when a worker dies (killed, lost its
 * machine) the server notices after ACTIVITY_HEARTBEAT_TIMEOUT_MS without one and retries the
 * attempt on another worker, instead of waiting for ACTIVITY_TIMEOUT_MS.
 */
export const ACTIVITY_HEARTBEAT_INTERVAL_MS = 5_000;
export const ACTIVITY_HEARTBEAT_TIMEOUT_MS = 30_000;

export function retryDelayMs(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maximumIntervalMs, policy.initialIntervalMs * policy.backoffCoefficient ** (attempt - 1));
}

/** Thrown by activities for failures that must not be retried. */
export class NonRetryableError extends Error {
  override readonly name = 'NonRetryableError';
}
