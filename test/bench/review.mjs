// The review figure of `npm run bench` (issue 21): `codehealth review --base main` from the command
// line, as CI runs it, on the same ~10-file change as the PR figure. Two cold figures, each with an
// empty cache directory: the default (the changed files analysed on both sides, file rules compared,
// repository rules reported as not evaluated) and `--full-base` (the merge base assessed in full,
// then the change). Cached: the default command after the `--full-base` one, the merge base's
// findings and run state kept beside the cache by it. Targets on the large corpus: cold <= 5 s,
// cached <= 2 s. A fourth figure is the first review of a new pull request in a CI that restores
// the cache directory (examples/github-actions): main moved on by a commit touching 3 other source
// files, the same change on a branch from it — a merge base not reviewed yet (so the changed files
// only), the file summaries of an earlier review at hand. Each figure is also printed as ratios to the raw parse floor (read +
// tree-sitter parse of the corpus's files, parse-floor.mjs, as bench.mjs measures it) and to the
// cold full assessment (`codehealth analyze` of the base, measured here the same way), taken per
// run back to back so that machines, and load from other processes, compare.
// Usage: node test/bench/review.mjs [--files N] [--corpus effect|large] [--runs N]
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { obtainEffect, obtainLargeCorpus } from '../helpers/corpora.js';
import { makeChangeRepo } from './change-repo.mjs';

const { values: args } = parseArgs({
  options: { files: { type: 'string', default: '10' }, corpus: { type: 'string', default: 'large' }, runs: { type: 'string', default: '1' } },
});
if (args.corpus !== 'effect' && args.corpus !== 'large') {
  console.error(`review: --corpus must be effect or large, not ${args.corpus}`);
  process.exit(2);
}
const corpusName = args.corpus === 'large' ? 'the large corpus' : 'effect 3.22.4';
const corpus = args.corpus === 'large' ? obtainLargeCorpus() : obtainEffect();
if (corpus.error) {
  console.log(`\nreview: SKIPPED (${corpus.error})`);
  process.exit(0);
}
const bin = resolve(import.meta.dirname, '../../packages/cli/bin/codehealth.js');
const runs = Math.max(1, Number(args.runs) || 1);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;

const work = mkdtempSync(join(tmpdir(), 'codehealth-bench-review-'));
const repo = join(work, args.corpus);
/** The parse floor's files, as bench.mjs lists them: the large corpus whole, effect's src/. */
function floorFiles(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) floorFiles(path, out);
    else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}
