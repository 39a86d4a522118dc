// The embedded store: real Postgres compiled to WASM (PGlite), in process, nothing to install.
// PGlite takes no lock of its own; whoever opens a data dir must hold a DataDirLock first.
import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Database, Row, Sql } from './database.js';

/**
 * PGlite runs Postgres single-user: no background checkpointer, so the WAL grows to `max_wal_size`
 * (1 GB by default) before a checkpoint recycles it — most of a large assessment's growth of the
 * data dir. A small WAL keeps the directory near the size of its tables; checkpoints come more
 * often, each short (fsync is off in PGlite).
 */
export const EMBEDDED_WAL_SETTINGS = ['-c', 'max_wal_size=64MB', '-c', 'min_wal_size=32MB'];

function sqlOf(target: PGlite | Transaction): Sql {
  return {
    async query<T extends object = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
      const result = await target.query<T>(text, params as unknown[]);
      return result.rows;
    },
    async exec(script: string): Promise<void> {
      await target.exec(script);
    },
  };
}

export class PgliteDatabase implements Database {
  readonly kind = 'pglite' as const;
  private readonly sql: Sql;

  constructor(readonly pg: PGlite) {
    this.sql = sqlOf(pg);
  }

  /** Opens (creating on first use) a data dir, or an in-memory database when `dataDir` is absent. */
  static async open(dataDir?: string): Promise<PgliteDatabase> {
    const { PGlite } = await import('@electric-sql/pglite');
    const startParams = [...PGlite.defaultStartParams, ...EMBEDDED_WAL_SETTINGS];
    const pg = dataDir ? await PGlite.create(dataDir, { startParams }) : await PGlite.create({ startParams });
    return new PgliteDatabase(pg);
  }

  query<T extends object = Row>(text: string, params?: readonly unknown[]): Promise<T[]> {
    return this.sql.query<T>(text, params);
  }

  exec(script: string): Promise<void> {
    return this.sql.exec(script);
  }

  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return this.pg.transaction((tx) => fn(sqlOf(tx)));
  }

  async close(): Promise<void> {
    if (!this.pg.closed) await this.pg.close();
  }
}
