// The test-database helpers on a real Postgres: a template or test database left behind by a
// process that has ended (a file run without the globalSetup that drops its template, a killed run)
// is dropped by the next run that prepares a template; those of a process that still runs are kept.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PostgresDatabase } from './postgres-database.js';
import { dropOrphanedTestDatabases, testPostgresUrl } from './test-database.js';

const url = testPostgresUrl();
if (!url) console.warn('test-database suite on Postgres skipped: TEST_DATABASE_URL is not set (start one with test/infra/postgres.sh)');

/** The pid of a process that has already exited. */
function endedPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe.skipIf(!url)('dropOrphanedTestDatabases', () => {
  it('drops templates of processes that have ended and keeps the running ones', async () => {
    const admin = await PostgresDatabase.connect(url!, { max: 1 });
    const suffix = randomBytes(3).toString('hex');
    const ended = endedPid();
    const orphans = [`codehealth_tpl_${ended}_${suffix}`, `codehealth_test_${ended}_${suffix}`, `codehealth_cli_${ended}_${suffix}`];
    const live = [`codehealth_tpl_${process.pid}_${suffix}`, `codehealth_test_${process.pid}_${suffix}`];
    const unrelated = [`codehealth_tplx_${ended}_${suffix}`, `codehealth_other_${ended}_${suffix}`];
    const all = [...orphans, ...live, ...unrelated];
    try {
      for (const name of all) await admin.exec(`CREATE DATABASE ${name}`);
      const dropped = await dropOrphanedTestDatabases(admin);
      expect(dropped).toEqual(expect.arrayContaining(orphans));
      const left = (await admin.query<{ name: string }>('SELECT datname AS name FROM pg_database WHERE datname = ANY($1)', [all])).map((r) => r.name);
      expect(left.sort()).toEqual([...live, ...unrelated].sort());
    } finally {
      for (const name of all) await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    }
  });
});
