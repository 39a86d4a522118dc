// CLI: compares our Cognitive Complexity with sonarjs on this project and on rxjs 7.8.2.
// Usage: node test/compare/cognitive-complexity.mjs [project|rxjs]...  (exit code 1 below 99% agreement)
import { createJiti } from 'jiti';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// The comparison imports the TypeScript sources directly, so no build is needed to run it.
const jiti = createJiti(import.meta.url);
const compare = await jiti.import('./cognitive-complexity.ts');

const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['project', 'rxjs'];
let failed = false;
for (const corpus of wanted) {
  let report;
  if (corpus === 'project') {
    const packages = join(root, 'packages');
    const files = readdirSync(packages).flatMap((name) => {
      try {
        return compare.listTypeScriptFiles(join(packages, name, 'src'));
      } catch {
        return [];
      }
    });
    report = compare.compareFiles('this project (packages/*/src)', root, files);
  } else if (corpus === 'rxjs') {
    const src = compare.obtainRxjsSources();
    if (!src) continue;
    report = compare.compareFiles('rxjs 7.8.2 src', src, compare.listTypeScriptFiles(src));
  } else {
    console.error(`unknown corpus ${corpus} (expected project or rxjs)`);
    process.exit(2);
  }
  console.log(compare.formatReport(report));
  if (report.agreement < 0.99) failed = true;
}
process.exit(failed ? 1 : 0);
