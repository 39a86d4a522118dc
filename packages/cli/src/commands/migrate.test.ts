// `codehealth migrate up|status` as a process, on an embedded data dir and on real Postgres
// (TEST_DATABASE_URL), including two `migrate up` at once.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresDatabase, readMigrations } from '@codehealth/service';
import { freshPostgresDatabase, runCli, tempDirs } from '../fixtures/cli-process.js';
import { buildCli } from '../fixtures/real-cli.js';

const dirs = tempDirs();
beforeAll(() => buildCli(), 300_000);
afterAll(() => dirs.cleanup());

const ISO = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z';

describe('codehealth migrate (usage)', () => {
  it.each([
    [[], "codehealth: missing sub-command: 'codehealth migrate up' or 'codehealth migrate status'\n"],
    [['down'], "codehealth: unknown migrate sub-command 'down' (expected up or status)\n"],
    [['up', 'now'], "codehealth: unexpected argument 'now' (see 'codehealth migrate --help')\n"],
    [['up', '--force'], "codehealth: unknown option '--force' (see 'codehealth migrate --help')\n"],
  ])('migrate %j → exit 2', async (args, stderr) => {
    expect(await runCli(['migrate', ...args], { cwd: dirs.make() })).toEqual({ code: 2, stdout: '', stderr });
  });
});

describe('codehealth migrate on the embedded data dir', () => {
  it('reports a missing database without creating it, applies once, then is a no-op', async () => {
    const work = dirs.make();
    const env = { CODEHEALTH_DATA_DIR: 'db' };
    const versions = (await readMigrations()).map((m) => `${m.version}_${m.name}`);
    expect(versions[0]).toBe('0001_initial_schema');

    const before = await runCli(['migrate', 'status'], { cwd: work, env });
    expect(before.code).toBe(0);
    expect(before.stdout).toContain(`Database: embedded database in ${join(work, 'db')}\n`);
    expect(before.stdout).toMatch(/^0001 +initial_schema +pending$/m);
    expect(before.stdout).toContain(`0 applied, ${versions.length} pending (run 'codehealth migrate up')\n`);
    expect(existsSync(join(work, 'db'))).toBe(false);

    const up = await runCli(['migrate', 'up'], { cwd: work, env });
    expect(up.code).toBe(0);
    expect(up.stderr).toBe('');
    expect(up.stdout).toBe(
      `Database: embedded database in ${join(work, 'db')}\n${versions.map((v) => `Applied ${v}\n`).join('')}` +
        `Up to date: applied ${versions.length} migration(s); ${versions.length} in total\n`,
    );
    expect(existsSync(join(work, 'db', 'codehealth.lock'))).toBe(false);

    const again = await runCli(['migrate', 'up'], { cwd: work, env });
    expect(again.stdout).toContain(`Up to date: nothing to apply; ${versions.length} migration(s) already applied\n`);
    expect(again.stdout).not.toContain('Applied ');

    const after = await runCli(['migrate', 'status'], { cwd: work, env });
    expect(after.stdout).toMatch(new RegExp(`^VERSION {2}NAME +APPLIED AT\\n0001 +initial_schema +${ISO}$`, 'm'));
    expect(after.stdout).toContain(`${versions.length} applied, 0 pending\n`);
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
if (!pgUrl) console.warn('codehealth migrate on real Postgres skipped: TEST_DATABASE_URL is not set (start one with test/infra/postgres.sh)');

describe.skipIf(!pgUrl)('codehealth migrate on DATABASE_URL (real Postgres)', () => {
  it('two concurrent migrate up apply each migration exactly once', async () => {
    const db = await freshPostgresDatabase(pgUrl!);
    try {
      const cwd = dirs.make();
      const env = { DATABASE_URL: db.url };
      const host = new URL(db.url);
      const pending = await runCli(['migrate', 'status'], { cwd, env });
      expect(pending.stdout).toContain(`Database: Postgres ${host.host}${host.pathname}\n`);
      expect(pending.stdout).toMatch(/^0001 +initial_schema +pending$/m);

      const [a, b] = await Promise.all([runCli(['migrate', 'up'], { cwd, env }), runCli(['migrate', 'up'], { cwd, env })]);
      expect([a.code, b.code]).toEqual([0, 0]);
      const appliers = [a, b].filter((r) => r.stdout.includes('Applied 0001_initial_schema\n'));
      expect(appliers).toHaveLength(1);
      expect([a, b].filter((r) => r.stdout.includes('nothing to apply'))).toHaveLength(1);

      const store = await PostgresDatabase.connect(db.url, { max: 1 });
      try {
        const rows = await store.query<{ version: string }>('SELECT version FROM schema_migrations ORDER BY version');
        expect(rows.map((row) => row.version)).toEqual((await readMigrations()).map((m) => m.version));
        // A migration edited after it was applied is refused with a clear message, exit 2.
        await store.query("UPDATE schema_migrations SET checksum = 'edited' WHERE version = '0001'");
      } finally {
        await store.close();
      }
      const changed = await runCli(['migrate', 'status'], { cwd, env });
      expect(changed).toEqual({
        code: 2,
        stdout: '',
        stderr: 'codehealth: migration 0001_initial_schema was changed after it was applied; add a new migration instead\n',
      });
    } finally {
      await db.drop();
    }
  });
});
