import { afterEach, describe, expect, it } from 'vitest';
import type { FileRole } from '../domain/types.js';
import { classifyFile } from './classify.js';
import { assignRoles, createRoleClassifier, roleOfFile } from './file-roles.js';
import { TempDir, TempRepo } from './fixtures/temp-repo.js';
import { listFiles } from './inventory.js';
import { createSnapshot } from './snapshot.js';

/** The role of a path from its place and name alone (no manifests), with its kind as the inventory gives it. */
const roleOfPath = (path: string): FileRole => createRoleClassifier()({ path, kind: classifyFile(path) });

describe('roles from the path alone', () => {
  it.each([
    // production: folder and file names are matched as whole segments, not substrings
    ['src/index.ts', 'production'],
    ['src/bench.ts', 'production'],
    ['src/benchmarking/timer.ts', 'production'],
    ['src/example.ts', 'production'],
    ['lib/examples.js', 'production'],
    ['src/docs.ts', 'production'],
    ['doctor/check.ts', 'production'],
    ['toolsmith/forge.ts', 'production'],
    // words of a program's own domain inside a source root
    ['src/docs/generator.ts', 'production'],
    ['app/docs/page.tsx', 'production'],
    ['src/tools/search.ts', 'production'],
    ['src/scripts/loader.ts', 'production'],
    ['src/perf/marks.ts', 'production'],
    ['packages/ui/src/website/builder.ts', 'production'],
    ['package.json', 'production'],
    ['README.md', 'production'],
    ['assets/logo.png', 'production'],
    // tests and their data
    ['src/a.test.ts', 'test'],
    ['test/helpers.ts', 'test'],
    ['test/tsconfig.json', 'test'],
    ['test/fixtures/input.ts', 'fixture'],
    ['src/graph/fixtures/cycles/a.ts', 'fixture'],
    ['src/__tests__/__snapshots__/a.test.ts.snap', 'fixture'],
    ['internal/testdata/sample.ts', 'fixture'],
    ['transforms/rename/__testfixtures__/basic.output.js', 'fixture'],
    ['test/bench/parse.mjs', 'benchmark'],
    // benchmarks
    ['bench/parse.ts', 'benchmark'],
    ['benchmarks/suite.js', 'benchmark'],
    ['src/benchmarks/suite.ts', 'benchmark'],
    ['__performance_tests__/todo.mjs', 'benchmark'],
    ['src/__benchmarks__/sort.ts', 'benchmark'],
    ['perf/render.ts', 'benchmark'],
    ['perf-testing/run.mjs', 'benchmark'],
    ['performance/large.ts', 'benchmark'],
    ['src/parse.bench.ts', 'benchmark'],
    ['src/sort.benchmark.mjs', 'benchmark'],
    // examples and demos
    ['examples/basic/index.ts', 'example'],
    ['example/app.js', 'example'],
    ['src/components/button/examples/Basic.tsx', 'example'],
    ['demo/main.ts', 'example'],
    ['playground/App.vue', 'example'],
    ['sandbox/index.ts', 'example'],
    ['examples-legacy/old.ts', 'example'],
    // documentation sites
    ['docs/guide.md', 'docs'],
    ['docs/snippets/usage.ts', 'docs'],
    ['docs-v3/index.html', 'docs'],
    ['website/src/pages/index.js', 'docs'],
    ['documentation/intro.mdx', 'docs'],
    ['src/Button.stories.tsx', 'docs'],
    ['stories/helpers.ts', 'docs'],
    ['src/stories/StoryFeed.tsx', 'production'],
    ['.storybook/main.ts', 'docs'],
    ['docs/.vitepress/config.ts', 'docs'],
    ['docusaurus.config.js', 'docs'],
    // scripts and tool configuration
    ['scripts/release.mjs', 'tooling'],
    ['tools/gen-types.ts', 'tooling'],
    ['packages/core/scripts/build.mjs', 'tooling'],
    ['ci/check.sh', 'tooling'],
    ['.github/workflows/ci.yml', 'tooling'],
    ['.husky/pre-commit', 'tooling'],
    ['tsconfig.json', 'tooling'],
    ['eslint.config.mjs', 'tooling'],
    ['.eslintrc.cjs', 'tooling'],
    ['vite.config.prod.ts', 'tooling'],
    ['gulpfile.js', 'tooling'],
    ['Dockerfile', 'tooling'],
    // kinds that are roles
    ['dist/index.js', 'generated'],
    ['src/types.d.ts', 'generated'],
    ['examples/basic/dist/bundle.js', 'generated'],
    ['vendor/jquery.js', 'vendored'],
  ] as Array<[string, FileRole]>)('%s is %s', (path, role) => {
    expect(roleOfPath(path)).toBe(role);
  });

  it('gives a file without a role the role of its kind', () => {
    expect(roleOfFile({ kind: 'source' })).toBe('production');
    expect(roleOfFile({ kind: 'test' })).toBe('test');
    expect(roleOfFile({ kind: 'generated' })).toBe('generated');
    expect(roleOfFile({ kind: 'config' })).toBe('production');
    expect(roleOfFile({ kind: 'source', role: 'benchmark' })).toBe('benchmark');
  });
});

