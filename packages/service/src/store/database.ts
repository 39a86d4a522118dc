// The relational-store port: the two adapters (PGlite embedded, Postgres via postgres.js) speak
// it, and every application service is written against it. Queries use $1-style parameters.

export type Row = Record<string, unknown>;

export interface Sql {
  /** One statement with $n parameters; returns the rows. */
  query<T extends object = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
  /** A script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

export interface Database extends Sql {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A failure of the store itself (connection, timeout): callers report 500/503, not 4xx. */
export class StoreError extends Error {
  override readonly name = 'StoreError';
}

/** Postgres SQLSTATE of an error thrown by either adapter, when it has one. */
export function sqlState(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

export const UNIQUE_VIOLATION = '23505';
export const FOREIGN_KEY_VIOLATION = '23503';
