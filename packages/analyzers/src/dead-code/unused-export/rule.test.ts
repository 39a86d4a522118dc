import { describe, expect, it } from 'vitest';
import { analyzeMiniRepo, manifest } from '../fixtures/mini-repo.js';

const TSCONFIG = JSON.stringify({ compilerOptions: { rootDir: 'src', outDir: 'dist' } });

describe('dead-code/unused-export', () => {
  it('reports exports nobody imports, by kind, with severities for dead code, in-file use and types', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './dist/index.js' }),
      'tsconfig.json': TSCONFIG,
      'src/index.ts': "import { used } from './lib.js';\nexport const api = used();\n",
      'src/lib.ts': [
        'export function used() { return helper(); }',
        'export function unused() { return 1; }',
        'export function helper() { return 2; }',
        'export interface Shape { a: number }',
        'export type Alias = Shape;',
        'export default class Widget {}',
      ].join('\n'),
    });
    expect(run.lines('unused-export')).toEqual([
      'src/lib.ts:2 Unused export unused in lib.ts',
      'src/lib.ts:3 Unused export helper in lib.ts',
      'src/lib.ts:4 Unused exported type Shape in lib.ts',
      'src/lib.ts:5 Unused exported type Alias in lib.ts',
      'src/lib.ts:6 Unused export default in lib.ts',
    ]);
    const bySymbol = Object.fromEntries(run.findings('unused-export').map((f) => [f.symbol, f]));
    expect(bySymbol.unused.severity).toBe('medium');
    expect(bySymbol.unused.description).toContain('not used inside the file either');
    expect(bySymbol.helper.severity).toBe('low');
    expect(bySymbol.helper.description).toContain('used inside the file');
    expect(bySymbol.Shape.severity).toBe('info');
    expect(bySymbol.Alias.severity).toBe('low');
    expect(bySymbol.Widget.severity).toBe('medium');
    expect(bySymbol.Widget.description).toContain('default export Widget');
    expect(bySymbol.unused.confidence).toBe(90);
    expect(bySymbol.unused.data).toEqual({ kind: 'function', typeOnly: false, usedInFile: false });
    expect(run.metric('unusedExports')).toBe(3);
    expect(run.metric('unusedTypeExports')).toBe(2);
  });

  it('does not judge a module that did not parse cleanly; a repaired one is judged as any other', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/main.js' }),
      'src/main.ts': "import { first } from './broken.js';\nimport { map } from './dual.js';\nconsole.log(first, map);\n",
      // The error hides `second` and whatever uses `third` from the facts: neither list is complete.
      'src/broken.ts': [
        'export const first = 1;',
        'export function second(a: number {',
        '  return third(a);',
        '}',
        'export function third(a: number) { return a; }',
      ].join('\n'),
      // Generic call signatures without `;` (semi: false): parsed once repaired.
      'src/dual.ts': [
        'export interface Dual {',
        '  <A>(self: A): A',
        '  <A, B>(self: A, that: B): [A, B]',
        '}',
        'export const map: Dual = (self: unknown) => self as never',
        'export const spare = 1',
      ].join('\n'),
    });
    expect(run.lines('unused-export')).toEqual(['src/dual.ts:1 Unused exported type Dual in dual.ts', 'src/dual.ts:6 Unused export spare in dual.ts']);
    expect(run.metric('modulesNotJudgedParseErrors')).toBe(1);
    const parse = run.result.metrics.parse;
    expect([parse.filesWithErrors, parse.errorFiles, parse.repairedFiles]).toEqual([1, [{ path: 'src/broken.ts', line: 2 }], 1]);
  });

  it('follows barrels, `export *`, renames and namespace imports from the entry point', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } }),
      'tsconfig.json': TSCONFIG,
      'src/index.ts':
        "export * from './math.js';\nexport { shout as loud } from './strings.js';\nimport * as geo from './geo.js';\nexport const area = geo.square(2);\n",
      'src/math.ts': 'export const add = (a: number, b: number) => a + b;\nexport const sub = (a: number, b: number) => a - b;\n',
      'src/strings.ts': 'export const shout = (s: string) => s.toUpperCase();\nexport const whisper = (s: string) => s.toLowerCase();\n',
      'src/geo.ts': 'export const square = (n: number) => n * n;\nexport const cube = (n: number) => n * n * n;\n',
    });
    // `geo.square` reads one member of the namespace: `cube` is not used (issue 17).
    expect(run.lines('unused-export')).toEqual(['src/geo.ts:2 Unused export cube in geo.ts', 'src/strings.ts:2 Unused export whisper in strings.ts']);
  });

  it('counts a namespace import as using every export only when the namespace escapes', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/index.js' }),
      'src/index.ts': [
        "import * as colors from './colors.js';",
        "import * as sizes from './sizes.js';",
        "import * as icons from './icons.js';",
        'export const theme = { primary: colors.red, ...sizes };',
        'export const icon = (name: string) => icons[name as keyof typeof icons];',
      ].join('\n'),
      'src/colors.ts': "export const red = '#f00';\nexport const blue = '#00f';\n",
      'src/sizes.ts': 'export const small = 1;\nexport const large = 2;\n',
      'src/icons.ts': "export const arrow = '→';\nexport const check = '✓';\n",
    });
    // colors: only `red` is read; sizes is spread and icons indexed by a computed key: every export may be read.
    expect(run.lines('unused-export')).toEqual(['src/colors.ts:2 Unused export blue in colors.ts']);
  });

  it('counts a JSDoc type import (`@type {import("./x").Name}`) as a use of that name only', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/index.js' }),
      'src/index.js':
        "const { evaluate } = require('./evaluator');\n/** @type {import('./operators').ConditionOperator[]} */\nconst ops = [];\nmodule.exports = { evaluate, ops };\n",
      'src/evaluator.js': 'exports.evaluate = () => 1;\n',
      'src/operators.js': 'class ConditionOperator {}\nclass Unused {}\nmodule.exports = { ConditionOperator, Unused };\n',
    });
    expect(run.lines('unused-export').filter((l) => l.startsWith('src/operators.js'))).toEqual(['src/operators.js:3 Unused export Unused in operators.js']);
  });

  it('reports unused re-exports of a barrel that is not an entry point, lower than declarations', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/main.js' }),
      'src/main.ts': "import { a } from './lib/index.js';\nconsole.log(a);\n",
      'src/lib/index.ts': "export { a, b } from './impl.js';\n",
      'src/lib/impl.ts': 'export const a = 1;\nexport const b = 2;\n',
    });
    expect(run.lines('unused-export')).toEqual(['src/lib/impl.ts:2 Unused export b in impl.ts', 'src/lib/index.ts:1 Unused re-export b in index.ts']);
    expect(run.findings('unused-export').map((f) => f.severity)).toEqual(['medium', 'low']);
  });

  it('takes entries from workspaces (exports `source` condition), bin shims into dist, scripts and configs', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ name: 'root', private: true, workspaces: ['packages/*'], scripts: { gen: 'node scripts/gen.mjs --out x' } }),
      'scripts/gen.mjs': "import { generate } from '../packages/core/src/generate.js';\ngenerate();\n",
      'packages/core/package.json': manifest({
        name: '@mini/core',
        exports: { '.': { source: './src/index.ts', default: './dist/index.js' }, './extra': { default: './dist/extra.js' } },
      }),
      'packages/core/tsconfig.json': TSCONFIG,
      'packages/core/src/index.ts': 'export const core = 1;\nexport type CoreOptions = { x: number };\n',
      'packages/core/src/extra.ts': 'export const extra = 2;\n',
      'packages/core/src/generate.ts': 'export function generate() {}\nexport function unusedGenerator() {}\n',
      'packages/core/src/setup.ts': 'export const setup = 3;\n',
      'packages/core/vitest.config.ts': "export default { test: { setupFiles: ['./src/setup.ts'] } };\n",
      'packages/cli/package.json': manifest({ name: '@mini/cli', bin: { mini: './bin/mini.js' }, dependencies: { '@mini/core': '*' } }),
      'packages/cli/bin/mini.js': "#!/usr/bin/env node\nimport { main } from '../dist/main.js';\nmain();\n",
      'packages/cli/src/main.ts': "import { core } from '@mini/core';\nexport function main() { return core; }\nexport function notMain() {}\n",
    });
    expect(run.lines('unused-export')).toEqual([
      'packages/cli/src/main.ts:3 Unused export notMain in main.ts',
      'packages/core/src/generate.ts:2 Unused export unusedGenerator in generate.ts',
    ]);
    expect(run.lines('unused-file')).toEqual([]);
  });

  it('knows framework conventions: Next.js pages read only their special exports; stories are entries', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ dependencies: { next: '15.0.0', react: '19.0.0' } }),
      'pages/index.tsx':
        'export default function Home() { return null; }\nexport async function getServerSideProps() { return { props: {} }; }\nexport const helper = 1;\n',
      'app/dashboard/page.tsx':
        'export const metadata = { title: "x" };\nexport async function generateMetadata() { return {}; }\nexport default function Page() { return null; }\n',
      'components/Button.tsx': 'export function Button() { return null; }\n',
      'components/Button.stories.tsx': "import { Button } from './Button';\nexport default { component: Button };\nexport const Primary = {};\n",
    });
    expect(run.lines('unused-export')).toEqual(['pages/index.tsx:3 Unused export helper in index.tsx']);
    expect(run.lines('unused-file')).toEqual([]);
  });

  it('reads CommonJS exports and require() uses, with lower confidence', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ type: 'commonjs', main: 'index.js' }),
      'index.js': "const { parse } = require('./util');\nmodule.exports = { run: () => parse('x') };\n",
      'util.js': 'function parse(s) { return s; }\nfunction format(s) { return s; }\nmodule.exports = { parse, format };\n',
    });
    expect(run.lines('unused-export')).toEqual(['util.js:3 Unused export format in util.js']);
    expect(run.findings('unused-export')[0].confidence).toBe(70);
  });

  it('options: includeTypes false leaves types out; ignoreExportsUsedInFile leaves in-file uses out', async () => {
    const files = {
      'package.json': manifest({ main: './src/index.js' }),
      'src/index.ts': "import { a } from './lib.js';\nconsole.log(a);\n",
      'src/lib.ts': 'export const a = 1;\nexport const b = () => c;\nexport const c = 2;\nexport interface T { x: number }\n',
    };
    const all = await analyzeMiniRepo(files);
    expect(all.lines('unused-export')).toEqual([
      'src/lib.ts:2 Unused export b in lib.ts',
      'src/lib.ts:3 Unused export c in lib.ts',
      'src/lib.ts:4 Unused exported type T in lib.ts',
    ]);
    const some = await analyzeMiniRepo(files, { 'dead-code/unused-export': { options: { includeTypes: false, ignoreExportsUsedInFile: true } } });
    expect(some.lines('unused-export')).toEqual(['src/lib.ts:2 Unused export b in lib.ts']);
  });

  // Quadratic checks took minutes here (past the test's timeout); the time and how it grows with the
  // statements are a benchmark figure (test/bench/micro.mjs).
  it('checks a name exported by thousands of statements', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/index.js' }),
      'src/index.ts': "import { a } from './gen.js';\nconsole.log(a);\n",
      // Generated code redeclaring names (valid JavaScript for `var`): quadratic checks took minutes here.
      'src/gen.ts': `export const a = 1;\n${'export var dup = 0;\n'.repeat(4000)}export var twice = 1;\nexport var twice = 2;\nconsole.log(twice);\n`,
    });
    const findings = run.findings('unused-export');
    // One finding per exported name: `dup` is never read, `twice` is read after both declarations.
    expect(findings.filter((f) => f.symbol === 'dup').map((f) => f.data?.usedInFile)).toEqual([false]);
    expect(findings.filter((f) => f.symbol === 'twice').map((f) => f.data?.usedInFile)).toEqual([true]);
  });

  it('does not report exports of test files or of unreachable files (unused-file reports those)', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/index.js' }),
      'src/index.ts': 'export const a = 1;\n',
      'src/orphan.ts': 'export const lonely = 1;\n',
      'src/index.test.ts': "import { a } from './index.js';\nexport const fixture = a;\n",
    });
    expect(run.lines('unused-export')).toEqual([]);
    expect(run.lines('unused-file')).toEqual(['src/orphan.ts:1 Unused file orphan.ts']);
  });
});
