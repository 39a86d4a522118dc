import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepo, type TestRepo } from '../../../../../test/helpers/git-repo.js';
import { codeSmell } from '../../code-smell/index.js';
import { testing } from '../index.js';
import { analyzeDirectory, analyzeFiles, type MiniRepoRun } from '../fixtures/mini-repo.js';

const lines = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `  const ${prefix}${i} = ${i};`).join('\n');

const FILES: Record<string, string> = {
  'package.json': '{ "name": "mini", "type": "module" }\n',
  'src/tested.ts': 'export function add(a: number, b: number) {\n  return a + b;\n}\n',
  'src/via-barrel.ts': 'export const mul = (a: number, b: number) => a * b;\n',
  'src/index.ts': "export * from './via-barrel.js';\nexport { add } from './tested.js';\n",
  'src/untested.ts': '// helpers nobody tests\nexport function lonely() {\n  return 1;\n}\n',
  'src/type-only-user.ts': 'export interface Shape {\n  x: number;\n}\nexport function typed(): number {\n  return 1;\n}\n',
  'src/types.ts': 'export interface A {\n  x: number;\n}\n',
  'src/data.ts': 'export class Point {\n  x = 0;\n  y = 0;\n}\n',
  'src/mocks/fake.ts': 'export function fake() {\n  return 0;\n}\n',
  'src/big.ts': `export function big() {\n${lines(40, 'a')}\n}\n${Array.from({ length: 270 }, (_, i) => `export const c${i} = ${i};`).join('\n')}\n`,
  'src/long-fn.ts': `export class Worker {\n  run() {\n${lines(55, 'b')}\n  }\n}\n`,
  'src/churned.ts': 'export function churned() {\n  return 0;\n}\n',
  'test/math.test.ts':
    "import { add, mul } from '../src/index.js';\nimport type { Shape } from '../src/type-only-user.js';\n" +
    "it('adds', () => { const s: Shape = { x: add(1, 2) }; expect(mul(s.x, 1)).toBe(3); });\n",
};

describe('testing/untested-module on a mini-repository', () => {
  let repo: TestRepo;
  let run: MiniRepoRun;
  beforeAll(async () => {
    repo = createGitRepo(FILES);
    for (let i = 1; i <= 5; i++) {
      repo.write({ 'src/churned.ts': `export function churned() {\n  return ${i};\n}\n` });
      repo.commit(`change ${i}`);
    }
    run = await analyzeDirectory(repo.root);
  });
  afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

  // The engine orders findings by severity, path and line.
  it('reports modules no test loads, with the reasons that make them risky (info notes)', () => {
    expect(run.findings('untested-module').map((f) => [f.filePath, f.anchor.lineStart, f.severity, f.title])).toEqual([
      ['src/big.ts', 1, 'info', 'No test loads big.ts'],
      ['src/churned.ts', 1, 'info', 'No test loads churned.ts'],
      ['src/long-fn.ts', 1, 'info', 'No test loads long-fn.ts'],
      ['src/type-only-user.ts', 4, 'info', 'No test loads type-only-user.ts'],
      ['src/untested.ts', 2, 'info', 'No test loads untested.ts'],
    ]);
    const [big, churned, longFn, typeOnly] = run.findings('untested-module');
    expect(big.description).toContain('Reported as medium: 312 lines of code.');
    expect(longFn.description).toContain('exports `Worker`');
    expect(longFn.description).toContain('function Worker.run spans 57 lines');
    expect(churned.description).toContain('changed in 6 commits in 90 days');
    expect(churned.data).toEqual({ exports: 1, codeLines: 3, commits90d: 6, untestedModules: 5 });
    // A type-only import does not load the module at run time.
    expect(typeOnly.description).toBe(
      'src/type-only-user.ts exports `typed` but no test file imports it, directly or through the modules tests load (6 lines of code).',
    );
    expect(big.confidence).toBe(75);
  });

  it('leaves out types-only modules, barrels, data classes and hand-written doubles; measures the rest', () => {
    const reported = run.findings('untested-module').map((f) => f.filePath);
    for (const path of ['src/types.ts', 'src/index.ts', 'src/data.ts', 'src/mocks/fake.ts']) expect(reported).not.toContain(path);
    // Runtime modules: tested, via-barrel, untested, type-only-user, data, mocks/fake, big, long-fn, churned.
    expect(run.metric('sourceModules')).toBe(9);
    expect(run.metric('testedSourceModules')).toBe(2);
    expect(run.metric('structuralCoveragePct')).toBe(22.2);
    // Exported functions: add, mul, lonely, typed, fake, big, churned (Worker is a class).
    expect(run.metric('exportedFunctions')).toBe(7);
    expect(run.metric('exercisedExportedFunctions')).toBe(2);
    expect(run.metric('exportedFunctionCoveragePct')).toBe(28.6);
  });

  it('names a function above the cognitive complexity threshold as a reason', async () => {
    const complex = `export function tangled(a: number[]) {\n${'  for (const x of a) { if (x) { while (x) { if (a) { break; } } } }\n'.repeat(3)}}\n`;
    const result = await analyzeFiles(
      {
        'src/tangled.ts': complex,
        'src/ok.ts': 'export const f = () => 1;\n',
        'test/ok.test.ts': "import { f } from '../src/ok.js';\nit('f', () => expect(f()).toBe(1));\n",
      },
      [testing, codeSmell],
    );
    const [finding] = result.findings('untested-module');
    expect([finding.filePath, finding.severity]).toEqual(['src/tangled.ts', 'info']);
    expect(finding.description).toContain('1 function above the cognitive complexity threshold');
  });
});

