// `npm run compare`: every accuracy comparison with the established peers, one after another —
// cognitive complexity vs eslint-plugin-sonarjs, clones vs jscpd 5.3.3, unused exports vs knip —
// on this repository and on rxjs 7.8.2. Each prints its agreement figures; the exit code is the
// worst of theirs. Pass corpus names (project, rxjs) to narrow the run.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const comparisons = [
  ['Cognitive Complexity vs eslint-plugin-sonarjs', 'cognitive-complexity.mjs'],
  ['Clones vs jscpd 5.3.3', 'clones.mjs'],
  ['Unused exports vs knip', 'unused-exports.mjs'],
];
let status = 0;
for (const [title, script] of comparisons) {
  console.log(`\n=== ${title}`);
  const run = spawnSync(process.execPath, [join(here, script), ...process.argv.slice(2)], { stdio: 'inherit' });
  status = Math.max(status, run.status ?? 1);
}
process.exit(status);
