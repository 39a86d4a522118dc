// `codehealth cache clear`: empties the Redis cache at CACHE_URL (every `codehealth:` key: cached
// aggregates, rate-limit windows, stale locks of dead processes). Everything in it is derived
// from Postgres and is rebuilt on the next reads; nothing is lost.
import { parseArgs } from 'node:util';
import { RedisCache } from '@codehealth/service';
import { EXIT, UsageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { HostConfigError } from '../host/config.js';

export const CACHE_USAGE = `Usage: codehealth cache clear

Delete every CodeHealth key (prefix codehealth:) from the Redis at CACHE_URL. The cache holds only
data derived from the database (dashboards, statistics, rate-limit windows, locks), rebuilt on use.
The embedded server's cache lives in its process: restart it instead.
`;

export async function runCache(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args: [...argv], strict: false, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    io.stdout.write(CACHE_USAGE);
    return EXIT.ok;
  }
  if (positionals.length !== 1 || positionals[0] !== 'clear' || Object.keys(values).some((key) => key !== 'help')) {
    throw new UsageError("usage: codehealth cache clear (see 'codehealth cache --help')");
  }
  const url = io.env.CACHE_URL?.trim();
  if (!url) throw new HostConfigError('CACHE_URL is not set: nothing to clear (the embedded cache lives in the server process)');
  if (!/^rediss?:\/\//.test(url)) throw new HostConfigError('CACHE_URL must be a redis:// or rediss:// URL');
  const cache = new RedisCache(url);
  try {
    await cache.check();
    const deleted = await cache.deleteByPrefix('');
    io.stdout.write(`Cleared ${deleted} cache key(s); they are rebuilt from the database on use\n`);
  } catch (error) {
    throw new HostConfigError(`cannot clear the cache: ${(error as Error).message}`);
  } finally {
    await cache.close();
  }
  return EXIT.ok;
}