describe('testing/untested-module limits', () => {
  it('reports only the riskiest maxFindings modules and says how many there are', async () => {
    const files: Record<string, string> = { 'test/a.test.ts': "it('x', () => expect(1).toBe(1));\n" };
    for (const name of ['a', 'b', 'c']) files[`src/${name}.ts`] = `export function ${name}() {\n${lines(name.charCodeAt(0) - 96, 'x')}\n}\n`;
    const result = await analyzeFiles(files, [testing], { rules: { 'testing/untested-module': { options: { maxFindings: 2 } } } });
    const findings = result.findings('untested-module');
    expect(findings.map((f) => f.filePath)).toEqual(['src/b.ts', 'src/c.ts']);
    expect(findings[1].description).toContain('It is one of 3 untested modules; the 2 riskiest are reported.');
  });

  it('says once that a repository has no test files instead of reporting every module', async () => {
    const result = await analyzeFiles({ 'package.json': '{}\n', 'src/a.ts': 'export function a() {}\n', 'src/b.ts': 'export function b() {}\n' });
    expect(result.findings('untested-module').map((f) => [f.filePath, f.anchor.lineStart, f.severity, f.title])).toEqual([
      ['package.json', 1, 'medium', 'No test files in the repository'],
    ]);
    expect(result.findings('untested-module')[0].description).toContain('None of the 2 source modules is loaded by a test');
    expect(result.metric('structuralCoveragePct')).toBe(0);
  });

  it('reports nothing for a repository without source modules', async () => {
    const result = await analyzeFiles({ 'src/types.ts': 'export type A = 1;\n' });
    expect(result.findings('untested-module')).toEqual([]);
    expect(result.metric('structuralCoveragePct')).toBeUndefined();
  });

  it('owes tests to production modules only: not to benchmarks, examples, documentation sites or scripts', async () => {
    const exported = (name: string) => `export function ${name}() {\n  return 1;\n}\n`;
    const result = await analyzeFiles({
      'package.json': '{ "name": "lib", "scripts": { "release": "node release.mjs" } }\n',
      'src/tested.ts': exported('tested'),
      'src/untested.ts': exported('untested'),
      'src/bench.ts': exported('benchHelper'),
      'bench/parse.ts': exported('parseBench'),
      'src/sort.bench.ts': exported('sortBench'),
      'examples/basic/main.ts': exported('demo'),
      'docs/snippets/usage.ts': exported('usage'),
      'scripts/gen.ts': exported('gen'),
      'release.mjs': exported('release'),
      'test/tested.test.ts': "import { tested } from '../src/tested.js';\nit('t', () => expect(tested()).toBe(1));\n",
      // a benchmark kept in a test folder is neither a test nor owed one
      'test/bench/run.ts': exported('runBench'),
    });
    // Before roles, every module above was reported; a file named bench.ts in src/ is still production.
    expect(result.findings('untested-module').map((f) => f.filePath)).toEqual(['src/bench.ts', 'src/untested.ts']);
    expect(result.metric('sourceModules')).toBe(3);
    expect(result.metric('structuralCoveragePct')).toBe(33.3);
  });

  // Issue 17: tests that load the package the way its users do (build output, its own name) test its sources.
  it("counts modules tests import through the package's build output or its own name as tested", async () => {
    const exported = (name: string) => `export function ${name}() {\n  return 1;\n}\n`;
    const result = await analyzeFiles({
      'package.json': JSON.stringify({ name: 'lib', version: '1.0.0', exports: { '.': { import: './dist/lib.mjs' }, './extra': './dist/extra.js' } }),
      'src/index.ts': "export { viaName } from './via-name.js';\n",
      'src/via-name.ts': exported('viaName'),
      'src/extra.ts': exported('extra'),
      'src/via-dist.ts': exported('viaDist'),
      'src/untested.ts': exported('untested'),
      // redux-style: the bundle is named after the package, built from src/index.ts.
      'test/name.test.ts': "import { viaName } from 'lib';\nimport { extra } from 'lib/extra';\nit('n', () => expect(viaName() + extra()).toBe(2));\n",
      'test/dist.test.ts': "import { viaDist } from '../dist/via-dist.js';\nit('d', () => expect(viaDist()).toBe(1));\n",
      // Not parsed cleanly: its exports are not known, so neither is what a test owes it.
      'src/broken.ts': 'export function broken() {\n  return (1 +;\n}\n',
      // Applied once by a migration runner, checked by migrating.
      'db/migrations/2024-01-01-init.ts': exported('up'),
      // Abstract members only: no code to run.
      'src/shape.ts': 'export abstract class FetchEventLike {\n  abstract respondWith(r: Response): void;\n  abstract passThrough(): void;\n}\n',
    });
    expect(result.findings('untested-module').map((f) => f.filePath)).toEqual(['src/untested.ts']);
  });

  it('follows tests through generated files the engine does not parse (a generated SDK client importing its resources)', async () => {
    const exported = (name: string) => `export function ${name}() {\n  return 1;\n}\n`;
    const result = await analyzeFiles({
      'package.json': JSON.stringify({ name: 'sdk', version: '1.0.0', main: 'src/index.ts' }),
      'src/index.ts': "export { Client } from './client';\n",
      // Generated: not parsed, so not in the code graph.
      'src/client.ts': "// @generated by the API generator\nimport { list } from './resources/models';\nexport class Client { models = list; }\n",
      'src/resources/models.ts': "import { request } from '../core/request';\nexport function list() {\n  return request();\n}\n",
      'src/core/request.ts': exported('request'),
      'src/core/untested.ts': exported('untested'),
      'test/client.test.ts': "import { Client } from '../src/index';\nit('c', () => expect(new Client()).toBeTruthy());\n",
    });
    expect(result.findings('untested-module').map((f) => f.filePath)).toEqual(['src/core/untested.ts']);
  });
});
