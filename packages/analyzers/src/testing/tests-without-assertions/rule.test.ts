import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeFiles, type MiniRepoRun } from '../fixtures/mini-repo.js';

const FILES: Record<string, string> = {
  'package.json': '{ "name": "mini", "type": "module" }\n',
  'src/math.ts': 'export const add = (a: number, b: number) => a + b;\n',
  // An assertion helper shipped as source (a library's testing entry point).
  'src/testing/harness.ts': "import { expect } from 'vitest';\nexport function runCase(x: number) {\n  expect(x).toBe(1);\n}\n",
  'test/helpers/assertions.ts': "import { expect } from 'vitest';\nexport function sorted(a: number[]) {\n  expect([...a].sort()).toEqual(a);\n}\n",
  'test/helpers/index.ts': "export * from './assertions.js';\nexport { sorted as inOrder } from './assertions.js';\n",
  'test/helpers/twice.ts': "import { sorted } from './assertions.js';\nexport function twice(a: number[]) {\n  sorted(a);\n  sorted(a);\n}\n",
  'test/math.test.ts': [
    "import { render } from '@testing-library/react';",
    "import { add } from '../src/math.js';",
    "import { runCase } from '../src/testing/harness.js';",
    "import { inOrder, sorted } from './helpers/index.js';",
    "import { twice } from './helpers/twice.js';",
    "it('through a barrel alias', () => { inOrder([1]); });",
    "it('through export *', () => { sorted([1]); });",
    "it('through a source helper', () => { runCase(1); });",
    "it('through two modules', () => { twice([1]); });",
    "it('adds without checking', () => {",
    '  add(1, 2);',
    '});',
    "describe('rendering', () => {",
    "  it('renders', () => { render(add(1, 2)); });",
    '});',
    "it('asserts', () => { expect(add(1, 2)).toBe(3); });",
    '',
  ].join('\n'),
  'test/many.test.ts': "it('one', () => {});\nit('two', () => {});\nit('three', () => {});\n",
};

