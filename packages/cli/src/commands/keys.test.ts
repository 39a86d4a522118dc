// `codehealth keys create` as a process: its output contract, its errors, and the three ways it
// reaches the store (directly under the data-dir lock, through a running server, on DATABASE_URL).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore } from '@codehealth/service';
import { freshPostgresDatabase, migratedDataDir, runCli, startServer, tempDirs } from '../fixtures/cli-process.js';
import { buildCli } from '../fixtures/real-cli.js';

const dirs = tempDirs();
let template: string;
const env = { CODEHEALTH_DATA_DIR: 'data' };

beforeAll(async () => {
  buildCli();
  template = dirs.make('codehealth-keys-template-');
  await migratedDataDir(template);
}, 300_000);
afterAll(() => dirs.cleanup());

function contract(stdout: string) {
  expect(stdout.endsWith('}\n')).toBe(true);
  expect(stdout.trim().split('\n')).toHaveLength(1);
  const output = JSON.parse(stdout);
  expect(Object.keys(output)).toEqual(['user_id', 'email', 'key_id', 'key']);
  expect(output.user_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(output.key_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(output.key).toMatch(/^chk_[\w-]{43}$/);
  return output as { user_id: string; email: string; key_id: string; key: string };
}

async function keyNames(dataDir: string, userId: string): Promise<string[]> {
  const store = await openStore({ kind: 'embedded', dataDir, command: 'keys.test' });
  try {
    const rows = await store.db.query<{ name: string }>('SELECT name FROM api_keys WHERE user_id = $1 ORDER BY created_at', [userId]);
    return rows.map((row) => row.name);
  } finally {
    await store.close();
  }
}

describe('codehealth keys (usage)', () => {
  const cwd = () => dirs.make();
  it.each([
    [[], "codehealth: missing sub-command: 'codehealth keys create --email <email>'\n"],
    [['list'], "codehealth: unknown keys sub-command 'list' (only 'create')\n"],
    [['create'], "codehealth: missing --email: 'codehealth keys create --email <email>'\n"],
    [['create', '--email'], "codehealth: option '--email' needs a value\n"],
    [['create', '--email', 'not-an-email'], 'codehealth: invalid --email: not a valid email address\n'],
    [['create', '--email', 'a@example.com', '--name', ' '], 'codehealth: invalid --name: must not be empty\n'],
    [['create', '--email', 'a@example.com', '--role', 'admin'], "codehealth: unknown option '--role' (see 'codehealth keys --help')\n"],
  ])('keys %j → exit 2 with one line, nothing on stdout', async (args, stderr) => {
    const dir = cwd();
    expect(await runCli(['keys', ...args], { cwd: dir, env })).toEqual({ code: 2, stdout: '', stderr });
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });

  it('prints its help', async () => {
    const r = await runCli(['keys', '--help'], { cwd: cwd() });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Usage: codehealth keys create --email <email> \[--name <label>\]/);
  });
});

describe('codehealth keys create on the embedded data dir', () => {
  it('opens the data dir itself when no server runs, and releases it', async () => {
    const work = dirs.copyOf(template);
    const first = await runCli(['keys', 'create', '--email', 'Alan@Example.com', '--name', 'laptop'], { cwd: work, env });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    const created = contract(first.stdout);
    expect(created.email).toBe('Alan@Example.com');
    expect(existsSync(join(work, 'data', 'codehealth.lock'))).toBe(false);

    const second = contract((await runCli(['keys', 'create', '--email', 'alan@example.com'], { cwd: work, env })).stdout);
    expect(second.user_id).toBe(created.user_id);
    expect(second.key).not.toBe(created.key);
    expect(await keyNames(join(work, 'data'), created.user_id)).toEqual(['laptop', 'cli']);
  });

  it('creates and migrates a data dir that does not exist yet (CODEHEALTH_DATA_DIR default ./.codehealth)', async () => {
    const work = dirs.make();
    const r = await runCli(['keys', 'create', '--email', 'first@example.com'], { cwd: work });
    expect(r.code).toBe(0);
    const created = contract(r.stdout);
    expect(await keyNames(join(work, '.codehealth'), created.user_id)).toEqual(['cli']);
  });

  it('refuses, naming the holder, when another command holds the data dir', async () => {
    const work = dirs.copyOf(template);
    const owner = { pid: process.pid, hostname: hostname(), command: 'codehealth migrate up', startedAt: new Date().toISOString() };
    writeFileSync(join(work, 'data', 'codehealth.lock'), JSON.stringify(owner));
    const r = await runCli(['keys', 'create', '--email', 'x@example.com'], { cwd: work, env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `codehealth: the data directory ${join(work, 'data')} is in use by 'codehealth migrate up' (process ${process.pid} on ${hostname()}); ` +
        'stop that process first — two processes on one embedded data directory would lose data\n',
    );
  });

  it('waits for a server still starting on a new data dir, then goes through it', async () => {
    const work = dirs.make();
    const starting = startServer(['--embedded'], { cwd: work, env });
    const lockFile = join(work, 'data', 'codehealth.lock');
    // Until the lock file is there and whole (not yet written, or caught mid-write: the read or the parse throws).
    const owner = await vi.waitFor(() => JSON.parse(readFileSync(lockFile, 'utf8')) as { command?: string; url?: string }, { timeout: 60_000, interval: 20 });
    // initdb and migrations take seconds: the server holds the lock but does not listen yet.
    expect(owner).toMatchObject({ command: 'codehealth serve --embedded' });
    expect(owner.url).toBeUndefined();
    const r = await runCli(['keys', 'create', '--email', 'early@example.com'], { cwd: work, env });
    expect(r.code).toBe(0);
    contract(r.stdout);
    const server = await starting;
    try {
      expect(server.stderr()).toContain('POST /admin/keys 201');
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('takes over the lock of a server that was killed without cleaning up', async () => {
    const work = dirs.copyOf(template);
    const server = await startServer(['--embedded'], { cwd: work, env });
    await server.stop('SIGKILL');
    expect(existsSync(join(work, 'data', 'codehealth.lock'))).toBe(true);
    const r = await runCli(['keys', 'create', '--email', 'after-crash@example.com'], { cwd: work, env });
    expect(r.code).toBe(0);
    contract(r.stdout);
    expect(existsSync(join(work, 'data', 'codehealth.lock'))).toBe(false);
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) console.warn('codehealth keys on real Postgres skipped: TEST_DATABASE_URL is not set (start one with test/infra/postgres.sh)');

describe.skipIf(!pgUrl)('codehealth keys create on DATABASE_URL (real Postgres)', () => {
  it('wants a migrated database, then creates users and keys there', async () => {
    const db = await freshPostgresDatabase(pgUrl!);
    try {
      const cwd = dirs.make();
      const pgEnv = { DATABASE_URL: db.url };
      const before = await runCli(['keys', 'create', '--email', 'ops@example.com'], { cwd, env: pgEnv });
      expect(before).toEqual({
        code: 2,
        stdout: '',
        stderr:
          "codehealth: the database needs 9 migration(s) (0001_initial_schema, 0002_graph_store, 0003_graph_calls, 0004_idp_identities, 0005_webhook_replay_window, 0006_workload_bounds, 0007_issue_file_role, 0008_issue_identity_v2, 0009_pr_feedback); run 'codehealth migrate up'\n",
      });
      expect((await runCli(['migrate', 'up'], { cwd, env: pgEnv })).code).toBe(0);
      const first = contract((await runCli(['keys', 'create', '--email', 'ops@example.com', '--name', 'deploy'], { cwd, env: pgEnv })).stdout);
      const second = contract((await runCli(['keys', 'create', '--email', 'OPS@example.com'], { cwd, env: pgEnv })).stdout);
      expect(second.user_id).toBe(first.user_id);
      // Nothing was written to an embedded data dir.
      expect(existsSync(join(cwd, '.codehealth'))).toBe(false);
    } finally {
      await db.drop();
    }
  });
});
