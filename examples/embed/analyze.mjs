// Embedding CodeHealth: assess a directory in-process and print the scores and top findings.
// Usage: node examples/embed/analyze.mjs [dir]
import { createEngine, HEALTH_CATEGORIES } from '@codehealth/engine';

const dir = process.argv[2] ?? '.';
// Default plugins: '@codehealth/analyzers'. Pass `plugins: [...]` to add your own.
const engine = await createEngine({ cacheDir: false });
const result = await engine.analyze(dir, {
  onProgress: (e) => e.percent === 100 && process.stderr.write(`${e.message}\n`),
});

const { scores, metrics, findings } = result;
console.log(`Overall ${scores.overall} (${scores.grade}) over ${metrics.totalLinesOfCode} lines of code`);
for (const category of HEALTH_CATEGORIES) {
  const score = scores.categories[category.key];
  console.log(`  ${category.name.padEnd(22)} ${String(score.score).padStart(5)}${score.assessed ? '' : '  (not assessed)'}`);
}
console.log(`${findings.length} findings; the first five:`);
for (const f of findings.slice(0, 5)) {
  console.log(`  [${f.severity}] ${f.filePath}:${f.anchor.lineStart} ${f.title} (${f.ruleId})`);
}
