import { describe, expect, it } from 'vitest';
import { analyzeWith, findingsOf, MiniRepo } from '../../shared/fixtures/mini-repo.js';
import { consistency } from '../index.js';

const RULE = 'consistency/async-style';
const awaiting = (n: number) =>
  Array.from({ length: n }, (_, i) => `export async function load${i}(id: string) {\n  const a = await get(id);\n  return await get(a);\n}\n`).join('') +
  'declare function get(x: string): Promise<string>;\n';

describe('consistency/async-style', () => {
  it('reports a .then() chain in a function that also awaits, once per chain, with the enclosing function', async () => {
    const repo = new MiniRepo({
      'src/loaders.ts': awaiting(12),
      'src/legacy.ts': [
        'declare function get(x: string): Promise<string>;',
        'export async function loadLegacy(id: string) {',
        '  const first = await get(id);',
        '  return get(first)',
        '    .then((b) => b.trim())',
        '    .catch(() => "");',
        '}',
      ].join('\n'),
    });
    const result = await analyzeWith(consistency, repo.root);
    const findings = result.findings.filter((f) => f.ruleId === RULE);
    expect(findings.map((f) => [f.filePath, f.anchor.lineStart, f.title, f.symbol, f.confidence])).toEqual([
      ['src/legacy.ts', 4, '.then() chain in loadLegacy (legacy.ts), an async function; the repository uses async/await', 'loadLegacy', 60],
    ]);
    expect(findings[0].description).toBe(
      'src/legacy.ts:4 chains .then() on a promise inside a function that is async or awaits, while 92.9% (13 of 14) of the asynchronous code in this repository uses async/await.',
    );
    expect(result.conventions.find((c) => c.name === 'async-style')).toEqual({
      name: 'async-style',
      consistency: 92.9,
      dominantValue: 'async/await',
      totalCount: 14,
      deviationCount: 1,
      values: { 'async/await': 13, '.then()': 1 },
    });
  });

  it('does not report a deliberate .then() in a function that does not await: a cached promise, concurrent promises, a returned chain', async () => {
    const repo = new MiniRepo({
      'src/loaders.ts': awaiting(12),
      'src/deliberate.ts': [
        'declare function get(x: string): Promise<string>;',
        'export class Body {',
        '  #cached?: Promise<string>;',
        '  text() {',
        '    return (this.#cached ??= get("body").then((b) => b.trim()));',
        '  }',
        '}',
        'export function both(a: string, b: string) {',
        '  const first = get(a).then((x) => x.length);',
        '  const second = get(b).then((x) => x.length);',
        '  return Promise.all([first, second]);',
        '}',
        'export async function race(id: string) {',
        '  const all: Promise<number>[] = [];',
        '  all.push(get(id).then((x) => x.length));',
        '  return await Promise.race([get(id).then((x) => x.length), new Promise<number>((r) => setTimeout(() => r(0), 10))]);',
        '}',
        'export function legacy(id: string) {',
        '  return get(id)',
        '    .then((a) => get(a))',
        '    .catch(() => "");',
        '}',
      ].join('\n'),
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual([]);
    // Counted in the convention all the same.
    expect(result.conventions.find((c) => c.name === 'async-style')).toMatchObject({ totalCount: 19, deviationCount: 6 });
  });

  it('does not count awaited chains, arrow-body transforms or lazy import() as .then() style', async () => {
    const repo = new MiniRepo({
      'src/loaders.ts': awaiting(12),
      'src/idioms.ts': [
        'declare function get(x: string): Promise<string>;',
        'export async function all(ids: string[]) {',
        '  const size = await get("x").then((s) => s.length);',
        '  return Promise.all(ids.map((id) => get(id).then((s) => s.trim())));',
        '}',
        'export const lazy = () => import("./loaders.js").then((m) => m.load0);',
        'export function page() { return import("./loaders.js").then((m) => m.load1("a")); }',
      ].join('\n'),
    });
    const result = await analyzeWith(consistency, repo.root);
    expect(findingsOf(result, RULE)).toEqual([]);
    // `all` awaits once: 13 functions use await, no chain counted.
    expect(result.conventions.find((c) => c.name === 'async-style')).toMatchObject({ totalCount: 13, consistency: 100 });
  });

  it('reports await in a code base of .then() chains when the same function chains too, the other way round', async () => {
    const chains = Array.from({ length: 10 }, (_, i) => `export function load${i}(id: string) {\n  return get(id).then((a) => a + ${i});\n}\n`).join('');
    const repo = new MiniRepo({
      'src/chains.ts': `declare function get(x: string): Promise<string>;\n${chains}`,
      'src/modern.ts': 'declare function get(x: string): Promise<string>;\nexport async function fresh() {\n  return await get("a");\n}\n',
      'src/both.ts':
        'declare function get(x: string): Promise<string>;\nexport async function both() {\n  const a = await get("a");\n  get(a).then(console.log);\n}\n',
    });
    expect(findingsOf(await analyzeWith(consistency, repo.root), RULE)).toEqual([
      'src/both.ts:3 async/await in both (both.ts) mixed with .then(); the repository chains .then()',
    ]);
  });
});
