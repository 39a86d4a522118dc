import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseSource } from '../parsing/parser.js';
import { FlatTree } from '../parsing/flat-tree.js';
import { buildCodeGraph } from './build-graph.js';
import { extractModuleFacts } from './extract-module-facts.js';
import { createModuleResolver } from './resolve-module.js';

function calls(source: string) {
  return extractModuleFacts(parseSource(source, 'typescript'), { source, language: 'typescript' }).calls;
}

describe('calls of imported bindings', () => {
  it('records named, default, namespace and member calls in their enclosing symbol, counted once per caller', () => {
    const source = [
      "import * as Effect from './Effect.js';", // 1
      "import { pipe, dual } from './Function.js';", // 2
      "import def from './def.js';", // 3
      "import type { T } from './t.js';", // 4
      '// Effect.map( in a comment, pipe( too', // 5
      "const s = 'pipe(';", // 6
      'export const f = (x: number) => pipe(x, Effect.map((n) => n + 1), Effect.flatMap<number>(g));', // 7
      'export class K {', // 8
      '  run() { return def(1) + def.other() + def(2) }', // 9
      '  static x = dual(2, (a: number) => a);', // 10
      '}', // 11
      'function h(pipe: number) { return pipe }', // 12
      'new Effect.Tag();', // 13
      'const t: T = pipe;', // 14
      'obj.pipe(1); xpipe(2); pipeline(3);', // 15
    ].join('\n');
    expect(calls(source)).toEqual([
      { specifier: './Effect.js', name: 'flatMap', caller: 'f', line: 7, count: 1 },
      { specifier: './Effect.js', name: 'map', caller: 'f', line: 7, count: 1 },
      { specifier: './Function.js', name: 'pipe', caller: 'f', line: 7, count: 1 },
      { specifier: './def.js', name: 'default', caller: 'K.run', line: 9, count: 3 },
      { specifier: './Function.js', name: 'dual', caller: 'K', line: 10, count: 1 },
      { specifier: './Effect.js', name: 'Tag', caller: '', line: 13, count: 1 },
    ]);
  });

  it('places calls in the innermost symbol of a long file whose symbols start late', () => {
    const source = [
      "import { pipe } from './Function.js';",
      '\n'.repeat(3000),
      'pipe(0);', // 3003
      'export class Late {', // 3004
      '  a() { return pipe(1) }', // 3005
      '  b() {', // 3006
      '    const inner = () => pipe(2);', // 3007
      '    return pipe(3);', // 3008
      '  }', // 3009
      '  c = pipe(4);', // 3010
      '}', // 3011
      'export function after() { return pipe(5) }', // 3012
    ].join('\n');
    expect(calls(source).map((c) => `${c.line} ${c.caller}`)).toEqual(['3003 ', '3005 Late.a', '3007 Late.b', '3010 Late', '3012 after']);
  });

  it('records none for a module without value imports, and the same calls on the flat tree the pipeline walks', () => {
    expect(calls("import type { A } from './a.js';\nexport const a = (x: A) => x;\n")).toEqual([]);
    const source = readFileSync(fileURLToPath(new URL('./build-graph.ts', import.meta.url)), 'utf8');
    const native = parseSource(source, 'typescript');
    const flat = extractModuleFacts(FlatTree.from(native, source) as never, { source, language: 'typescript' }).calls;
    expect(flat).toEqual(extractModuleFacts(native, { source, language: 'typescript' }).calls);
    // build-graph.ts calls findCycles (twice, in graphOf) and constructs UsedExports.
    expect(flat).toContainEqual(expect.objectContaining({ specifier: './strongly-connected.js', name: 'findCycles', caller: 'graphOf', count: 2 }));
    expect(flat).toContainEqual(expect.objectContaining({ specifier: './used-exports.js', name: 'UsedExports' }));
  });
});

describe('call edges of the code graph', () => {
  it('resolves each call through its import to a module of the repository, leaving out packages', () => {
    const sources: Record<string, string> = {
      'src/money.ts': 'export const total = (xs: number[]) => xs.length;\n',
      'src/index.ts': "export { total as sum } from './money.js';\n",
      'src/cart.ts':
        "import { total } from './money.js';\nimport { sum } from './index.js';\nimport { z } from 'zod';\nexport function cartTotal() {\n  z.string();\n  return total([1]) + sum([2]) + total([]);\n}\n",
    };
    const files = Object.keys(sources);
    const inputs = files.map((path) => ({
      path,
      facts: extractModuleFacts(parseSource(sources[path]!, 'typescript'), { source: sources[path], language: 'typescript' }),
    }));
    const graph = buildCodeGraph(inputs, createModuleResolver({ files, readJson: () => undefined }));
    expect(graph.calls).toEqual([
      { from: 'src/cart.ts', caller: 'cartTotal', to: 'src/index.ts', name: 'sum', line: 6, count: 1 },
      { from: 'src/cart.ts', caller: 'cartTotal', to: 'src/money.ts', name: 'total', line: 6, count: 2 },
    ]);
  });
});
