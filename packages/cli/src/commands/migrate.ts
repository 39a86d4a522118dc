// `codehealth migrate up|status`: applies or lists the SQL migrations on DATABASE_URL, or on the
// embedded data dir under its lock. `up` is idempotent and safe to run concurrently on Postgres
// (the migrator holds an advisory lock for the whole transaction).
import 'reflect-metadata'; // before any engine module: they use tsyringe's decorators
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { migrateUp, migrationStatus, pgliteDirOf, readMigrations, type MigrationStatus, type StoreConfig } from '@codehealth/service';
import { EXIT, UsageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { HostStartError, openHostStore } from '../host/compose.js';
import { adminStoreConfig } from '../host/config.js';

export const MIGRATE_USAGE = `Usage: codehealth migrate up|status

  up       apply the pending migrations (idempotent; safe to run from several processes at once)
  status   list every migration with the time it was applied, or 'pending'

Works on DATABASE_URL when it is set, otherwise on the embedded data directory
(CODEHEALTH_DATA_DIR, default ./.codehealth), which must not be in use by a running server
('codehealth serve --embedded' applies its migrations itself on start).

Options:
  -h, --help   show this help
`;

function parseMigrateArgs(argv: readonly string[]): { action?: 'up' | 'status'; help: boolean } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    const option = /'(?:-\w, )?(--?[^'\s,]+)/.exec((error as Error).message)?.[1] ?? (error as Error).message.split('\n')[0];
    throw new UsageError(`unknown option '${option}' (see 'codehealth migrate --help')`);
  }
  if (parsed.values.help) return { help: true };
  const [action, ...extra] = parsed.positionals;
  if (action === undefined) throw new UsageError("missing sub-command: 'codehealth migrate up' or 'codehealth migrate status'");
  if (action !== 'up' && action !== 'status') throw new UsageError(`unknown migrate sub-command '${action}' (expected up or status)`);
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}' (see 'codehealth migrate --help')`);
  return { action, help: false };
}

/** Where the command works, without credentials: `host:port/database` or the data dir. */
function describeTarget(config: StoreConfig): string {
  if (config.kind === 'postgres') {
    try {
      const url = new URL(config.url);
      return `Postgres ${url.host}${url.pathname}`;
    } catch {
      return 'Postgres (DATABASE_URL)';
    }
  }
  return config.kind === 'embedded' ? `embedded database in ${config.dataDir}` : 'in-memory database';
}

const asStartError = (error: unknown): unknown => (error instanceof Error && error.name === 'MigrationError' ? new HostStartError(error.message) : error);

function table(statuses: readonly MigrationStatus[]): string {
  const rows = [['VERSION', 'NAME', 'APPLIED AT'], ...statuses.map((s) => [s.version, s.name, s.appliedAt ? s.appliedAt.toISOString() : 'pending'])];
  const widths = [0, 1].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => `${row[0]!.padEnd(widths[0]!)}  ${row[1]!.padEnd(widths[1]!)}  ${row[2]}`).join('\n');
}

async function status(io: CliIo, config: StoreConfig): Promise<void> {
  let statuses: MigrationStatus[];
  if (config.kind === 'embedded' && !existsSync(pgliteDirOf(config.dataDir))) {
    // Not created yet: report it rather than creating a database as a side effect of a query.
    statuses = (await readMigrations()).map((m) => ({ version: m.version, name: m.name, appliedAt: null }));
  } else {
    const store = await openHostStore(config);
    try {
      statuses = await migrationStatus(store.db).catch((error) => Promise.reject(asStartError(error)));
    } finally {
      await store.close();
    }
  }
  const pending = statuses.filter((s) => !s.appliedAt).length;
  io.stdout.write(`Database: ${describeTarget(config)}\n${table(statuses)}\n`);
  io.stdout.write(`${statuses.length - pending} applied, ${pending} pending${pending > 0 ? " (run 'codehealth migrate up')" : ''}\n`);
}

async function up(io: CliIo, config: StoreConfig): Promise<void> {
  const store = await openHostStore(config);
  let applied: string[];
  let statuses: MigrationStatus[];
  try {
    applied = await migrateUp(store.db).catch((error) => Promise.reject(asStartError(error)));
    statuses = await migrationStatus(store.db);
  } finally {
    await store.close();
  }
  const total = statuses.length;
  io.stdout.write(`Database: ${describeTarget(config)}\n`);
  for (const s of statuses.filter((m) => applied.includes(m.version))) io.stdout.write(`Applied ${s.version}_${s.name}\n`);
  io.stdout.write(
    applied.length > 0
      ? `Up to date: applied ${applied.length} migration(s); ${total} in total\n`
      : `Up to date: nothing to apply; ${total} migration(s) already applied\n`,
  );
}

export async function runMigrate(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseMigrateArgs(argv);
  if (args.help || !args.action) {
    io.stdout.write(MIGRATE_USAGE);
    return EXIT.ok;
  }
  const config = adminStoreConfig(io.env, io.cwd, `codehealth migrate ${args.action}`);
  await (args.action === 'up' ? up(io, config) : status(io, config));
  return EXIT.ok;
}
