import { describe, expect, it } from 'vitest';
import type { Language } from '../domain/types.js';
import { parseSource } from '../parsing/parser.js';
import { extractModuleFacts } from './extract-module-facts.js';
import type { ExportRecord, ModuleFacts } from './types.js';

function facts(source: string, language: Language = 'typescript', withSource = true): ModuleFacts {
  return extractModuleFacts(parseSource(source, language), withSource ? { source, language } : { language });
}

const exportsOf = (source: string): ExportRecord[] => facts(source).exports;

describe('re-exports', () => {
  it('reads named, aliased, type, namespace and star re-exports', () => {
    const src = [
      `export { a as b, type c, default as d } from './x';`,
      `export * from './y';`,
      `export * as ns from './z';`,
      `export type { T } from './t';`,
      `export type * from './types';`,
      `export type * as shapes from './shapes';`,
    ].join('\n');
    const result = facts(src);
    // `export type *` is repaired for the grammar (parsing/parse-repair.ts): the module parsed whole.
    expect(result.partial).toBeUndefined();
    expect(result.imports).toEqual([
      { specifier: './x', kind: 're-export', names: ['a', 'c', 'default'], line: 1 },
      { specifier: './y', kind: 're-export-all', names: ['*'], line: 2 },
      { specifier: './z', kind: 're-export', names: ['*'], line: 3 },
      { specifier: './t', kind: 're-export', names: ['T'], line: 4, typeOnly: true },
      { specifier: './types', kind: 're-export-all', names: ['*'], line: 5, typeOnly: true },
      { specifier: './shapes', kind: 're-export', names: ['*'], line: 6, typeOnly: true },
    ]);
    expect(result.exports).toEqual([
      { name: 'b', kind: 're-export', line: 1, from: './x', importedName: 'a', typeOnly: false },
      { name: 'c', kind: 're-export', line: 1, from: './x', importedName: 'c', typeOnly: true },
      { name: 'd', kind: 're-export', line: 1, from: './x', importedName: 'default', typeOnly: false },
      { name: 'ns', kind: 're-export', line: 3, from: './z', importedName: '*', typeOnly: false },
      { name: 'T', kind: 're-export', line: 4, from: './t', importedName: 'T', typeOnly: true },
      { name: 'shapes', kind: 're-export', line: 6, from: './shapes', importedName: '*', typeOnly: true },
    ]);
  });

  it('records an imported binding exported by a list as a re-export', () => {
    const src = `import { a as local } from './a';\nimport * as all from './all';\nimport type { T } from './t';\nexport { local as renamed, all, T };`;
    expect(exportsOf(src)).toEqual([
      { name: 'renamed', kind: 're-export', line: 4, from: './a', importedName: 'a', typeOnly: false },
      { name: 'all', kind: 're-export', line: 4, from: './all', importedName: '*', typeOnly: false },
      { name: 'T', kind: 're-export', line: 4, from: './t', importedName: 'T', typeOnly: true },
    ]);
  });
});

