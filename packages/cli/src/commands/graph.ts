// `codehealth graph rebuild [--project <id>]`: refills the graph store from Postgres (the source
// of truth) — each repository's code graph at the commit of its project's latest completed
// assessment, re-analysed from the repository. For a new or restored Neo4j, or after an upgrade.
import 'reflect-metadata'; // before any engine module: they use tsyringe's decorators
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '@codehealth/engine';
import { defaultCodeHosts, Neo4jGraphStore, Services, staticCodeHosts, JobQueueWorkflowStarter } from '@codehealth/service';
import { rebuildGraphs, RepositoryCheckouts } from '@codehealth/worker';
import { EXIT, UsageError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { assertHostMigrated, HostStartError, openHostStore } from '../host/compose.js';
import { adminStoreConfig, HostConfigError } from '../host/config.js';

export const GRAPH_USAGE = `Usage: codehealth graph rebuild [--project <id>]

Rebuild the graph store from the database: every repository's code graph at the commit of its
project's latest completed assessment, re-analysed from the repository (repository code is never
run). Needed after a new or restored graph database; the graphs are otherwise written by every
assessment.

Environment: DATABASE_URL (else the embedded data dir CODEHEALTH_DATA_DIR), GRAPH_DB_HOST
(+ GRAPH_DB_USER, GRAPH_DB_PASSWORD) for Neo4j (else the database's own tables),
CODEHEALTH_WORK_DIR (mirrors and checkouts, default ~/.cache/codehealth/worker),
CODEHEALTH_ALLOW_LOCAL_REPOS=1 for file:// repositories (always allowed on the embedded data dir).
Progress on stderr; a summary line on stdout; exit 1 when some repository could not be rebuilt.
`;

export async function runGraph(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: { project: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    const message = (error as Error).message;
    if (/argument missing/.test(message)) throw new UsageError("--project needs a project id (see 'codehealth graph --help')");
    const option = /'(?:-\w, )?(--?[^'\s,]+)/.exec(message)?.[1] ?? message.split('\n')[0];
    throw new UsageError(`unknown option '${option}' (see 'codehealth graph --help')`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(GRAPH_USAGE);
    return EXIT.ok;
  }
  if (positionals.length !== 1 || positionals[0] !== 'rebuild')
    throw new UsageError("usage: codehealth graph rebuild [--project <id>] (see 'codehealth graph --help')");
  if (values.project !== undefined && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(values.project))
    throw new UsageError('--project must be a project id (a UUID)');
  const graphHost = io.env.GRAPH_DB_HOST?.trim();
  if (graphHost && !/^[^\s/:]+:\d{1,5}$/.test(graphHost)) throw new HostConfigError('GRAPH_DB_HOST must be host:port');

  const config = adminStoreConfig(io.env, io.cwd, 'codehealth graph rebuild');
  const store = await openHostStore(config);
  const graphStore = graphHost
    ? new Neo4jGraphStore({ address: graphHost, user: io.env.GRAPH_DB_USER?.trim() || undefined, password: io.env.GRAPH_DB_PASSWORD })
    : undefined;
  try {
    await assertHostMigrated(store.db);
    if (graphStore) await graphStore.check().catch((error: Error) => Promise.reject(new HostStartError(error.message)));
    const allowLocal = config.kind === 'embedded' || io.env.CODEHEALTH_ALLOW_LOCAL_REPOS === '1';
    const services = new Services({
      db: store.db,
      workflows: new JobQueueWorkflowStarter(store.db),
      codeHosts: staticCodeHosts(defaultCodeHosts({ allowLocalRepos: allowLocal })),
      options: { allowLocalRepos: allowLocal },
      graphStore,
    });
    const workDir = resolve(io.cwd, io.env.CODEHEALTH_WORK_DIR?.trim() || join(homedir(), '.cache', 'codehealth', 'worker'));
    const engine = await createEngine({ cacheDir: join(workDir, 'cache') });
    const checkouts = new RepositoryCheckouts({ workDir: join(workDir, 'repos'), allowLocal });
    const outcome = await rebuildGraphs({ services, engine, checkouts }, { projectId: values.project, progress: (line) => io.stderr.write(`${line}\n`) });
    const files = outcome.rebuilt.reduce((n, r) => n + r.files, 0);
    io.stdout.write(
      `Rebuilt ${outcome.rebuilt.length} repository graph(s) (${files} files) in ${graphStore ? 'Neo4j' : 'the database'}; ${outcome.failed.length} failed\n`,
    );
    return outcome.failed.length > 0 ? EXIT.belowThreshold : EXIT.ok;
  } finally {
    // Closing the driver cannot fail the rebuild that already happened.
    await Promise.allSettled([graphStore?.close()]);
    await store.close();
  }
}
