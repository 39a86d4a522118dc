// Micro-figures that used to be timing assertions in the test suite (issue 20): the tests keep the
// behaviour (right result; quadratic work would outlast their timeout), the speed is measured here.
// Each figure is printed as a ratio — to a floor doing the least the same job needs, or of the time
// on twice the input to the time on the input (linear work ≈ 2x, quadratic ≈ 4x) — and never asserted.
// Run by bench.mjs (`npm run bench`, after the build: it loads dist); alone: `node test/bench/micro.mjs`.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createEngine } from '@codehealth/engine';
import { deadCode } from '@codehealth/analyzers';
import { listFiles } from '../../packages/engine/dist/snapshot/inventory.js';
import { findCloneClasses } from '../../packages/analyzers/dist/duplication/clone-detection.js';

/** Median of `runs` timings of `fn` (ms), after one warm-up run. */
async function time(fn, runs = 5) {
  await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

const ms = (value) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
const ratio = (value) => `${value.toFixed(2)}x`;

function writeTree(root, files) {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

/** The floor of an inventory: a recursive directory walk with one stat per file, nothing else. */
function walk(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else out.push(statSync(path).size);
  }
  return out;
}

// 1. Inventory of 10,000 files (was: inventory.test.ts 'in under a second').
{
  const root = mkdtempSync(join(tmpdir(), 'codehealth-micro-inventory-'));
  try {
    for (let d = 0; d < 100; d++) for (let f = 0; f < 100; f++) writeTree(root, { [`src/d${d}/f${f}.ts`]: 'export const x = 1;\n'.repeat(20) });
    const inventory = await time(() => listFiles(root));
    const floor = await time(() => walk(root));
    console.log(
      `micro inventory 10,000 files: listFiles ${ms(inventory)}, directory walk ${ms(floor)}, ratio ${ratio(inventory / floor)} (was asserted < 1 s)`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// 2. Clone detection on huge repetitive token runs (was: clone-detection.test.ts '< 5 s').
{
  const input = (scale) => {
    const table = Int32Array.from({ length: 400_000 * scale }, (_, i) => (i % 2 === 0 ? 7 : 8));
    const records = Int32Array.from({ length: 300_000 * scale }, (_, i) => 100 + (i % 30));
    return [table, table.slice(0, 200_000 * scale), records, records.slice(0, 90_000 * scale)];
  };
  const one = input(1);
  const two = input(2);
  const t1 = await time(() => findCloneClasses(one, 50), 3);
  const t2 = await time(() => findCloneClasses(two, 50), 3);
  console.log(
    `micro clone detection, repetitive runs: 990k tokens ${ms(t1)}, 1.98M tokens ${ms(t2)}, ratio ${ratio(t2 / t1)} (linear ≈ 2x; was asserted < 5 s)`,
  );
}

// 3. unused-export on a name exported by thousands of statements (was: rule.test.ts '< 10 s').
{
  // A new engine for each analysis: an engine keeps the summaries of files it has seen.
  const analyze = async (root) => {
    const engine = await createEngine({ plugins: [{ name: 'micro', analyzers: [deadCode] }], cacheDir: false, workers: 0 });
    const started = performance.now();
    await engine.analyze(root);
    return performance.now() - started;
  };
  const run = async (statements) => {
    const root = mkdtempSync(join(tmpdir(), 'codehealth-micro-exports-'));
    try {
      writeTree(root, {
        'package.json': JSON.stringify({ name: 'mini', version: '1.0.0', private: true, type: 'module', main: './src/index.js' }),
        'src/index.ts': "import { a } from './gen.js';\nconsole.log(a);\n",
        'src/gen.ts': `export const a = 1;\n${'export var dup = 0;\n'.repeat(statements)}console.log(a);\n`,
      });
      await analyze(root);
      const times = [await analyze(root), await analyze(root), await analyze(root)];
      return times.sort((a, b) => a - b)[1];
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  const t1 = await run(4000);
  const t2 = await run(8000);
  console.log(
    `micro unused-export, one name exported by many statements: 4,000 ${ms(t1)}, 8,000 ${ms(t2)}, ratio ${ratio(t2 / t1)} (linear ≈ 2x; was asserted < 10 s)`,
  );
}
