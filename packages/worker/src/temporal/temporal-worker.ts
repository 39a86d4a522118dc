// `codehealth worker`: registers the workflows and the activities on a task queue and polls it.
// Replicas scale by count; Temporal hands each task to one of them.
import { fileURLToPath } from 'node:url';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Activities } from '../workflows/activities.js';
import { ACTIVITY_HEARTBEAT_INTERVAL_MS, ACTIVITY_RETRY, retryDelayMs } from '../workflows/retry.js';
import { DEFAULT_NAMESPACE, DEFAULT_TASK_QUEUE } from './names.js';

export interface TemporalWorkerOptions {
  address: string;
  activities: Activities;
  namespace?: string;
  taskQueue?: string;
  /** Activities run at once on this replica (default 2). */
  maxConcurrentActivities?: number;
}

/** The built workflow module (bundled by Temporal from dist, from both src and dist callers). */
export const WORKFLOWS_PATH = fileURLToPath(new URL('../../dist/temporal/workflows.js', import.meta.url));

export async function createTemporalWorker(options: TemporalWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace ?? DEFAULT_NAMESPACE,
    taskQueue: options.taskQueue ?? DEFAULT_TASK_QUEUE,
    workflowsPath: WORKFLOWS_PATH,
    activities: withHeartbeats(options.activities as unknown as Record<string, ActivityFunction>),
    maxConcurrentActivityTaskExecutions: options.maxConcurrentActivities ?? 2,
  });
  return { worker, connection };
}

type ActivityFunction = (...args: unknown[]) => Promise<unknown>;

/**
 * Each activity heartbeats while it runs, so that the server retries it elsewhere soon after this
 * worker dies (see ACTIVITY_HEARTBEAT_TIMEOUT_MS); the activities themselves stay engine-neutral.
 */
export function withHeartbeats(activities: Record<string, ActivityFunction>, intervalMs = ACTIVITY_HEARTBEAT_INTERVAL_MS): Record<string, ActivityFunction> {
  return Object.fromEntries(
    Object.entries(activities).map(([name, run]) => [
      name,
      async (...args: unknown[]) => {
        const context = Context.current();
        context.heartbeat();
        const timer = setInterval(() => context.heartbeat(), intervalMs);
        try {
          return await run(...args);
        } catch (error) {
          throw withRequestedDelay(error, context.info.attempt);
        } finally {
          clearInterval(timer);
        }
      },
    ]),
  );
}

/**
 * A failure that says how long the remote side asked to wait (a code host's Retry-After or rate
 * limit reset, `retryAfterMs`) becomes an ApplicationFailure with that next retry delay, capped
 * by the policy's longest interval, as the embedded runner does; its type stays the error's name,
 * so nonRetryableErrorTypes still apply. Other failures pass unchanged.
 */
export function withRequestedDelay(error: unknown, attempt: number): unknown {
  const asked = (error as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  if (!(error instanceof Error) || typeof asked !== 'number' || !(asked > 0)) return error;
  return ApplicationFailure.create({
    message: error.message,
    type: error.name,
    cause: error,
    nextRetryDelay: Math.max(retryDelayMs(ACTIVITY_RETRY, attempt), Math.min(asked, ACTIVITY_RETRY.maximumIntervalMs)),
  });
}
