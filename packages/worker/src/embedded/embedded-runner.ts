// The embedded workflow engine: jobs are rows in the relational store (durable across restarts),
// claimed with SKIP LOCKED, run with bounded concurrency through the same workflow functions as
// Temporal. Claims are fair: round-robin across the users jobs count against, then across a
// user's projects, so one user's ten onboardings wait their turn behind nobody else's work. On
// start, jobs left `running` by a dead process are resumed (re-run: activities are idempotent) or
// failed once out of attempts — never left stuck. The `jobs` table is the service's JobQueue's:
// no SQL here.
import { randomUUID } from 'node:crypto';
import { JobQueue, type ClaimedJob, type Database, type JobQueueWorkflowStarter } from '@codehealth/service';
import type { Activities } from '../workflows/activities.js';
import { failureMessage } from '../workflows/activities.js';
import { ACTIVITY_RETRY, retryDelayMs, type RetryPolicy } from '../workflows/retry.js';
import { WORKFLOWS } from '../workflows/workflows.js';

export interface EmbeddedRunnerOptions {
  db: Database;
  starter: JobQueueWorkflowStarter;
  activities: Activities;
  /** Jobs run at once (default 2: one per core). */
  concurrency?: number;
  /** Fallback poll for jobs enqueued by other processes or due retries (default 1 s). */
  pollIntervalMs?: number;
  retry?: RetryPolicy;
  log?: (line: string) => void;
}

type JobRow = ClaimedJob;

