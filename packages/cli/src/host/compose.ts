// The composition root of the REST host: store (+ lock and migrations), application services,
// code hosts, health components, the h3 app and — embedded only — the admin route that lets
// `keys create` reach the locked data dir; then the listener. One place wires a mode's adapters.
import 'reflect-metadata'; // before any engine module: they use tsyringe's decorators
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertMigrated,
  DataDirLockedError,
  defaultCodeHosts,
  migrateUp,
  openStore,
  MemoryCache,
  Neo4jGraphStore,
  RedisCache,
  Services,
  staticCodeHosts,
  type Cache,
  type CodeHost,
  type GraphStore,
  type Database,
  type OpenStore,
  type StoreConfig,
  type WorkflowStarter,
} from '@codehealth/service';
import { createApp, createIdpAuthenticator, createStaticSite, isApiPath } from '@codehealth/http';
import { ADMIN_KEYS_PATH, createAdminKeysRoute, generateAdminToken, isLoopback } from './admin-keys.js';
import type { EmbeddedConfig, HostConfig } from './config.js';
import { githubAppAuth } from './github-app.js';
import { createLocalSignIn, DEFAULT_OWNER_EMAIL, LOCAL_SIGN_IN_PATH } from './local-sign-in.js';
import { webRoot } from './web-root.js';
import { healthComponents } from './health-components.js';
import { embeddedWorkflows, temporalWorkflows, type WorkflowHost } from './workflows.js';
import { listen, peerAddressOf, type FetchHandler } from './http-server.js';

export const EMBEDDED_COMMAND = 'codehealth serve --embedded';

export interface Host {
  url: string;
  port: number;
  /** True when `keys create` can go through this server (embedded, reachable on loopback). */
  adminAdvertised: boolean;
  /** Embedded: the dashboard's one-time sign-in link for the owner (when reachable on loopback). */
  signInLink?: string;
  /** Graceful: stop accepting, finish in-flight requests, close the store, release the lock. */
  close(): Promise<void>;
}

export interface HostOptions {
  /** One line per request and internal errors (never headers, bodies or secrets). */
  log: (line: string) => void;
  /** Replaces the default code hosts (local git when allowed, then GitHub for public repositories). */
  codeHosts?: readonly CodeHost[];
}

/** A failure the operator can fix (lock held, database unreachable or not migrated): exit code 2. */
export class HostStartError extends Error {
  override readonly name = 'HostStartError';
  readonly expose = true;
}

/** The package version the host reports in /health/detailed (same relative path from src and dist). */
export function hostVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

/** Connection errors name the host and reason; a URL (and so a password) never reaches the message. */
const redact = (message: string): string => message.replace(/\w+:\/\/\S+/g, '<url>');

/** Opens the store with operator-facing errors: a held lock or an unreachable database is exit 2. */
export async function openHostStore(config: StoreConfig): Promise<OpenStore> {
  try {
    return await openStore(config);
  } catch (error) {
    if (error instanceof DataDirLockedError) throw new HostStartError(error.message);
    if (config.kind === 'postgres') {
      const code = (error as NodeJS.ErrnoException).code;
      const message = error instanceof Error ? error.message : String(error);
      const reason = code && !message.includes(code) ? `${code}: ${message}` : message;
      throw new HostStartError(`cannot connect to the database in DATABASE_URL: ${redact(reason)}`);
    }
    throw error;
  }
}

/** A self-hosted database must be migrated by the operator (`codehealth migrate up`): exit 2 otherwise. */
export async function assertHostMigrated(db: Database): Promise<void> {
  try {
    await assertMigrated(db);
  } catch (error) {
    if ((error as Error).name === 'MigrationError') throw new HostStartError((error as Error).message);
    throw error;
  }
}

/** Where triggered work goes and runs: the in-process runner (embedded) or Temporal (WORKFLOW_ADDRESS). */
async function workflowsFor(config: HostConfig, db: Database, log: (line: string) => void): Promise<WorkflowHost> {
  if (config.mode === 'embedded') {
    return embeddedWorkflows(db, { workDir: join(config.dataDir, 'work'), allowLocalRepos: true, log, plugins: config.plugins }, config.workload.queueLimits);
  }
  return temporalWorkflows(config.workflowAddress, config.taskQueue);
}

/** Embedded: the store is ours, kept current without a manual step. Self-hosted: `migrate up` is the operator's. */
async function prepareStore(config: HostConfig): Promise<OpenStore> {
  const store =
    config.mode === 'embedded'
      ? await openHostStore({ kind: 'embedded', dataDir: config.dataDir, command: EMBEDDED_COMMAND })
      : await openHostStore({ kind: 'postgres', url: config.databaseUrl });
  try {
    await (config.mode === 'embedded' ? migrateUp(store.db) : assertMigrated(store.db));
    return store;
  } catch (error) {
    await store.close();
    if ((error as Error).name === 'MigrationError') throw new HostStartError((error as Error).message);
    throw error;
  }
}

