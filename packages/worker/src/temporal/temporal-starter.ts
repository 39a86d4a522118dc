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
      await this.call(() => this.client.workflow.start(TEMPORAL_WORKFLOW_TYPES[kind], { taskQueue: this.taskQueue, workflowId, args: [input] }));
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
    await this.call(() => this.client.workflow.getHandle(workflowId).cancel());
  }

  /** For `/healthz`: resolves when the frontend answers. */
  async check(): Promise<void> {
    await this.call(() => this.connection.healthService.check({}));
  }

  /** Ends the calls in flight (they reject) and waits until they have, then closes the connection. */
  async close(): Promise<void> {
    this.closing.abort(new UnavailableError('the workflow engine connection is closing'));
    await Promise.allSettled(this.inFlight);
    await this.connection.close();
  }

  private call<T>(work: () => Promise<T>): Promise<T> {
    const call = this.connection.withAbortSignal(this.closing.signal, work);
    this.inFlight.add(call);
    const done = () => this.inFlight.delete(call);
    call.then(done, done);
    return call;
  }
}