export class CancelledError extends Error {
  override readonly name = 'CancelledError';
  constructor(workflowId: string) {
    super(`workflow ${workflowId} was cancelled`);
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

export class EmbeddedRunner {
  readonly id = `embedded-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly concurrency: number;
  private readonly retry: RetryPolicy;
  private readonly log: (line: string) => void;
  private readonly running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  private stopping = new AbortController();
  private loop?: Promise<void>;
  private wake?: () => void;
  private unsubscribe?: () => void;
  private readonly queue: JobQueue;

  constructor(private readonly options: EmbeddedRunnerOptions) {
    this.queue = new JobQueue(options.db);
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    this.retry = options.retry ?? ACTIVITY_RETRY;
    this.log = options.log ?? (() => {});
  }

  async start(): Promise<void> {
    await this.recover();
    this.stopping = new AbortController();
    this.unsubscribe = this.options.starter.onEnqueued(() => this.wake?.());
    this.loop = this.run();
  }

  /** Stops claiming jobs and waits for the running ones (they finish; nothing is abandoned). */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.unsubscribe?.();
    this.wake?.();
    await this.loop;
    await Promise.all([...this.running.values()].map((job) => job.done));
  }

  /** Cancels a queued or running workflow; its record is failed with "cancelled". */
  async cancel(workflowId: string): Promise<boolean> {
    const job = await this.queue.cancel(workflowId);
    if (!job) return false;
    const running = this.running.get(workflowId);
    if (running) running.controller.abort();
    else await this.markRecordFailed(job, 'cancelled');
    return true;
  }

  /** Resolves when no job is queued (due now) or running: for tests and graceful shutdown. */
  async drain(timeoutMs = 120_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const n = await this.queue.pendingCount();
      if (n === 0 && this.running.size === 0) return;
      if (Date.now() > deadline) throw new Error(`jobs still pending after ${timeoutMs} ms`);
      await sleep(50);
    }
  }

  /** Jobs left `running` by a process that died: re-run them, or fail them when out of attempts. */
  private async recover(): Promise<void> {
    const orphans = await this.queue.running();
    for (const job of orphans) {
      if (job.attempts < job.max_attempts) {
        await this.queue.requeue(job.id);
        this.log(`resuming ${job.workflow_id} (interrupted by a restart; attempt ${job.attempts + 1} of ${job.max_attempts})`);
      } else {
        const message = `interrupted ${job.attempts} times by a restart; giving up`;
        await this.queue.fail(job.id, message);
        await this.markRecordFailed(job, message);
      }
    }
  }

  private async run(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      let claimed = false;
      if (this.running.size < this.concurrency) {
        try {
          const job = await this.claim();
          if (job) {
            claimed = true;
            this.execute(job);
          }
        } catch (error) {
          this.log(`runner: could not claim a job: ${failureMessage(error)}`);
        }
      }
      if (!claimed) {
        const woken = new Promise<void>((resolve) => (this.wake = resolve));
        await Promise.race([woken, sleep(this.options.pollIntervalMs ?? 1_000, signal)]);
      }
    }
  }

  /** One queued job, claimed fairly (JobQueue.claim). */
  private claim(): Promise<JobRow | undefined> {
    return this.queue.claim(this.id);
  }

  private execute(job: JobRow): void {
    const controller = new AbortController();
    const done = this.runJob(job, controller.signal)
      .catch((error) => this.log(`runner: ${job.workflow_id}: ${failureMessage(error)}`))
      .finally(() => {
        this.running.delete(job.workflow_id);
        this.wake?.();
      });
    this.running.set(job.workflow_id, { controller, done });
  }

  private async runJob(job: JobRow, signal: AbortSignal): Promise<void> {
    const workflow = WORKFLOWS[job.kind] as (input: unknown, acts: Activities) => Promise<unknown>;
    const started = Date.now();
    this.log(`workflow ${job.workflow_id} started`);
    try {
      const result = await workflow(job.input, this.withRetries(job.workflow_id, signal));
      await this.queue.complete(job.id, result);
      this.log(`workflow ${job.workflow_id} completed in ${Date.now() - started} ms`);
    } catch (error) {
      const message = signal.aborted ? 'cancelled' : failureMessage(error);
      await this.queue.fail(job.id, message);
      this.log(`workflow ${job.workflow_id} failed after ${Date.now() - started} ms: ${message}`);
    }
  }

  /** The activities as a workflow sees them: each call retried per the shared policy, cancellable. */
  private withRetries(workflowId: string, signal: AbortSignal): Activities {
    const activities = this.options.activities;
    const retry = this.retry;
    const log = this.log;
    return new Proxy(activities, {
      get(target, name: string) {
        const fn = target[name as keyof Activities] as unknown as (input: unknown) => Promise<unknown>;
        if (typeof fn !== 'function') return fn;
        return async (input: unknown) => {
          for (let attempt = 1; ; attempt++) {
            if (signal.aborted && !name.startsWith('fail') && name !== 'finishOnboarding' && name !== 'recordOnboardingEvent') {
              throw new CancelledError(workflowId);
            }
            try {
              return await fn.call(target, input);
            } catch (error) {
              const kind = error instanceof Error ? error.name : 'Error';
              if (attempt >= retry.maximumAttempts || retry.nonRetryableErrorTypes.includes(kind) || signal.aborted) throw error;
              // A code host that said how long to wait (Retry-After, a rate limit's reset) is waited for, up to the policy's longest interval.
              const asked = (error as { retryAfterMs?: unknown }).retryAfterMs;
              const delay = Math.max(retryDelayMs(retry, attempt), typeof asked === 'number' ? Math.min(asked, retry.maximumIntervalMs) : 0);
              log(`activity ${name} of ${workflowId} failed (attempt ${attempt}): ${failureMessage(error)}; retrying in ${delay} ms`);
              await sleep(delay, signal);
            }
          }
        };
      },
    });
  }

  /** Marks the record behind a job failed when its workflow can no longer do it itself. */
  private async markRecordFailed(job: JobRow, message: string): Promise<void> {
    const acts = this.options.activities;
    const input = job.input as Record<string, string>;
    try {
      switch (job.kind) {
        case 'health-assessment':
          return await acts.failAssessment({ assessmentId: input.assessmentId!, message });
        case 'pr-analysis':
          return await acts.failPrAnalysis({ analysisId: input.analysisId!, message });
        case 'architecture-review':
          return await acts.failArchitectureReview({ reviewId: input.reviewId!, message });
        case 'onboarding':
          await acts.finishOnboarding({ sessionId: input.sessionId!, status: 'failed', error: message });
          return await acts.recordOnboardingEvent({ sessionId: input.sessionId!, type: 'failed', percent: 100, message });
        case 'convention-detection':
          return;
      }
    } catch (error) {
      this.log(`runner: could not mark ${job.workflow_id} failed: ${failureMessage(error)}`);
    }
  }
}
