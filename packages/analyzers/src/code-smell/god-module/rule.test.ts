import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine, type Finding } from '@codehealth/engine';
import { codeSmell } from '../index.js';

/** `count` exported functions of `bodyLines` lines of code each (plus their two braces lines). */
function functions(count: number, bodyLines: number, prefix = 'f'): string {
  const body = Array.from({ length: bodyLines }, (_, i) => `  const v${i} = x + ${i};`).join('\n');
  return Array.from({ length: count }, (_, i) => `export function ${prefix}${i}(x: number) {\n${body}\n}`).join('\n');
}

function importers(target: string, name: string, count: number, prefix = 'src/use', relative = './'): Record<string, string> {
  return Object.fromEntries(
    Array.from({ length: count }, (_, i) => [`${prefix}${i}.ts`, `import { ${name} } from '${relative}${target}';\nexport const u${i} = ${name};\n`]),
  );
}

async function godModules(files: Record<string, string>, options?: Record<string, number>): Promise<Finding[]> {
  const root = mkdtempSync(join(tmpdir(), 'codehealth-god-'));
  try {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    const engine = await createEngine({ plugins: [{ name: 'test', analyzers: [codeSmell] }], cacheDir: false, workers: 0 });
    const config = { rules: { 'code-smell/god-module': options ? { options } : true } };
    const result = await engine.analyze(root, { config: config as never });
    return result.findings.filter((f) => f.ruleId === 'code-smell/god-module');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('code-smell/god-module', () => {
  it('reports a module with more than 30 run-time exports over 500 lines that more than 15 modules import', async () => {
    const files = { 'src/god.ts': functions(31, 15), ...importers('god.js', 'f0', 16) };
    const [finding, ...rest] = await godModules(files);
    expect(rest).toEqual([]);
    expect([finding.filePath, finding.anchor.lineStart, finding.severity, finding.confidence, finding.title]).toEqual([
      'src/god.ts',
      1,
      'info',
      70,
      'God module: god.ts has 31 run-time exports and 527 lines of run-time code and is imported by 16 modules',
    ]);
    expect(finding.description).toBe(
      'src/god.ts is large, with 31 run-time exports (more than 30) over 527 lines of run-time code (more than 500), and central: ' +
        '16 source modules import it directly (more than 15), for example src/use0.ts, src/use1.ts, src/use10.ts.',
    );
    expect(finding.data).toEqual({ exports: 31, lines: 527, dependents: 16 });
  });

  it('leaves the same module alone with 15 importers, or when tests are the other importers', async () => {
    expect(await godModules({ 'src/god.ts': functions(31, 15), ...importers('god.js', 'f0', 15) })).toEqual([]);
    const withTests = { 'src/god.ts': functions(31, 15), ...importers('god.js', 'f0', 10), ...importers('god.js', 'f1', 10, 'test/use', '../src/') };
    expect(await godModules(withTests)).toEqual([]);
  });

  it('counts the product’s importers only: examples, benchmarks and scripts importing a module do not make it central', async () => {
    const elsewhere = {
      ...importers('god.js', 'f0', 3),
      ...importers('god.js', 'f1', 6, 'examples/use', '../src/'),
      ...importers('god.js', 'f2', 6, 'bench/use', '../src/'),
      ...importers('god.js', 'f3', 4, 'scripts/use', '../src/'),
    };
    // Before roles: 19 "source modules" imported it, and it was reported.
    expect(await godModules({ 'src/god.ts': functions(31, 15), ...elsewhere })).toEqual([]);
    const central = await godModules({ 'src/god.ts': functions(31, 15), ...elsewhere, ...importers('god.js', 'f4', 13, 'src/more') });
    expect(central.map((f) => [f.filePath, f.data?.dependents])).toEqual([['src/god.ts', 16]]);
  });

  const SMALL = { maxExports: 3, minLinesForExports: 10, maxLines: 40, minDependents: 2 };

  it('counts own run-time exports only: re-exports, types and small APIs are not gods', async () => {
    const findings = await godModules(
      {
        'src/wide.ts': functions(4, 1, 'w'),
        ...importers('wide.js', 'w0', 3, 'src/a'),
        // Four small exports over 8 lines: an API, not a god.
        'src/api.ts': Array.from({ length: 4 }, (_, i) => `export const p${i} = (x: number) => x + ${i};\nexport const q${i} = ${i};`).join('\n'),
        ...importers('api.js', 'p0', 3, 'src/b'),
        'src/index.ts': `${Array.from({ length: 10 }, (_, i) => `export { w${i % 4} as r${i} } from './wide.js';`).join('\n')}\n`,
        ...importers('index.js', 'r0', 3, 'src/c'),
        'src/types.ts': Array.from({ length: 10 }, (_, i) => `export interface T${i} {\n  a: number;\n  b: string;\n}`).join('\n'),
        ...importers('types.js', 'T0', 3, 'src/d'),
        'src/huge.ts': functions(1, 39, 'h'),
        ...importers('huge.js', 'h0', 3, 'src/e'),
      },
      SMALL,
    );
    expect(findings.map((f) => [f.filePath, f.severity, f.title])).toEqual([
      ['src/huge.ts', 'info', 'God module: huge.ts has 1 run-time export and 41 lines of run-time code and is imported by 3 modules'],
      // The barrel that re-exports it is one of its importers.
      ['src/wide.ts', 'info', 'God module: wide.ts has 4 run-time exports and 12 lines of run-time code and is imported by 4 modules'],
    ]);
  });

  it('does not count type declarations as lines: a huge types module is not a god, a huge module of code with types still is', async () => {
    const types = (count: number, prefix: string) =>
      Array.from({ length: count }, (_, i) => `export interface ${prefix}${i} {\n  a: number;\n  b: string;\n  c: boolean;\n}`).join('\n');
    const findings = await godModules(
      {
        // 60 lines of interfaces and one run-time export (a hono-style types.ts).
        'src/types.ts': `${types(12, 'T')}\nexport const VERSION = '1';\n`,
        ...importers('types.js', 'VERSION', 3, 'src/a'),
        // The same interfaces beside 41 lines of functions: still huge in code.
        'src/mixed.ts': `${types(12, 'M')}\n${functions(1, 39, 'm')}\n`,
        ...importers('mixed.js', 'm0', 3, 'src/b'),
      },
      SMALL,
    );
    expect(findings.map((f) => [f.filePath, f.data?.lines])).toEqual([['src/mixed.ts', 41]]);
  });

  it('is high above twice the limits in both ways, or above twice the lines', async () => {
    const findings = await godModules(
      { 'src/big.ts': functions(7, 2, 'b'), ...importers('big.js', 'b0', 3), 'src/vast.ts': functions(1, 79, 'v'), ...importers('vast.js', 'v0', 3, 'src/x') },
      SMALL,
    );
    expect(findings.map((f) => [f.filePath, f.severity])).toEqual([
      ['src/big.ts', 'info'],
      ['src/vast.ts', 'info'],
    ]);
  });
});
