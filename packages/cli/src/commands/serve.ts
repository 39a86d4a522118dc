// `codehealth serve [--embedded]`: the REST API server. Self-hosted mode needs the spec's variables
// and a migrated Postgres; embedded mode needs nothing and keeps its data in CODEHEALTH_DATA_DIR.
// Runs until SIGINT or SIGTERM, then shuts down gracefully and exits 0.
import 'reflect-metadata'; // before any engine module: they use tsyringe's decorators
import { parseArgs } from 'node:util';
import { EXIT, UsageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { startHost, type Host } from '../host/compose.js';
import { readEmbeddedConfig, readSelfHostedConfig, type HostConfig } from '../host/config.js';
import { DEFAULT_OWNER_EMAIL } from '../host/local-sign-in.js';

export const SERVE_USAGE = `Usage: codehealth serve [--embedded]

Start the REST API server (/api/v1, /healthz, /health/detailed); embedded, also the web dashboard (/).

  codehealth serve              self-hosted: needs every variable of the spec's deployment
                                section (DATABASE_URL, CACHE_URL, SECRET_KEY, ...) and a database
                                prepared with 'codehealth migrate up'
  codehealth serve --embedded   no external service: an embedded Postgres (PGlite) in
                                CODEHEALTH_DATA_DIR (default ./.codehealth), migrated on start;
                                accepts file:// repositories; this is 'npm start'

Environment: PORT (default 8080), HOST (default 127.0.0.1 embedded, 0.0.0.0 self-hosted),
WORKER_TASK_QUEUE (self-hosted: the Temporal task queue of the workers, default codehealth),
IDP_AUDIENCE (self-hosted: the aud identity-provider tokens must name, comma-separated;
unset, tokens naming an audience are refused),
CORS_ORIGINS (comma-separated origins or *), CODEHEALTH_DATA_DIR (embedded),
CODEHEALTH_OWNER_EMAIL (embedded: the user the dashboard's one-time sign-in link signs in,
default owner@codehealth.localhost),
CODEHEALTH_PLUGINS (embedded: the analyzer plugin packages to run, comma-separated npm names),
RATE_LIMIT_PER_MINUTE (requests per API key and minute, default 600; 0 turns limiting off;
self-hosted replicas count together in Redis), RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE (requests
without valid credentials per client address and minute, default 120; 0 turns it off),
TRUSTED_PROXIES (reverse proxies whose X-Forwarded-For names the client: addresses, CIDR ranges
or loopback, comma-separated; unset, the TCP peer is the client),
CODEHEALTH_MAX_ISSUES_PER_RULE (issues listed per rule and repository of an assessment, the
rest summed up in one record; default 1000), CODEHEALTH_ISSUE_RETENTION_RUNS (assessments per
project that keep their full issue list, default 10), CODEHEALTH_QUEUE_LIMIT_PER_USER and
CODEHEALTH_QUEUE_LIMIT_PER_PROJECT (embedded: runs one user or project may have queued or
running, default 20 and 10); 0 turns any of these off.

Options:
      --embedded   run without external services
  -h, --help       show this help

Stops gracefully on Ctrl-C or SIGTERM (exit 0). Exit codes: 2 bad configuration, a held data
directory, an unreachable or unmigrated database or a port in use; 70 internal error.
`;

function parseServeArgs(argv: readonly string[]): { embedded: boolean; help: boolean } {
  try {
    const { values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: { embedded: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
    return { embedded: values.embedded === true, help: values.help === true };
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? '';
    const option = /'(--?[^'\s,]+)'/.exec(message)?.[1];
    if ((error as { code?: string }).code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
      throw new UsageError(`serve takes no arguments (see 'codehealth serve --help')`);
    }
    throw new UsageError(`unknown option '${option ?? message}' (see 'codehealth serve --help')`);
  }
}

/** Resolves on the first SIGINT (via the CLI's interrupt hook) or SIGTERM; `dispose` unsubscribes. */
export function stopRequested(io: CliIo): { signal: Promise<string>; dispose(): void } {
  let dispose = (): void => {};
  const signal = new Promise<string>((resolve) => {
    const onTerm = () => resolve('SIGTERM');
    const stopInterrupt = io.onInterrupt(() => resolve('SIGINT'));
    process.once('SIGTERM', onTerm);
    dispose = () => {
      stopInterrupt();
      process.off('SIGTERM', onTerm);
    };
  });
  return { signal, dispose };
}

function banner(config: HostConfig, host: Host): string {
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const lines = [
    `CodeHealth API listening on ${host.url}${wildcard ? ` (all interfaces, ${config.host})` : ''}`,
    `  REST API:  ${host.url}/api/v1   OpenAPI document: ${host.url}/api/v1/openapi.json`,
    `  Health:    ${host.url}/healthz`,
  ];
  if (config.mode === 'embedded') {
    lines.splice(1, 0, `  Dashboard: ${host.url}/`);
    if (host.signInLink) lines.splice(2, 0, `  Sign in:   ${host.signInLink}   (one-time link for ${config.ownerEmail ?? DEFAULT_OWNER_EMAIL})`);
    lines.push(`  Data:      ${config.dataDir} (embedded Postgres)`);
    lines.push(
      host.adminAdvertised
        ? '  Get an API key (in another terminal, same directory):  npx codehealth keys create --email you@example.com'
        : `  API keys:  HOST ${config.host} is not reachable on loopback; stop the server and run 'npx codehealth keys create --email you@example.com'`,
    );
  } else {
    lines.push('  Get an API key:  npx codehealth keys create --email you@example.com   (with the same DATABASE_URL)');
  }
  lines.push('Press Ctrl-C to stop.');
  return `${lines.join('\n')}\n`;
}

export async function runServe(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseServeArgs(argv);
  if (args.help) {
    io.stdout.write(SERVE_USAGE);
    return EXIT.ok;
  }
  const config = args.embedded ? readEmbeddedConfig(io.env, io.cwd) : readSelfHostedConfig(io.env);
  // Listen for stop signals before anything slow starts, so an early Ctrl-C is not lost.
  const stop = stopRequested(io);
  try {
    const log = (line: string) => void io.stderr.write(`${line}\n`);
    const host = await startHost(config, { log });
    io.stdout.write(banner(config, host));
    const signal = await stop.signal;
    io.stderr.write(`codehealth: ${signal} received, finishing in-flight requests and stopping\n`);
    await host.close();
  } finally {
    stop.dispose();
  }
  io.stderr.write('codehealth: stopped\n');
  return EXIT.ok;
}
