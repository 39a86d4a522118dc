// `codehealth keys create --email <email> [--name <label>]`: creates the user when missing and an
// API key, and prints exactly one JSON object on stdout: {"user_id","email","key_id","key"}.
// Works on DATABASE_URL when set, else on the embedded data dir — through the running embedded
// server when it holds the dir (PGlite allows one process), or directly under the dir's lock.
import 'reflect-metadata'; // before any engine module: they use tsyringe's decorators
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { assertMigrated, migrateUp, readLockOwner, type LockOwner } from '@codehealth/service';
import { EXIT, UsageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { createUserKey, parseAdminKeyInput, requestKeyFromServer, type AdminEndpoint, type CreatedUserKey } from '../host/admin-keys.js';
import { EMBEDDED_COMMAND, HostStartError, openHostStore } from '../host/compose.js';
import { adminStoreConfig } from '../host/config.js';

export const KEYS_USAGE = `Usage: codehealth keys create --email <email> [--name <label>]

Create an API key for the user with this email (the user is created when missing) and print one
JSON object on stdout: {"user_id": ..., "email": ..., "key_id": ..., "key": ...}. The key is shown
only this once.

Works on DATABASE_URL when it is set, otherwise on the embedded data directory
(CODEHEALTH_DATA_DIR, default ./.codehealth) — through the running 'codehealth serve --embedded'
when there is one.

Options:
      --email <email>   the user's email address (required)
      --name <label>    a label for the key (default: cli)
  -h, --help            show this help
`;

interface KeysArgs {
  help: boolean;
  email?: string;
  name?: string;
}

function parseKeysArgs(argv: readonly string[]): KeysArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: { email: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? '';
    const option = /'(?:-\w, )?(--?[^'\s,]+)/.exec(message)?.[1] ?? message;
    if ((error as { code?: string }).code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new UsageError(`option '${option}' needs a value`);
    throw new UsageError(`unknown option '${option}' (see 'codehealth keys --help')`);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true };
  const [sub, ...extra] = positionals;
  if (sub === undefined) throw new UsageError("missing sub-command: 'codehealth keys create --email <email>'");
  if (sub !== 'create') throw new UsageError(`unknown keys sub-command '${sub}' (only 'create')`);
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}' (see 'codehealth keys --help')`);
  if (values.email === undefined) throw new UsageError("missing --email: 'codehealth keys create --email <email>'");
  return { help: false, email: values.email, name: values.name };
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

const sameMachine = (owner: LockOwner): boolean => owner.hostname === hostname() && isAlive(owner.pid);

/**
 * The running embedded server's admin endpoint, if one holds the dir. A server that is still
 * starting (first start: initdb and migrations take seconds) is waited for briefly.
 */
async function runningServer(dataDir: string, waitMs = 30_000): Promise<AdminEndpoint | undefined> {
  for (const deadline = Date.now() + waitMs; ;) {
    const owner = readLockOwner(dataDir);
    if (!owner || !sameMachine(owner)) return undefined;
    if (owner.url && owner.adminToken) return { url: owner.url, adminToken: owner.adminToken };
    if (owner.command !== EMBEDDED_COMMAND || Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const unreachable = (error: unknown): boolean =>
  error instanceof TypeError && /ECONNREFUSED|ECONNRESET|fetch failed/.test(`${error.message} ${String((error as { cause?: unknown }).cause)}`);

async function createDirectly(io: CliIo, input: { email: string; name: string }): Promise<CreatedUserKey> {
  const config = adminStoreConfig(io.env, io.cwd, 'codehealth keys create');
  const store = await openHostStore(config);
  try {
    if (config.kind === 'embedded') await migrateUp(store.db);
    else {
      await assertMigrated(store.db).catch((error: Error) => {
        throw error.name === 'MigrationError' ? new HostStartError(error.message) : error;
      });
    }
    return await createUserKey(store.db, input);
  } finally {
    await store.close();
  }
}

export async function runKeys(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseKeysArgs(argv);
  if (args.help) {
    io.stdout.write(KEYS_USAGE);
    return EXIT.ok;
  }
  // Validated before touching any store, so a typo is reported the same way everywhere.
  let input;
  try {
    input = parseAdminKeyInput({ email: args.email, name: args.name });
  } catch (error) {
    throw new UsageError(`invalid --${(error as Error).message}`);
  }
  let created: CreatedUserKey | undefined;
  const config = adminStoreConfig(io.env, io.cwd, 'codehealth keys create');
  if (config.kind === 'embedded') {
    const endpoint = await runningServer(config.dataDir);
    if (endpoint) {
      try {
        created = await requestKeyFromServer(endpoint, input);
      } catch (error) {
        // A server killed without cleanup leaves its lock behind; the lock's own stale check decides.
        if (!unreachable(error)) throw error;
      }
    }
  }
  created ??= await createDirectly(io, input);
  const { user_id, email, key_id, key } = created;
  io.stdout.write(`${JSON.stringify({ user_id, email, key_id, key })}\n`);
  return EXIT.ok;
}
