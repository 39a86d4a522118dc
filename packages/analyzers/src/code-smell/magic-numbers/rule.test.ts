import { AnalyzerTester } from '@codehealth/engine/testing';
import { codeSmell } from '../index.js';

new AnalyzerTester(codeSmell).run('magic-numbers', {
  valid: [
    {
      code: 'const TIMEOUT = 5000;\nsetTimeout(run, 5000);\nconst sizes = [3, 7];\nconst o = { retries: 4 };',
      name: 'numbers outside arithmetic and comparisons',
    },
    { code: 'if (x > 0 && y < 1 && z === -1 && w == 2) {}', name: '-1, 0, 1 and 2 are ignored by default' },
    {
      code: 'const MS_PER_DAY = 24 * 60 * 60 * 1000;\nconst ms = 24 * 60 * 60 * 1000;\nconst DELAY = MINUTE * 5;\nconst RAD = Math.PI / 180;',
      name: 'a const whose value is built from literals and named constants names the number',
    },
    { code: 'class Limits {\n  static readonly WINDOW = 60 * 5;\n}', name: 'readonly class fields too' },
    { code: 'enum Flags { A = 1 << 4, B = 3 * 4 }', name: 'enum members' },
    { code: 'function f(x = 3 * 4, { y = 5 * 6 } = {}) {}', name: 'default values of parameters' },
    { code: 'const last = items[count + 3];', name: 'array indexes' },
    { code: 'const pct = Math.round(ratio * 100);\nconst s = ms / 1000;\nx *= 10;\nconst r = Math.round(v * 10) / 10;', name: 'powers of ten scaling a value' },
    { code: 'const wait = 30 * DAY_MS;\nconst later = now + 5 * Duration.MINUTE;', name: 'a quantity of a named unit' },
    { code: 'type Small = 3 | 4;\nconst mask = flags & 0xff;', name: 'literal types and bitwise operations' },
    { code: 'if (x > 42) {}', filename: 'src/a.test.ts', name: 'test files are not checked' },
    { code: 'if (status === 404) {}', options: { ignore: [404] }, name: 'the ignore option' },
    { code: 'for (let i = 0; i < 10000; i++) sum += i * 37;', filename: 'bench/loop.ts', name: 'benchmarks: sizes and iteration counts are their subject' },
    { code: 'for (let i = 0; i < 10000; i++) sum += i * 37;', filename: 'src/parse.bench.ts', name: 'a bench file in src/' },
    { code: 'if (n > 500) {}', filename: 'src/timer.ts', role: 'benchmark', name: 'a file the configuration makes a benchmark' },
  ],
  invalid: [
    {
      code: 'for (let i = 0; i < 10000; i++) sum += i * 37;',
      filename: 'src/bench.ts',
      name: 'a production file named bench.ts is checked',
      findings: [
        { line: 1, title: 'Magic number 10000 in `i < 10000`' },
        { line: 1, title: 'Magic number 37 in `i * 37`' },
      ],
    },
    {
      code: 'function retry(attempts) {\n  if (attempts > 3) return;\n}',
      name: 'a comparison with a bare number',
      findings: [
        { line: 2, symbol: 'retry', severity: 'info', title: 'Magic number 3 in `attempts > 3`', data: { value: 3, kind: 'comparison', occurrences: 1 } },
      ],
    },
    {
      code: 'const total = price * 1.2;',
      name: 'a const whose value has other operands does not name the number',
      findings: [{ line: 1, title: 'Magic number 1.2 in `price * 1.2`', data: { value: 1.2, kind: 'arithmetic' } }],
    },
    {
      code: 'let x = -7 + y;\ncount += 5;',
      name: 'negative numbers and compound assignments',
      findings: [
        { line: 1, title: 'Magic number -7 in `-7 + y`', data: { value: -7 } },
        { line: 2, title: 'Magic number 5 in `count += 5`', data: { value: 5 } },
      ],
    },
    {
      code: 'function scan(c) {\n  if (c === 61) a();\n  if (c === 61) b();\n  if ((c & 0xff) === 0x7f) d();\n}',
      name: 'one finding per number and function, counting repeats; hex values',
      findings: [
        { line: 2, title: 'Magic number 61 in `c === 61` (2 times in scan)', data: { value: 61, occurrences: 2 } },
        { line: 4, title: 'Magic number 0x7f in `(c & 0xff) === 0x7f`', data: { value: 127 } },
      ],
    },
    {
      code: 'const s = ms / 1000;',
      options: { ignoreScaleFactors: false },
      name: 'scale factors when the option is off',
      findings: [{ line: 1, title: 'Magic number 1000 in `ms / 1000`' }],
    },
  ],
});

