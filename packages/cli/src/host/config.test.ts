import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminStoreConfig, readEmbeddedConfig, readSelfHostedConfig, REQUIRED_VARIABLES, HostConfigError } from './config.js';

const dir = mkdtempSync(join(tmpdir(), 'codehealth-config-'));
const keyFile = join(dir, 'app.pem');
writeFileSync(keyFile, 'private key');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = '0123456789abcdef'.repeat(4);
const complete = (): Record<string, string> => ({
  DATABASE_URL: 'postgres://codehealth:pw@db.internal:5432/codehealth',
  CACHE_URL: 'redis://cache.internal:6379',
  WORKFLOW_ADDRESS: 'temporal.internal:7233',
  GRAPH_DB_HOST: 'neo4j.internal:7687',
  SECRET_KEY: SECRET,
  IDP_SECRET_KEY: 'idp-secret',
  IDP_JWT_ISSUER: 'https://idp.example.com/',
  VCS_APP_ID: '4242',
  VCS_PRIVATE_KEY_PATH: keyFile,
  VCS_WEBHOOK_SECRET: 'hook-secret',
  CORS_ORIGINS: 'https://app.example.com, https://Admin.Example.com:8443/',
  FRONTEND_URL: 'https://app.example.com',
  LLM_LARGE_PROVIDER: 'openai',
  LLM_LARGE_MODEL: 'gpt-large',
  LLM_LARGE_API_KEY: 'sk-large',
  LLM_LARGE_BASE_URL: 'https://llm.example.com/v1',
  LLM_SMALL_PROVIDER: 'openai',
  LLM_SMALL_MODEL: 'gpt-small',
  LLM_SMALL_API_KEY: 'sk-small',
  LLM_SMALL_BASE_URL: 'https://llm.example.com/v1',
});

function errorOf(fn: () => unknown): HostConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(HostConfigError);
    return error as HostConfigError;
  }
  throw new Error('expected a HostConfigError');
}

const DEFAULT_WORKLOAD = { maxIssuesPerRule: 1_000, issueRetentionRuns: 10, queueLimits: { perUser: 20, perProject: 10 } };

describe('self-hosted configuration', () => {
  it('names every missing required variable in one message', () => {
    const error = errorOf(() => readSelfHostedConfig({}));
    expect(error.message).toContain(`missing required variables: ${REQUIRED_VARIABLES.join(', ')}`);
    expect(error.message).not.toContain('\n');
    expect(REQUIRED_VARIABLES).toHaveLength(20);
  });

  it('treats blank values as unset and names only what is missing', () => {
    const env = { ...complete(), CACHE_URL: '   ', LLM_SMALL_MODEL: '' };
    delete (env as Record<string, string | undefined>).FRONTEND_URL;
    const error = errorOf(() => readSelfHostedConfig(env));
    expect(error.message).toMatch(/missing required variables: CACHE_URL, FRONTEND_URL, LLM_SMALL_MODEL\. Set them/);
  });

  it('validates SECRET_KEY, URLs, addresses, the key file and PORT together without echoing values', () => {
    const error = errorOf(() =>
      readSelfHostedConfig({
        ...complete(),
        SECRET_KEY: 'zz-top-secret',
        DATABASE_URL: 'mysql://u:hunter2@db/x',
        IDP_JWT_ISSUER: 'issuer',
        WORKFLOW_ADDRESS: 'temporal.internal',
        GRAPH_DB_HOST: 'bolt://neo4j:7687',
        VCS_PRIVATE_KEY_PATH: join(dir, 'missing.pem'),
        CORS_ORIGINS: 'https://ok.example.com,https://app.example.com/path',
        PORT: '70000',
        VCS_API_URL: 'github.example.com/api/v3',
      }),
    );
    expect(error.message).toContain('VCS_API_URL must be an http(s) URL such as https://github.example.com/api/v3');
    expect(error.message).toContain('SECRET_KEY must be 64 hexadecimal characters (32 bytes); it has 13 characters');
    expect(error.message).toContain('DATABASE_URL must be a postgres:// or postgresql:// connection string');
    expect(error.message).toContain('IDP_JWT_ISSUER must be an http(s) URL');
    expect(error.message).toContain('WORKFLOW_ADDRESS must be host:port');
    expect(error.message).toContain('GRAPH_DB_HOST must be host:port');
    expect(error.message).toContain('VCS_PRIVATE_KEY_PATH does not name a readable file');
    expect(error.message).toContain('not an origin: https://app.example.com/path');
    expect(error.message).toContain('PORT must be a port number from 0 to 65535');
    expect(error.message).not.toContain('missing required');
    for (const secret of ['zz-top-secret', 'hunter2', 'missing.pem']) expect(error.message).not.toContain(secret);
  });

  it('reads a complete environment: defaults, PORT and HOST overrides, normalised CORS origins', () => {
    const config = readSelfHostedConfig(complete());
    expect(config).toMatchObject({
      mode: 'self-hosted',
      host: '0.0.0.0',
      port: 8080,
      databaseUrl: 'postgres://codehealth:pw@db.internal:5432/codehealth',
      corsOrigins: ['https://app.example.com', 'https://admin.example.com:8443'],
      vcs: { appId: '4242', privateKeyPath: keyFile, webhookSecret: 'hook-secret' },
      llm: { large: { model: 'gpt-large', baseUrl: 'https://llm.example.com/v1' }, small: { model: 'gpt-small' } },
      allowLocalRepos: false,
    });
    expect(config.secretKey).toEqual(Buffer.from(SECRET, 'hex'));
    expect(config.secretKey).toHaveLength(32);
    const overridden = readSelfHostedConfig({
      ...complete(),
      PORT: '9090',
      HOST: '10.0.0.5',
      CORS_ORIGINS: '*',
      CODEHEALTH_ALLOW_LOCAL_REPOS: '1',
      WORKFLOW_ADDRESS: '[::1]:7233',
    });
    expect(overridden).toMatchObject({ port: 9090, host: '10.0.0.5', corsOrigins: ['*'], allowLocalRepos: true, workflowAddress: '[::1]:7233' });
  });

  it('reads IDP_AUDIENCE (optional; comma-separated) beside the issuer', () => {
    expect(readSelfHostedConfig(complete()).idp).toEqual({ secretKey: 'idp-secret', jwtIssuer: 'https://idp.example.com/' });
    expect(readSelfHostedConfig({ ...complete(), IDP_AUDIENCE: ' codehealth-web , codehealth-cli,,' }).idp).toEqual({
      secretKey: 'idp-secret',
      jwtIssuer: 'https://idp.example.com/',
      audience: ['codehealth-web', 'codehealth-cli'],
    });
  });
});