/** Each mini-repository is written, listed and classified as the snapshot does it. */
describe('roles in mini-repositories', () => {
  const dirs: TempDir[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) dir.remove();
  });

  const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
  async function rolesOf(files: Record<string, string>, roles?: Record<string, string[]>): Promise<Record<string, FileRole | undefined>> {
    const dir = new TempDir('codehealth-roles-');
    dirs.push(dir);
    for (const [path, content] of Object.entries(files)) dir.write(path, content);
    const listed = assignRoles(dir.root, await listFiles(dir.root), { roles });
    return Object.fromEntries(listed.map((f) => [f.path, f.role]));
  }

  it('production code and its tests: a library', async () => {
    const roles = await rolesOf({
      'package.json': json({ name: 'lib', main: 'dist/index.js', scripts: { test: 'vitest run', build: 'tsc' } }),
      'src/index.ts': 'export * from "./bench";\n',
      'src/bench.ts': 'export function bench() {}\n',
      'src/index.test.ts': 'import "./index";\n',
      'test/fixtures/broken.ts': 'export const x = 1;\n',
      'test/__snapshots__/index.test.ts.snap': 'exports[`a`] = 1;\n',
    });
    expect(roles).toMatchObject({
      'package.json': 'production',
      'src/index.ts': 'production',
      'src/bench.ts': 'production',
      'src/index.test.ts': 'test',
      'test/fixtures/broken.ts': 'fixture',
      'test/__snapshots__/index.test.ts.snap': 'fixture',
    });
  });

  it('benchmarks: folders, bench files, and what a bench script runs', async () => {
    const roles = await rolesOf({
      'package.json': json({ name: 'lib', scripts: { bench: 'node measure/run.mjs && vitest bench --dir speed', 'perf:memory': 'node --expose-gc heap.mjs' } }),
      'src/parse.ts': 'export const parse = (s: string) => s;\n',
      'src/parse.bench.ts': 'import { parse } from "./parse";\n',
      'benchmarks/suite.ts': 'import { parse } from "../src/parse";\n',
      'measure/run.mjs': 'import "./helpers.mjs";\n',
      'measure/helpers.mjs': 'export {};\n',
      'speed/sort.ts': 'export {};\n',
      'heap.mjs': 'globalThis.gc();\n',
    });
    expect(roles).toMatchObject({
      'src/parse.ts': 'production',
      'src/parse.bench.ts': 'benchmark',
      'benchmarks/suite.ts': 'benchmark',
      'measure/run.mjs': 'benchmark',
      'speed/sort.ts': 'benchmark',
      'heap.mjs': 'benchmark',
    });
    // What a bench script imports outside the product's source is part of the benchmark (run-imports.ts).
    expect(roles['measure/helpers.mjs']).toBe('benchmark');
  });

  it('examples: folders and private workspace packages that only demonstrate', async () => {
    const roles = await rolesOf({
      'package.json': json({ name: 'root', private: true, workspaces: ['packages/*', 'examples/*'] }),
      'packages/core/package.json': json({ name: '@acme/core', main: 'src/index.ts' }),
      'packages/core/src/index.ts': 'export const core = 1;\n',
      'packages/showcase/package.json': json({ name: '@acme/demo-app', private: true }),
      'packages/showcase/src/main.ts': 'import "@acme/core";\n',
      'packages/web/package.json': json({ name: '@acme/web', private: true }),
      'packages/web/src/main.ts': 'import "@acme/core";\n',
      // a published package named like a role folder is the product
      'packages/examples/package.json': json({ name: '@acme/examples', version: '1.0.0' }),
      'packages/examples/src/index.ts': 'export const examples = [];\n',
      'examples/basic/package.json': json({ name: 'basic', private: true }),
      'examples/basic/index.ts': 'import "@acme/core";\n',
      'examples/basic/vite.config.ts': 'export default {};\n',
      // A name without a version is never published: its folder's name says what it is.
      'docs/package.json': json({ name: 'docs', devDependencies: { react: '^18' } }),
      'docs/components/Explanation.jsx': 'export const Explanation = () => null;\n',
      'integrations/react-next-15/package.json': json({ name: 'react-next-15', private: true }),
      'integrations/react-next-15/app/route.ts': 'export const GET = () => 1;\n',
    });
    expect(roles).toMatchObject({
      'packages/core/src/index.ts': 'production',
      'packages/showcase/src/main.ts': 'example',
      'packages/showcase/package.json': 'example',
      'packages/web/src/main.ts': 'production',
      'packages/examples/src/index.ts': 'production',
      'examples/basic/index.ts': 'example',
      'examples/basic/vite.config.ts': 'example',
      'docs/components/Explanation.jsx': 'docs',
      'integrations/react-next-15/app/route.ts': 'example',
    });
  });

  it('documentation sites: Docusaurus, VitePress, Storybook and private packages built on a docs framework', async () => {
    const roles = await rolesOf({
      'package.json': json({ name: 'lib', scripts: { 'docs:dev': 'vitepress dev handbook' } }),
      'src/Button.tsx': 'export const Button = () => null;\n',
      'src/Button.stories.tsx': 'import { Button } from "./Button";\n',
      '.storybook/preview.ts': 'export default {};\n',
      'site/docusaurus.config.js': 'module.exports = {};\n',
      'site/src/pages/index.js': 'export default function Home() {}\n',
      'guide/.vitepress/config.ts': 'export default {};\n',
      'guide/.vitepress/theme/index.ts': 'export default {};\n',
      'guide/components/Demo.vue': '<template></template>\n',
      'handbook/setup.ts': 'export {};\n',
      'packages/manual/package.json': json({ name: '@acme/manual', private: true, devDependencies: { '@docusaurus/core': '3' } }),
      'packages/manual/src/theme.ts': 'export {};\n',
    });
    expect(roles).toMatchObject({
      'src/Button.tsx': 'production',
      'src/Button.stories.tsx': 'docs',
      '.storybook/preview.ts': 'docs',
      'site/docusaurus.config.js': 'docs',
      'site/src/pages/index.js': 'docs',
      'guide/.vitepress/config.ts': 'docs',
      'guide/components/Demo.vue': 'docs',
      'handbook/setup.ts': 'docs',
      'packages/manual/src/theme.ts': 'docs',
    });
  });

  it('tooling: scripts, what package scripts and CI run, tool configs — but never the product a script starts', async () => {
    const roles = await rolesOf({
      'package.json': json({
        name: 'cli',
        bin: { cli: 'cli.js' },
        scripts: { start: 'node server.js', release: 'node release.mjs', prepare: 'node cli.js --init', lint: 'eslint src internal' },
      }),
      'cli.js': '#!/usr/bin/env node\n',
      'server.js': 'require("http");\n',
      'release.mjs': 'console.log("release");\n',
      'check-exports.mjs': 'console.log("check");\n',
      'internal/util.ts': 'export {};\n',
      'src/main.ts': 'export {};\n',
      'scripts/bump.sh': 'echo bump\n',
      'gulpfile.js': 'exports.default = () => {};\n',
      'tsconfig.json': '{}\n',
      '.github/workflows/ci.yml': [
        'jobs:',
        '  check:',
        '    steps:',
        '      - run: node check-exports.mjs',
        '      - name: self-check',
        '        run: |',
        '          npm ci',
        '          node src/main.ts --self-check',
        '',
      ].join('\n'),
    });
    expect(roles).toMatchObject({
      'release.mjs': 'tooling',
      'check-exports.mjs': 'tooling',
      'scripts/bump.sh': 'tooling',
      'gulpfile.js': 'tooling',
      'tsconfig.json': 'tooling',
      '.github/workflows/ci.yml': 'tooling',
      // the `bin` entry stays the product though a script runs it; `start` runs the product
      'cli.js': 'production',
      'server.js': 'production',
      // a directory a tooling script works on is not tooling; code under a source root never is
      'internal/util.ts': 'production',
      'src/main.ts': 'production',
    });
  });

  it("what a run script imports is the script's: helpers of a release script are tooling, the product they import is not", async () => {
    const roles = await rolesOf({
      'package.json': json({ name: 'http-client', main: 'index.js', scripts: { 'release:notes': 'node ./bin/notes.js' } }),
      'index.js': "module.exports = require('./lib/client.js');\n",
      'lib/client.js': 'module.exports = {};\n',
      'bin/notes.js': "const { tags } = require('./repo');\nimport('./gh/api.mjs');\nconst client = require('../lib/client.js');\n",
      'bin/repo.js': "const { run } = require('./helpers/exec.js');\nmodule.exports = { tags: () => run('git tag') };\n",
      'bin/helpers/exec.js': 'module.exports = { run: () => "" };\n',
      'bin/gh/api.mjs': "export { paged } from './paged';\n",
      'bin/gh/paged.ts': 'export const paged = 1;\n',
      // nothing runs or imports it from a script: still the product's
      'bin/cli.js': "require('../lib/client.js');\n",
      '.github/workflows/pr.yml': ['jobs:', '  label:', '    steps:', '      - run: node ./tools-bin/label.js', ''].join('\n'),
      'tools-bin/label.js': "import { api } from './shared.js';\n",
      'tools-bin/shared.ts': 'export const api = 1;\n',
      // a tool's configuration written as code: its custom rules and reporters are tooling
      'xo.config.js': "import rules from './lint-rules/index.js';\nexport default { rules };\n",
      'lint-rules/index.js': "export { default } from './no-any.js';\n",
      'lint-rules/no-any.js': 'export default {};\n',
      'vitest.config.ts': "export default { test: { reporters: ['./reporters/custom.ts'] } };\nimport './src/setup.ts';\n",
      'src/setup.ts': 'export {};\n',
      // tsd's type tests
      'test-d/pick.ts': "import { expectType } from 'tsd';\n",
      'source/omit.test-d.ts': "import { expectType } from 'tsd';\n",
    });
    expect(roles).toMatchObject({
      'bin/notes.js': 'tooling',
      'bin/repo.js': 'tooling',
      'bin/helpers/exec.js': 'tooling',
      'bin/gh/api.mjs': 'tooling',
      'bin/gh/paged.ts': 'tooling',
      // a workflow's script: its import written with .js names the TypeScript file
      'tools-bin/label.js': 'tooling',
      'tools-bin/shared.ts': 'tooling',
      'lint-rules/index.js': 'tooling',
      'lint-rules/no-any.js': 'tooling',
      'src/setup.ts': 'production',
      'test-d/pick.ts': 'test',
      'source/omit.test-d.ts': 'test',
      // the product a script imports stays the product: a source root, the manifest's main
      'lib/client.js': 'production',
      'index.js': 'production',
      'bin/cli.js': 'production',
    });
  });

  it('generated and vendored files keep those roles', async () => {
    const roles = await rolesOf({
      'dist/index.js': 'module.exports = {};\n',
      'vendor/lib.js': 'var lib;\n',
      'src/schema.ts': '// @generated by protoc\nexport {};\n',
    });
    expect(roles).toEqual({ 'dist/index.js': 'generated', 'vendor/lib.js': 'vendored', 'src/schema.ts': 'generated' });
  });

  it('lets the configuration override roles, the first role listed winning, generated and vendored excepted', async () => {
    const files = {
      'measurements/cpu.ts': 'export {};\n',
      'scripts/shipped/postinstall.mjs': 'export {};\n',
      'scripts/release.mjs': 'export {};\n',
      'src/api.sample.ts': 'export {};\n',
      'src/api.ts': 'export {};\n',
      'src/generated/client.ts': 'export {};\n',
    };
    expect(await rolesOf(files, { benchmark: ['measurements/**'], production: ['scripts/shipped/**'], example: ['*.sample.ts', 'src/generated/**'] })).toEqual({
      'measurements/cpu.ts': 'benchmark',
      'scripts/shipped/postinstall.mjs': 'production',
      'scripts/release.mjs': 'tooling',
      'src/api.sample.ts': 'example',
      'src/api.ts': 'production',
      'src/generated/client.ts': 'generated',
    });
    const ordered = await rolesOf(files, { tooling: ['measurements/**'], benchmark: ['measurements/**'] });
    expect(ordered['measurements/cpu.ts']).toBe('tooling');
  });

  it('takes nothing from a manifest that does not parse', async () => {
    const roles = await rolesOf({
      'package.json': '{ "name": "x", "scripts": { "bench": "node run.mjs" }',
      'showcase/package.json': '{ "name": "demo", "private": true,',
      'showcase/main.ts': 'export {};\n',
      'run.mjs': 'export {};\n',
    });
    expect(roles['run.mjs']).toBe('production');
    expect(roles['showcase/main.ts']).toBe('production');
  });

  it('gives every file of a snapshot its role, with the configuration passed to createSnapshot', async () => {
    const repo = new TempRepo('codehealth-roles-repo-');
    dirs.push(repo);
    repo.write('src/index.ts', 'export {};\n').write('perf-measures/run.ts', 'export {};\n').write('speed/run.ts', 'export {};\n').write('README.md', '# x\n');
    repo.commit('initial', { name: 'A', email: 'a@example.com' }, new Date('2025-01-01T00:00:00Z'));
    const snapshot = await createSnapshot(repo.root, { roles: { benchmark: ['speed/**'] } });
    expect(Object.fromEntries(snapshot.files.map((f) => [f.path, f.role]))).toEqual({
      'README.md': 'production',
      'perf-measures/run.ts': 'benchmark',
      'speed/run.ts': 'benchmark',
      'src/index.ts': 'production',
    });
  });
});
