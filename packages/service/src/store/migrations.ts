// SQL migrations from the package's `migrations/` folder, applied in file-name order inside
// one transaction under an advisory lock: safe to run twice and from two processes at once.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

export interface Migration {
  version: string;
  name: string;
  checksum: string;
  sql: string;
}

export interface MigrationStatus {
  version: string;
  name: string;
  appliedAt: Date | null;
}

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/** The package's own `migrations/` folder (same depth from src/ and dist/; listed in the package's `files`). */
export const DEFAULT_MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** Any key both adapters accept for pg_advisory_xact_lock; "CHMG" in ASCII. */
const MIGRATION_LOCK_KEY = 0x43484d47;
const FILE_PATTERN = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export async function readMigrations(dir = DEFAULT_MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((file) => file.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const match = FILE_PATTERN.exec(file);
    if (!match) throw new MigrationError(`migration file '${file}' must be named NNNN_snake_case_name.sql`);
    const sql = await readFile(`${dir}/${file}`, 'utf8');
    migrations.push({ version: match[1]!, name: match[2]!, checksum: createHash('sha256').update(sql).digest('hex'), sql });
  }
  return migrations;
}

const CREATE_TABLE = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version text PRIMARY KEY,
  name text NOT NULL,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`;

interface AppliedRow extends Record<string, unknown> {
  version: string;
  checksum: string;
  applied_at: Date;
}

async function applied(db: Pick<Database, 'query'>): Promise<Map<string, AppliedRow>> {
  const rows = await db.query<AppliedRow>('SELECT version, checksum, applied_at FROM schema_migrations');
  return new Map(rows.map((row) => [row.version, row]));
}

function checkUnchanged(migration: Migration, row: AppliedRow | undefined): void {
  if (row && row.checksum !== migration.checksum) {
    throw new MigrationError(`migration ${migration.version}_${migration.name} was changed after it was applied; add a new migration instead`);
  }
}

/** Applies the pending migrations; returns the versions applied by this call. */
export async function migrateUp(db: Database, dir = DEFAULT_MIGRATIONS_DIR): Promise<string[]> {
  const migrations = await readMigrations(dir);
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(CREATE_TABLE);
    const done = await applied(tx);
    const appliedNow: string[] = [];
    for (const migration of migrations) {
      checkUnchanged(migration, done.get(migration.version));
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [migration.version, migration.name, migration.checksum]);
      appliedNow.push(migration.version);
    }
    return appliedNow;
  });
}

export async function migrationStatus(db: Database, dir = DEFAULT_MIGRATIONS_DIR): Promise<MigrationStatus[]> {
  const migrations = await readMigrations(dir);
  const exists = await db.query<{ present: boolean }>("SELECT to_regclass('schema_migrations') IS NOT NULL AS present");
  const done = exists[0]?.present ? await applied(db) : new Map<string, AppliedRow>();
  return migrations.map((migration) => {
    const row = done.get(migration.version);
    checkUnchanged(migration, row);
    return { version: migration.version, name: migration.name, appliedAt: row ? new Date(row.applied_at) : null };
  });
}

/** Throws unless every migration is applied: hosts call this before serving. */
export async function assertMigrated(db: Database, dir = DEFAULT_MIGRATIONS_DIR): Promise<void> {
  const pending = (await migrationStatus(db, dir)).filter((status) => !status.appliedAt);
  if (pending.length > 0) {
    throw new MigrationError(
      `the database needs ${pending.length} migration(s) (${pending.map((p) => `${p.version}_${p.name}`).join(', ')}); run 'codehealth migrate up'`,
    );
  }
}
