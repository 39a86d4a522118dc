import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildCodeGraph } from './build-graph.js';
import { shortestCycle } from './cycle-path.js';
import { loadRepository } from './fixtures/load-repository.js';
import type { Resolution } from './resolve-module.js';
import type { ModuleFacts } from './types.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}/`, import.meta.url));
const sorted = (set: Iterable<string>): string[] => [...set].sort();

describe('barrels: usedExports', () => {
  const { graph } = loadRepository(fixture('barrels'));

  it('counts a name imported through barrels as used in the declaring module', () => {
    expect(sorted(graph.usedExports('src/lib/math.ts'))).toEqual(['add', 'mul']);
    expect(sorted(graph.usedExports('src/lib/strings.ts'))).toEqual(['Case', 'upper']);
    expect(sorted(graph.usedExports('src/lib/nested/deep.ts'))).toEqual(['deep']);
    expect(sorted(graph.usedExports('src/lib/nested/deeper.ts'))).toEqual(['deepest']);
  });

  it('counts names in the barrels they pass through', () => {
    expect(sorted(graph.usedExports('src/lib/index.ts'))).toEqual(['Case', 'add', 'deep', 'deepest', 'geometry', 'toUpper']);
    expect(sorted(graph.usedExports('src/lib/nested/index.ts'))).toEqual(['deep', 'deepest']);
  });

  it('uses every export, default included, of a module re-exported as a namespace', () => {
    expect(sorted(graph.usedExports('src/lib/geometry.ts'))).toEqual(['area', 'default', 'perimeter']);
  });

  it('reports nothing for modules nobody imports', () => {
    expect(graph.usedExports('src/app/main.ts').size).toBe(0);
  });

  it('treats every export of an entry point as used, through its re-exports', () => {
    const withEntry = loadRepository(fixture('barrels'), { entries: ['src/lib/index.ts'] }).graph;
    // `export *` passes on every name but `default`; `divide` re-exports the default by name.
    expect(sorted(withEntry.usedExports('src/lib/math.ts'))).toEqual(['add', 'default', 'mul', 'sub']);
    expect(sorted(withEntry.usedExports('src/lib/strings.ts'))).toEqual(['Case', 'upper']);
    expect(sorted(withEntry.usedExports('src/lib/nested/deeper.ts'))).toEqual(['deepest', 'unusedDeepest']);
    expect(sorted(withEntry.usedExports('src/lib/nested/deep.ts'))).toEqual(['deep']);
  });

  it('keeps edge details and reverse edges', () => {
    const main = graph.modules.get('src/app/main.ts')!;
    expect(main.imports.map((e) => [e.to, e.kind, e.names, e.typeOnly ?? false])).toEqual([
      ['src/lib/index.ts', 'static', ['add', 'toUpper', 'deep', 'deepest'], false],
      ['src/lib/index.ts', 'type', ['Case'], true],
    ]);
    expect(graph.modules.get('src/lib/math.ts')!.importedBy).toEqual(['src/app/dynamic.ts', 'src/lib/index.ts']);
  });
});

describe('cycles fixture', () => {
  const { graph } = loadRepository(fixture('cycles'));

  it('finds import cycles in import order, type-only ones included, and self-imports', () => {
    expect(graph.cycles).toEqual([['a.ts', 'b.ts', 'c.ts'], ['d.ts', 'e.ts'], ['g.ts', 'lazy.ts'], ['self.ts']]);
  });

  it('leaves type-only cycles out of the run-time cycles', () => {
    expect(graph.runtimeCycles).toEqual([['a.ts', 'b.ts', 'c.ts'], ['g.ts', 'lazy.ts'], ['self.ts']]);
  });

  it('follows imports for reachability and importers for dependents', () => {
    expect(sorted(graph.reachableFrom(['d.ts']))).toEqual(['d-factory.ts', 'd.ts', 'e.ts']);
    expect(sorted(graph.reachableFrom(['c.ts']))).toEqual(['a.ts', 'b.ts', 'c.ts']);
    expect(sorted(graph.dependentsOf('a.ts'))).toEqual(['b.ts', 'c.ts', 'g.ts', 'lazy.ts']);
    expect(sorted(graph.dependentsOf('a.ts', 1))).toEqual(['c.ts', 'g.ts']);
    expect(sorted(graph.dependentsOf('d-factory.ts', 2))).toEqual(['d.ts', 'e.ts']);
    expect(graph.dependentsOf('a.ts', 0).size).toBe(0);
  });

  it('searches cycles once, on first read, and shows them to copies and JSON like plain fields', () => {
    const fresh = loadRepository(fixture('cycles')).graph;
    expect(sorted(fresh.reachableFrom(['c.ts']))).toEqual(['a.ts', 'b.ts', 'c.ts']);
    const runtime = fresh.runtimeCycles;
    expect(fresh.runtimeCycles).toBe(runtime);
    expect(runtime).toEqual(graph.runtimeCycles);
    const copy = { ...fresh };
    expect(copy.cycles).toBe(fresh.cycles);
    expect(JSON.parse(JSON.stringify({ cycles: fresh.cycles, copy })).copy.cycles).toEqual(graph.cycles);
  });
});