new AnalyzerTester(codeSmell).run('magic-numbers', {
  valid: [
    {
      code: 'const c = s.charCodeAt(i);\nif (c === 0x28 || c >= 0x61) {}\nif (s.charCodeAt(0) === 111) {}\nconst ws = (char: number) => char === 32 || char === 9;',
      name: 'character codes compared with a character',
    },
    { code: 'if (n > 37) {} // the 37 cached layouts\nif (size < 5 /* header */) {}', name: 'a number explained by a comment on its line' },
    {
      code: 'if (res.status !== 200) {}\nif (status >= 400 && xhr.statusCode < 500) {}\nconst ok = parsedCode >= 200 && parsedCode < 300;',
      name: 'HTTP status codes compared with a status',
    },
    { code: 'function extend(a, b, c, d) {\n  if (arguments.length > 4) die();\n}', name: 'an arity check' },
    {
      code: 'if (hoursNumber > 23 || minutes > 59 || date.seconds > 60) {}\nconst lastDigit = n % 10;\nconst lastTwo = n % 100;',
      name: 'clock field bounds and last digits',
    },
    { code: `var a=1;${' '.repeat(600)}if (k > 65) {}`, name: 'a minified file' },
    {
      code: 'const gcTime = 5 * 60 * 1000;\nconst later = now + 30 * 24 * hours;\nconst minutes = ms / 60000;\nconst h = secs % 3600;\nconst d = elapsed / 86400;',
      name: 'time units, and counts multiplied by them',
    },
    { code: 'const bits = bytes * 8;\nif (size > 1024) {}\nif (v <= 0xffff && w < 255) {}\nconst hi = n / 0x100;', name: 'powers of two and bit masks' },
    { code: 'const half = w * 0.5;\nconst rad = deg / 180;\nconst a = (t + 360) % 360;', name: 'well-known constants' },
    { code: 'const last = items[items.length - 1];\nif (i === -1) {}\nconst prev = list.length - 1;', name: 'indexes at the edges' },
    { code: 'if (x > 42) {}', filename: 'examples/demo/src/app.ts', name: 'examples are not the product' },
    { code: 'if (x > 42) {}', filename: 'scripts/release.ts', name: 'nor are scripts' },
  ],
  invalid: [
    {
      code: 'const c = s.charCodeAt(i);\nif (c === 0x28) {}\nif (xhr.readyState !== 4) {}\nif (retries > 3) {}',
      name: 'beside a character code: a state and a limit',
      findings: [
        { line: 3, title: 'Magic number 4 in `xhr.readyState !== 4`' },
        { line: 4, title: 'Magic number 3 in `retries > 3`' },
      ],
    },
    {
      code: 'if (count === 200) {}\nconst total = price * 60 + fee;\nif (n < 7) {}',
      name: 'a status-like number compared with something else than a status; a small bound',
      findings: [
        { line: 1, title: 'Magic number 200 in `count === 200`' },
        { line: 3, title: 'Magic number 7 in `n < 7`' },
      ],
    },
    {
      code: 'if (c === 0x28) {}',
      options: { ignoreWellKnown: false },
      name: 'well-known numbers when the option is off',
      findings: [{ line: 1, title: 'Magic number 0x28 in `c === 0x28`' }],
    },
  ],
});
