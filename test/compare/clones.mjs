// CLI: compares the duplication analyzer with jscpd 5.3.3 on this project and on rxjs 7.8.2, with
// jscpd's settings (tests, imports and overload sets included) and with our defaults.
// Usage: npm run build && node test/compare/clones.mjs [project|rxjs]...  (exit 1 below 95% agreement)
import { createJiti } from 'jiti';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { obtainRxjs } from '../helpers/corpora.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// The analyzer is read from its TypeScript sources; the engine from its build (decorators need tsc).
const jiti = createJiti(import.meta.url);
const clones = await jiti.import('./clones.ts');

const jscpd = clones.obtainJscpd();
if (jscpd.error !== undefined) {
  console.error(`SKIPPED: ${jscpd.error}`);
  process.exit(0);
}
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['project', 'rxjs'];
let failed = false;
for (const corpus of wanted) {
  let dir;
  let label;
  let cleanup = () => {};
  if (corpus === 'project') {
    dir = clones.copyProjectSources(root);
    label = 'this project (packages/*/src)';
    cleanup = () => rmSync(dir, { recursive: true, force: true });
  } else if (corpus === 'rxjs') {
    const rxjs = obtainRxjs();
    if (rxjs.error !== undefined) {
      console.error(`SKIPPED: ${rxjs.error}`);
      continue;
    }
    dir = join(rxjs.root, 'src');
    label = 'rxjs 7.8.2 src';
  } else {
    console.error(`unknown corpus ${corpus} (expected project or rxjs)`);
    process.exit(2);
  }
  try {
    const theirs = clones.runJscpd(jscpd.bin, dir, clones.THRESHOLDS);
    const compatible = await clones.runOurs(dir, clones.JSCPD_COMPATIBLE);
    const defaults = await clones.runOurs(dir);
    const report = clones.compareClones(`${label}, jscpd's settings`, dir, theirs, compatible);
    console.log(clones.formatComparison(report));
    console.log(clones.formatComparison(clones.compareClones(`${label}, our defaults`, dir, theirs, defaults, compatible)));
    if (report.agreement < 0.95) failed = true;
  } finally {
    cleanup();
  }
}
process.exit(failed ? 1 : 0);
