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
// No grade (null) when the directory holds no production code the analyzers read.
if (scores.overall === null) console.log(`No grade: ${scores.notGradedReason}`);
else console.log(`Overall ${scores.overall} (${scores.grade}) over ${metrics.productionLinesOfCode} lines of production code`);
for (const category of HEALTH_CATEGORIES) {
  const score = scores.categories[category.key];
  console.log(`  ${category.name.padEnd(22)} ${score.assessed ? String(score.score).padStart(5) : `  not assessed: ${score.notAssessedReason}`}`);
}
// Where the points went: what each category cost of the overall score.
for (const { category, cost } of scores.ledger ?? []) if (cost > 0) console.log(`  -${cost.toFixed(1)}  ${category}`);
console.log(`${findings.length} findings; the first five:`);
for (const f of findings.slice(0, 5)) {
  console.log(`  [${f.severity}] ${f.filePath}:${f.anchor.lineStart} ${f.title} (${f.ruleId})`);
}
