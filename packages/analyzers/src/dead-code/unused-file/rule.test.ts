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
    expect(byPath['src/orphan.ts'].severity).toBe('info');
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
    const run = await analyzeMiniRepo(
      {
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
      },
      { 'dead-code/unused-file': { options: { entries: ['src/declared.ts'] } } },
    );
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
    expect(confidence).toEqual({ 'src/helpers.ts': [50, 'info'], 'src/server.ts': [70, 'info'], 'src/big.ts': [90, 'info'] });
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
      'src/App.vue': '<script setup lang="ts">\nimport { useStore } from \'./store\';\n</script>\n',
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

  // Issue 17: every file below was reported as unused on real repositories; src/orphan.ts still is.
  it('reads what runs files: scripts that cd first, CI workflows and composite actions, shell scripts, Dockerfiles, configs', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/index.js', scripts: { bench: 'cd perf-harness && node run.mjs', lint: 'cd tools && tsx ./check.ts' } }),
      'src/index.ts': 'export const api = 1;\n',
      'src/orphan.ts': 'export const orphan = 1;\n',
      'perf-harness/run.mjs': 'console.log(1);\n',
      'tools/check.ts': 'console.log(1);\n',
      '.github/workflows/ci.yml': 'jobs:\n  a:\n    steps:\n      - run: node src/ci/report.mjs --out x\n',
      '.github/actions/setup/action.yml': 'runs:\n  using: composite\n  steps:\n    - run: node ./src/ci/setup.js\n      shell: bash\n',
      'src/ci/report.mjs': 'console.log(1);\n',
      'src/ci/setup.js': 'console.log(1);\n',
      'bin/release.sh': '#!/bin/sh\nnode src/release/publish.js "$@"\n',
      'src/release/publish.js': 'console.log(1);\n',
      'docker/app.dockerfile': 'FROM node\nRUN node ./src/docker/healthcheck.js\n',
      'src/docker/healthcheck.js': 'console.log(1);\n',
      // A tool's config variant names a reporter; Jest's <rootDir>; a command a config runs.
      'vitest.config.build.ts': "export default { test: { reporters: ['default', './src/test-support/reporter.ts'] } };\n",
      'src/test-support/reporter.ts': 'export default class Reporter {}\n',
      'packages/core/package.json': manifest({ name: 'core', main: './src/index.js' }),
      'packages/core/src/index.ts': 'export const core = 1;\n',
      'packages/core/jest.config.js': "module.exports = { setupFilesAfterEnv: ['<rootDir>/src/jest.setup.ts'] };\n",
      'packages/core/src/jest.setup.ts': 'globalThis.x = 1;\n',
      'config/playwright.config.js': "export default { webServer: { command: 'node src/e2e/reset-data.js && node src/index.js' } };\n",
      'src/e2e/reset-data.js': 'console.log(1);\n',
    });
    expect(run.lines('unused-file')).toEqual(['src/orphan.ts:1 Unused file orphan.ts']);
  });

  it('reads paths written as strings in code: files and directories a test or a runner loads', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './src/index.js' }),
      'src/index.ts':
        "import path from 'node:path';\nexport const models = path.join(process.cwd(), './src/models');\nexport const migrations = './db/changes';\n",
      'src/models/user.js': 'module.exports = class User {};\n',
      'src/models/nested/deep.js': 'module.exports = 1;\n',
      'db/changes/001-init.js': 'exports.up = () => {};\n',
      // jscodeshift: the test names the transform beside its __tests__ folder.
      'src/codemods/__tests__/rename.test.js': "defineTest(__dirname, 'rename.cjs', null, 'basic');\n",
      'src/codemods/rename.cjs': 'module.exports = () => {};\n',
      // A bundle-size test builds each case by a computed name.
      'src/size/size.test.ts': "import path from 'node:path';\nfor (const c of ['a']) build(path.join(__dirname, `cases/${c}.ts`));\n",
      'src/size/cases/a.ts': 'export const a = 1;\n',
      'src/runtime.test.ts': "startWorker('./src/workers/edge.ts');\n",
      'src/workers/edge.ts': 'export default {};\n',
      // An import specifier is not a path string: `./orphan` is only mentioned by an import of a file nothing reaches.
      'src/orphan.ts': "import { x } from './dead-dep';\nconsole.log(x);\n",
      'src/dead-dep.ts': 'export const x = 1;\n',
    });
    // A directory string loads the files directly in it, not its subfolders.
    expect(run.lines('unused-file')).toEqual([
      'src/dead-dep.ts:1 Unused file dead-dep.ts',
      'src/models/nested/deep.js:1 Unused file deep.js',
      'src/orphan.ts:1 Unused file orphan.ts',
    ]);
  });

  it('does not judge what loaders it cannot see: migration folders, public/, compiled JS twins, packages without any entry', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({ main: './server/index.js', workspaces: ['integrations/*'] }),
      'server/index.js': "const util = require('../src/util');\nconsole.log(util);\n",
      'src/util.ts': 'export const util = 1;\n',
      // Compiled from util.ts and committed: Node loads it, the graph resolves the .ts.
      'src/util.js': 'exports.util = 1;\n',
      'src/orphan.js': 'exports.orphan = 1;\n',
      'db/migrations/2024-01-01-init.js': 'exports.up = () => {};\n',
      'server/seeds/users.js': 'exports.seed = () => {};\n',
      'public/sw.js': 'self.addEventListener("fetch", () => {});\n',
      // A private package whose only script type-checks it: nothing says how its files are loaded.
      'integrations/nodenext/package.json': JSON.stringify({ name: 'nodenext', private: true, scripts: { 'test:types': 'tsc' } }),
      'integrations/nodenext/src/hooks.ts': 'export const hooks = 1;\n',
    });
    expect(run.lines('unused-file')).toEqual(['src/orphan.js:1 Unused file orphan.js']);
  });

  it('maps a package\'s build output back to sources: a build at the package root, a bundle named after the package, files listed in "files"', async () => {
    const run = await analyzeMiniRepo({
      'package.json': manifest({
        name: 'datelib',
        private: false,
        exports: { '.': { import: './index.js' }, './add': { import: './add.js', require: './add.cjs' } },
        files: ['lib', 'datelib.mjs'],
      }),
      'src/index.ts': "export * from './add/index.js';\n",
      'src/add/index.ts': 'export const add = 1;\n',
      'src/orphan.ts': 'export const orphan = 1;\n',
      'datelib.mjs': "export * from './src/index.js';\n",
      'packages/bundled/package.json': manifest({ name: 'bundled', exports: { '.': { import: './dist/bundled.mjs' } } }),
      'packages/bundled/src/index.ts': "export { compose } from './compose';\n",
      'packages/bundled/src/compose.ts': 'export const compose = 1;\n',
      'packages/bundled/src/orphan.ts': 'export const orphan = 1;\n',
    });
    expect(run.lines('unused-file')).toEqual(['packages/bundled/src/orphan.ts:1 Unused file orphan.ts', 'src/orphan.ts:1 Unused file orphan.ts']);
  });
});
