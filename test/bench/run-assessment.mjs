// One full assessment in a fresh process, so that wall time and peak RSS are the run's own.
// Usage: node run-assessment.mjs <dir> [cacheDir|-] ; prints one JSON line.
import { createEngine, tuneV8ForAnalysis } from '@codehealth/engine';

// As the `codehealth` command runs (its bin applies the same V8 settings before any analysis).
tuneV8ForAnalysis();

const [dir, cacheArg] = process.argv.slice(2);
const started = performance.now();
const engine = await createEngine({ cacheDir: cacheArg && cacheArg !== '-' ? cacheArg : false });
const result = await engine.analyze(dir, { allowCodeConfig: false });
const ms = performance.now() - started;
const { metrics, scores } = result;
console.log(
  JSON.stringify({
    ms,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    files: metrics.files.analysed,
    loc: metrics.totalLinesOfCode + metrics.testLinesOfCode,
    totalLines: result.summaries.reduce((n, s) => n + s.lines.total, 0),
    findings: result.findings.length,
    cachedFiles: metrics.parse.cachedFiles,
    cleanPercent: metrics.parse.cleanPercent,
    overall: scores.overall,
    grade: scores.grade,
  }),
);
