// The `codehealth` command: dispatches to a sub-command and turns every failure into one line on
// stderr and a documented exit code.
import { readFileSync } from 'node:fs';
import { EXIT } from './exit-codes.js';
import { processIo, type CliIo } from './io.js';

export const USAGE = `Usage: codehealth <command> [options]

Commands:
  analyze [dir]    assess the code health of a directory and print a report
  review [dir]     analyse a change like a pull request: what it adds and fixes (--base <ref>)
  serve            start the REST API server (self-hosted; needs the spec's variables)
  serve --embedded start the REST API server with an embedded database and the dashboard (npm start)
  web              serve the web dashboard of a self-hosted deployment (BACKEND_URL)
  keys create      create an API key: keys create --email <email> [--name <label>]
  migrate up       apply the database migrations (DATABASE_URL or the embedded data dir)
  migrate status   list the migrations and whether each is applied
  cache clear      empty the Redis cache at CACHE_URL (derived data, rebuilt on use)
  graph rebuild    refill the graph store from the database's latest assessments
  worker           run workflows from the Temporal task queue (self-hosted replicas)

Options:
  -h, --help       show this help
  -v, --version    show the version

Run 'codehealth <command> --help' for the options of a command.
`;

/** Errors whose message is meant for the user; everything else is a bug of ours. */
const USER_ERRORS = new Set(['UsageError', 'SnapshotError', 'ConfigError', 'PluginLoadError']);

function version(): string {
  // The same relative path holds from src (tests) and dist (the built bin).
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

const oneLine = (text: string): string => text.replace(/\s*\r?\n\s*/g, ' ').trim();

function reportError(error: unknown, io: CliIo): number {
  if (error instanceof Error && error.name === 'AbortError') {
    io.stderr.write('codehealth: interrupted\n');
    return EXIT.interrupted;
  }
  if (error instanceof Error && (USER_ERRORS.has(error.name) || (error as { expose?: unknown }).expose === true)) {
    io.stderr.write(`codehealth: ${oneLine(error.message)}\n`);
    return EXIT.usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr.write(`codehealth: internal error: ${oneLine(message)}\n`);
  if (io.env.CODEHEALTH_DEBUG === '1' && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  return EXIT.internal;
}

export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case undefined:
        io.stderr.write(USAGE);
        return EXIT.usage;
      case '-h':
      case '--help':
        io.stdout.write(USAGE);
        return EXIT.ok;
      case '-v':
      case '--version':
        io.stdout.write(`${version()}\n`);
        return EXIT.ok;
      case 'analyze': {
        // Loaded on demand: `--help` and `--version` need not load the engine and its parsers.
        const { runAnalyze } = await import('./commands/analyze.js');
        return await runAnalyze(rest, io);
      }
      case 'review': {
        const { runReview } = await import('./commands/review.js');
        return await runReview(rest, io);
      }
      case 'serve': {
        const { runServe } = await import('./commands/serve.js');
        return await runServe(rest, io);
      }
      case 'web': {
        const { runWeb } = await import('./commands/web.js');
        return await runWeb(rest, io);
      }
      case 'worker': {
        const { runWorker } = await import('./commands/worker.js');
        return await runWorker(rest, io);
      }
      case 'keys': {
        const { runKeys } = await import('./commands/keys.js');
        return await runKeys(rest, io);
      }
      case 'graph': {
        const { runGraph } = await import('./commands/graph.js');
        return await runGraph(rest, io);
      }
      case 'cache': {
        const { runCache } = await import('./commands/cache.js');
        return await runCache(rest, io);
      }
      case 'migrate': {
        const { runMigrate } = await import('./commands/migrate.js');
        return await runMigrate(rest, io);
      }
      default: {
        const what = command.startsWith('-') ? 'option' : 'command';
        io.stderr.write(`codehealth: unknown ${what} '${command}'\n${USAGE}`);
        return EXIT.usage;
      }
    }
  } catch (error) {
    return reportError(error, io);
  }
}
