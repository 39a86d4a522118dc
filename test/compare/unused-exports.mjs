// CLI: compares our unused exports/types/files with knip 6 on this project and on rxjs 7.8.2.
// Usage (after `npm run build`: the engine is loaded from dist): node test/compare/unused-exports.mjs [project|rxjs]...
import { createJiti } from 'jiti';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const jiti = createJiti(import.meta.url);
const { compareWithKnip, formatReport } = await jiti.import(resolve(root, 'test/compare/unused-exports.ts'));
const { obtainKnip } = await jiti.import(resolve(root, 'test/compare/knip.ts'));
const { obtainRxjs } = await import('../helpers/corpora.js');

const knip = obtainKnip();
if (knip.error) {
  console.error(knip.error);
  process.exit(2);
}
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['project', 'rxjs'];
for (const corpus of wanted) {
  if (corpus === 'project') console.log(formatReport(await compareWithKnip('this project', root, knip.bin)));
  else if (corpus === 'rxjs') {
    const rxjs = obtainRxjs();
    if (rxjs.error) console.warn(`SKIPPED: ${rxjs.error}`);
    else console.log(formatReport(await compareWithKnip('rxjs 7.8.2', rxjs.root, knip.bin)));
  } else {
    console.error(`unknown corpus ${corpus} (expected project or rxjs)`);
    process.exit(2);
  }
}
