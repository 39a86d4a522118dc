// The raw floor of an assessment: read + tree-sitter parse (+ one full cursor walk) of every file,
// one thread. Run as a child process by bench.mjs; prints one JSON line.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Parser = require('tree-sitter');
const { typescript, tsx } = require('tree-sitter-typescript');

const files = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const walk = process.argv[3] === 'walk';
const parsers = { ts: new Parser(), tsx: new Parser() };
parsers.ts.setLanguage(typescript);
parsers.tsx.setLanguage(tsx);

const started = performance.now();
let nodes = 0;
for (const file of files) {
  const source = readFileSync(file, 'utf8');
  const parser = file.endsWith('.ts') || file.endsWith('.mts') || file.endsWith('.cts') ? parsers.ts : parsers.tsx;
  const tree = parser.parse(source, undefined, { bufferSize: Buffer.byteLength(source) * 2 + 1 });
  if (walk) {
    const cursor = tree.walk();
    let done = false;
    while (!done) {
      nodes++;
      if (cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          done = true;
          break;
        }
      }
    }
  }
}
console.log(JSON.stringify({ ms: performance.now() - started, files: files.length, nodes, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
