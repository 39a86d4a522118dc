// The workflow side of a host. Embedded: jobs in the store run by the in-process runner, plus the
// scheduler's tick. Self-hosted: workflows start on Temporal (WORKFLOW_ADDRESS) and run in
// `codehealth worker` processes. Both use the same activities over the same services.
import { join } from 'node:path';
import { createEngine } from '@codehealth/engine';
import { JobQueueWorkflowStarter, type Database, type JobQueueLimits, type Services, type WorkflowStarter } from '@codehealth/service';
import type { HealthComponent } from '@codehealth/http';
import { createActivities, EmbeddedRunner, RepositoryCheckouts, TemporalWorkflowStarter } from '@codehealth/worker';

export interface WorkflowHost {
  starter: WorkflowStarter;
  components: HealthComponent[];
  /** Starts running work once the services exist. */
  start(services: Services): Promise<void>;
  stop(): Promise<void>;
}

/** How long shutdown waits for running jobs. */
const STOP_GRACE_MS = 10_000;

/**
 * How long the engine keeps a run's worker threads for the next run: a pull request analysed soon
 * after an assessment (or another pull request) of the same repository finds them warm, holding
 * that run's summaries. Idle threads never keep the process alive.
 */
export const KEEP_WORKERS_MS = 120_000;

/** How often due scheduled assessments are looked for. */
export const SCHEDULE_TICK_MS = 60_000;

export interface ActivityHostOptions {
  /** Mirrors, checkouts and the engine's summary cache. */
  workDir: string;
  allowLocalRepos: boolean;
  log: (line: string) => void;
  /** The host's analyzer plugins (CODEHEALTH_PLUGINS); default the built-in set. */
  plugins?: string[];
  /** Credentials for cloning a repository (GitHub App installation tokens). */
  authHeader?: (repositoryId: string) => Promise<string | undefined>;
}

export async function activitiesFor(services: Services, options: ActivityHostOptions) {
  // Repository rules always run in a worker: this thread answers requests (embedded) or heartbeats (Temporal).
  const engine = await createEngine({
    cacheDir: join(options.workDir, 'cache'),
    keepWorkersMs: KEEP_WORKERS_MS,
    rulesOffMainThread: true,
    ...(options.plugins ? { plugins: options.plugins } : {}),
  });
  const checkouts = new RepositoryCheckouts({ workDir: join(options.workDir, 'repos'), allowLocal: options.allowLocalRepos, authHeader: options.authHeader });
  // Before any run of this process: what a killed one left behind goes; what a live one uses stays.
  const leftovers = await checkouts.removeLeftovers();
  if (leftovers.length > 0) options.log(`checkouts: removed ${leftovers.length} left behind by a stopped process`);
  return createActivities({ services, engine, checkouts, log: options.log });
}

/** Runs `tick` every SCHEDULE_TICK_MS; returns the stop function. */
export function startScheduleTicks(services: Services, log: (line: string) => void): () => void {
  const tick = () => void services.schedules.tick(new Date(), log).catch((error: unknown) => log(`scheduler: ${(error as Error).message}`));
  const timer = setInterval(tick, SCHEDULE_TICK_MS);
  timer.unref();
  tick();
  return () => clearInterval(timer);
}

/** The in-process runner over jobs in the store; `queueLimits` bound what one user or project may queue. */
export function embeddedWorkflows(db: Database, options: ActivityHostOptions, queueLimits?: JobQueueLimits): WorkflowHost {
  const starter = new JobQueueWorkflowStarter(db, queueLimits);
  let runner: EmbeddedRunner | undefined;
  let stopTicks = (): void => {};
  return {
    starter,
    components: [],
    async start(services) {
      runner = new EmbeddedRunner({ db, starter, activities: await activitiesFor(services, options), log: options.log });
      await runner.start();
      stopTicks = startScheduleTicks(services, options.log);
    },
    async stop() {
      stopTicks();
      // Jobs still running after the grace period are resumed by the next start (restart recovery).
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([runner?.stop(), new Promise((resolve) => (timer = setTimeout(resolve, STOP_GRACE_MS)))]);
      clearTimeout(timer);
    },
  };
}

export async function temporalWorkflows(address: string, taskQueue?: string): Promise<WorkflowHost> {
  const starter = await TemporalWorkflowStarter.connect({ address, taskQueue });
  return {
    starter,
    components: [{ name: 'workflow_engine', check: () => starter.check() }],
    async start() {},
    stop: () => starter.close(),
  };
}
