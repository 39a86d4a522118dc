// `codehealth worker`: the same program in worker mode. Polls the Temporal task queue at
// WORKFLOW_ADDRESS and runs workflows and activities against DATABASE_URL; scale by running more
// replicas. Also looks for due scheduled assessments every minute (any replica may; starts coalesce).
import 'reflect-metadata'; // before any engine module: they use tsyringe's decorators
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultCodeHosts, GitHubCodeHost, MemoryCache, Neo4jGraphStore, RedisCache, Services, staticCodeHosts } from '@codehealth/service';
import { createTemporalWorker, DEFAULT_TASK_QUEUE, TemporalWorkflowStarter } from '@codehealth/worker';
import { EXIT, UsageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { assertHostMigrated, HostStartError, openHostStore } from '../host/compose.js';
import { HostConfigError, hostPluginsOf } from '../host/config.js';
import { readWorkloadConfig, type WorkloadConfig } from '../host/workload-config.js';
import { githubAppAuth, installationCloneAuth, type GitHubAppConfig } from '../host/github-app.js';
import { activitiesFor, startScheduleTicks } from '../host/workflows.js';
import { stopRequested } from './serve.js';

export const WORKER_USAGE = `Usage: codehealth worker

Run workflows (onboarding, health assessments, PR analyses, architecture reviews) from the
Temporal task queue. Start as many replicas as you need; each runs up to WORKER_CONCURRENCY
activities at once.

Environment:
  DATABASE_URL           Postgres (required; migrated with 'codehealth migrate up')
  WORKFLOW_ADDRESS       Temporal frontend host:port (required)
  WORKER_TASK_QUEUE      task queue (default ${DEFAULT_TASK_QUEUE}; the server uses the same default)
  WORKER_CONCURRENCY     activities at once on this replica (default 2)
  CODEHEALTH_WORK_DIR    repository mirrors, checkouts and the analysis cache
                         (default ~/.cache/codehealth/worker)
  CACHE_URL              Redis (optional, as for the server): the per-project assessment lock
                         and cache invalidation shared with the server and the other replicas
  GRAPH_DB_HOST          Neo4j host:port (optional, as for the server; GRAPH_DB_USER and
                         GRAPH_DB_PASSWORD when it needs them): where assessed commits' code
                         graphs are kept; without it, tables of DATABASE_URL
  CODEHEALTH_ALLOW_LOCAL_REPOS=1   allow file:// repositories (tests, single-machine setups)
  CODEHEALTH_PLUGINS     analyzer plugin packages installed beside the worker, comma-separated
                         (default @codehealth/analyzers); a repository's config can only
                         enable and configure these, never add one
  VCS_APP_ID, VCS_PRIVATE_KEY_PATH  the GitHub App: clones of installation repositories use
                         short-lived installation tokens (kept in memory only)
  CODEHEALTH_MAX_ISSUES_PER_RULE   issues listed per rule and repository of an assessment
                         (default 1000; 0: all), as for the server
  CODEHEALTH_ISSUE_RETENTION_RUNS  assessments per project that keep their full issue list
                         (default 10; 0: all), as for the server

Stops gracefully on Ctrl-C or SIGTERM (running activities finish first).
`;

interface WorkerConfig {
  databaseUrl: string;
  workflowAddress: string;
  taskQueue: string;
  concurrency: number;
  workDir: string;
  allowLocalRepos: boolean;
  /** CODEHEALTH_PLUGINS: the analyzer plugins this worker runs (default the built-in set). */
  plugins?: string[];
  cacheUrl?: string;
  graphDb?: { address: string; user?: string; password?: string };
  app?: GitHubAppConfig;
  /** Issues per rule and issue retention of the assessments this worker records. */
  workload: WorkloadConfig;
}

function readWorkerConfig(env: Readonly<Record<string, string | undefined>>, cwd: string): WorkerConfig {
  const get = (name: string) => env[name]?.trim() || undefined;
  const missing = ['DATABASE_URL', 'WORKFLOW_ADDRESS'].filter((name) => !get(name));
  const problems = missing.length > 0 ? [`missing required variable${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`] : [];
  const databaseUrl = get('DATABASE_URL') ?? '';
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) problems.push('DATABASE_URL must be a postgres:// or postgresql:// connection string');
  const workflowAddress = get('WORKFLOW_ADDRESS') ?? '';
  if (workflowAddress && !/^[^\s/:]+:\d{1,5}$/.test(workflowAddress)) problems.push('WORKFLOW_ADDRESS must be host:port');
  const concurrency = Number(get('WORKER_CONCURRENCY') ?? '2');
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) problems.push('WORKER_CONCURRENCY must be an integer from 1 to 64');
  const appId = get('VCS_APP_ID');
  const privateKeyPath = get('VCS_PRIVATE_KEY_PATH');
  if (Boolean(appId) !== Boolean(privateKeyPath)) problems.push('VCS_APP_ID and VCS_PRIVATE_KEY_PATH go together');
  const cacheUrl = get('CACHE_URL');
  if (cacheUrl && !/^rediss?:\/\//.test(cacheUrl)) problems.push('CACHE_URL must be a redis:// or rediss:// URL');
  const graphDbHost = get('GRAPH_DB_HOST');
  if (graphDbHost && !/^[^\s/:]+:\d{1,5}$/.test(graphDbHost)) problems.push('GRAPH_DB_HOST must be host:port');
  let plugins: string[] | undefined;
  try {
    plugins = hostPluginsOf(env);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const workload = readWorkloadConfig(env, problems);
  if (problems.length > 0) throw new HostConfigError(`cannot start the worker: ${problems.join('; ')}`);
  return {
    plugins,
    workload,
    databaseUrl,
    workflowAddress,
    taskQueue: get('WORKER_TASK_QUEUE') ?? DEFAULT_TASK_QUEUE,
    concurrency,
    workDir: resolve(cwd, get('CODEHEALTH_WORK_DIR') ?? join(homedir(), '.cache', 'codehealth', 'worker')),
    allowLocalRepos: get('CODEHEALTH_ALLOW_LOCAL_REPOS') === '1',
    cacheUrl,
    graphDb: graphDbHost ? { address: graphDbHost, user: get('GRAPH_DB_USER'), password: get('GRAPH_DB_PASSWORD') } : undefined,
    app: appId && privateKeyPath ? { appId, privateKeyPath } : undefined,
  };
}

export async function runWorker(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], strict: false, options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    io.stdout.write(WORKER_USAGE);
    return EXIT.ok;
  }
  if (positionals.length > 0 || Object.keys(values).some((key) => key !== 'help'))
    throw new UsageError("worker takes no arguments (see 'codehealth worker --help')");
  const config = readWorkerConfig(io.env, io.cwd);
  const stop = stopRequested(io);
  const log = (line: string) => void io.stderr.write(`${line}\n`);
  const store = await openHostStore({ kind: 'postgres', url: config.databaseUrl });
  const cache = config.cacheUrl ? new RedisCache(config.cacheUrl, { log }) : new MemoryCache();
  const graphStore = config.graphDb ? new Neo4jGraphStore(config.graphDb) : undefined;
  try {
    await assertHostMigrated(store.db);
    const starter = await TemporalWorkflowStarter.connect({ address: config.workflowAddress, taskQueue: config.taskQueue });
    // VCS_API_URL (GitHub Enterprise Server) is read by the GitHub code host: API calls, feedback and clone tokens.
    const codeHosts = defaultCodeHosts({
      allowLocalRepos: config.allowLocalRepos,
      github: config.app ? { app: githubAppAuth(config.app) } : undefined,
      env: io.env,
    });
    const github = codeHosts.find((host): host is GitHubCodeHost => host instanceof GitHubCodeHost);
    const services = new Services({
      db: store.db,
      workflows: starter,
      codeHosts: staticCodeHosts(codeHosts),
      options: {
        allowLocalRepos: config.allowLocalRepos,
        maxIssuesPerRule: config.workload.maxIssuesPerRule,
        issueRetentionRuns: config.workload.issueRetentionRuns,
        // Links from pull-request feedback to the API.
        apiUrl: io.env.BACKEND_URL?.trim() || undefined,
      },
      cache,
      graphStore,
      log,
    });
    const activities = await activitiesFor(services, {
      workDir: config.workDir,
      plugins: config.plugins,
      allowLocalRepos: config.allowLocalRepos,
      log,
      authHeader: config.app && github ? installationCloneAuth(store.db, (installationId) => github.installationToken(installationId)) : undefined,
    });
    let worker;
    try {
      worker = await createTemporalWorker({
        address: config.workflowAddress,
        taskQueue: config.taskQueue,
        activities,
        maxConcurrentActivities: config.concurrency,
      });
    } catch (error) {
      throw new HostStartError(`cannot reach the workflow engine at WORKFLOW_ADDRESS: ${(error as Error).message}`);
    }
    const stopTicks = startScheduleTicks(services, log);
    const running = worker.worker.run();
    io.stdout.write(`CodeHealth worker polling task queue '${config.taskQueue}' at ${config.workflowAddress}\nPress Ctrl-C to stop.\n`);
    const signal = await Promise.race([stop.signal, running.then(() => 'worker stopped')]);
    io.stderr.write(`codehealth: ${signal}, finishing running activities and stopping\n`);
    stopTicks();
    worker.worker.shutdown();
    await running.catch(() => {});
    await worker.connection.close();
    await starter.close();
  } finally {
    stop.dispose();
    await cache.close().catch(() => {});
    await graphStore?.close().catch(() => {});
    await store.close();
  }
  io.stderr.write('codehealth: stopped\n');
  return EXIT.ok;
}
