// The self-hosted deployment end to end, as processes: `codehealth migrate up`, `codehealth serve`
// and two `codehealth worker` replicas on the real servers the test infrastructure starts
// (Postgres, Temporal, and Redis/Neo4j when configured), completing an onboarding, an assessment
// and a pull-request analysis through the REST API.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedGraphStore, Neo4jGraphStore, PostgresDatabase } from '@codehealth/service';
import { freshPostgresDatabase, runCli, startServer, tempDirs, type ServerProcess } from '../../packages/cli/src/fixtures/cli-process.js';
import { poll, selfHostedEnv, startWorker, type WorkerProcess } from '../workflows/fixtures/processes.js';
import { createGitRepo } from '../helpers/git-repo.js';

const pg = process.env.TEST_DATABASE_URL;
const temporal = process.env.TEST_TEMPORAL_ADDRESS;
const ready = Boolean(pg && temporal);
if (!ready) console.warn('self-hosted end-to-end suite skipped: needs TEST_DATABASE_URL and TEST_TEMPORAL_ADDRESS (test/infra/*.sh start)');

describe.skipIf(!ready)('self-hosted deployment: serve + two workers on real services', () => {
  const dirs = tempDirs();
  let db: { url: string; drop(): Promise<void> };
  let server: ServerProcess;
  const workers: WorkerProcess[] = [];
  let env: Record<string, string>;
  let key: string;

  beforeAll(async () => {
    db = await freshPostgresDatabase(pg!);
    const cwd = dirs.make();
    env = selfHostedEnv(cwd, { databaseUrl: db.url, temporal: temporal!, taskQueue: `codehealth-e2e-${randomUUID()}` });
    expect((await runCli(['migrate', 'up'], { cwd, env })).code).toBe(0);
    server = await startServer([], { cwd, env });
    for (let i = 0; i < 2; i++) workers.push(await startWorker(cwd, { ...env, CODEHEALTH_WORK_DIR: dirs.make('codehealth-worker-') }));
    const created = await runCli(['keys', 'create', '--email', 'ops@example.com'], { cwd, env });
    key = JSON.parse(created.stdout).key;
  }, 180_000);

  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await server?.stop();
    await db?.drop();
    dirs.cleanup();
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as any };
  };

  it('onboards a repository, assesses it and analyses a pull request', async () => {
    const repo = createGitRepo({
      'package.json': JSON.stringify({ name: 'svc', version: '1.0.0', license: 'MIT' }),
      'src/index.ts': 'export function add(a: number, b: number): number {\n  return a + b;\n}\n',
      'src/index.test.ts': "import { add } from './index.js';\nif (add(1, 2) !== 3) throw new Error('add');\n",
    });
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write({ 'src/exec.ts': "import { execSync } from 'node:child_process';\nexport const run = (cmd: string) => execSync('sh -c ' + cmd);\n" });
    repo.git('update-ref', 'refs/pull/5/head', repo.commit('feat: run commands'));
    repo.git('checkout', '-q', 'main');

    const project = await api('POST', '/projects', { name: 'Svc', key: 'svc' });
    expect(project.status).toBe(201);
    const linked = await api('POST', `/projects/${project.body.id}/repos/add-public`, { url: `file://${repo.root}` });
    expect(linked.status).toBe(201);

    const assessments = await poll(
      'onboarding assessment',
      () => api('GET', `/projects/${project.body.id}/health/assessments`),
      (r) => r.body.items?.[0]?.status === 'completed' || r.body.items?.[0]?.status === 'failed',
    );
    expect(assessments.body.items[0]).toMatchObject({ status: 'completed', trigger_type: 'manual' });
    const overview = await poll(
      'architecture overview',
      () => api('GET', `/projects/${project.body.id}/architecture/overview`),
      (r) => r.status === 200,
    );
    expect(overview.status).toBe(200);

    const trigger = await api('POST', `/projects/${project.body.id}/health/trigger`);
    expect(trigger.body).toMatchObject({ status: 'queued', workflow_id: `health-assessment-${trigger.body.assessment_id}` });
    const second = await poll(
      'triggered assessment',
      () => api('GET', `/projects/${project.body.id}/health/assessments/${trigger.body.assessment_id}`),
      (r) => ['completed', 'failed'].includes(r.body.status),
    );
    expect(second.body.status).toBe('completed');

    const analyze = await api('POST', `/projects/${project.body.id}/repos/${linked.body.repository.id}/prs/5/analyze`);
    expect(analyze.status).toBe(201);
    const analysis = await poll(
      'PR analysis',
      () => api('GET', `/projects/${project.body.id}/pr-analyses/${analyze.body.id}`),
      (r) => ['completed', 'failed'].includes(r.body.status),
    );
    expect(analysis.body).toMatchObject({ status: 'completed', pr_number: 5 });
    expect(analysis.body.classification.primary_intent).toBe('feature');
    expect(analysis.body.merge_readiness.status).toBe('blocked'); // command injection through a built string
    // Graph impact (queried from the graph store the assessments filled, the PR's files overlaid).
    expect(analysis.body.graph_impact).toMatchObject({ changed_symbols: [{ name: 'run', file: 'src/exec.ts', kind: 'variable' }], dependents_count: 0 });

    // Both replicas polled the same task queue; Temporal spread the work over them.
    const healthz = await fetch(`${server.url}/health/detailed`).then((r) => r.json() as Promise<{ components: { name: string; status: string }[] }>);
    expect(healthz.components.find((c) => c.name === 'workflow_engine')).toMatchObject({ status: 'up' });
    if (process.env.TEST_REDIS_URL) expect(healthz.components.find((c) => c.name === 'cache')).toMatchObject({ status: 'up' });
    expect(workers.every((w) => w.child.exitCode === null)).toBe(true);

    // The workers kept the assessed commit's code graph in the graph store (Neo4j when the test
    // infrastructure runs one, else the Postgres tables).
    const head = repo.git('rev-parse', 'main');
    const graphStore = process.env.TEST_NEO4J_ADDRESS ? new Neo4jGraphStore({ address: process.env.TEST_NEO4J_ADDRESS }) : undefined;
    const pg = await PostgresDatabase.connect(db.url, { max: 1 });
    try {
      const store = graphStore ?? new EmbeddedGraphStore(pg);
      expect(await store.commitOf(linked.body.repository.id)).toBe(head);
      expect(await store.dependents({ repositoryId: linked.body.repository.id, files: ['src/index.ts'], maxDepth: 2 })).toEqual([
        { path: 'src/index.test.ts', depth: 1 },
      ]);
      // Call edges too: the test calls add once at module level.
      expect(await store.callsInto({ repositoryId: linked.body.repository.id, targets: [{ file: 'src/index.ts', name: 'add' }] })).toEqual([
        { from: 'src/index.test.ts', caller: '', to: 'src/index.ts', name: 'add', line: 2, count: 1 },
      ]);
      if (graphStore) expect(healthz.components.find((c) => c.name === 'graph_store')).toMatchObject({ status: 'up' });
    } finally {
      await graphStore?.close();
      await pg.close();
    }
  }, 240_000);
});
