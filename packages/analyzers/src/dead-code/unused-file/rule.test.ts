import { describe, expect, it } from 'vitest';
import { analyzeMiniRepo, manifest } from '../fixtures/mini-repo.js';

describe('dead-code/unused-file', () => {
  it('reports modules nothing reaches, and says whether anything imports them', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/index.js' }),
      'src/index.ts': "import { used } from './used.js';\nused();\n",
      'src/used.ts': 'export function used() {}\n',
      'src/orphan.ts': 'export const orphan = 1;\nexport const more = 2;\n',
      'src/dead-root.ts': "import { leaf } from './dead-leaf.js';\nleaf();\n",
      'src/dead-leaf.ts': 'export function leaf() {}\n',
    });
    expect(run.lines('unused-file')).toEqual([
      'src/dead-leaf.ts:1 Unused file dead-leaf.ts',
      'src/dead-root.ts:1 Unused file dead-root.ts',
      'src/orphan.ts:1 Unused file orphan.ts',
    ]);
    const byPath = Object.fromEntries(run.findings('unused-file').map((f) => [f.filePath, f]));
    expect(byPath['src/orphan.ts'].description).toContain('No module imports it');
    expect(byPath['src/orphan.ts'].severity).toBe('medium');
    expect(byPath['src/orphan.ts'].confidence).toBe(90);
    expect(byPath['src/orphan.ts'].data).toEqual({ linesOfCode: 2, importers: 0, inDeadCycle: false });
    expect(byPath['src/dead-leaf.ts'].description).toContain('imported only by a module that is unreachable themselves (src/dead-root.ts)');
    expect(run.metric('unusedFiles')).toBe(3);
    expect(run.metric('unusedFileLinesOfCode')).toBe(5);
    expect(run.metric('entryPoints')).toBe(1);
    expect(run.metric('reachableSourceFiles')).toBe(2);
  });

  it('reports a dead import cycle once per module, naming the cycle', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/index.js' }),
      'src/index.ts': 'export const ok = 1;\n',
      'src/a.ts': "import { b } from './b.js';\nexport const a = () => b();\n",
      'src/b.ts': "import { a } from './a.js';\nexport const b = () => a();\n",
    });
    expect(run.lines('unused-file')).toEqual(['src/a.ts:1 Unused file a.ts', 'src/b.ts:1 Unused file b.ts']);
    for (const finding of run.findings('unused-file')) {
      expect(finding.description).toContain('in an import cycle that nothing outside it enters');
      expect(finding.data?.inDeadCycle).toBe(true);
    }
    expect(run.lines('unused-export')).toEqual([]);
  });

  it('counts tests, workers, HTML pages, configs and the entries option as roots', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/index.js' }),
      'src/index.ts': "const worker = new Worker(new URL('./worker.js', import.meta.url));\nexport { worker };\n",
      'src/worker.ts': 'self.onmessage = () => {};\n',
      'src/tested-only.ts': 'export const t = 1;\n',
      'src/tested-only.test.ts': "import { t } from './tested-only.js';\nconsole.log(t);\n",
      'web/index.html': '<html><script type="module" src="/main.ts"></script></html>',
      'web/main.ts': "import './view.js';\n",
      'web/view.ts': 'document.title = "x";\n',
      'tools/plugin.ts': 'export default function plugin() {}\n',
      'vite.config.ts': "import plugin from './tools/plugin';\nexport default { plugins: [plugin()] };\n",
      'src/declared.ts': 'export const declared = 1;\n',
      'src/forgotten.ts': 'export const forgotten = 1;\n',
    }, { 'dead-code/unused-file': { options: { entries: ['src/declared.ts'] } } });
    expect(run.lines('unused-file')).toEqual(['src/forgotten.ts:1 Unused file forgotten.ts']);
  });

  it('treats benchmarks, examples, documentation sites and scripts as entry points, not as unused files', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/index.js', scripts: { release: 'node release.mjs' } }),
      'src/index.ts': 'export const api = 1;\n',
      'src/bench.ts': 'export const timer = 1;\n',
      'src/demo-only.ts': 'export const sample = 1;\n',
      'bench/parse.ts': "import { api } from '../src/index.js';\nexport const runs = 10;\nconsole.log(api, runs);\n",
      'src/sort.bench.ts': 'console.log(1);\n',
      'examples/basic/main.ts': "import { sample } from '../../src/demo-only.js';\nconsole.log(sample);\n",
      'docs/snippets/usage.ts': 'console.log(1);\n',
      'scripts/gen.ts': 'console.log(1);\n',
      'release.mjs': 'console.log(1);\n',
    });
    // Before roles every file above was reported but the entries src/index.ts and release.mjs (a script),
    // src/demo-only.ts too (only an example imports it). src/bench.ts is production code nothing loads.
    expect(run.lines('unused-file')).toEqual(['src/bench.ts:1 Unused file bench.ts']);
    // A benchmark's exports are for whoever runs it, as a test's are.
    expect(run.lines('unused-export')).toEqual([]);
  });

  it('lowers confidence for standalone-looking programs and files an unresolved import may name', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `export const v${i} = ${i};`).join('\n');
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/index.js' }),
      'src/index.ts': "import { x } from '~alias/helpers';\nconsole.log(x);\n",
      'src/helpers.ts': 'export const x = 1;\n',
      'src/server.ts': 'console.log("listening");\n',
      'src/big.ts': lines,
    });
    const confidence = Object.fromEntries(run.findings('unused-file').map((f) => [f.filePath, [f.confidence, f.severity]]));
    expect(confidence).toEqual({ 'src/helpers.ts': [50, 'medium'], 'src/server.ts': [70, 'medium'], 'src/big.ts': [90, 'high'] });
  });

  it('counts bulk loads as reaching every file they may load: import.meta.glob, require.context, computed import(), reference paths', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/index.js' }),
      'src/index.ts': [
        "const pages = import.meta.glob('./pages/*.ts');",
        "const icons = require.context('./icons', true, /\\.ts$/);",
        'export const load = (lang: string) => import(`./locales/${lang}.js`);',
        '/// <reference path="./globals.ts" />',
        'export { pages, icons };',
      ].join('\n'),
      'src/pages/home.ts': 'export default 1;\n',
      'src/pages/nested/deep.ts': 'export default 2;\n',
      'src/icons/sub/arrow.ts': 'export default 3;\n',
      'src/locales/en.ts': 'export default {};\n',
      'src/locales/fr/extra.ts': 'export default {};\n',
      'src/globals.ts': 'declare const VERSION: string;\n',
      'src/other/unloaded.ts': 'export default 4;\n',
    });
    expect(run.lines('unused-file')).toEqual(['src/other/unloaded.ts:1 Unused file unloaded.ts', 'src/pages/nested/deep.ts:1 Unused file deep.ts']);
  });

  it('keeps alive what unparsed components and configuration data name: .vue imports, angular.json main', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ private: true }),
      'angular.json': JSON.stringify({ projects: { app: { architect: { build: { options: { main: 'src/main.ts', outputPath: './dist' } } } } } }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { rootDir: './src' } }),
      'src/main.ts': 'export const boot = 1;\n',
      'src/App.vue': "<script setup lang=\"ts\">\nimport { useStore } from './store';\n</script>\n",
      'src/store.ts': 'export function useStore() {}\n',
      'src/index.ts': 'export const notAnEntry = 1;\n',
    });
    expect(run.lines('unused-file')).toEqual(['src/index.ts:1 Unused file index.ts']);
  });

  it('lowers confidence in a published package without an exports map, whose files consumers may deep-import', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ name: 'published-lib', private: false, main: 'dist/index.js' }),
      'lib/index.ts': "export { a } from './a';\n",
      'lib/a.ts': 'export const a = 1;\nexport const b = 2;\n',
      'lib/extra.ts': 'export const extra = 1;\n',
    });
    // `dist/index.js` maps to `lib/index.ts` (a source root other than src/).
    expect(run.lines('unused-file')).toEqual(['lib/extra.ts:1 Unused file extra.ts']);
    expect(run.lines('unused-export')).toEqual(['lib/a.ts:2 Unused export b in a.ts']);
    for (const finding of run.result.findings) {
      expect(finding.confidence).toBe(60);
      expect(finding.description).toContain('published-lib has no "exports" map');
    }
  });
});
