import { describe, expect, it } from 'vitest';
import { analyzeWith, findingsOf, MiniRepo } from '../../shared/fixtures/mini-repo.js';
import { consistency } from '../index.js';

const RULE = 'consistency/async-style';
const awaiting = (n: number) =>
  Array.from({ length: n }, (_, i) => `export async function load${i}(id: string) {\n  const a = await get(id);\n  return await get(a);\n}\n`).join('') +
  'declare function get(x: string): Promise<string>;\n';

describe('consistency/async-style', () => {
  it('reports a .then() chain among functions that await, once per chain, with the enclosing function', async () => {
    const repo = new MiniRepo({
      'src/loaders.ts': awaiting(12),
      'src/legacy.ts': [
        'declare function get(x: string): Promise<string>;',
        'export function loadLegacy(id: string) {',
        '  return get(id)',
        '    .then((a) => get(a))',
        '    .then((b) => b.trim())',
        '    .catch(() => "");',
        '}',
      ].join('\n'),
    });
    const result = await analyzeWith(consistency, repo.root);
    const findings = result.findings.filter((f) => f.ruleId === RULE);
    expect(findings.map((f) => [f.filePath, f.anchor.lineStart, f.title, f.symbol, f.confidence])).toEqual([
      ['src/legacy.ts', 3, '.then() chain in loadLegacy (legacy.ts); the repository uses async/await', 'loadLegacy', 60],
    ]);
    expect(findings[0].description).toBe('src/legacy.ts:3 chains .then() on a promise, while 92.3% (12 of 13) of the asynchronous code in this repository uses async/await.');
    expect(result.conventions.find((c) => c.name === 'async-style')).toEqual({
      name: 'async-style',
      consistency: 92.3,
      dominantValue: 'async/await',
      totalCount: 13,
      deviationCount: 1,
      values: { 'async/await': 12, '.then()': 1 },
    });
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

  it('reports await in a code base of .then() chains, the other way round', async () => {
    const chains = Array.from({ length: 10 }, (_, i) => `export function load${i}(id: string) {\n  return get(id).then((a) => a + ${i});\n}\n`).join('');
    const repo = new MiniRepo({
      'src/chains.ts': `declare function get(x: string): Promise<string>;\n${chains}`,
      'src/modern.ts': 'declare function get(x: string): Promise<string>;\nexport async function fresh() {\n  return await get("a");\n}\n',
    });
    expect(findingsOf(await analyzeWith(consistency, repo.root), RULE)).toEqual([
      'src/modern.ts:3 async/await in fresh (modern.ts); the repository chains .then()',
    ]);
  });
});
