// Fresh, migrated databases for tests, fast: PGlite instances load a migrated data dir dumped
// once per process (~1 s instead of ~5 s initdb + migrations); Postgres databases are copied from
// a migrated template database (`CREATE DATABASE ... TEMPLATE`, ~0.1 s).
import { randomBytes } from 'node:crypto';
import type { Database } from './database.js';
import { migrateUp } from './migrations.js';
import { PgliteDatabase } from './pglite-database.js';
import { PostgresDatabase } from './postgres-database.js';

export type TestStoreKind = 'pglite' | 'postgres';

export interface TestDatabase {
  db: Database;
  /** Closes the connection and drops the database (Postgres). */
  dispose(): Promise<void>;
}

/** The Postgres server used by integration suites, when the test infrastructure started one. */
export const testPostgresUrl = (): string | undefined => process.env.TEST_DATABASE_URL || undefined;

let pgliteDump: Promise<Blob> | undefined;

async function createPglite(): Promise<TestDatabase> {
  pgliteDump ??= (async () => {
    const template = await PgliteDatabase.open();
    await migrateUp(template);
    const dump = await template.pg.dumpDataDir('none');
    await template.close();
    return dump;
  })();
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PgliteDatabase(await PGlite.create({ loadDataDir: await pgliteDump }));
  return { db, dispose: () => db.close() };
}

let postgresTemplate: Promise<string> | undefined;

/** Runs a database-level statement with identifiers quoted by the server (`format('%I')`), never spliced in by us. */
async function databaseStatement(db: Database, template: string, first: string, second: string | null = null): Promise<void> {
  const [row] = await db.query<{ statement: string }>('SELECT format($1::text, $2::text, $3::text) AS statement', [template, first, second]);
  await db.exec(row!.statement);
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function createPostgres(url: string): Promise<TestDatabase> {
  const admin = await PostgresDatabase.connect(url, { max: 1 });
  try {
    postgresTemplate ??= (async () => {
      const name = `codehealth_tpl_${process.pid}_${randomBytes(3).toString('hex')}`;
      await databaseStatement(admin, 'CREATE DATABASE %I', name);
      const template = await PostgresDatabase.connect(withDatabase(url, name), { max: 1 });
      try {
        await migrateUp(template);
      } finally {
        await template.close();
      }
      return name;
    })();
    const template = await postgresTemplate;
    const name = `codehealth_test_${randomBytes(6).toString('hex')}`;
    await databaseStatement(admin, 'CREATE DATABASE %I TEMPLATE %I', name, template);
    const db = await PostgresDatabase.connect(withDatabase(url, name), { max: 4 });
    return {
      db,
      async dispose() {
        await db.close();
        const cleanup = await PostgresDatabase.connect(url, { max: 1 });
        try {
          await databaseStatement(cleanup, 'DROP DATABASE IF EXISTS %I WITH (FORCE)', name);
        } finally {
          await cleanup.close();
        }
      },
    };
  } finally {
    await admin.close();
  }
}

/** A fresh migrated database of the given kind; `postgres` needs TEST_DATABASE_URL. */
export async function createTestDatabase(kind: TestStoreKind = 'pglite'): Promise<TestDatabase> {
  if (kind === 'pglite') return createPglite();
  const url = testPostgresUrl();
  if (!url) throw new Error('TEST_DATABASE_URL is not set: start Postgres with test/infra/postgres.sh');
  return createPostgres(url);
}
