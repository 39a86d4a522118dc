import { AnalyzerTester } from '@codehealth/engine/testing';
import { codeSmell } from '../index.js';

new AnalyzerTester(codeSmell).run('magic-numbers', {
  valid: [
    { code: 'const TIMEOUT = 5000;\nsetTimeout(run, 5000);\nconst sizes = [3, 7];\nconst o = { retries: 4 };', name: 'numbers outside arithmetic and comparisons' },
    { code: 'if (x > 0 && y < 1 && z === -1 && w == 2) {}', name: '-1, 0, 1 and 2 are ignored by default' },
    { code: 'const MS_PER_DAY = 24 * 60 * 60 * 1000;\nconst ms = 24 * 60 * 60 * 1000;\nconst DELAY = MINUTE * 5;\nconst RAD = Math.PI / 180;', name: 'a const whose value is built from literals and named constants names the number' },
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
      findings: [{ line: 1, title: 'Magic number 10000 in `i < 10000`' }, { line: 1, title: 'Magic number 37 in `i * 37`' }],
    },
    {
      code: 'function retry(attempts) {\n  if (attempts > 3) return;\n}',
      name: 'a comparison with a bare number',
      findings: [{ line: 2, symbol: 'retry', severity: 'low', title: 'Magic number 3 in `attempts > 3`', data: { value: 3, kind: 'comparison', occurrences: 1 } }],
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
