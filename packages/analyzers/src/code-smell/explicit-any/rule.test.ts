import { AnalyzerTester } from '@codehealth/engine/testing';
import { codeSmell } from '../index.js';

const typed = (n: number): string => Array.from({ length: n }, (_, i) => `export const v${i}: number = ${i};`).join('\n');
/** `n` functions with an `any` parameter each, in 2n lines. */
const loose = (n: number): string => Array.from({ length: n }, (_, i) => `export function f${i}(x: any) {\n  return x; }`).join('\n');

new AnalyzerTester(codeSmell).run('explicit-any', {
  valid: [
    { code: `${loose(4)}\n${typed(10)}`, name: 'four uses stay under the default count of five' },
    { code: `${loose(6)}\n${typed(400)}`, name: 'six uses in 412 lines stay under 20 per 1,000' },
    {
      name: 'type-level idioms are not counted: constraints, defaults, the tested type of a conditional type',
      code: [
        'export type Fn<T extends (...args: any[]) => any = (...args: any[]) => any> = T;',
        'export type Ret<T> = T extends (...args: any) => infer R ? R : never;',
        'export type Elem<T> = T extends Array<any> ? T[number] : T;',
        'export function call<F extends (...args: any[]) => any>(f: F): ReturnType<F> { return f(); }',
        'export type Args<T extends Record<string, any>> = keyof T;',
      ].join('\n'),
    },
    {
      name: "a generic other than a built-in container given any means 'any instance' of it",
      code: 'export class Cache {\n  queries: Query<any, any, any>[] = [];\n  add(q: Query<any, any, any>) {}\n  remove(q: Query<any, any, any>) {}\n}',
    },
    {
      name: "the rest parameter and result of a function type: 'any function'",
      code: 'export type AnyFn = (...args: any[]) => any;\nexport type Ctor = new (...args: any) => any;\nexport interface Emitter { on(cb: (...args: any[]) => any): void; off(cb: (...a: any[]) => any): void }',
    },
    {
      name: 'the error channel: parameters and fields named error, err, e, reason, cause',
      code: 'export class N {\n  readonly error: any;\n  constructor(public readonly reason?: any) {}\n  fail(err: any) {}\n  onError?: (e: any) => void;\n}\nexport function f(cause: any) {}',
    },
    {
      name: "an overloaded function's implementation signature, which callers never see",
      code: 'export function h(type: string): V;\nexport function h(type: string, props: P): V;\nexport function h(type: any, props?: any, children?: any): any {\n  return make(type, props, children);\n}\nclass C {\n  on(a: string): void;\n  on(a: any, b?: any): void {}\n}',
    },
    {
      name: 'a built-in container of only any as a union member, a type predicate or an alias: any Map',
      code: 'type Raw = Map<any, any> | WeakMap<any, any> | Set<any> | WeakSet<any> | Promise<any>;\nexport type AnyMap = Map<any, any>;\nexport const isMap = (v: unknown): v is Map<any, any> => v instanceof Map;',
    },
    {
      name: 'runtime globals: ambient declarations and casts of the global object',
      code: 'declare const Deno: any;\ndeclare const Bun: any;\nexport const version = (globalThis as any).process?.version ?? Deno.version;\nexport const hook = (window as any).__HOOK__ || (<any>self).__HOOK__ || (global as any).__HOOK__;',
    },
    {
      name: 'catch (e: any) spells out what an untyped throw is',
      code: Array.from({ length: 6 }, (_, i) => `try { a${i}(); } catch (e: any) { log(e.message); }`).join('\n'),
    },
    {
      name: 'uses acknowledged with a named lint disable are not counted',
      code: Array.from(
        { length: 6 },
        (_, i) => `// eslint-disable-next-line @typescript-eslint/no-explicit-any\nexport const v${i} = (x: any) => x; // eslint-disable-line`,
      ).join('\n'),
    },
    {
      name: 'a file that disables no-explicit-any by name opts out',
      code: `/* eslint-disable @typescript-eslint/no-explicit-any */\n${loose(8)}`,
    },
    { code: loose(8), filename: 'src/example.test.ts', name: 'quiet in tests' },
    { code: loose(8), filename: 'examples/demo/src/app.ts', name: 'quiet in examples' },
    { code: 'export function f(x: any, y: any, z: any, w: any, v: any) { return x; }', filename: 'src/a.js', name: 'not in JavaScript' },
  ],
  invalid: [
    {
      name: 'one finding per file, at the first use, with the count and density',
      code: `${typed(3)}\n${loose(6)}`,
      findings: [{ line: 4, severity: 'info', title: '6 explicit `any` in 15 lines of code (400 per 1,000)', data: { count: 6, codeLines: 15, perKloc: 400 } }],
    },
    {
      name: 'a notice however dense: 20 uses at 100 per 1,000',
      code: `${loose(20)}\n${typed(160)}`,
      findings: [{ line: 1, severity: 'info', data: { count: 20, codeLines: 200, perKloc: 100 } }],
    },
    {
      name: 'as any, any[], Array<any>, Record<string, any>, <any>x and a Promise<any> are all counted',
      code: [
        'export const a = b as any;',
        'export let c: any[] = [];',
        'export let d: Array<any> = [];',
        'export let e: Record<string, any> = {};',
        'export const f = <any>g;',
        'export async function h(): Promise<any> {}',
      ].join('\n'),
      findings: [{ line: 1, data: { count: 6, codeLines: 6, perKloc: 1000 } }],
    },
    {
      name: 'a catch binding and a constraint beside real uses: only the real uses count',
      code: `export function g<T extends any[]>(t: T) { try { return t; } catch (e: any) { return e; } }\n${loose(5)}`,
      findings: [{ line: 2, data: { count: 5 } }],
    },
    {
      name: 'options: minCount and perKloc',
      code: `${loose(2)}\n${typed(20)}`,
      options: { minCount: 2, perKloc: 50 },
      findings: [{ line: 1, title: '2 explicit `any` in 24 lines of code (83 per 1,000)' }],
    },
    {
      name: "a function type's ordinary parameters and an implementation's rest parameter still count; so do other names",
      code: 'export type Cb = (value: any) => void;\nexport function pass(...args: any[]) {}\nexport function g(result: any, data: any, errors: any) {}\nexport type H = (x: any, y: any) => void;',
      findings: [{ line: 1, data: { count: 7 } }],
    },
    {
      name: "an overload implementation's body, a loose map value and a cast of another object still count",
      code: 'export function f(a: string): string;\nexport function f(a: any): any {\n  const r: any = a;\n  return r;\n}\nexport let m: Map<string, any>;\nexport const x = (obj as any).y;\nexport type L = Set<any> & Tagged;\nexport const z = (window.foo as any).bar;\nexport function g(a: any) {}',
      findings: [{ line: 3, data: { count: 6 } }],
    },
    {
      name: 'a disable of another rule acknowledges nothing',
      code: Array.from({ length: 5 }, (_, i) => `// eslint-disable-next-line no-console\nexport const v${i} = (x: any) => console.log(x);`).join('\n'),
      findings: [{ line: 2, data: { count: 5 } }],
    },
  ],
});