/** Embedded: in-process. Self-hosted: Redis at CACHE_URL, shared by every server and worker replica. */
export function cacheFor(config: HostConfig, log: (line: string) => void): Cache {
  return config.mode === 'embedded' ? new MemoryCache() : new RedisCache(config.cacheUrl, { log });
}

/** Embedded: tables of the store (Services' default). Self-hosted: Neo4j at GRAPH_DB_HOST. */
export function graphStoreFor(config: HostConfig): GraphStore | undefined {
  return config.mode === 'embedded'
    ? undefined
    : new Neo4jGraphStore({ address: config.graphDbHost, user: config.graphDbUser, password: config.graphDbPassword });
}

function servicesFor(
  config: HostConfig,
  db: Database,
  codeHosts: readonly CodeHost[] | undefined,
  workflows: WorkflowStarter,
  cache: Cache,
  graphStore: GraphStore | undefined,
  log: (line: string) => void,
): Services {
  const allowLocalRepos = config.mode === 'embedded' || config.allowLocalRepos;
  return new Services({
    db,
    workflows,
    cache,
    graphStore,
    codeHosts: staticCodeHosts(
      codeHosts ?? defaultCodeHosts({ allowLocalRepos, github: config.mode === 'self-hosted' ? { app: githubAppAuth(config.vcs) } : undefined }),
    ),
    options: {
      allowLocalRepos,
      maxIssuesPerRule: config.workload.maxIssuesPerRule,
      issueRetentionRuns: config.workload.issueRetentionRuns,
      // Links from pull-request feedback to the API (the embedded runner posts it from this process).
      apiUrl: process.env.BACKEND_URL?.trim() || undefined,
    },
    log,
  });
}

/** The embedded server answers `keys create` only when a client on this machine can reach it. */
const advertisable = (config: EmbeddedConfig): boolean => ['0.0.0.0', '::', 'localhost'].includes(config.host) || isLoopback(config.host);

export async function startHost(config: HostConfig, options: HostOptions): Promise<Host> {
  const store = await prepareStore(config);
  let workflows: WorkflowHost | undefined;
  const cache = cacheFor(config, options.log);
  const graphStore = graphStoreFor(config);
  try {
    workflows = await workflowsFor(config, store.db, options.log);
    const services = servicesFor(config, store.db, options.codeHosts, workflows.starter, cache, graphStore, options.log);
    const app = createApp({
      services,
      corsOrigins: config.corsOrigins,
      rateLimit: config.rateLimit,
      unauthenticatedRateLimit: config.unauthenticatedRateLimit,
      trustedProxies: config.trustedProxies,
      components: [...healthComponents({ config, db: store.db, cache, graphStore }), ...workflows.components],
      webhookSecret: config.mode === 'self-hosted' ? config.vcs.webhookSecret : process.env.VCS_WEBHOOK_SECRET,
      authenticators:
        config.mode === 'self-hosted'
          ? [createIdpAuthenticator(services, { issuer: config.idp.jwtIssuer, secretKey: config.idp.secretKey, audience: config.idp.audience })]
          : [],
      log: options.log,
      version: hostVersion(),
    });
    const adminToken = config.mode === 'embedded' && advertisable(config) ? generateAdminToken() : undefined;
    const admin = adminToken ? createAdminKeysRoute({ db: store.db, token: adminToken, log: options.log }) : undefined;
    const localSignIn =
      config.mode === 'embedded' && adminToken
        ? createLocalSignIn({ db: store.db, ownerEmail: config.ownerEmail ?? DEFAULT_OWNER_EMAIL, log: options.log })
        : undefined;
    // Embedded, the dashboard is served beside the API; self-hosted, `codehealth web` serves it.
    const site =
      config.mode === 'embedded' ? createStaticSite({ root: webRoot(), config: { apiBase: '', localSignIn: localSignIn !== undefined } }) : undefined;
    const handler: FetchHandler = (request) => {
      const { pathname } = new URL(request.url);
      if (admin && pathname === ADMIN_KEYS_PATH) return admin.handle(request, peerAddressOf(request));
      if (localSignIn && pathname === LOCAL_SIGN_IN_PATH) return localSignIn.handle(request, peerAddressOf(request));
      if (site && !isApiPath(pathname) && (request.method === 'GET' || request.method === 'HEAD')) return site(request);
      return app.fetch(request);
    };
    const server = await listen(handler, { host: config.host, port: config.port });
    if (adminToken) store.lock?.advertise({ url: server.url, adminToken });
    await workflows.start(services);
    const running = workflows;
    let closing: Promise<void> | undefined;
    return {
      url: server.url,
      port: server.port,
      adminAdvertised: adminToken !== undefined,
      ...(localSignIn ? { signInLink: localSignIn.link(server.url) } : {}),
      close() {
        closing ??= (async () => {
          try {
            await server.close();
            await running.stop();
          } finally {
            await cache.close().catch(() => {});
            await graphStore?.close().catch(() => {});
            await store.close();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await workflows?.stop().catch(() => {});
    await cache.close().catch(() => {});
    await graphStore?.close().catch(() => {});
    await store.close();
    throw error;
  }
}
