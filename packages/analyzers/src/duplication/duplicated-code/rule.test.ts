// duplication/duplicated-code on mini-repositories, through the real engine.
import { describe, expect, it } from 'vitest';
import { analyzeFiles, totalFunction } from '../fixtures/mini-repo.js';
import { duplicatedCode } from './rule.js';

const lines = (n: number, make: (i: number) => string): string => Array.from({ length: n }, (_, i) => make(i)).join('\n');
const imports = lines(12, (i) => `import { helper${i} } from './helpers/helper-${i}';`);
/** A function whose body repeats `n` distinct statements: a clone of about `n` lines. */
const longFunction = (name: string, n: number): string => `export function ${name}(x: number) {\n${lines(n, (i) => `  record('step ${i}', x + ${i});`)}\n}`;

describe('duplication/duplicated-code', () => {
  it('reports a copy in another file once, at the copy, with the original, size and symbol', async () => {
    const result = await analyzeFiles({
      'src/a.ts': `export const version = 1;\n\n${totalFunction('sumA')}\n`,
      'src/b.ts': `${totalFunction('sumB')}\n\nexport const other = 2;\n`,
    });
    expect(result.findings).toHaveLength(1);
    const [finding] = result.findings;
    expect(finding).toMatchObject({
      ruleId: 'duplication/duplicated-code',
      category: 'duplication',
      filePath: 'src/b.ts',
      anchor: { lineStart: 1, lineEnd: 8, validated: true },
      severity: 'info',
      confidence: 90,
      symbol: 'sumB',
      title: 'Duplicated block of 8 lines in sumB, also at src/a.ts:3-10',
      data: {
        tokens: 51,
        lines: 8,
        copies: 2,
        cloneType: 'type-1',
        originalPath: 'src/a.ts',
        originalLineStart: 3,
        originalLineEnd: 10,
        locations: 'src/a.ts:3-10',
      },
    });
    expect(finding.description).toBe(
      'Lines 1-8 of src/b.ts (8 lines of code, 51 tokens) repeat lines 3-10 of src/a.ts token for token, layout and comments aside. ' +
        'The block exists 2 times: src/a.ts:3-10, src/b.ts:1-8.',
    );
    // 8 duplicated lines in each file, out of 9 + 9 lines of code.
    expect(result.metrics.duplicatedLines).toBe(16);
    expect(result.metrics.duplicationIndex).toBe(88.89);
    expect(result.metrics.analyzerMetrics).toMatchObject({ 'duplication.clones': 1, 'duplication.cloneClasses': 1 });
  });

  it('reports a copy of production code in an example or a benchmark at the copy, and measures the product’s duplication only', async () => {
    const result = await analyzeFiles({
      'examples/basic/a.ts': totalFunction('exampleSum'),
      'src/a.ts': totalFunction('sumA'),
      'src/b.ts': `export const version = 1;\n\n${longFunction('stepsB', 10)}\n`,
      'src/c.ts': longFunction('stepsC', 10),
      'bench/b.ts': longFunction('stepsBench', 10),
    });
    // Before roles the example (first by path) was the original and src/a.ts the copy, a production finding.
    expect(result.findings.map((f) => [f.filePath, f.role])).toEqual([
      ['bench/b.ts', 'benchmark'],
      ['examples/basic/a.ts', 'example'],
      ['src/c.ts', 'production'],
    ]);
    // Production: src/b.ts and src/c.ts share 12 lines each, over 8 + 13 + 12 lines of code; src/a.ts is copied only outside the product.
    expect(result.metrics.duplicatedLines).toBe(24);
    expect(result.metrics.duplicationIndex).toBe(72.73);
  });

  it('does not report copies that lie only among examples and benchmarks (standalone by design)', async () => {
    const result = await analyzeFiles({
      'examples/react/basic/src/index.tsx': totalFunction('postsReact'),
      'examples/react/graphql/src/index.tsx': totalFunction('postsGraphql'),
      'bench/a.ts': longFunction('scenarioA', 10),
      'bench/b.ts': longFunction('scenarioB', 10),
      'src/a.ts': longFunction('stepsA', 10).replace(/step/g, 'walk'),
      'examples/react/copy/src/index.tsx': longFunction('stepsCopy', 10).replace(/step/g, 'walk'),
    });
    // Only the example's copy of the product's code is reported.
    expect(result.findings.map((f) => f.filePath)).toEqual(['examples/react/copy/src/index.tsx']);
  });

  it('needs minTokens tokens and minLines lines of code', async () => {
    const files = { 'src/a.ts': totalFunction('a'), 'src/b.ts': totalFunction('b') };
    expect((await analyzeFiles(files, { minTokens: 52 })).findings).toEqual([]);
    expect((await analyzeFiles(files, { minTokens: 51 })).findings).toHaveLength(1);
    expect((await analyzeFiles(files, { minLines: 9 })).findings).toEqual([]);
    const flat = { 'src/a.ts': totalFunction('a').replace(/\n\s*/g, ' '), 'src/b.ts': totalFunction('b').replace(/\n\s*/g, ' ') };
    expect((await analyzeFiles(flat)).findings).toEqual([]);
    expect((await analyzeFiles(flat, { minLines: 1 })).findings.map((f) => f.data?.lines)).toEqual([1]);
  });

  it('reports every copy after the first, each naming all the others', async () => {
    const result = await analyzeFiles({ 'src/a.ts': totalFunction('a'), 'src/b.ts': totalFunction('b'), 'src/c.ts': `\n${totalFunction('c')}` });
    expect(result.findings.map((f) => [f.filePath, f.anchor.lineStart, f.title])).toEqual([
      ['src/b.ts', 1, 'Duplicated block of 8 lines in b, also at src/a.ts:1-8 and 1 other place'],
      ['src/c.ts', 2, 'Duplicated block of 8 lines in c, also at src/a.ts:1-8 and 1 other place'],
    ]);
    expect(result.findings.map((f) => f.data?.locations)).toEqual(['src/a.ts:1-8, src/c.ts:2-9', 'src/a.ts:1-8, src/b.ts:1-8']);
    expect(result.metrics.duplicatedLines).toBe(24);
  });

  it('names the places a part of a longer clone is repeated in, without reporting the part again', async () => {
    const result = await analyzeFiles({
      'src/a.ts': `${totalFunction('a')}\n${longFunction('tail', 6)}\n`,
      'src/b.ts': `${totalFunction('b')}\n${longFunction('tail', 6)}\n`,
      'src/c.ts': `// only the first function\n${totalFunction('c')}\nexport const c = 1;\n`,
    });
    // The shorter clone runs on into the `export` keyword that follows the function in all three.
    expect(result.findings.map((f) => [f.filePath, f.anchor.lineStart, f.anchor.lineEnd, f.data?.relatedLocations])).toEqual([
      ['src/b.ts', 1, 16, 'src/c.ts:2-10'],
      ['src/c.ts', 2, 10, undefined],
    ]);
    expect(result.findings[0].description).toContain(
      'The block exists 2 times: src/a.ts:1-16, src/b.ts:1-16. Parts of it are repeated in 1 more place: src/c.ts:2-10.',
    );
    expect(result.findings[1].data).toMatchObject({ copies: 3, locations: 'src/a.ts:1-9, src/b.ts:1-9' });
  });

  it('finds copies inside one file', async () => {
    const result = await analyzeFiles({ 'src/a.ts': `${totalFunction('first')}\n\n${totalFunction('second')}\n` });
    expect(result.findings.map((f) => [f.anchor.lineStart, f.anchor.lineEnd, f.title])).toEqual([
      [10, 17, 'Duplicated block of 8 lines in second, also at lines 1-8 of this file'],
    ]);
  });

  it('ignores layout and comments in mild mode, not in strict mode', async () => {
    const reformatted = totalFunction('b').replace('let total = 0;', 'let total =\n    0; // start from nothing').replace('{\n', '{ /* sum */\n');
    const files = { 'src/a.ts': totalFunction('a'), 'src/b.ts': reformatted };
    expect((await analyzeFiles(files)).findings.map((f) => f.anchor)).toMatchObject([{ lineStart: 1, lineEnd: 9 }]);
    expect((await analyzeFiles(files, { mode: 'strict' })).findings).toEqual([]);
  });

  it('finds renamed copies (type-2) in weak mode only, as near-duplicates of lower severity and confidence', async () => {
    const renamed = totalFunction('b')
      .replace(/\btotal\b/g, 'sum')
      .replace(/\bitems?\b/g, 'value')
      .replace('10', '20');
    const files = { 'src/a.ts': `${totalFunction('a')}\n`, 'src/b.ts': `console.log(1);\n${renamed}\n` };
    expect((await analyzeFiles(files)).findings).toEqual([]);
    const weak = await analyzeFiles(files, { mode: 'weak' });
    expect(weak.findings.map((f) => [f.title, f.data?.cloneType, f.severity, f.confidence])).toEqual([
      ['Near-duplicate block of 8 lines in b, also at src/a.ts:1-8', 'type-2', 'info', 70],
    ]);
    expect(weak.findings[0].description).toContain('with only names or literal values changed (a type-2 clone)');
  });

  it('still finds exact copies of lists of similar statements in weak mode', async () => {
    const rows = lines(16, (i) => `  row('item ${i}', ${i}, ${i % 2 === 0}),`);
    const files = { 'src/a.ts': `export const table = [\n${rows}\n];\n`, 'src/b.ts': `let copy: Row[] = [\n${rows}\n];\n` };
    for (const mode of ['mild', 'weak']) {
      const result = await analyzeFiles(files, { mode });
      expect(result.findings.map((f) => [f.anchor.lineStart, f.data?.cloneType])).toEqual([[1, 'type-1']]);
    }
  });

  it('leaves out import declarations, test files and overload sets by default', async () => {
    const importsOnly = { 'src/a.ts': `${imports}\nexport const a = 1;`, 'src/b.ts': `${imports}\nexport const b = 2;` };
    expect((await analyzeFiles(importsOnly)).findings).toEqual([]);
    // The clone runs on into the shared `export const` that follows the imports.
    expect((await analyzeFiles(importsOnly, { ignoreImports: false })).findings.map((f) => f.anchor.lineEnd)).toEqual([13]);

    const inTests = { 'src/a.ts': totalFunction('a'), 'src/a.test.ts': totalFunction('b') };
    expect((await analyzeFiles(inTests)).findings).toEqual([]);
    expect((await analyzeFiles(inTests, { ignoreTests: false })).findings.map((f) => f.filePath)).toEqual(['src/a.test.ts']);

    const signature = (n: number) => `export function pipe(${lines(n, (i) => `  op${i}: Operator<T${i}, T${i + 1}>,`)}\n): Pipe<T0, T${n}>;`;
    const ladder = { 'src/pipe.ts': `${[6, 7, 8].map(signature).join('\n')}\nexport function pipe(...ops: Operator[]) {\n  return ops;\n}\n` };
    expect((await analyzeFiles(ladder)).findings).toEqual([]);
    expect((await analyzeFiles(ladder, { ignoreOverloads: false })).findings.length).toBeGreaterThan(0);
  });

  it('recognises overloaded generic call signatures written without semicolons (a dual API, as in effect)', async () => {
    // tree-sitter-typescript cannot parse these signatures as written; the engine's parse repair can.
    const signature = (n: number) => `  <T0>(\n${lines(n, (i) => `    op${i}: Operator<T${i}, T${i + 1}>,`)}\n  ): Pipe<T0, T${n}>`;
    const dual = { 'src/pipe.ts': `export const pipe: {\n${[6, 7, 8].map(signature).join('\n')}\n} = (...ops: Array<Operator>) => ops\n` };
    const result = await analyzeFiles(dual);
    expect(result.findings).toEqual([]);
    expect((await analyzeFiles(dual, { ignoreOverloads: false })).findings.length).toBeGreaterThan(0);
  });

  it('leaves out overload lists of interfaces and object types, also when two sets repeat each other; not a copied function', async () => {
    const signature = (n: number) => `  <T0>(\n${lines(n, (i) => `    op${i}: Operator<T${i}, T${i + 1}>,`)}\n  ): Pipe<T0, T${n}>;`;
    const method = (name: string) => (n: number) => `  ${name}<T0>(\n${lines(n, (i) => `    op${i}: Operator<T${i}, T${i + 1}>,`)}\n  ): Pipe<T0, T${n}>;`;
    const sets = {
      'src/handler.ts': `export interface Handler {\n${[6, 7].map(method('get')).join('\n')}\n${[6, 7].map(method('post')).join('\n')}\n}\n`,
      'src/factory.ts': `export type Factory = {\n${[6, 7].map(signature).join('\n')}\n}\n`,
    };
    expect((await analyzeFiles(sets)).findings.map((f) => `${f.filePath}:${f.anchor.lineStart}-${f.anchor.lineEnd} ${f.title}`)).toEqual([]);
    expect((await analyzeFiles(sets, { ignoreOverloads: false })).findings.length).toBeGreaterThan(0);
    // The same parameter list copied into a function of another file is copy-paste.
    const copied = {
      ...sets,
      'src/compose.ts': `export function compose<T0>(\n${lines(7, (i) => `  op${i}: Operator<T${i}, T${i + 1}>,`)}\n) {\n  return [op0, op1];\n}\n`,
    };
    expect((await analyzeFiles(copied)).findings.some((f) => `${f.filePath} ${f.title}`.includes('src/compose.ts'))).toBe(true);
  });

  it('leaves out generic parameter lists repeated by related types, not the code that follows them', async () => {
    const params = lines(12, (i) => `  T${i} extends Base<T${i}> = Default${i},`);
    const generics = {
      'src/hono.ts': `export class Hono<\n${params}\n> {\n  name = 'hono';\n}\n`,
      'src/quick.ts': `export class Quick<\n${params}\n> {\n  fast = true;\n}\n`,
    };
    expect((await analyzeFiles(generics)).findings).toEqual([]);
    expect((await analyzeFiles(generics, { ignoreOverloads: false })).findings.length).toBeGreaterThan(0);
  });

  it('leaves out a named-export list mirrored by a default-export object, not objects that hold code', async () => {
    const names = lines(30, (i) => `  handler${i},`);
    const mirrored = { 'src/api.ts': `${lines(30, (i) => `const handler${i} = () => ${i};`)}\nexport {\n${names}\n};\nexport default {\n${names}\n};\n` };
    expect((await analyzeFiles(mirrored)).findings).toEqual([]);
    const values = lines(14, (i) => `  handler${i}: (x: number) => handler${i}() + x * ${i},`);
    const withCode = { 'src/a.ts': `export default {\n${values}\n};\n`, 'src/b.ts': `export const table = {\n${values}\n};\n` };
    expect((await analyzeFiles(withCode)).findings.length).toBeGreaterThan(0);
  });

  it('skips code between jscpd:ignore-start and jscpd:ignore-end', async () => {
    const ignored = `// jscpd:ignore-start\n${totalFunction('b')}\n// jscpd:ignore-end\n`;
    expect((await analyzeFiles({ 'src/a.ts': totalFunction('a'), 'src/b.ts': ignored })).findings).toEqual([]);
  });

  it('reports clones of every size as info notes (the measured precision of issue 17)', async () => {
    const result = await analyzeFiles({
      'src/a.ts': `${longFunction('m1', 14)}\n${longFunction('h1', 50).replace(/step/g, 'big')}`,
      'src/b.ts': `${longFunction('m2', 14)}\n${longFunction('h2', 50).replace(/step/g, 'big')}`,
    });
    // Each clone runs on into the shared `export function` of the next declaration.
    expect(result.findings.map((f) => [f.data?.lines, f.severity]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [17, 'info'],
      [52, 'info'],
    ]);
  });

  it('compares only files whose token stream is known, and says how many were not', async () => {
    // A run restricted to some paths summarises the others without collectors (and no cache here).
    const result = await analyzeFiles({ 'src/a.ts': totalFunction('a'), 'src/b.ts': totalFunction('b') }, undefined, { onlyPaths: ['src/a.ts'] });
    expect(result.findings).toEqual([]);
    expect(result.metrics.analyzerMetrics).toMatchObject({ 'duplication.filesWithoutTokens': 1 });
  });

  it('publishes no duplication index when there is no code to compare', async () => {
    const result = await analyzeFiles({ 'README.md': '# nothing here\n' });
    expect(result.findings).toEqual([]);
    expect(result.metrics.duplicationIndex).toBeUndefined();
    expect(result.metrics.analyzerMetrics).toMatchObject({ 'duplication.clones': 0 });
  });

  it('in a scoped run describes only the copies in the scope, and still counts every clone', async () => {
    const files = { 'src/a.ts': totalFunction('a'), 'src/b.ts': totalFunction('b'), 'src/c.ts': `\n${totalFunction('c')}` };
    const full = await analyzeFiles(files);
    const reports: string[] = [];
    const metrics: Array<[string, number | null]> = [];
    await duplicatedCode.analyze({
      snapshot: undefined as never,
      summaries: full.summaries,
      graph: full.graph,
      git: () => Promise.resolve(full.git),
      options: { minTokens: 50, minLines: 5, mode: 'mild', ignoreTests: true, ignoreImports: true, ignoreOverloads: true },
      scope: new Set(['src/c.ts']),
      signal: new AbortController().signal,
      progress: () => undefined,
      report: (r) => reports.push(`${r.filePath}:${r.lineStart}`),
      metric: (name, value) => metrics.push([name, value]),
      conventions: () => undefined,
    });
    expect(full.findings.map((f) => `${f.filePath}:${f.anchor.lineStart}`)).toEqual(['src/b.ts:1', 'src/c.ts:2']);
    expect(reports).toEqual(['src/c.ts:2']);
    expect(Object.fromEntries(metrics)).toMatchObject({
      duplicatedLines: full.metrics.duplicatedLines,
      duplicationIndex: full.metrics.duplicationIndex,
      clones: 2,
    });
  });
});
