import { describe, expect, it } from 'vitest';
import { GraphImpactSchema } from '../api/pr-analyses.js';
import { both, changed, graphOf } from './fixtures/graph.js';
import type { CodeGraph } from '@codehealth/engine';
import { computeGraphImpact, graphImporters } from '@codehealth/engine/internal';

// money.ts exports total and format; three modules use total (one through a namespace import),
// one uses only format; a barrel re-exports total under another name; a chain leads further up.
const SOURCES = {
  'src/money.ts':
    'export function total(xs: number[]): number {\n  return xs.reduce((a, b) => a + b, 0);\n}\n\nexport function format(n: number): string {\n  return n.toFixed(2);\n}\n',
  'src/cart.ts': "import { total } from './money.js';\nexport const cartTotal = (xs: number[]) => total(xs);\n",
  'src/invoice.ts': "import { total } from './money.js';\nexport const due = (xs: number[]) => total(xs) * 1.2;\n",
  'src/report.ts': "import * as money from './money.js';\nexport const line = (xs: number[]) => money.format(money.total(xs));\n",
  'src/label.ts': "import { format } from './money.js';\nexport const label = (n: number) => format(n);\n",
  'src/index.ts': "export { total as sum } from './money.js';\nexport { label } from './label.js';\n",
  'src/api.ts': "import { sum } from './index.js';\nexport const api = sum;\n",
  'src/checkout.ts': "import { cartTotal } from './cart.js';\nexport const pay = () => cartTotal([1]);\n",
  'src/app.ts': "import { pay } from './checkout.js';\nexport const run = () => pay();\n",
  'src/main.ts': "import { run } from './app.js';\nrun();\n",
  'src/side.ts': "import './money.js';\n",
};
const graph = graphOf(SOURCES);
const changeTotal = [changed('src/money.ts', { symbols: both('total', 1, 3) })];

