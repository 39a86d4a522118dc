// The hosts' configuration from the environment (spec section 1): every required variable of the
// self-hosted server checked at once, so one failed start names every problem; the embedded
// server needs none. Messages name variables, never their values (some are secrets).
import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import type { StoreConfig } from '@codehealth/service';
import { DEFAULT_UNAUTHENTICATED_RATE_LIMIT, rateLimitFromEnv, TrustedProxies, type RateLimit } from '@codehealth/http';
import { readWorkloadConfig, type WorkloadConfig } from './workload-config.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The variables the spec marks required for the self-hosted server, in the spec's order. */
export const REQUIRED_VARIABLES = [
  'DATABASE_URL',
  'CACHE_URL',
  'WORKFLOW_ADDRESS',
  'GRAPH_DB_HOST',
  'SECRET_KEY',
  'IDP_SECRET_KEY',
  'IDP_JWT_ISSUER',
  'VCS_APP_ID',
  'VCS_PRIVATE_KEY_PATH',
  'VCS_WEBHOOK_SECRET',
  'CORS_ORIGINS',
  'FRONTEND_URL',
  'LLM_LARGE_PROVIDER',
  'LLM_LARGE_MODEL',
  'LLM_LARGE_API_KEY',
  'LLM_LARGE_BASE_URL',
  'LLM_SMALL_PROVIDER',
  'LLM_SMALL_MODEL',
  'LLM_SMALL_API_KEY',
  'LLM_SMALL_BASE_URL',
] as const;

export const DEFAULT_PORT = 8080;
export const DEFAULT_DATA_DIR = './.codehealth';
export const EMBEDDED_DEFAULT_HOST = '127.0.0.1';
/** node:http's default: every interface, as a container or a reverse proxy expects. */
export const SELF_HOSTED_DEFAULT_HOST = '0.0.0.0';

/** A configuration the host cannot start with; reported as one message and exit code 2. */
export class HostConfigError extends Error {
  override readonly name = 'HostConfigError';
  readonly expose = true;
}

export interface LlmSlot {
  provider: string;
  model: string;
  apiKey: string;
  baseUrl: string;
}

interface ListenConfig {
  host: string;
  port: number;
  corsOrigins: string[];
  /** RATE_LIMIT_PER_MINUTE per API key (default 600; 0: off). */
  rateLimit: RateLimit | false;
  /** RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE per client address, for requests without valid credentials (default 120; 0: off). */
  unauthenticatedRateLimit: RateLimit | false;
  /** TRUSTED_PROXIES: reverse proxies whose X-Forwarded-For names the client address; absent when unset. */
  trustedProxies?: TrustedProxies;
  /** Issues per rule, issue retention, queue limits (host/workload-config.ts). */
  workload: WorkloadConfig;
}

export interface EmbeddedConfig extends ListenConfig {
  mode: 'embedded';
  dataDir: string;
  /** CODEHEALTH_PLUGINS (the embedded server runs the analyses itself). */
  plugins?: string[];
  /** CODEHEALTH_OWNER_EMAIL: the user the dashboard's one-time local sign-in link signs in. */
  ownerEmail?: string;
}

export interface SelfHostedConfig extends ListenConfig {
  mode: 'self-hosted';
  databaseUrl: string;
  cacheUrl: string;
  workflowAddress: string;
  /** Temporal task queue shared with the workers (WORKER_TASK_QUEUE, default `codehealth`). */
  taskQueue?: string;
  graphDbHost: string;
  /** GRAPH_DB_USER / GRAPH_DB_PASSWORD (optional: Neo4j without authentication otherwise). */
  graphDbUser?: string;
  graphDbPassword?: string;
  /** 32 bytes from SECRET_KEY (hex), for tokens at rest. */
  secretKey: Buffer;
  /** IDP_AUDIENCE (optional, comma-separated): the `aud` the IdP's tokens must name; unset, tokens naming one are refused. */
  idp: { secretKey: string; jwtIssuer: string; audience?: string[] };
  vcs: { appId: string; privateKeyPath: string; webhookSecret: string };
  frontendUrl: string;
  llm: { large: LlmSlot; small: LlmSlot };
  allowLocalRepos: boolean;
}

export type HostConfig = EmbeddedConfig | SelfHostedConfig;

const valueOf = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

function parsePort(env: Env, problems: string[]): number {
  const raw = valueOf(env, 'PORT');
  if (raw === undefined) return DEFAULT_PORT;
  const port = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(port >= 0 && port <= 65_535)) {
    problems.push('PORT must be a port number from 0 to 65535');
    return DEFAULT_PORT;
  }
  return port;
}

