// End to end: the built `codehealth serve` as a process — embedded on a temporary data dir, and
// self-hosted on the real Postgres of the test infrastructure (TEST_DATABASE_URL).
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REQUIRED_VARIABLES } from '../host/config.js';
import { freshPostgresDatabase, migratedDataDir, runCli, startServer, tempDirs } from '../fixtures/cli-process.js';
import { buildCli } from '../fixtures/real-cli.js';
import { createGitRepo } from '../../../../test/helpers/git-repo.js';

const dirs = tempDirs();
/** A migrated data dir, prepared once (from the run's template); each test works on a copy (initdb takes seconds). */
let template: string;

beforeAll(async () => {
  buildCli();
  template = dirs.make('codehealth-serve-template-');
  await migratedDataDir(template);
}, 300_000);
afterAll(() => dirs.cleanup());

const get = (url: string, key?: string) => fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {} });
const post = (url: string, key: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('codehealth serve --embedded (built bin)', () => {
  it('serves, creates keys through the running server, refuses a second process, keeps data across restarts, stops cleanly', async () => {
    const work = dirs.copyOf(template);
    const env = { CODEHEALTH_DATA_DIR: 'data' };
    const lockFile = join(work, 'data', 'codehealth.lock');
    const server = await startServer(['--embedded'], { cwd: work, env });
    let key: string;
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.stdout()).toContain(join(work, 'data'));
      expect(server.stdout()).toContain('npx codehealth keys create --email');

      const health = await get(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const detailed = (await (await get(`${server.url}/health/detailed`)).json()) as { components: unknown[] };
      expect(detailed.components).toEqual([{ name: 'database', status: 'up', latency_ms: expect.any(Number) }]);

      // The lock names the server and how to reach it, readable by its owner only.
      expect(statSync(lockFile).mode & 0o777).toBe(0o600);
      const owner = JSON.parse(readFileSync(lockFile, 'utf8'));
      expect(owner).toMatchObject({ pid: server.child.pid, command: 'codehealth serve --embedded', url: server.url });
      expect(owner.adminToken).toMatch(/^[\w-]{43}$/);

      const created = await runCli(['keys', 'create', '--email', 'Ada@Example.com'], { cwd: work, env });
      expect(created.code).toBe(0);
      expect(created.stderr).toBe('');
      expect(created.stdout.endsWith('\n')).toBe(true);
      expect(created.stdout.trim().split('\n')).toHaveLength(1);
      const output = JSON.parse(created.stdout);
      expect(Object.keys(output)).toEqual(['user_id', 'email', 'key_id', 'key']);
      expect(output).toMatchObject({ email: 'Ada@Example.com', user_id: expect.stringMatching(/^[0-9a-f-]{36}$/), key: expect.stringMatching(/^chk_/) });
      key = output.key;
      expect(server.stderr()).toContain('POST /admin/keys 201');

      expect((await get(`${server.url}/api/v1/projects`)).status).toBe(401);
      const listed = await get(`${server.url}/api/v1/projects`, key);
      expect(listed.status).toBe(200);
      const project = await post(`${server.url}/api/v1/projects`, key, { name: 'Kept across restarts', key: 'kept' });
      expect(project.status).toBe(201);
      const { id: projectId } = (await project.json()) as { id: string };

      // Embedded mode accepts local git repositories (offline use).
      const repo = createGitRepo({ 'src/index.ts': 'export const answer = 42;\n' }, 'codehealth-serve-repo-');
      dirs.track(repo.root);
      const linked = await post(`${server.url}/api/v1/projects/${projectId}/repos/add-public`, key, { url: `file://${repo.root}`, skip_onboarding: true });
      expect(linked.status).toBe(201);
      expect(((await linked.json()) as { repository: { name: string } }).repository.name).toBe(basename(repo.root));

      // The admin route wants the advertised token, not an API key.
      for (const token of [undefined, key, `${owner.adminToken}x`]) {
        const refused = await fetch(`${server.url}/admin/keys`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ email: 'mallory@example.com' }),
        });
        expect(refused.status).toBe(401);
      }

      // Anything else that would open the held data dir refuses with the holder's name, exit 2.
      for (const args of [
        ['serve', '--embedded'],
        ['migrate', 'up'],
        ['migrate', 'status'],
      ]) {
        const second = await runCli(args, { cwd: work, env: { ...env, PORT: '0' } });
        expect(second.code).toBe(2);
        expect(second.stdout).toBe('');
        expect(second.stderr).toMatch(/^codehealth: the data directory .* is in use by 'codehealth serve --embedded' \(process \d+/);
      }
    } finally {
      expect(await server.stop('SIGTERM')).toBe(0);
    }
    expect(server.stderr()).toContain('codehealth: SIGTERM received, finishing in-flight requests and stopping\ncodehealth: stopped\n');
    expect(existsSync(lockFile)).toBe(false);

    const again = await startServer(['--embedded'], { cwd: work, env });
    try {
      const projects = await get(`${again.url}/api/v1/projects`, key);
      expect(projects.status).toBe(200);
      expect(JSON.stringify(await projects.json())).toContain('"key":"kept"');
    } finally {
      expect(await again.stop('SIGINT')).toBe(0);
    }
    expect(existsSync(lockFile)).toBe(false);
  });

  it('finishes an in-flight request before it stops', async () => {
    const work = dirs.copyOf(template);
    const env = { CODEHEALTH_DATA_DIR: 'data' };
    const server = await startServer(['--embedded'], { cwd: work, env });
    const { key } = JSON.parse((await runCli(['keys', 'create', '--email', 'slow@example.com'], { cwd: work, env })).stdout);
    // A request whose body is still arriving when SIGTERM comes: the server must finish it.
    const body = JSON.stringify({ name: 'Created during shutdown', key: 'late' });
    // `Expect: 100-continue`: the server's 100 answer says it has the request in hand (headers parsed, handler called).
    const request = httpRequest(`${server.url}/api/v1/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
    });
    const inHand = new Promise<void>((resolve) => request.on('continue', () => resolve()));
    const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
      request.on('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      request.on('error', reject);
    });
    request.flushHeaders();
    await inHand;
    request.write(body.slice(0, 10));
    const exit = server.stop('SIGTERM');
    // The shutdown is under way once the server says it received the signal; the rest of the body comes after.
    // (Polling /healthz instead kept keep-alive connections busy and could outlast the 10 s grace.)
    await vi.waitFor(() => expect(server.stderr()).toContain('SIGTERM received, finishing in-flight requests'), { timeout: 30_000, interval: 50 });
    request.end(body.slice(10));
    const answered = await response;
    expect(answered.status).toBe(201);
    expect(JSON.parse(answered.text)).toMatchObject({ key: 'late' });
    expect(await exit).toBe(0);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('refuses a bad PORT and an occupied port with exit 2', async () => {
    const work = dirs.copyOf(template);
    const env = { CODEHEALTH_DATA_DIR: 'data' };
    expect(await runCli(['serve', '--embedded'], { cwd: work, env: { ...env, PORT: 'eighty' } })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'codehealth: cannot start: PORT must be a port number from 0 to 65535. Fix it and start again.\n',
    });
    const server = await startServer(['--embedded'], { cwd: work, env });
    try {
      const port = new URL(server.url).port;
      const other = dirs.copyOf(template);
      const busy = await runCli(['serve', '--embedded'], { cwd: other, env: { ...env, PORT: port } });
      expect(busy.code).toBe(2);
      expect(busy.stderr).toBe(`codehealth: port ${port} on 127.0.0.1 is already in use; stop the other server or set PORT\n`);
      expect(existsSync(join(other, 'data', 'codehealth.lock'))).toBe(false);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('codehealth serve (self-hosted, built bin)', () => {
  it('refuses to start naming every missing required variable, exit 2', async () => {
    const r = await runCli(['serve'], { cwd: dirs.make() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`missing required variables: ${REQUIRED_VARIABLES.join(', ')}`);
    expect(r.stderr.split('\n')).toHaveLength(2);
  });

  it('names what is still missing and what is invalid together, never echoing values', async () => {
    const r = await runCli(['serve'], { cwd: dirs.make(), env: { SECRET_KEY: 'not-hex-s3cr3t', CACHE_URL: 'redis://127.0.0.1:6379' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SECRET_KEY must be 64 hexadecimal characters (32 bytes)');
    expect(r.stderr).toContain('missing required variables: DATABASE_URL, WORKFLOW_ADDRESS,');
    expect(r.stderr).not.toContain('CACHE_URL,');
    expect(r.stderr).not.toContain('s3cr3t');
  });

  it('reports an unreachable database in one line without its password, exit 2', async () => {
    const r = await runCli(['migrate', 'status'], { cwd: dirs.make(), env: { DATABASE_URL: 'postgres://ops:hunter2@127.0.0.1:9/none' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^codehealth: cannot connect to the database in DATABASE_URL: .*ECONNREFUSED/);
    expect(r.stderr).not.toContain('hunter2');
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) console.warn('codehealth serve on real Postgres skipped: TEST_DATABASE_URL is not set (start one with test/infra/postgres.sh)');

describe.skipIf(!pgUrl)('codehealth serve on real Postgres (TEST_DATABASE_URL)', () => {
  it('refuses an unmigrated database, then serves after migrate up; keys come from DATABASE_URL', async () => {
    const db = await freshPostgresDatabase(pgUrl!);
    try {
      const cwd = dirs.make();
      const keyFile = join(cwd, 'app.pem');
      writeFileSync(keyFile, '-----BEGIN PRIVATE KEY-----\n', { mode: 0o600 });
      const env: Record<string, string> = {
        DATABASE_URL: db.url,
        // A real Redis when the test infrastructure runs one; otherwise a closed port.
        CACHE_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:9',
        // A real Temporal when the test infrastructure runs one; otherwise a closed port.
        WORKFLOW_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS ?? '127.0.0.1:9',
        GRAPH_DB_HOST: process.env.TEST_NEO4J_ADDRESS ?? '127.0.0.1:9',
        SECRET_KEY: 'ab'.repeat(32),
        IDP_SECRET_KEY: 'idp-secret',
        IDP_JWT_ISSUER: 'https://idp.example.com/',
        VCS_APP_ID: '12345',
        VCS_PRIVATE_KEY_PATH: keyFile,
        VCS_WEBHOOK_SECRET: 'hook-secret',
        CORS_ORIGINS: 'https://app.example.com',
        FRONTEND_URL: 'https://app.example.com',
        LLM_LARGE_PROVIDER: 'openai',
        LLM_LARGE_MODEL: 'large',
        LLM_LARGE_API_KEY: 'sk-large',
        LLM_LARGE_BASE_URL: 'http://127.0.0.1:9/v1',
        LLM_SMALL_PROVIDER: 'openai',
        LLM_SMALL_MODEL: 'small',
        LLM_SMALL_API_KEY: 'sk-small',
        LLM_SMALL_BASE_URL: 'http://127.0.0.1:9/v1',
        HOST: '127.0.0.1',
      };
      const unmigrated = await runCli(['serve'], { cwd, env: { ...env, PORT: '0' } });
      expect(unmigrated.code).toBe(2);
      expect(unmigrated.stderr).toBe(
        "codehealth: the database needs 9 migration(s) (0001_initial_schema, 0002_graph_store, 0003_graph_calls, 0004_idp_identities, 0005_webhook_replay_window, 0006_workload_bounds, 0007_issue_file_role, 0008_issue_identity_v2, 0009_pr_feedback); run 'codehealth migrate up'\n",
      );

      expect((await runCli(['migrate', 'up'], { cwd, env })).code).toBe(0);
      const server = await startServer([], { cwd, env });
      try {
        const healthz = await get(`${server.url}/healthz`);
        const down = [
          !process.env.TEST_REDIS_URL && 'cache',
          !process.env.TEST_NEO4J_ADDRESS && 'graph_store',
          !process.env.TEST_TEMPORAL_ADDRESS && 'workflow_engine',
        ].filter(Boolean);
        if (down.length === 0) expect(healthz.status).toBe(200);
        else expect(await healthz.json()).toEqual({ error: `unavailable: ${down.join(', ')}` });
        // Each configured service is a component of the detailed health, with its latency.
        const detailed = (await (await get(`${server.url}/health/detailed`)).json()) as {
          components: Array<{ name: string; status: string; latency_ms: number; error?: string }>;
        };
        expect(detailed.components.map((c) => c.name).sort()).toEqual(['cache', 'database', 'graph_store', 'workflow_engine']);
        const cache = detailed.components.find((c) => c.name === 'cache')!;
        expect(cache.status).toBe(process.env.TEST_REDIS_URL ? 'up' : 'down');
        expect(cache.latency_ms).toBeGreaterThanOrEqual(0);
        if (!process.env.TEST_REDIS_URL) expect(cache.error).toMatch(/^Redis does not answer/);
        const created = await runCli(['keys', 'create', '--email', 'ops@example.com', '--name', 'deploy'], { cwd, env });
        expect(created.code).toBe(0);
        const { key } = JSON.parse(created.stdout);
        const project = await post(`${server.url}/api/v1/projects`, key, { name: 'Ops', key: 'ops' });
        expect(project.status).toBe(201);
        const { id: projectId } = (await project.json()) as { id: string };
        // Without CODEHEALTH_ALLOW_LOCAL_REPOS=1 the server reads no local paths.
        const local = await post(`${server.url}/api/v1/projects/${projectId}/repos/add-public`, key, { url: `file://${cwd}`, skip_onboarding: true });
        expect(local.status).toBe(400);
        const keys = await (await get(`${server.url}/api/v1/api-keys`, key)).json();
        expect(JSON.stringify(keys)).toContain('"name":"deploy"');
        // CORS_ORIGINS is honoured.
        const preflight = await fetch(`${server.url}/api/v1/projects`, {
          method: 'OPTIONS',
          headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' },
        });
        expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
        // Self-hosted serves no admin route: keys go straight to Postgres.
        expect((await fetch(`${server.url}/admin/keys`, { method: 'POST' })).status).toBe(404);
        expect(server.stderr()).not.toContain('sk-large');
      } finally {
        expect(await server.stop()).toBe(0);
      }
    } finally {
      await db.drop();
    }
  });
});
