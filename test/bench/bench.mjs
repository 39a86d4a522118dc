// `npm run bench`: the full 8-category assessment of real corpora next to the raw tree-sitter parse
// floor and the peers (jscpd + eslint/sonarjs + knip) on the same files, with wall time, lines/s
// and peak RSS. Figures and ratios are printed; nothing is asserted (timing belongs here, not in
// the test suite). Options: --corpus rxjs|effect|large|all (default all), --no-peers, --runs N
// (median). `large` (~480k lines of eight packages' sources) is the issue's corpus: parse floor, peers, peak RSS; the
// PR figure (a ~10-file change analysed after the base assessment) runs on effect and on the large corpus.
// Each run measures parse floor and assessment back to back and the ratio is taken per run, so
// that load from other processes on a shared machine weighs on both sides alike.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ANALYSIS_V8_FLAGS } from '@codehealth/engine';
import { obtainEffect, obtainLargeCorpus, obtainRxjs } from '../helpers/corpora.js';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const requireFromRepo = createRequire(join(repoRoot, 'package.json'));
const { values: args } = parseArgs({
  options: { corpus: { type: 'string', default: 'all' }, 'no-peers': { type: 'boolean', default: false }, runs: { type: 'string', default: '1' } },
});
const runs = Math.max(1, Number(args.runs) || 1);

function listTs(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) listTs(path, out);
    else if (/\.(ts|tsx|mts|cts)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function timed(command, argv, options = {}) {
  const started = performance.now();
  const child = spawnSync(command, argv, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, ...options });
  const ms = performance.now() - started;
  if (child.error) throw child.error;
  return { ms, stdout: child.stdout, stderr: child.stderr, status: child.status };
}

