// `codehealth worker`: registers the workflows and the activities on a task queue and polls it.
// Replicas scale by count; Temporal hands each task to one of them.
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import type { Activities } from '../workflows/activities.js';
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
    activities: options.activities as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>,
    maxConcurrentActivityTaskExecutions: options.maxConcurrentActivities ?? 2,
  });
  return { worker, connection };
}