describe('exports', () => {
  it('reads exported declarations of every kind', () => {
    const src = [
      'export function f() {}',
      'export async function* g() {}',
      'export class C {}',
      'export abstract class A {}',
      'export const { a, b: [c, ...d], ...e } = o, z = 1;',
      'export let q;',
      'export var v = 2;',
      'export type T = 1;',
      'export interface I {}',
      'export enum E {}',
      'export const enum CE {}',
      'export namespace N { export const inner = 1; }',
      'export declare function df(): void;',
      'export declare const dc: number;',
    ].join('\n');
    expect(exportsOf(src).map((e) => [e.name, e.kind, e.line, e.typeOnly])).toEqual([
      ['f', 'function', 1, false],
      ['g', 'function', 2, false],
      ['C', 'class', 3, false],
      ['A', 'class', 4, false],
      ['a', 'variable', 5, false],
      ['c', 'variable', 5, false],
      ['d', 'variable', 5, false],
      ['e', 'variable', 5, false],
      ['z', 'variable', 5, false],
      ['q', 'variable', 6, false],
      ['v', 'variable', 7, false],
      ['T', 'type', 8, true],
      ['I', 'interface', 9, true],
      ['E', 'enum', 10, false],
      ['CE', 'enum', 11, false],
      ['N', 'namespace', 12, false],
      ['df', 'function', 13, false],
      ['dc', 'variable', 14, false],
    ]);
  });

  it('reads default exports of declarations, expressions and local names', () => {
    expect(exportsOf('export default function named() {}')).toEqual([{ name: 'default', kind: 'default', line: 1, typeOnly: false }]);
    expect(exportsOf('export default interface Shape {}')).toEqual([{ name: 'default', kind: 'default', line: 1, typeOnly: true }]);
    expect(exportsOf('export default 42;')).toEqual([{ name: 'default', kind: 'default', line: 1, typeOnly: false }]);
    expect(exportsOf(`import x from './x';\nexport default x;`)).toEqual([
      { name: 'default', kind: 'default', line: 2, from: './x', importedName: 'default', typeOnly: false },
    ]);
  });

  it('reads export lists against declarations that may follow them', () => {
    const src = `export { f, C as Klass, T, I as default, missing };\nfunction f() {}\nclass C {}\ntype T = 1;\ninterface I {}`;
    expect(exportsOf(src)).toEqual([
      { name: 'f', kind: 'function', line: 1, typeOnly: false },
      { name: 'Klass', kind: 'class', line: 1, typeOnly: false },
      { name: 'T', kind: 'type', line: 1, typeOnly: true },
      { name: 'default', kind: 'interface', line: 1, typeOnly: true },
      { name: 'missing', kind: 'variable', line: 1, typeOnly: false },
    ]);
    expect(
      facts(src)
        .symbols.filter((s) => s.exported)
        .map((s) => s.name),
    ).toEqual(['f', 'C', 'T', 'I']);
  });

  it('reads `export =` as the default export of a CommonJS-style module', () => {
    const result = facts(`class Lib {}\nexport = Lib;`);
    expect(result.commonJs).toBe(true);
    expect(result.exports).toEqual([{ name: 'default', kind: 'default', line: 2, typeOnly: false }]);
    expect(result.symbols[0]).toMatchObject({ name: 'Lib', exported: true });
  });

  it('collapses overloads into one export and one symbol', () => {
    const result = facts(`export function ov(a: string): void;\nexport function ov(a: number): void;\nexport function ov(a: unknown) {\n  return a;\n}`);
    expect(result.exports).toEqual([{ name: 'ov', kind: 'function', line: 1, typeOnly: false }]);
    expect(result.symbols).toEqual([{ name: 'ov', kind: 'function', lineStart: 1, lineEnd: 5, exported: true }]);
  });

  it('ignores `export as namespace` and exports nested in namespaces', () => {
    expect(exportsOf(`export as namespace Lib;\nnamespace Inner { export const x = 1; }`)).toEqual([]);
  });
});

describe('CommonJS', () => {
  it('reads module.exports and exports.x assignments', () => {
    const src = [
      'module.exports = { a, b: 1, run() {}, "quoted": 2 };',
      'exports.named = function () {};',
      'module.exports.other = class {};',
      "exports['bracket'] = 3;",
      'exports.named = 4;',
      'if (typeof module !== "undefined") { module.exports.inner = 5; }',
    ].join('\n');
    const result = facts(src, 'javascript');
    expect(result.commonJs).toBe(true);
    expect(result.exports.map((e) => [e.name, e.kind, e.line])).toEqual([
      ['default', 'default', 1],
      ['a', 'variable', 1],
      ['b', 'variable', 1],
      ['run', 'function', 1],
      ['quoted', 'variable', 1],
      ['named', 'function', 2],
      ['other', 'class', 3],
      ['bracket', 'variable', 4],
      ['named', 'variable', 5],
      ['inner', 'variable', 6],
    ]);
  });

  it('does not flag ESM modules or unrelated member assignments', () => {
    const result = facts(`export const a = 1;\nthis.exports = 2;\nfoo.exports.x = 3;\nmodule.other = 4;`);
    expect(result.commonJs).toBe(false);
    expect(result.exports.map((e) => e.name)).toEqual(['a']);
  });
});