function nodeJson(script, argv) {
  const out = timed(process.execPath, [join(here, script), ...argv], { cwd: repoRoot });
  if (out.status !== 0) throw new Error(`${script} failed: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').pop());
}

/** Peers are installed once into a cache directory outside the repository (never into package.json). */
function peersDir() {
  const dir = join(tmpdir(), 'codehealth-bench-peers');
  const marker = join(dir, 'node_modules', '.bin', 'knip');
  if (!existsSync(marker) || !existsSync(join(dir, 'node_modules', '.bin', 'jscpd'))) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"private":true}');
    execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--silent', 'jscpd@5.3.3', 'knip@6.44.2'], { stdio: 'inherit' });
  }
  return dir;
}

function eslintConfig(dir) {
  const file = join(dir, 'eslint.bench.config.mjs');
  writeFileSync(
    file,
    `import tseslint from ${JSON.stringify(pathToFileURL(requireFromRepo.resolve('typescript-eslint')).href)};\n` +
      `import sonarjs from ${JSON.stringify(pathToFileURL(requireFromRepo.resolve('eslint-plugin-sonarjs')).href)};\n` +
      `export default [{ files: ['**/*.ts', '**/*.tsx'], languageOptions: { parser: tseslint.parser }, plugins: { sonarjs }, rules: sonarjs.configs.recommended.rules }];\n`,
  );
  return file;
}

function runPeers(root, src) {
  const peers = peersDir();
  const work = mkdtempSync(join(tmpdir(), 'codehealth-bench-'));
  const bin = (name) => join(peers, 'node_modules', '.bin', name);
  const jscpd = timed(bin('jscpd'), ['--min-tokens', '50', '--silent', '--reporters', 'json', '--output', work, src]);
  const eslint = timed(
    join(repoRoot, 'node_modules/.bin/eslint'),
    ['--no-config-lookup', '--config', eslintConfig(work), '--no-inline-config', '--format', 'json', '--output-file', join(work, 'eslint.json'), src],
    { cwd: root },
  );
  const knip = timed(bin('knip'), ['--reporter', 'json', '--no-progress', '--no-exit-code'], { cwd: root });
  return {
    jscpd: jscpd.ms,
    eslint: eslint.ms,
    knip: knip.ms,
    notes: [jscpd, eslint, knip]
      .map((r, i) => (r.status && r.status > 1 ? `${['jscpd', 'eslint', 'knip'][i]} exited ${r.status}: ${r.stderr.split('\n')[0]}` : ''))
      .filter(Boolean),
  };
}

function benchCorpus(name, corpus, { sources = 'src', withPeers = !args['no-peers'], warmRun = true } = {}) {
  if (corpus.error) {
    console.log(`\n${name}: SKIPPED (${corpus.error})`);
    return;
  }
  const root = corpus.root;
  const src = join(root, sources);
  const files = listTs(src);
  const list = join(mkdtempSync(join(tmpdir(), 'codehealth-bench-files-')), 'files.json');
  writeFileSync(list, JSON.stringify(files));
  const bytes = files.reduce((n, f) => n + statSync(f).size, 0);

  const measured = Array.from({ length: runs }, () => {
    const parse = nodeJson('parse-floor.mjs', [list]).ms;
    const walk = nodeJson('parse-floor.mjs', [list, 'walk']).ms;
    const cold = nodeJson('run-assessment.mjs', [root, '-']);
    return { parse, walk, cold, ratio: cold.ms / parse };
  });
  const parse = median(measured.map((m) => m.parse));
  const walk = median(measured.map((m) => m.walk));
  const cold = [...measured].sort((a, b) => a.cold.ms - b.cold.ms)[Math.floor(measured.length / 2)].cold;
  const ratio = median(measured.map((m) => m.ratio));
  const walkRatio = median(measured.map((m) => m.cold.ms / m.walk));
  let warm;
  if (warmRun) {
    const cacheDir = mkdtempSync(join(tmpdir(), 'codehealth-bench-cache-'));
    nodeJson('run-assessment.mjs', [root, cacheDir]);
    warm = nodeJson('run-assessment.mjs', [root, cacheDir]);
  }
  const lines = cold.totalLines;

  console.log(
    `\n== ${name}: ${files.length} files in ${sources === '.' ? 'the sources' : sources}, ${lines.toLocaleString('en')} lines (${cold.loc.toLocaleString('en')} code), ${(bytes / 1e6).toFixed(1)} MB, parsed cleanly ${cold.cleanPercent}%`,
  );
  const row = (label, ms, extra = '') =>
    console.log(
      `  ${label.padEnd(38)} ${(ms / 1000).toFixed(2).padStart(7)} s  ${((lines / ms) * 1000).toFixed(0).padStart(8)} lines/s  ${((ms / 1000) * (100_000 / lines)).toFixed(2).padStart(6)} s/100k lines ${extra}`,
    );
  row('tree-sitter read + parse (1 thread)', parse);
  row('tree-sitter parse + full walk', walk);
  row('codehealth full assessment (cold)', cold.ms, `peak RSS ${cold.maxRssMb.toFixed(0)} MB, ${cold.findings} findings, ${cold.overall} ${cold.grade}`);
  if (warm) row('codehealth re-assessment (cache warm)', warm.ms, `${warm.cachedFiles} files from cache`);
  console.log(
    `  ratio: cold assessment / raw parse = ${ratio.toFixed(2)}x (target <= 2.5x), / parse+walk = ${walkRatio.toFixed(2)}x (median of per-run ratios)`,
  );
  if (withPeers) {
    try {
      const peers = runPeers(root, src);
      const total = peers.jscpd + peers.eslint + peers.knip;
      row('jscpd 5.3.3 (min 50 tokens)', peers.jscpd);
      row('eslint 10 + sonarjs recommended', peers.eslint);
      row('knip 6.44.2', peers.knip);
      row('peers together', total);
      console.log(`  ratio: peers together / codehealth cold = ${(total / cold.ms).toFixed(2)}x (target >= 3x)`);
      for (const note of peers.notes) console.log(`  note: ${note}`);
    } catch (error) {
      console.log(`  peers: SKIPPED (${error.message.split('\n')[0]})`);
    }
  }
}

console.log(`codehealth benchmark — node ${process.version}, ${runs} run(s) per figure (median), load average ${loadavg()[0].toFixed(2)}`);
// The assessment runs as the `codehealth` command does, with its V8 settings; the parse floor is native parsing, unaffected.
console.log(
  `V8 settings of the codehealth command: ${process.env.CODEHEALTH_V8_TUNING === '0' ? "V8's defaults (CODEHEALTH_V8_TUNING=0)" : `${ANALYSIS_V8_FLAGS.join(' ')} (CODEHEALTH_V8_TUNING=0 for V8's defaults)`}`,
);
if (args.corpus === 'rxjs' || args.corpus === 'all') benchCorpus('rxjs 7.8.2', obtainRxjs());
if (args.corpus === 'effect' || args.corpus === 'all') benchCorpus('effect 3.22.4', obtainEffect());
// The PR figure (issue 6): a ~10-file change on effect analysed after its base assessment.
if (args.corpus === 'effect' || args.corpus === 'all') spawnSync(process.execPath, [join(here, 'pr-analysis.mjs')], { cwd: repoRoot, stdio: 'inherit' });
// The issue's targets on ~480k lines: <= 2.5x the raw parse, >= 3x faster than the peers, peak RSS under 1.5 GB for 500k lines.
if (args.corpus === 'large' || args.corpus === 'all')
  benchCorpus('large: effect, openai, zod, rxjs, 4 @temporalio packages', obtainLargeCorpus(), { sources: '.', warmRun: false });
// The same PR figure on the large corpus (eight packages in one repository).
if (args.corpus === 'large' || args.corpus === 'all')
  spawnSync(process.execPath, [join(here, 'pr-analysis.mjs'), '--corpus', 'large'], { cwd: repoRoot, stdio: 'inherit' });
// `codehealth review` of the same change from the command line, cold and with the base cached (issue 21).
if (args.corpus === 'large' || args.corpus === 'all')
  spawnSync(process.execPath, [join(here, 'review.mjs'), '--corpus', 'large'], { cwd: repoRoot, stdio: 'inherit' });
// Micro-figures that were timing assertions in the tests (inventory, clone detection, unused-export), as ratios.
console.log('');
spawnSync(process.execPath, [join(here, 'micro.mjs')], { cwd: repoRoot, stdio: 'inherit' });
console.log(`\nload average at the end ${loadavg()[0].toFixed(2)} (other processes share the cores: compare the ratios)`);