/** `CORS_ORIGINS`: comma-separated origins (`https://app.example.com`) or `*`. */
function parseCorsOrigins(raw: string | undefined, problems: string[]): string[] {
  if (raw === undefined) return [];
  const origins = raw
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  const isOrigin = (origin: string) => isHttpUrl(origin) && /^[a-z]+:\/\/[^/?#]+\/?$/i.test(origin);
  const invalid = origins.filter((origin) => origin !== '*' && !isOrigin(origin));
  if (invalid.length > 0) problems.push(`CORS_ORIGINS must list origins such as https://app.example.com (or *); not an origin: ${invalid.join(', ')}`);
  // Browsers send the serialised origin (lower-case host, no default port, no slash): compare that.
  return origins.map((origin) => (origin === '*' || !isOrigin(origin) ? origin : new URL(origin).origin));
}

type Limits = Pick<ListenConfig, 'rateLimit' | 'unauthenticatedRateLimit' | 'trustedProxies'>;

function parseLimits(env: Env, problems: string[]): Limits {
  const attempt = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (error) {
      problems.push((error as Error).message);
      return fallback;
    }
  };
  const trustedProxies = attempt(() => TrustedProxies.parse(valueOf(env, 'TRUSTED_PROXIES')), undefined);
  return {
    rateLimit: attempt(() => rateLimitFromEnv(valueOf(env, 'RATE_LIMIT_PER_MINUTE')), false),
    unauthenticatedRateLimit: attempt(
      () =>
        rateLimitFromEnv(valueOf(env, 'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE'), 'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE', DEFAULT_UNAUTHENTICATED_RATE_LIMIT),
      false,
    ),
    ...(trustedProxies ? { trustedProxies } : {}),
  };
}

/** One line (the CLI reports errors as one line): every problem, then what to do. */
function fail(problems: string[], hint: string): never {
  throw new HostConfigError(`cannot start: ${problems.join('; ')}. ${hint}`);
}

/** `codehealth serve --embedded`: nothing required; PGlite in CODEHEALTH_DATA_DIR. */
export function readEmbeddedConfig(env: Env, cwd: string): EmbeddedConfig {
  const problems: string[] = [];
  const port = parsePort(env, problems);
  const corsOrigins = parseCorsOrigins(valueOf(env, 'CORS_ORIGINS'), problems);
  const limits = parseLimits(env, problems);
  const workload = readWorkloadConfig(env, problems);
  let plugins: string[] | undefined;
  try {
    plugins = hostPluginsOf(env);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (problems.length > 0) fail(problems, 'Fix it and start again.');
  return {
    mode: 'embedded',
    ...(plugins ? { plugins } : {}),
    host: valueOf(env, 'HOST') ?? EMBEDDED_DEFAULT_HOST,
    port,
    corsOrigins,
    ...limits,
    workload,
    dataDir: dataDirOf(env, cwd),
    ...(valueOf(env, 'CODEHEALTH_OWNER_EMAIL') ? { ownerEmail: valueOf(env, 'CODEHEALTH_OWNER_EMAIL') } : {}),
  };
}

/** `codehealth serve`: every variable the spec marks required, each checked; all problems at once. */
export function readSelfHostedConfig(env: Env): SelfHostedConfig {
  const missing = REQUIRED_VARIABLES.filter((name) => valueOf(env, name) === undefined);
  const problems: string[] = missing.length > 0 ? [`missing required variable${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`] : [];
  const get = (name: (typeof REQUIRED_VARIABLES)[number]): string => valueOf(env, name) ?? '';
  const present = (name: (typeof REQUIRED_VARIABLES)[number]): boolean => !missing.includes(name);

  if (present('DATABASE_URL') && !/^postgres(ql)?:\/\//.test(get('DATABASE_URL'))) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// connection string');
  }
  if (present('CACHE_URL') && !/^rediss?:\/\//.test(get('CACHE_URL'))) {
    problems.push('CACHE_URL must be a redis:// or rediss:// URL');
  }
  if (present('SECRET_KEY') && !/^[0-9a-fA-F]{64}$/.test(get('SECRET_KEY'))) {
    problems.push(`SECRET_KEY must be 64 hexadecimal characters (32 bytes); it has ${get('SECRET_KEY').length} characters`);
  }
  for (const name of ['IDP_JWT_ISSUER', 'FRONTEND_URL', 'LLM_LARGE_BASE_URL', 'LLM_SMALL_BASE_URL'] as const) {
    if (present(name) && !isHttpUrl(get(name))) problems.push(`${name} must be an http(s) URL`);
  }
  // Optional: GitHub Enterprise Server's API root (every GitHub call goes there).
  const vcsApiUrl = valueOf(env, 'VCS_API_URL');
  if (vcsApiUrl !== undefined && !isHttpUrl(vcsApiUrl)) problems.push('VCS_API_URL must be an http(s) URL such as https://github.example.com/api/v3');
  for (const name of ['WORKFLOW_ADDRESS', 'GRAPH_DB_HOST'] as const) {
    if (present(name) && !/^[^\s/:]+:\d{1,5}$/.test(get(name).replace(/^\[[^\]]+\]/, 'ipv6'))) problems.push(`${name} must be host:port`);
  }
  if (present('VCS_PRIVATE_KEY_PATH')) {
    try {
      accessSync(get('VCS_PRIVATE_KEY_PATH'), constants.R_OK);
    } catch {
      problems.push('VCS_PRIVATE_KEY_PATH does not name a readable file');
    }
  }
  const port = parsePort(env, problems);
  const corsOrigins = present('CORS_ORIGINS') ? parseCorsOrigins(get('CORS_ORIGINS'), problems) : [];
  const limits = parseLimits(env, problems);
  const workload = readWorkloadConfig(env, problems);
  if (problems.length > 0) {
    fail(
      problems,
      "Set them as described in the spec's deployment section, or run 'codehealth serve --embedded' (npm start) for a local server without external services.",
    );
  }
  const slot = (size: 'LARGE' | 'SMALL'): LlmSlot => ({
    provider: get(`LLM_${size}_PROVIDER`),
    model: get(`LLM_${size}_MODEL`),
    apiKey: get(`LLM_${size}_API_KEY`),
    baseUrl: get(`LLM_${size}_BASE_URL`),
  });
  return {
    mode: 'self-hosted',
    host: valueOf(env, 'HOST') ?? SELF_HOSTED_DEFAULT_HOST,
    port,
    corsOrigins,
    ...limits,
    workload,
    databaseUrl: get('DATABASE_URL'),
    cacheUrl: get('CACHE_URL'),
    workflowAddress: get('WORKFLOW_ADDRESS'),
    taskQueue: valueOf(env, 'WORKER_TASK_QUEUE'),
    graphDbHost: get('GRAPH_DB_HOST'),
    graphDbUser: valueOf(env, 'GRAPH_DB_USER'),
    graphDbPassword: valueOf(env, 'GRAPH_DB_PASSWORD'),
    secretKey: Buffer.from(get('SECRET_KEY'), 'hex'),
    idp: { secretKey: get('IDP_SECRET_KEY'), jwtIssuer: get('IDP_JWT_ISSUER'), ...idpAudienceOf(env) },
    vcs: { appId: get('VCS_APP_ID'), privateKeyPath: get('VCS_PRIVATE_KEY_PATH'), webhookSecret: get('VCS_WEBHOOK_SECRET') },
    frontendUrl: get('FRONTEND_URL'),
    llm: { large: slot('LARGE'), small: slot('SMALL') },
    allowLocalRepos: valueOf(env, 'CODEHEALTH_ALLOW_LOCAL_REPOS') === '1',
  };
}