describe('testing/tests-without-assertions on a mini-repository', () => {
  let run: MiniRepoRun;
  beforeAll(async () => {
    run = await analyzeFiles(FILES);
  });

  it('reports tests without assertions, crediting helpers through imports, re-exports and other helpers', () => {
    const found = run.findings('tests-without-assertions').filter((f) => f.filePath === 'test/math.test.ts');
    expect(found.map((f) => [f.anchor.lineStart, f.anchor.lineEnd, f.title, f.symbol, f.confidence, f.severity])).toEqual([
      [10, 12, 'Test "adds without checking" in math.test.ts has no assertion', 'adds without checking', 80, 'info'],
      [14, 14, 'Test "renders" in math.test.ts has no assertion', 'rendering > renders', 60, 'info'],
    ]);
    expect(found[0].description).toBe(
      'The test `adds without checking` calls no assertion (expect, assert, should, t.*, verify), no helper that asserts, ' +
        'and takes no done callback: it passes as long as nothing throws.',
    );
    expect(found[0].anchor.codeSnippet).toBe("it('adds without checking', () => {\n  add(1, 2);\n});");
    expect(found[1].description).toContain('It calls `render` from a package, which may assert.');
  });

  it('counts helper calls as assertions in the assertion density', () => {
    // math.test.ts: 4 helper calls + 1 expect over 7 tests; many.test.ts: 3 tests without assertions.
    expect(run.metric('testCases')).toBe(10);
    expect(run.metric('assertions')).toBe(5);
    expect(run.metric('assertionDensity')).toBe(0.5);
  });

  it('does not guess about helpers in modules the run did not scan (a pull request analysis)', async () => {
    const partial = await analyzeFiles(FILES, undefined, undefined, ['test/math.test.ts']);
    const found = partial.findings('tests-without-assertions').filter((f) => f.filePath === 'test/math.test.ts');
    // Every test there calls into a module this run did not scan (helpers, or add() itself): none is reported.
    expect(found).toEqual([]);
    expect(partial.metric('testCases')).toBe(7);
  });

  it('treats the parameter of an each-test as table data, not as a done callback', async () => {
    const each = await analyzeFiles({ 'test/each.test.ts': "it.each([1, 2])('runs %s', (n) => { run(n); });\n" });
    expect(each.findings('tests-without-assertions').map((f) => f.title)).toEqual(['Test "runs %s" in each.test.ts has no assertion']);
  });

  it('counts type-level checks as assertions, and still reports a comparison whose result is discarded', async () => {
    const typed = await analyzeFiles({
      'src/draft.ts': 'export const original = <T>(x: T): T => x;\n',
      'test/types.test.ts': [
        "import { expectTypeOf, assertType } from 'vitest';",
        "import { expectType, expectError } from 'tsd';",
        "import { isType } from 'type-plus';",
        "import { original } from '../src/draft.js';",
        "it('equal types', () => {\n  type _ = Expect<Equal<ReturnType<typeof original<1>>, 1>>;\n});",
        "it('compile-only case', () => {\n  interface State { done: boolean }\n  original<State>({ done: true });\n});",
        "it('expectTypeOf', () => { expectTypeOf(original(1)).toEqualTypeOf<number>(); });",
        "it('assertType', () => { assertType<number>(original(1)); });",
        "it('tsd', () => { expectType<number>(original(1)); expectError(original()); });",
        "it('type-plus', () => { isType.equal<true, number, ReturnType<typeof original<number>>>(); });",
        "it('expected error', () => {\n  // @ts-expect-error a string is not a number\n  const n: number = original('a');\n});",
        "it('discards its comparison', () => {\n  original(1) === 1;\n});",
        '',
      ].join('\n'),
    });
    expect(typed.findings('tests-without-assertions').map((f) => [f.symbol, f.anchor.lineStart])).toEqual([['discards its comparison', 20]]);
  });

  it('credits type-level helpers, helper objects and CommonJS assert bindings; leaves out type-test files, test-holding tests and stated no-throw claims', async () => {
    const result = await analyzeFiles({
      'src/sum.ts': 'export const sum = (a: number, b: number) => a + b;\n',
      // A generic helper that does nothing at run time: the compiler checks its type arguments.
      'test/utils/typing.ts':
        'type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;\nexport const compareType = <A, B>(_e: Equal<A, B>): void => {\n  void _e;\n};\n',
      // A generic helper that does something is not a type-level assertion.
      'test/utils/run.ts': 'export const runTwice = <T>(f: () => T): T => {\n  f();\n  return f();\n};\n',
      'test/sum.test.ts': [
        "import { sum } from '../src/sum.js';",
        "import { compareType } from './utils/typing.js';",
        "import { runTwice } from './utils/run.js';",
        "const { equal } = require('node:assert');",
        'const t = {',
        '  same(a: unknown, b: unknown) {',
        '    expect(a).toBe(b);',
        '  },',
        '  deep: (a: unknown, b: unknown) => expect(a).toEqual(b),',
        '  log(a: unknown) {',
        '    console.log(a);',
        '  },',
        '};',
        "it('types', () => { compareType<ReturnType<typeof sum>, number>(true); });",
        "it('runs twice', () => { runTwice(() => sum(1, 2)); });",
        "it('node assert', () => { equal(sum(1, 2), 3); });",
        "it('helper object', () => { t.same(sum(1, 2), 3); t.deep([1], [1]); });",
        "it('helper object that only logs', () => { t.log(sum(1, 2)); });",
        "it('generic declaration', () => {\n  function _check<T extends number>(x: T) {\n    sum(x, x);\n  }\n});",
        "it('generic declaration called', () => {\n  function twice<T extends number>(x: T) {\n    return sum(x, x);\n  }\n  twice(1);\n});",
        "it('holds tests', () => {\n  test('inner', () => { expect(sum(1, 1)).toBe(2); });\n});",
        "it('does not throw on NaN', () => { sum(NaN, 1); });",
        'it("doesn\'t crash when empty", () => { sum(0, 0); });',
        "it('should not throw a type error', () => { sum(1, 1); });",
        "it('throws on strings', () => { sum('1' as never, 1); });",
        'function checkDouble(n: number) {\n  expect(sum(n, n)).toBe(2 * n);\n}',
        'function logDouble(n: number) {\n  console.log(sum(n, n));\n}',
        'function runWith(tester: (n: number) => void) {\n  return tester(1);\n}',
        "it('hands an asserting function to a runner', () => { runWith(checkDouble); });",
        "it('hands a function that only logs', () => { runWith(logDouble); });",
        '',
      ].join('\n'),
      'test/sum.test-d.ts': "import { sum } from '../src/sum.js';\nit('accepts numbers', () => {\n  sum(1, 2);\n});\n",
    });
    expect(result.findings('tests-without-assertions').map((f) => `${f.filePath}: ${f.symbol}`)).toEqual([
      'test/sum.test.ts: runs twice',
      'test/sum.test.ts: helper object that only logs',
      'test/sum.test.ts: generic declaration called',
      'test/sum.test.ts: throws on strings',
      'test/sum.test.ts: hands a function that only logs',
    ]);
  });

  it('reports at most maxPerFile tests of one file', async () => {
    const limited = await analyzeFiles(FILES, undefined, { rules: { 'testing/tests-without-assertions': { options: { maxPerFile: 2 } } } });
    expect(
      limited
        .findings('tests-without-assertions')
        .filter((f) => f.filePath === 'test/many.test.ts')
        .map((f) => f.symbol),
    ).toEqual(['one', 'two']);
    expect(run.findings('tests-without-assertions').filter((f) => f.filePath === 'test/many.test.ts')).toHaveLength(3);
  });

  it('does not read performance tests kept among the tests (test/perf/, test/bench/) as tests', async () => {
    const timed = "import { add } from '../../src/math.js';\nit('adds a million times', () => {\n  for (let i = 0; i < 1e6; i++) add(i, i);\n});\n";
    const result = await analyzeFiles({
      'src/math.ts': 'export const add = (a: number, b: number) => a + b;\n',
      'test/perf/add.test.ts': timed,
      'test/bench/add.test.ts': timed,
      'test/unit/add.test.ts': timed,
    });
    expect(result.findings('tests-without-assertions').map((f) => f.filePath)).toEqual(['test/unit/add.test.ts']);
    expect(result.metric('testFiles')).toBe(1);
  });
});