describe('computeGraphImpact', () => {
  it('follows the changed symbol by name, through re-export aliases, up to the hop limit', async () => {
    const impact = GraphImpactSchema.parse(await computeGraphImpact({ files: changeTotal, graph }));
    expect(impact.changed_symbols).toEqual([{ name: 'total', file: 'src/money.ts', kind: 'function' }]);
    // Hop 1: cart, invoice, report (namespace) and the barrel; hop 2: checkout, api (imports the alias
    // `sum`); hop 3: app. label.ts (format only), side.ts (side effect) and main.ts (hop 4) are not reached.
    expect(impact.dependent_files).toEqual(['src/api.ts', 'src/app.ts', 'src/cart.ts', 'src/checkout.ts', 'src/index.ts', 'src/invoice.ts', 'src/report.ts']);
    expect(impact.dependents_count).toBe(7);
    expect(impact.depth).toBe(3);
    expect(impact.summary).toBe(
      '1 exported symbol (1 changed): total (src/money.ts, changed): 7 dependents, up to 3 hops, called by 3 functions. 7 files outside this PR depend on them within 3 import hops (deepest 3).',
    );
  });

  it('honours a smaller hop limit and caps the listed files but not the count', async () => {
    const impact = await computeGraphImpact({ files: changeTotal, graph, depth: 1, maxFiles: 2 });
    expect(impact.dependents_count).toBe(4);
    expect(impact.dependent_files).toEqual(['src/cart.ts', 'src/index.ts']);
    expect(impact.depth).toBe(1);
    expect(impact.summary).toContain('the first 2 are listed');
  });

  it('leaves files of the PR out of the dependents and says how many use the symbols', async () => {
    const files = [...changeTotal, changed('src/cart.ts', { symbols: both('cartTotal', 2, 2) })];
    const impact = await computeGraphImpact({ files, graph, depth: 1 });
    // cart.ts itself is left out; checkout.ts imports the changed cartTotal.
    expect(impact.dependent_files).toEqual(['src/checkout.ts', 'src/index.ts', 'src/invoice.ts', 'src/report.ts']);
    expect(impact.changed_symbols.map((s) => s.name)).toEqual(['cartTotal', 'total']);
    expect(impact.summary).toContain('1 file of this PR uses them too');
  });

  it('finds the importers of a removed export in the base graph', async () => {
    const base = graphOf({
      ...SOURCES,
      'src/money.ts': `${SOURCES['src/money.ts']}export const legacy = 1;\n`,
      'src/old.ts': "import { legacy } from './money.js';\nexport const o = legacy;\n",
      // a namespace that escapes (spread) takes every export
      'src/dump.ts': "import * as money from './money.js';\nexport const all = { ...money };\n",
    });
    const files = [
      changed('src/money.ts', {
        additions: 0,
        deletions: 1,
        symbols: [{ name: 'legacy', kind: 'variable', exported: true, side: 'base', lineStart: 10, lineEnd: 10 }],
      }),
    ];
    const impact = await computeGraphImpact({ files, graph, baseGraph: base });
    expect(impact.changed_symbols).toEqual([{ name: 'legacy', file: 'src/money.ts', kind: 'variable' }]);
    // old.ts imports it by name, dump.ts's escaping namespace takes every export; report.ts reads only money.format and money.total.
    expect(impact.dependent_files).toEqual(['src/dump.ts', 'src/old.ts']);
    expect(impact.summary).toContain('legacy (src/money.ts, removed): 2 dependents, up to 1 hop');
  });

  it('falls back on the graph symbols a hunk meets when the diff carries none', async () => {
    const files = [changed('src/money.ts', { hunks: [{ oldStart: 6, oldLines: 1, newStart: 6, newLines: 1 }], symbols: [] })];
    const impact = await computeGraphImpact({ files, graph, depth: 1 });
    expect(impact.changed_symbols).toEqual([{ name: 'format', file: 'src/money.ts', kind: 'function' }]);
    // label imports format; report's namespace import uses everything; the barrel forwards only total.
    expect(impact.dependent_files).toEqual(['src/label.ts', 'src/report.ts']);
  });

  it('details the symbols that have dependents and only counts the others', async () => {
    const files = [
      changed('src/money.ts', {
        symbols: [...both('total', 1, 3), { name: 'avg', kind: 'function', exported: true, side: 'head', lineStart: 9, lineEnd: 11, change: 'added' }],
      }),
      changed('src/api.ts', { symbols: both('api', 2, 2, true, 'variable') }),
    ];
    const impact = await computeGraphImpact({ files, graph, depth: 1 });
    expect(impact.changed_symbols.map((s) => s.name)).toEqual(['api', 'avg', 'total']);
    // avg is new and report.ts's namespace import reads only money.format and money.total; nothing imports api.ts.
    expect(impact.summary).toBe(
      '3 exported symbols (2 changed, 1 added): total (src/money.ts, changed): 4 dependents, up to 1 hop, called by 3 functions; 2 more without dependents. 4 files outside this PR depend on them within 1 import hops (deepest 1).',
    );
  });

  it('reports no impact when no exported symbol changes', async () => {
    const impact = await computeGraphImpact({ files: [changed('src/money.ts', { symbols: both('helper', 1, 3, false) })], graph });
    expect(impact).toEqual({
      changed_symbols: [],
      dependents_count: 0,
      dependent_files: [],
      depth: 3,
      summary: 'No exported symbol is added, changed or removed: the change stays inside its modules.',
    });
  });
});

describe('graphImporters', () => {
  it('gives the calls into each target once, grouped by target in the order asked, in graph order within', async () => {
    const call = (from: string, to: string, name: string) => ({ from, caller: 'f', to, name, line: 1, count: 1 });
    const calls = [
      call('x.ts', 'a.ts', 'one'),
      call('y.ts', 'b.ts', 'two'),
      call('z.ts', 'a.ts', 'one'),
      call('x.ts', 'a.ts', 'two'),
      call('w.ts', 'b.ts', 'two'),
    ];
    const source = graphImporters({ calls } as unknown as CodeGraph);
    const found = await source.callsInto([
      { file: 'b.ts', name: 'two' },
      { file: 'a.ts', name: 'one' },
      { file: 'b.ts', name: 'two' },
      { file: 'a.ts', name: 'missing' },
    ]);
    expect(found).toEqual([calls[1], calls[4], calls[0], calls[2]]);
  });
});
