// The self-hosted store: Postgres through postgres.js (`DATABASE_URL`), pooled, with a statement
// timeout so one runaway query cannot hold a connection forever.
import type { Database, Row, Sql } from './database.js';

type PostgresSql = import('postgres').Sql;
type PostgresTx = import('postgres').TransactionSql;

export interface PostgresOptions {
  /** Pool size (default 10). */
  max?: number;
  /** Statement timeout in milliseconds (default 30 000). */
  statementTimeoutMs?: number;
}

function sqlOf(target: PostgresSql | PostgresTx): Sql {
  return {
    async query<T extends object = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
      const rows = await target.unsafe(text, params as never[], { prepare: true });
      return rows as unknown as T[];
    },
    async exec(script: string): Promise<void> {
      // Without parameters postgres.js uses the simple protocol: several statements are allowed.
      await target.unsafe(script);
    },
  };
}

export class PostgresDatabase implements Database {
  readonly kind = 'postgres' as const;
  private readonly sql: Sql;

  private constructor(private readonly client: PostgresSql) {
    this.sql = sqlOf(client);
  }

  static async connect(url: string, options: PostgresOptions = {}): Promise<PostgresDatabase> {
    const { default: postgres } = await import('postgres');
    const client = postgres(url, {
      max: options.max ?? 10,
      onnotice: () => {},
      connection: { statement_timeout: options.statementTimeoutMs ?? 30_000, application_name: 'codehealth' },
      // int8 (count(*), code-host ids) as a JS number, as PGlite returns it: ids stay below 2^53.
      types: { int8: { to: 20, from: [20], serialize: (value: number) => String(value), parse: (value: string) => Number(value) } },
    });
    const db = new PostgresDatabase(client);
    await db.query('SELECT 1');
    return db;
  }

  query<T extends object = Row>(text: string, params?: readonly unknown[]): Promise<T[]> {
    return this.sql.query<T>(text, params);
  }

  exec(script: string): Promise<void> {
    return this.sql.exec(script);
  }

  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
    return this.client.begin((tx) => fn(sqlOf(tx))) as Promise<T>;
  }

  async close(): Promise<void> {
    await this.client.end({ timeout: 5 });
  }
}