describe('embedded configuration', () => {
  it('needs nothing: 127.0.0.1:8080 and ./.codehealth under the working directory', () => {
    expect(readEmbeddedConfig({}, '/srv/app')).toEqual({
      mode: 'embedded',
      host: '127.0.0.1',
      port: 8080,
      corsOrigins: [],
      rateLimit: { limit: 600, windowSeconds: 60 },
      unauthenticatedRateLimit: { limit: 120, windowSeconds: 60 },
      workload: DEFAULT_WORKLOAD,
      dataDir: '/srv/app/.codehealth',
    });
  });

  it('honours CODEHEALTH_DATA_DIR (relative to the working directory), HOST, PORT and CORS_ORIGINS', () => {
    const config = readEmbeddedConfig({ CODEHEALTH_DATA_DIR: 'var/data', HOST: '0.0.0.0', PORT: '0', CORS_ORIGINS: 'http://localhost:5173' }, '/srv/app');
    expect(config).toEqual({
      mode: 'embedded',
      host: '0.0.0.0',
      port: 0,
      corsOrigins: ['http://localhost:5173'],
      rateLimit: { limit: 600, windowSeconds: 60 },
      unauthenticatedRateLimit: { limit: 120, windowSeconds: 60 },
      workload: DEFAULT_WORKLOAD,
      dataDir: '/srv/app/var/data',
    });
    expect(readEmbeddedConfig({ CODEHEALTH_DATA_DIR: '/abs/dir' }, '/srv/app').dataDir).toBe('/abs/dir');
  });

  it('reads RATE_LIMIT_PER_MINUTE (0 turns limiting off) and names a bad value', () => {
    expect(readEmbeddedConfig({ RATE_LIMIT_PER_MINUTE: '0' }, '/').rateLimit).toBe(false);
    expect(readEmbeddedConfig({ RATE_LIMIT_PER_MINUTE: '90' }, '/').rateLimit).toEqual({ limit: 90, windowSeconds: 60 });
    expect(errorOf(() => readEmbeddedConfig({ RATE_LIMIT_PER_MINUTE: '1.5' }, '/')).message).toBe(
      'cannot start: RATE_LIMIT_PER_MINUTE must be a whole number (0 turns rate limiting off). Fix it and start again.',
    );
  });

  it('reads RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE and TRUSTED_PROXIES, naming every bad value at once', () => {
    const config = readEmbeddedConfig({ RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '30', TRUSTED_PROXIES: 'loopback, 10.0.0.0/8' }, '/');
    expect(config.unauthenticatedRateLimit).toEqual({ limit: 30, windowSeconds: 60 });
    expect(config.trustedProxies?.has('10.1.2.3')).toBe(true);
    expect(config.trustedProxies?.has('192.168.0.1')).toBe(false);
    expect(readEmbeddedConfig({ RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0' }, '/').unauthenticatedRateLimit).toBe(false);
    expect(errorOf(() => readEmbeddedConfig({ RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: 'lots', TRUSTED_PROXIES: 'proxy.internal' }, '/')).message).toBe(
      'cannot start: TRUSTED_PROXIES must list IP addresses, CIDR ranges (10.0.0.0/8) or loopback; not one: proxy.internal; ' +
        'RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE must be a whole number (0 turns rate limiting off). Fix it and start again.',
    );
  });

  it('reads the workload bounds (0 turns one off) and refuses anything but a whole number', () => {
    const config = readEmbeddedConfig(
      {
        CODEHEALTH_MAX_ISSUES_PER_RULE: '250',
        CODEHEALTH_ISSUE_RETENTION_RUNS: '0',
        CODEHEALTH_QUEUE_LIMIT_PER_USER: '3',
        CODEHEALTH_QUEUE_LIMIT_PER_PROJECT: ' 2 ',
      },
      '/',
    );
    expect(config.workload).toEqual({ maxIssuesPerRule: 250, issueRetentionRuns: 0, queueLimits: { perUser: 3, perProject: 2 } });
    expect(errorOf(() => readEmbeddedConfig({ CODEHEALTH_MAX_ISSUES_PER_RULE: '1e3', CODEHEALTH_ISSUE_RETENTION_RUNS: '-1' }, '/')).message).toBe(
      'cannot start: CODEHEALTH_MAX_ISSUES_PER_RULE must be a whole number from 0 to 1000000000 (0: no limit); ' +
        'CODEHEALTH_ISSUE_RETENTION_RUNS must be a whole number from 0 to 1000000000 (0: no limit). Fix it and start again.',
    );
    expect(readSelfHostedConfig({ ...complete(), CODEHEALTH_ISSUE_RETENTION_RUNS: '3' }).workload.issueRetentionRuns).toBe(3);
  });

  it('reads CODEHEALTH_PLUGINS as installed package names and refuses paths', () => {
    expect(readEmbeddedConfig({}, '/srv').plugins).toBeUndefined();
    expect(readEmbeddedConfig({ CODEHEALTH_PLUGINS: '@codehealth/analyzers, @acme/codehealth-rules,,' }, '/srv').plugins).toEqual([
      '@codehealth/analyzers',
      '@acme/codehealth-rules',
    ]);
    for (const bad of ['./tools/evil.mjs', '/tmp/evil.mjs', '../x', 'file:///tmp/x.mjs']) {
      expect(() => readEmbeddedConfig({ CODEHEALTH_PLUGINS: bad }, '/srv')).toThrow(/CODEHEALTH_PLUGINS must list installed npm package names/);
    }
  });

  it('refuses a PORT that is not a port number', () => {
    for (const port of ['http', '-1', '65536', '80.5']) {
      expect(errorOf(() => readEmbeddedConfig({ PORT: port }, '/')).message).toBe(
        'cannot start: PORT must be a port number from 0 to 65535. Fix it and start again.',
      );
    }
  });
});

describe('admin commands store', () => {
  it('uses DATABASE_URL when set, else the embedded data dir under its lock', () => {
    expect(adminStoreConfig({ DATABASE_URL: 'postgresql://h/db' }, '/w', 'codehealth keys create')).toEqual({
      kind: 'postgres',
      url: 'postgresql://h/db',
      options: { max: 2 },
    });
    expect(adminStoreConfig({ DATABASE_URL: ' ', CODEHEALTH_DATA_DIR: 'd' }, '/w', 'codehealth migrate up')).toEqual({
      kind: 'embedded',
      dataDir: '/w/d',
      command: 'codehealth migrate up',
    });
    expect(errorOf(() => adminStoreConfig({ DATABASE_URL: 'sqlite:x' }, '/w', 'c')).message).toContain('DATABASE_URL must be');
  });
});
