import { mkdtempSync, writeFileSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PgliteDatabase } from './pglite-database.js';
import { PostgresDatabase } from './postgres-database.js';
import { DEFAULT_MIGRATIONS_DIR, assertMigrated, migrateUp, migrationStatus, readMigrations } from './migrations.js';
import { testPostgresUrl } from './test-database.js';
import type { Database } from './database.js';

const dirs: string[] = [];
function migrationsCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'codehealth-migrations-'));
  dirs.push(dir);
  cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function checkBehaviour(db: Database): Promise<void> {
  const dir = migrationsCopy();
  const all = await readMigrations(dir);
  expect((await migrationStatus(db, dir)).every((s) => s.appliedAt === null)).toBe(true);
  await expect(assertMigrated(db, dir)).rejects.toThrow(/run 'codehealth migrate up'/);
  expect(await migrateUp(db, dir)).toEqual(all.map((m) => m.version));
  expect(await migrateUp(db, dir)).toEqual([]); // idempotent
  await assertMigrated(db, dir);
  const tables = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('projects', 'issues', 'jobs')");
  expect(tables[0]!.n).toBe(3);

  writeFileSync(join(dir, '9999_add_probe.sql'), 'CREATE TABLE probe (id int);');
  expect(await migrateUp(db, dir)).toEqual(['9999']);
  // Editing an applied migration is refused instead of silently diverging.
  writeFileSync(join(dir, '9999_add_probe.sql'), 'CREATE TABLE probe (id bigint);');
  await expect(migrateUp(db, dir)).rejects.toThrow(/was changed after it was applied/);
  writeFileSync(join(dir, 'bad-name.sql'), '');
  await expect(readMigrations(dir)).rejects.toThrow(/must be named NNNN_snake_case_name.sql/);
}

describe('migrations on PGlite', () => {
  it('apply in order, once, and refuse edited or misnamed files', async () => {
    const db = await PgliteDatabase.open();
    try {
      await checkBehaviour(db);
    } finally {
      await db.close();
    }
  });

  it('roll back completely when a migration fails', async () => {
    const db = await PgliteDatabase.open();
    const dir = migrationsCopy();
    writeFileSync(join(dir, '9000_broken.sql'), 'CREATE TABLE half (id int); SELECT no_such_function();');
    try {
      await expect(migrateUp(db, dir)).rejects.toThrow(/no_such_function/);
      const rows = await db.query<{ t: string | null }>("SELECT to_regclass('projects')::text AS t");
      expect(rows[0]!.t).toBeNull();
    } finally {
      await db.close();
    }
  });
});

const url = testPostgresUrl();
describe.skipIf(!url)('migrations on real Postgres', () => {
  it('apply once and are safe from two processes at once (advisory lock)', async () => {
    const admin = await PostgresDatabase.connect(url!, { max: 1 });
    const name = `codehealth_migr_${process.pid}_${Date.now()}`;
    await admin.exec(`CREATE DATABASE ${name}`);
    const target = new URL(url!);
    target.pathname = `/${name}`;
    const a = await PostgresDatabase.connect(target.toString(), { max: 2 });
    const b = await PostgresDatabase.connect(target.toString(), { max: 2 });
    try {
      const [first, second] = await Promise.all([migrateUp(a), migrateUp(b)]);
      const all = (await readMigrations()).map((m) => m.version);
      expect([...first, ...second].sort()).toEqual(all);
      expect(first.length === 0 || second.length === 0).toBe(true);
      const rows = await a.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(rows[0]!.n).toBe(all.length);
      const fresh = await PostgresDatabase.connect(target.toString(), { max: 1 });
      await fresh.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public;');
      await fresh.close();
      await checkBehaviour(a);
    } finally {
      await a.close();
      await b.close();
      await admin.exec(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    }
  });
});
