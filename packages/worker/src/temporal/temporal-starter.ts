// The WorkflowStarter port on Temporal: `codehealth serve` with WORKFLOW_ADDRESS starts workflows
// here and returns Temporal's real workflow id. Starting the same id twice returns the first run.
import { Client, Connection, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { UnavailableError, workflowIdOf, type WorkflowRequest, type WorkflowStarter } from '@codehealth/service';
import { DEFAULT_NAMESPACE, DEFAULT_TASK_QUEUE, TEMPORAL_WORKFLOW_TYPES } from './names.js';

export interface TemporalStarterOptions {
  address: string;
  namespace?: string;
  taskQueue?: string;
}

/**
 * How long a call may take. The client retries an unreachable server (a lazy connection waits
 * for it, and an abort does not end that wait), so without a deadline a call would hang on for
 * about 20 s. A health check answers /healthz, which gives up after 3 s.
 */
const CHECK_DEADLINE_MS = 3_000;
const CALL_DEADLINE_MS = 15_000;

export class TemporalWorkflowStarter implements WorkflowStarter {
  /**
   * Aborts the calls still in flight when the starter closes: the client retries an unreachable
   * server with backoff, and a retry that fires after the connection closed throws out of a timer
   * ("Channel has been shut down"), which would end the process (a server shutting down while a
   * /healthz check waits for a Temporal that is down).
   */
  private readonly closing = new AbortController();
  private readonly inFlight = new Set<Promise<unknown>>();

  private constructor(
    private readonly connection: Connection,
    private readonly client: Client,
    private readonly taskQueue: string,
  ) {}

  /** Connects lazily: a server that is down at start is reported by check() (/healthz), not fatal. */
  static async connect(options: TemporalStarterOptions): Promise<TemporalWorkflowStarter> {
    const connection = Connection.lazy({ address: options.address, connectTimeout: 10_000 });
    const client = new Client({ connection, namespace: options.namespace ?? DEFAULT_NAMESPACE });
    return new TemporalWorkflowStarter(connection, client, options.taskQueue ?? DEFAULT_TASK_QUEUE);
  }

  async start(request: WorkflowRequest, options: { workflowId?: string } = {}): Promise<{ workflowId: string }> {
    const workflowId = options.workflowId ?? workflowIdOf(request);
    const { kind, ...input } = request;
    try {
      await this.call(
        () => this.client.workflow.start(TEMPORAL_WORKFLOW_TYPES[kind], { taskQueue: this.taskQueue, workflowId, args: [input] }),
        CALL_DEADLINE_MS,
      );
    } catch (error) {
      if (error instanceof WorkflowExecutionAlreadyStartedError) return { workflowId };
      throw new UnavailableError(`the workflow engine did not accept the run: ${(error as Error).message}`);
    }
    return { workflowId };
  }

  /** Waits for a workflow's result (tests, CLI). */
  async result(workflowId: string): Promise<unknown> {
    return this.call(() => this.client.workflow.getHandle(workflowId).result());
  }

  async cancel(workflowId: string): Promise<void> {
    await this.call(() => this.client.workflow.getHandle(workflowId).cancel(), CALL_DEADLINE_MS);
  }

  /** For `/healthz`: resolves when the frontend answers. */
  async check(): Promise<void> {
    await this.call(() => this.connection.healthService.check({}), CHECK_DEADLINE_MS);
  }

  /** Ends the calls in flight (they reject) and waits until they have, then closes the connection. */
  async close(): Promise<void> {
    this.closing.abort(new UnavailableError('the workflow engine connection is closing'));
    // A workflow's result has no deadline: waited for as long as a call may take, not more.
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => (timer = setTimeout(resolve, CALL_DEADLINE_MS).unref()));
    await Promise.race([Promise.allSettled(this.inFlight), gaveUp]);
    clearTimeout(timer);
    await this.connection.close();
  }

  /** A call that close() ends (and waits for): within `deadlineMs` when given (a result waits as long as its workflow runs). */
  private call<T>(work: () => Promise<T>, deadlineMs?: number): Promise<T> {
    const bounded = deadlineMs === undefined ? work : () => this.connection.withDeadline(Date.now() + deadlineMs, work);
    const call = this.connection.withAbortSignal(this.closing.signal, bounded);
    this.inFlight.add(call);
    const done = () => this.inFlight.delete(call);
    call.then(done, done);
    return call;
  }
}