try {
  const floorList = join(work, 'files.json');
  writeFileSync(floorList, JSON.stringify(floorFiles(args.corpus === 'large' ? corpus.root : join(corpus.root, 'src'))));
  /** Read + tree-sitter parse of every file in one thread (parse-floor.mjs), in ms. */
  const parseFloor = () => {
    const run = spawnSync(process.execPath, [join(import.meta.dirname, 'parse-floor.mjs'), floorList], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.status !== 0) throw new Error(`parse-floor.mjs exited ${run.status}: ${run.stderr.trim().split('\n').pop()}`);
    return JSON.parse(run.stdout.trim().split('\n').pop()).ms;
  };
  const { count, baseSha } = makeChangeRepo({ corpusRoot: corpus.root, corpusName, repo, files: Number(args.files) || 10 });
  /** One `codehealth` command in its own process with the cache at `cache`; its wall time in ms. */
  const timed = (argv, cache) => {
    const started = performance.now();
    const run = spawnSync(process.execPath, [bin, ...argv], {
      cwd: repo,
      env: { ...process.env, CODEHEALTH_CACHE_DIR: cache },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const ms = performance.now() - started;
    if (run.status !== 0) throw new Error(`codehealth ${argv.join(' ')} exited ${run.status}: ${run.stderr.trim().split('\n').pop()}`);
    return { ms, stdout: run.stdout };
  };
  const floor = [];
  const full = [];
  const cold = [];
  const coldFull = [];
  const cached = [];
  const movedBase = [];
  let report = '';
  const git = (...argv) =>
    execFileSync('git', argv, {
      cwd: repo,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'bench',
        GIT_AUTHOR_EMAIL: 'bench@example.com',
        GIT_COMMITTER_NAME: 'bench',
        GIT_COMMITTER_EMAIL: 'bench@example.com',
      },
    }).trim();
  const changed = new Set(git('diff', '--name-only', 'main', 'feature/bench').split('\n'));
  const others = git('ls-files', '*.ts')
    .split('\n')
    .filter((path) => /(^|\/)src\//.test(path) && !path.endsWith('.d.ts') && !changed.has(path));
  for (let i = 0; i < runs; i++) {
    floor.push(parseFloor());
    // The base assessed in full from the command line, for the ratio (a checkout of base, empty cache).
    const baseDir = join(work, `base-${i}`);
    execFileSync('git', ['worktree', 'add', '-q', '--detach', baseDir, baseSha], { cwd: repo });
    full.push(timed(['analyze', baseDir, '-q', '-f', 'json', '-o', join(work, 'full.json')], join(work, `cache-full-${i}`)).ms);
    execFileSync('git', ['worktree', 'remove', '--force', baseDir], { cwd: repo });
    // The two cold modes, alternating which goes first from run to run (load drifts).
    const coldScoped = () => cold.push(timed(['review', '--base', 'main', '-q', '-f', 'json'], join(work, `cache-scoped-${i}`)).ms);
    const cache = join(work, `cache-review-${i}`);
    const coldComplete = () => coldFull.push(timed(['review', '--base', 'main', '--full-base', '-q', '-f', 'json'], cache).ms);
    if (i % 2 === 0) {
      coldScoped();
      coldComplete();
    } else {
      coldComplete();
      coldScoped();
    }
    const second = timed(['review', '--base', 'main', '-q'], cache);
    cached.push(second.ms);
    report = second.stdout;
    // main moves on (3 other source files), the change is made again on top: a new merge base.
    git('checkout', '-q', 'main');
    for (const path of [0, 1, 2].map((k) => others[Math.floor(((k + 0.5) * others.length) / 3)])) {
      appendFileSync(join(repo, path), `\nexport const mainMovedOn${i} = ${i + 1};\n`);
    }
    git('commit', '-q', '-am', `main moves on (${i})`);
    git('checkout', '-q', '-b', `feature/next-${i}`);
    git('cherry-pick', '--allow-empty', 'feature/bench');
    movedBase.push(timed(['review', '--base', 'main', '-q'], cache).ms);
    // Back to the change on the first base for the next run.
    git('checkout', '-q', 'feature/bench');
    git('branch', '-f', 'main', baseSha);
  }
  const fullMs = median(full);
  const floorMs = median(floor);
  // Ratios per run, then their median: a run's figures share its load.
  const ratio = (times, base) => median(times.map((ms, i) => ms / base[i])).toFixed(2);
  console.log(`\n== codehealth review: ${count} changed files of ${corpusName}, from the command line (median of ${runs})`);
  console.log(`  tree-sitter read + parse (1 thread, the floor)    ${s(floorMs).padStart(9)}`);
  console.log(`  codehealth analyze of base (cold)                 ${s(fullMs).padStart(9)}   = ${ratio(full, floor)}x parse`);
  console.log(
    `  review, cold (empty cache; changed files)         ${s(median(cold)).padStart(9)}   = ${ratio(cold, floor)}x parse, ${ratio(cold, full)}x analyze   (target <= 5 s)`,
  );
  console.log(
    `  review --full-base, cold (empty cache)            ${s(median(coldFull)).padStart(9)}   = ${ratio(coldFull, floor)}x parse, ${ratio(coldFull, full)}x analyze   (every rule)`,
  );
  console.log(
    `  review, base cached (after --full-base)           ${s(median(cached)).padStart(9)}   = ${ratio(cached, floor)}x parse, ${ratio(cached, full)}x analyze   (target <= 2 s)`,
  );
  console.log(
    `  review, new merge base, summaries cached          ${s(median(movedBase)).padStart(9)}   = ${ratio(movedBase, floor)}x parse, ${ratio(movedBase, full)}x analyze   (a new PR, CI cache restored; changed files)`,
  );
  const verdict = report.split('\n').find((line) => line.startsWith('Merge readiness'));
  if (verdict) console.log(`  ${verdict.replace(/\s+/g, ' ')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
