// Fresh, migrated databases for tests, fast: PGlite instances load a migrated data dir dumped
// once (~1 s instead of ~5 s initdb + migrations); Postgres databases are copied from a migrated
// template database (`CREATE DATABASE ... TEMPLATE`, ~0.1 s). A test run's globalSetup prepares
// both once for all files (prepareTestTemplates) and names them in the environment; without it,
// each process prepares its own on first use.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import type { Database } from './database.js';
import { isAlive } from './data-dir-lock.js';
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

/** A file holding a migrated PGlite data dir (a `dumpDataDir` tarball), prepared by prepareTestTemplates. */
export const PGLITE_TEMPLATE_ENV = 'CODEHEALTH_TEST_PGLITE_TEMPLATE';
/** A migrated Postgres database on TEST_DATABASE_URL's server that test databases are copied from. */
export const POSTGRES_TEMPLATE_ENV = 'CODEHEALTH_TEST_POSTGRES_TEMPLATE';

async function migratedPgliteDump(): Promise<Blob> {
  const template = await PgliteDatabase.open();
  try {
    await migrateUp(template);
    return await template.pg.dumpDataDir('none');
  } finally {
    await template.close();
  }
}

let pgliteDump: Promise<Blob> | undefined;

async function createPglite(): Promise<TestDatabase> {
  const prepared = process.env[PGLITE_TEMPLATE_ENV];
  pgliteDump ??= prepared ? readFile(prepared).then((bytes) => new Blob([bytes])) : migratedPgliteDump();
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PgliteDatabase(await PGlite.create({ loadDataDir: await pgliteDump }));
  return { db, dispose: () => db.close() };
}

let postgresTemplate: Promise<string> | undefined = process.env[POSTGRES_TEMPLATE_ENV] ? Promise.resolve(process.env[POSTGRES_TEMPLATE_ENV]) : undefined;

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

const TEMPLATE_PREFIX = 'codehealth_tpl_';
const DATABASE_PREFIX = 'codehealth_test_';
/** The CLI's process tests' databases (packages/cli/src/fixtures/cli-process.ts). */
const CLI_DATABASE_PREFIX = 'codehealth_cli_';

/**
 * Drops the test databases and templates whose process has ended (their names carry its pid): a
 * test file run on its own, without the globalSetup that drops its template at the end, leaves a
 * template behind, and a killed run its databases. Meant for the throw-away server of the test
 * infrastructure, on this machine (a pid is only known here).
 */
export async function dropOrphanedTestDatabases(admin: Database): Promise<string[]> {
  const rows = await admin.query<{ name: string }>(
    'SELECT datname AS name FROM pg_database WHERE starts_with(datname, $1) OR starts_with(datname, $2) OR starts_with(datname, $3)',
    [TEMPLATE_PREFIX, DATABASE_PREFIX, CLI_DATABASE_PREFIX],
  );
  const dropped: string[] = [];
  for (const { name } of rows) {
    const pid = Number(/^codehealth_(?:tpl|test|cli)_(\d+)_[0-9a-z]+$/.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || isAlive(pid)) continue;
    await databaseStatement(admin, 'DROP DATABASE IF EXISTS %I WITH (FORCE)', name);
    dropped.push(name);
  }
  return dropped;
}

async function migratedPostgresTemplate(admin: Database, url: string): Promise<string> {
  await dropOrphanedTestDatabases(admin);
  const name = `${TEMPLATE_PREFIX}${process.pid}_${randomBytes(3).toString('hex')}`;
  await databaseStatement(admin, 'CREATE DATABASE %I', name);
  const template = await PostgresDatabase.connect(withDatabase(url, name), { max: 1 });
  try {
    await migrateUp(template);
  } finally {
    await template.close();
  }
  return name;
}

async function createPostgres(url: string): Promise<TestDatabase> {
  const admin = await PostgresDatabase.connect(url, { max: 1 });
  try {
    postgresTemplate ??= migratedPostgresTemplate(admin, url);
    const template = await postgresTemplate;
    const name = `${DATABASE_PREFIX}${process.pid}_${randomBytes(6).toString('hex')}`;
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

export interface TestTemplates {
  /** Environment variables naming the templates, for the processes that run the tests. */
  env: Record<string, string>;
  /** Drops the Postgres template (the PGlite file is the caller's to remove). */
  dispose(): Promise<void>;
}

/**
 * Migrates the test templates once for a whole test run (a vitest globalSetup): a PGlite dump
 * written to `pgliteFile`, and a Postgres template database when TEST_DATABASE_URL is set. Each
 * createTestDatabase then starts from a copy — still a fresh database of its own.
 */
export async function prepareTestTemplates(pgliteFile: string): Promise<TestTemplates> {
  const url = testPostgresUrl();
  const [dump, postgres] = await Promise.all([
    migratedPgliteDump(),
    url
      ? (async () => {
          const admin = await PostgresDatabase.connect(url, { max: 1 });
          try {
            return await migratedPostgresTemplate(admin, url);
          } finally {
            await admin.close();
          }
        })()
      : undefined,
  ]);
  await writeFile(pgliteFile, Buffer.from(await dump.arrayBuffer()));
  const env: Record<string, string> = { [PGLITE_TEMPLATE_ENV]: pgliteFile };
  if (postgres) env[POSTGRES_TEMPLATE_ENV] = postgres;
  return {
    env,
    async dispose() {
      if (!url || !postgres) return;
      const admin = await PostgresDatabase.connect(url, { max: 1 });
      try {
        await databaseStatement(admin, 'DROP DATABASE IF EXISTS %I WITH (FORCE)', postgres);
      } finally {
        await admin.close();
      }
    },
  };
}