/** IDP_AUDIENCE: comma-separated audiences, any of which a token's `aud` may name. */
function idpAudienceOf(env: Env): { audience?: string[] } {
  const audience = [
    ...new Set(
      (valueOf(env, 'IDP_AUDIENCE') ?? '')
        .split(',')
        .map((value) => value.trim())
        .filter(Boolean),
    ),
  ];
  return audience.length > 0 ? { audience } : {};
}

/**
 * CODEHEALTH_PLUGINS: the analyzer plugin packages this host runs, comma-separated npm names
 * installed beside it (default: the built-in `@codehealth/analyzers` alone). These are the only
 * plugins a repository's config can enable or configure; a repository never adds one. Paths are
 * refused: a plugin is an installed package the administrator chose, not a file somewhere.
 */
export function hostPluginsOf(env: Env): string[] | undefined {
  const raw = valueOf(env, 'CODEHEALTH_PLUGINS');
  if (raw === undefined) return undefined;
  const names = [
    ...new Set(
      raw
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
  const invalid = names.filter((name) => !NPM_NAME.test(name));
  if (invalid.length > 0)
    throw new HostConfigError(
      `CODEHEALTH_PLUGINS must list installed npm package names (such as @acme/codehealth-rules); not a package name: ${invalid.join(', ')}`,
    );
  return names;
}
const NPM_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** CODEHEALTH_DATA_DIR (default ./.codehealth), absolute. */
export function dataDirOf(env: Env, cwd: string): string {
  return resolve(cwd, valueOf(env, 'CODEHEALTH_DATA_DIR') ?? DEFAULT_DATA_DIR);
}

/** Where the admin commands (`keys`, `migrate`) work: DATABASE_URL when set, else the embedded data dir. */
export function adminStoreConfig(env: Env, cwd: string, command: string): StoreConfig {
  const url = valueOf(env, 'DATABASE_URL');
  if (url !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new HostConfigError('DATABASE_URL must be a postgres:// or postgresql:// connection string');
    return { kind: 'postgres', url, options: { max: 2 } };
  }
  return { kind: 'embedded', dataDir: dataDirOf(env, cwd), command };
}
