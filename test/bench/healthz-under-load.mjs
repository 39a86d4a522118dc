// One-off load measurement of the embedded server (`codehealth serve --embedded`, built dist):
// onboard a large synthetic repository, then assess it again, while another process asks
// `/healthz` every 100 ms. Prints the latency of those answers during each run, how long each run
// took and how much the data directory grew per run. Usage:
//   node test/bench/healthz-under-load.mjs [--files 3000] [--functions 4] [--runs 3] [--env K=V ...] [--node-arg=--cpu-prof ...]
// The repository: <files> TypeScript files of <functions> functions, each with ~12 findings
// (magic numbers, loose equality, non-null assertion, TODO, empty catch): ~48 findings per file.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '3000' },
    functions: { type: 'string', default: '4' },
    runs: { type: 'string', default: '3' },
    env: { type: 'string', multiple: true, default: [] },
    'node-arg': { type: 'string', multiple: true, default: [] },
    keep: { type: 'boolean', default: false },
  },
});
const CLI = new URL('../../packages/cli/bin/codehealth.js', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'codehealth-healthz-'));
const dataDir = join(work, 'data');
const repo = join(work, 'repo');

function generateRepository(root, files, functions) {
  for (let f = 0; f < files; f++) {
    const dir = join(root, 'src', `mod${Math.floor(f / 100)}`);
    mkdirSync(dir, { recursive: true });
    let src = `// file ${f}\n`;
    for (let i = 0; i < functions; i++) {
      src += `export function f${f}_${i}(a: number, b: any, c?: { v: number }): number {
  // TODO: name these numbers ${f}.${i}
  let x = a * ${7 + i} + ${13 + (f % 50)};
  if (a == ${37 + i}) x += ${41 + i};
  if (b != null && b.k == '${i}') x -= ${43 + i};
  try { x += JSON.parse(String(b)).n * ${59 + i}; } catch (e) {}
  return x + c!.v * ${61 + i};
}
`;
    }
    writeFileSync(join(dir, `file-${f}.ts`), src);
  }
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'synthetic', version: '1.0.0' }));
  const env = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.com' };
  const git = (...args) => execFileSync('git', args, { cwd: root, env });
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'synthetic');
}

/** The server's resident memory (MB), from /proc. */
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const duMb = (path) => Number(execFileSync('du', ['-sk', path], { encoding: 'utf8' }).split('\t')[0]) / 1024;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

generateRepository(repo, Number(values.files), Number(values.functions));
const extraEnv = Object.fromEntries(values.env.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const env = { ...process.env, CODEHEALTH_DATA_DIR: dataDir, PORT: '0', RATE_LIMIT_PER_MINUTE: '0', RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: '0', ...extraEnv };
const server = spawn(process.execPath, [...values['node-arg'], CLI, 'serve', '--embedded'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
const logLines = [];
let base;
const listening = new Promise((resolve, reject) => {
  const onData = (chunk) => {
    for (const line of String(chunk).split('\n')) {
      if (line.trim()) logLines.push(`${(performance.now() / 1000).toFixed(1)}s ${line}`);
      const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match && !base) resolve((base = match[1]));
    }
  };
  server.stdout.on('data', onData);
  server.stderr.on('data', onData);
  server.on('exit', (code) => reject(new Error(`server exited ${code}: ${logLines.slice(-5).join(' | ')}`)));
});
await listening;
const key = JSON.parse(execFileSync(process.execPath, [CLI, 'keys', 'create', '--email', 'load@example.com'], { env, encoding: 'utf8' })).key;
const api = async (method, path, body) => {
  const response = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
};

/** Asks /healthz every 100 ms (one request at a time) until stopped; returns the latencies. */
function probeHealth() {
  const samples = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const started = performance.now();
      const response = await fetch(`${base}/healthz`).catch(() => undefined);
      samples.push({ ms: performance.now() - started, status: response?.status ?? 0, at: started / 1000, rss: rssMb() });
      await response?.text().catch(() => {});
      await sleep(100);
    }
  })();
  return async () => {
    stopped = true;
    await done;
    return samples;
  };
}

async function waitForRuns(projectId, count) {
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited: ${logLines.slice(-10).join('\n')}`);
    const answer = await api('GET', `/projects/${projectId}/health/assessments?limit=100`).catch((error) => {
      console.error(`poll failed: ${error.cause?.code ?? error.message}`);
      return undefined;
    });
    if (!answer) {
      await sleep(1000);
      continue;
    }
    const { items } = answer;
    const finished = items.filter((a) => a.status === 'completed' || a.status === 'failed');
    if (finished.length >= count) return items;
    await sleep(250);
  }
}

const dataMb = [duMb(dataDir)];
const project = await api('POST', '/projects', { name: 'Load', key: 'load' });
const report = [];
for (let run = 1; run <= Number(values.runs); run++) {
  const stop = probeHealth();
  const started = performance.now();
  if (run === 1) await api('POST', `/projects/${project.id}/repos/add-public`, { url: `file://${repo}` });
  else await api('POST', `/projects/${project.id}/health/trigger`);
  const items = await waitForRuns(project.id, run);
  const seconds = (performance.now() - started) / 1000;
  const samples = await stop();
  await sleep(1500); // the onboarding's architecture step and the retention pass finish
  dataMb.push(duMb(dataDir));
  const latencies = samples.map((s) => s.ms).sort((a, b) => a - b);
  report.push({
    run: run === 1 ? 'onboarding' : `re-assessment ${run - 1}`,
    status: items[0].status,
    seconds: Math.round(seconds * 10) / 10,
    healthz: {
      samples: samples.length,
      p50_ms: Math.round(percentile(latencies, 50)),
      p95_ms: Math.round(percentile(latencies, 95)),
      p99_ms: Math.round(percentile(latencies, 99)),
      max_ms: Math.round(latencies.at(-1) ?? 0),
      over_1s: latencies.filter((ms) => ms > 1000).length,
      not_200: samples.filter((s) => s.status !== 200).length,
    },
    data_dir_mb: Math.round(dataMb.at(-1)),
    growth_mb: Math.round(dataMb.at(-1) - dataMb.at(-2)),
    store_mb: Math.round(duMb(join(dataDir, 'pgdata'))),
    wal_mb: Math.round(duMb(join(dataDir, 'pgdata', 'pg_wal'))),
    slowest_at_s: samples.filter((s) => s.ms > 1000).map((s) => `${s.at.toFixed(1)}+${Math.round(s.ms)}ms`),
    max_rss_mb: Math.round(Math.max(...samples.map((s) => s.rss))),
  });
}
const stats = await api('GET', `/projects/${project.id}/analysis/issues/stats`);
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
// After a clean stop (its checkpoint): the store as it stays on disk.
const stopped = { store_mb: Math.round(duMb(join(dataDir, 'pgdata'))), wal_mb: Math.round(duMb(join(dataDir, 'pgdata', 'pg_wal'))) };
console.log(JSON.stringify({ files: Number(values.files), issues_listed: stats.total, env: extraEnv, runs: report, stopped }, null, 2));
for (const line of logLines.filter((l) => !/ (GET|POST) \/(healthz|api)/.test(l) || / [1-9]\d{3,} ?ms/.test(l))) console.error(line);
if (!values.keep) rmSync(work, { recursive: true, force: true });
