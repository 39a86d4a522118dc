// The PR figure of `npm run bench`: a ~10-file change analysed by the PR pipeline after the base's
// full assessment, as a worker does it (the base assessment is the stored baseline; the file-summary
// cache is the one the assessment filled), on effect (one package, 380k lines) or on issue 3's large
// corpus (eight packages, 480k lines). Prints the wall time of both, the ratio (targets: PR <= 5 s,
// <= 10% of the full assessment) and the PR's stages; then the same PR once more in the process,
// labelled apart (a long-running worker's steady state).
// Usage: node test/bench/pr-analysis.mjs [--files N] [--corpus effect|large]
// Profiling the first PR: CODEHEALTH_BENCH_PROFILE=<file> writes a CPU profile of the main thread;
// CODEHEALTH_BENCH_WINDOW=1 prints the PR's window in CPU-profile time (µs), to cut the profiles of
// `node --cpu-prof` (one per thread) to it. The PR line also gives the CPU time of the process's
// threads, steadier than wall time on a loaded machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine, tuneV8ForAnalysis } from '@codehealth/engine';
import { baselineOfResult, localCheckouts, PrAnalysisPipeline } from '@codehealth/service';
import { obtainEffect, obtainLargeCorpus } from '../helpers/corpora.js';
import { makeChangeRepo } from './change-repo.mjs';

// As a worker runs (`codehealth worker`: its bin applies the same V8 settings before any analysis).
tuneV8ForAnalysis();
const { values: args } = parseArgs({ options: { files: { type: 'string', default: '10' }, corpus: { type: 'string', default: 'effect' } } });
if (args.corpus !== 'effect' && args.corpus !== 'large') {
  console.error(`pr-analysis: --corpus must be effect or large, not ${args.corpus}`);
  process.exit(2);
}
const corpusName = args.corpus === 'large' ? 'the large corpus' : 'effect 3.22.4';
const corpus = args.corpus === 'large' ? obtainLargeCorpus() : obtainEffect();
if (corpus.error) {
  console.log(`\nPR analysis: SKIPPED (${corpus.error})`);
  process.exit(0);
}

const work = mkdtempSync(join(tmpdir(), 'codehealth-bench-pr-'));
const repo = join(work, args.corpus);
try {
  const { baseSha, headSha, count, title } = makeChangeRepo({ corpusRoot: corpus.root, corpusName, repo, files: Number(args.files) || 10 });

  const checkouts = localCheckouts(repo, work);
  // As the workflow host makes its engine (packages/cli/src/host/workflows.ts): a run's worker
  // threads are kept for the next run.
  const engine = await createEngine({ cacheDir: join(work, 'cache'), keepWorkersMs: 120_000 });
  const base = await checkouts.checkout(baseSha);
  let started = performance.now();
  const assessment = await engine.analyze(base.path, { allowCodeConfig: false });
  const fullMs = performance.now() - started;
  await base.dispose();

  const head = await checkouts.checkout(headSha);
  const pr = {
    number: 1,
    title,
    body: '',
    baseBranch: 'main',
    headBranch: 'feature/bench',
    baseSha,
    headSha,
    author: 'bench',
  };
  // CODEHEALTH_BENCH_PROFILE=<file>: a CPU profile of the main thread during the first PR (chrome devtools format).
  const profiling = process.env.CODEHEALTH_BENCH_PROFILE ? await startProfile() : undefined;
  const windowStart = process.hrtime.bigint() / 1000n;
  const cpuBefore = process.cpuUsage();
  started = performance.now();
  const out = await new PrAnalysisPipeline({ engine }).run({ headDir: head.path, checkouts, pr, baseAssessment: baselineOfResult(assessment, baseSha) });
  const prMs = performance.now() - started;
  const prCpu = process.cpuUsage(cpuBefore);
  if (process.env.CODEHEALTH_BENCH_WINDOW) console.error(`[window] ${windowStart} ${process.hrtime.bigint() / 1000n}`);
  if (profiling) await profiling.stop(process.env.CODEHEALTH_BENCH_PROFILE);
  // The same PR again in this process: the steady state of a long-running worker (code warmed up
  // by the first PR). The first figure, right after the full assessment, stays the headline.
  started = performance.now();
  const again = await new PrAnalysisPipeline({ engine }).run({ headDir: head.path, checkouts, pr, baseAssessment: baselineOfResult(assessment, baseSha) });
  const secondMs = performance.now() - started;
  await head.dispose();
  await engine.close();

  const r = out.result;
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `\n== PR analysis: ${count} changed files of ${corpusName} (${assessment.metrics.files.analysed} files, ${assessment.metrics.totalLinesOfCode.toLocaleString('en')} lines of code)`,
  );
  console.log(`  full assessment of base (cold)          ${s(fullMs).padStart(9)}`);
  console.log(
    `  PR analysis after it                    ${s(prMs).padStart(9)}   (target <= 5 s; cpu of this process's threads ${s((prCpu.user + prCpu.system) / 1000)})`,
  );
  console.log(`  ratio: PR / full assessment = ${((100 * prMs) / fullMs).toFixed(1)}% (target <= 10%)`);
  console.log(
    `  stages (ms): ${Object.entries(out.timingsMs)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  console.log(
    `  second PR in the same process (warm worker, not the headline): ${s(secondMs)} = ${((100 * secondMs) / fullMs).toFixed(1)}%; ` +
      `stages (ms): ${Object.entries(again.timingsMs)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
  );
  console.log(
    `  head pass: ${out.headFiles.analysed} files analysed, ${out.headFiles.fromCache} from cache, ${out.headFiles.graphOnly} graph-only; ` +
      `scope ${out.scope.changed.length} changed + ${out.scope.neighbours.length} neighbours`,
  );
  console.log(
    `  verdict: ${r.classification.primary_intent}, ${r.merge_readiness.status} (confidence ${r.merge_readiness.confidence}), ` +
      `${r.health_impact.impact_rating} ${r.health_impact.overall_delta >= 0 ? '+' : ''}${r.health_impact.overall_delta}, ` +
      `${r.health_impact.issues_added} added / ${r.health_impact.issues_fixed} fixed, ${r.impact_zones.length} zones, ${r.graph_impact.dependents_count} dependents`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}

async function startProfile() {
  const { Session } = await import('node:inspector/promises');
  const { writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