describe('commonjs fixture', () => {
  const { graph } = loadRepository(fixture('commonjs'));

  it('resolves require() and ESM imports of CommonJS files', () => {
    const index = graph.modules.get('index.js')!;
    expect(index.imports.map((e) => [e.specifier, e.resolution, e.to ?? e.packageName, e.names])).toEqual([
      ['./util', 'internal', 'util.js', ['*']],
      ['./lib/helper', 'internal', 'lib/helper.js', ['helper']],
      ['./side-effect', 'internal', 'side-effect.js', []],
      ['./data.json', 'internal', 'data.json', ['*']],
      ['path', 'external', 'node:path', ['*']],
    ]);
    expect(graph.modules.get('esm.mjs')!.imports.map((e) => e.to)).toEqual(['util.js', 'lib/index.cjs']);
  });

  it('records CommonJS exports and which of them are used', () => {
    expect(graph.modules.get('lib/helper.js')!.exports.map((e) => e.name)).toEqual(['helper', 'unused']);
    expect(sorted(graph.usedExports('lib/helper.js'))).toEqual(['helper']);
    expect(sorted(graph.usedExports('util.js'))).toEqual(['default']);
    expect(graph.cycles).toEqual([]);
  });
});

describe('workspaces fixture', () => {
  it('links packages by name and counts unresolved and external edges', () => {
    const { graph } = loadRepository(fixture('workspaces'));
    const app = graph.modules.get('packages/app/src/index.ts')!;
    const by = (resolution: string) => app.imports.filter((e) => e.resolution === resolution).map((e) => e.specifier);
    expect(by('unresolved')).toEqual(['@demo/core/internal/x', '@demo/core/not-exported']);
    expect(by('external')).toEqual(['#dep', 'ignored-pkg']);
    expect(graph.modules.get('packages/core/src/index.ts')!.importedBy).toEqual(['packages/app/src/index.ts']);
    expect(sorted(graph.reachableFrom(['packages/app/src/index.ts']))).toEqual([
      'packages/app/src/config.ts',
      'packages/app/src/index.ts',
      'packages/app/src/internal/db.ts',
      'packages/built/out/index.js',
      'packages/core/src/feature/index.ts',
      'packages/core/src/index.ts',
      'packages/core/src/utils/strings.ts',
      'packages/legacy/src/extra.ts',
      'packages/legacy/src/main.ts',
    ]);
  });
});

describe('buildCodeGraph with a stub resolver', () => {
  const facts = (imports: ModuleFacts['imports']): ModuleFacts => ({ imports, exports: [], symbols: [], commonJs: false });

  it('copies resolution results onto edges and keeps unknown targets out of the module map', () => {
    const resolutions: Record<string, Resolution> = {
      './b': { kind: 'internal', path: 'b.ts' },
      './asset': { kind: 'internal', path: 'asset.svg' },
      react: { kind: 'external', packageName: 'react' },
      './gone': { kind: 'unresolved' },
    };
    const graph = buildCodeGraph(
      [
        { path: 'a.ts', facts: facts(Object.keys(resolutions).map((specifier, i) => ({ specifier, kind: 'static', names: ['x'], line: i + 1 }))) },
        { path: 'b.ts', facts: facts([]) },
      ],
      { resolve: (_from, specifier) => resolutions[specifier] },
    );
    expect(graph.edges.map((e) => [e.specifier, e.resolution, e.to, e.packageName])).toEqual([
      ['./b', 'internal', 'b.ts', undefined],
      ['./asset', 'internal', 'asset.svg', undefined],
      ['react', 'external', undefined, 'react'],
      ['./gone', 'unresolved', undefined, undefined],
    ]);
    expect(sorted(graph.modules.keys())).toEqual(['a.ts', 'b.ts']);
    expect(sorted(graph.reachableFrom(['a.ts']))).toEqual(['a.ts', 'asset.svg', 'b.ts']);
    expect(graph.modules.get('b.ts')!.importedBy).toEqual(['a.ts']);
  });
});

describe('shortestCycle', () => {
  const { graph } = loadRepository(fixture('cycles'));

  it('gives the import chain of a cycle from its first member', () => {
    expect(shortestCycle(graph, ['a.ts', 'b.ts', 'c.ts'])).toEqual(['a.ts', 'b.ts', 'c.ts']);
    expect(shortestCycle(graph, ['c.ts', 'a.ts', 'b.ts'])).toEqual(['c.ts', 'a.ts', 'b.ts']);
    expect(shortestCycle(graph, ['self.ts'])).toEqual(['self.ts']);
  });

  it('finds no run-time chain through type-only imports, and none outside the members', () => {
    expect(shortestCycle(graph, ['d.ts', 'e.ts'])).toEqual(['d.ts', 'e.ts']);
    expect(shortestCycle(graph, ['d.ts', 'e.ts'], { runtimeOnly: true })).toEqual([]);
    expect(shortestCycle(graph, ['a.ts', 'b.ts'])).toEqual([]);
  });
});
