// Parse health per corpus: how many files tree-sitter-typescript parses without ERROR or MISSING
// nodes, as the grammar leaves them (before) and with the engine's parse repairs (after), the files
// still failing with their first error line, and the parse time of both on the first corpus.
// Counted in files, not bytes. Plain Node over the built engine: `npm run parse-health`.
// Corpora are npm packages that ship their TypeScript sources (test/helpers/corpora.js).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseSource } from '@codehealth/engine';
import { obtainNpmPackage } from '../helpers/corpora.js';

/** [package, version, folder of its TypeScript sources]. */
const CORPORA = [
  ['effect', '3.22.4', 'src'],
  ['rxjs', '7.8.2', 'src'],
  ['zod', '4.6.7', 'src'],
  ['openai', '6.49.0', 'src'],
  ['@tanstack/query-core', '5.108.0', 'src'],
  ['@trpc/server', '11.25.2', 'src'],
  ['@effect/platform', '0.97.2', 'src'],
  ['@reduxjs/toolkit', '2.14.0', 'src'],
  ['type-fest', '5.10.0', 'source'],
];
const TYPESCRIPT = /\.[mc]?tsx?$/;
const TIMING_RUNS = 5;

function languageOf(path) {
  return path.endsWith('x') ? 'tsx' : 'typescript';
}

/** The 1-based line of the first ERROR or MISSING node. */
function firstErrorLine(tree) {
  const cursor = tree.walk();
  for (;;) {
    const node = cursor.currentNode;
    if (node.type === 'ERROR' || node.isMissing) return node.startPosition.row + 1;
    if (node.hasError && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) if (!cursor.gotoParent()) return 1;
  }
}

function measure(files, repair) {
  const failing = [];
  for (const file of files) {
    const tree = parseSource(file.source, languageOf(file.path), { repair });
    if (tree.rootNode.hasError) failing.push({ path: file.path, line: firstErrorLine(tree) });
  }
  return failing;
}

/** Median milliseconds to parse every file, runs of both kinds interleaved so that both see the same machine. */
function parseTimes(files) {
  const times = { before: [], after: [] };
  for (let run = 0; run < TIMING_RUNS; run++) {
    for (const repair of [false, true]) {
      const started = performance.now();
      for (const file of files) parseSource(file.source, languageOf(file.path), { repair });
      times[repair ? 'after' : 'before'].push(performance.now() - started);
    }
  }
  const median = (list) => list.sort((a, b) => a - b)[list.length >> 1];
  return { before: median(times.before), after: median(times.after) };
}

const percent = (part, whole) => (whole === 0 ? '100.0' : ((100 * part) / whole).toFixed(1));
const rows = [];
const remaining = [];
let timing;
for (const [name, version, folder] of CORPORA) {
  const corpus = obtainNpmPackage(name, version, folder);
  if (corpus.error !== undefined) {
    console.error(`skipped: ${corpus.error}`);
    continue;
  }
  const dir = join(corpus.root, folder);
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => TYPESCRIPT.test(p))
    .sort()
    .map((p) => ({ path: `${folder}/${p}`, source: readFileSync(join(dir, p), 'utf8') }));
  const before = measure(files, false);
  const after = measure(files, true);
  rows.push(`| ${name}@${version} | ${files.length} | ${before.length} | ${after.length} | ${percent(files.length - after.length, files.length)} % |`);
  for (const f of after) remaining.push(`- ${name}@${version} \`${f.path}:${f.line}\``);
  timing ??= { corpus: `${name}@${version}`, files: files.length, withErrors: before.length, ...parseTimes(files) };
}

console.log('| corpus | files | with errors before | with errors after | clean after |');
console.log('|---|---:|---:|---:|---:|');
for (const row of rows) console.log(row);
console.log('');
console.log(remaining.length === 0 ? 'Files still with errors: none.' : `Files still with errors (first error line):\n${remaining.join('\n')}`);
if (timing) {
  const { corpus, files, withErrors, before, after } = timing;
  console.log('');
  console.log(
    `Parse time, ${corpus} (${files} files, ${withErrors} re-parsed), median of ${TIMING_RUNS}: ` +
      `${before.toFixed(0)} ms without repairs, ${after.toFixed(0)} ms with them (+${percent(after - before, before)} %).`,
  );
}
