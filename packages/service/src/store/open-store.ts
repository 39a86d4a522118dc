// Opens the relational store a host is configured for: Postgres when DATABASE_URL is set,
// otherwise the embedded PGlite data dir under an exclusive lock.
import { join } from 'node:path';
import { DataDirLock } from './data-dir-lock.js';
import type { Database } from './database.js';
import { PgliteDatabase } from './pglite-database.js';
import { PostgresDatabase, type PostgresOptions } from './postgres-database.js';

export type StoreConfig =
  { kind: 'postgres'; url: string; options?: PostgresOptions } | { kind: 'embedded'; dataDir: string; command: string } | { kind: 'memory' };

export interface OpenStore {
  db: Database;
  /** Held for the embedded data dir; released by close(). */
  lock?: DataDirLock;
  close(): Promise<void>;
}

/** Where PGlite keeps its files inside CODEHEALTH_DATA_DIR. */
export const pgliteDirOf = (dataDir: string): string => join(dataDir, 'pgdata');

export async function openStore(config: StoreConfig): Promise<OpenStore> {
  if (config.kind === 'postgres') {
    const db = await PostgresDatabase.connect(config.url, config.options);
    return { db, close: () => db.close() };
  }
  if (config.kind === 'memory') {
    const db = await PgliteDatabase.open();
    return { db, close: () => db.close() };
  }
  const lock = DataDirLock.acquire(config.dataDir, config.command);
  try {
    const db = await PgliteDatabase.open(pgliteDirOf(config.dataDir));
    return {
      db,
      lock,
      async close() {
        try {
          await db.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}
