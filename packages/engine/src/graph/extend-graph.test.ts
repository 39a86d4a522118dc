// extendCodeGraph must give the graph a rebuild over base's modules plus the added ones gives
// (the dead-code model relies on it for its synthetic module of entry uses), and leave base as it was.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { obtainRxjs } from '../../../../test/helpers/corpora.js';
import { buildCodeGraph, extendCodeGraph, type CodeGraphInput } from './build-graph.js';
import { loadRepository, type LoadedRepository } from './fixtures/load-repository.js';
import type { CodeGraph, ModuleFacts } from './types.js';
import type { ModuleResolver, Resolution } from './resolve-module.js';

const SYNTHETIC = '__entries__.ts';
const sorted = (paths: Iterable<string>): string[] => [...paths].sort();
const fixtureRoot = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}/`, import.meta.url));

/** A module importing, by index, every 3rd module whole and every 2nd one by its first export name. */
function syntheticImporter(graph: CodeGraph): { input: CodeGraphInput; resolver: ModuleResolver } {
  const targets: string[] = [];
  const imports: ModuleFacts['imports'] = [];
  [...graph.modules.values()].forEach((module, i) => {
    const names = i % 3 === 0 ? ['*'] : i % 2 === 0 && module.exports.length > 0 ? [module.exports[0].name] : undefined;
    if (!names) return;
    imports.push({ specifier: String(targets.length), kind: 'static', names, line: targets.length + 1 });
    targets.push(module.path);
  });
  const facts: ModuleFacts = { imports, exports: [], symbols: [], commonJs: false };
  return { input: { path: SYNTHETIC, facts }, resolver: { resolve: (_from, specifier) => ({ kind: 'internal', path: targets[Number(specifier)] }) } };
}

/** Resolves the synthetic module with its own resolver and the others with the repository's. */
function combined(repo: ModuleResolver, synthetic: ModuleResolver): ModuleResolver {
  return { resolve: (from, specifier): Resolution => (from === SYNTHETIC ? synthetic : repo).resolve(from, specifier) };
}

function expectSameGraph(actual: CodeGraph, expected: CodeGraph): void {
  expect([...actual.modules.keys()]).toEqual([...expected.modules.keys()]);
  expect(actual.modules).toEqual(expected.modules);
  expect(actual.edges).toEqual(expected.edges);
  expect(actual.calls).toEqual(expected.calls);
  expect(actual.cycles).toEqual(expected.cycles);
  expect(actual.runtimeCycles).toEqual(expected.runtimeCycles);
  expect(sorted(actual.reachableFrom([SYNTHETIC]))).toEqual(sorted(expected.reachableFrom([SYNTHETIC])));
  for (const path of expected.modules.keys()) {
    expect(sorted(actual.usedExports(path)), path).toEqual(sorted(expected.usedExports(path)));
    expect(sorted(actual.dependentsOf(path)), path).toEqual(sorted(expected.dependentsOf(path)));
  }
}

/** What a reader of base can observe, to check that extending it changed nothing. */
function observe(graph: CodeGraph): unknown {
  const paths = [...graph.modules.keys()];
  return {
    modules: structuredClone([...graph.modules]),
    edges: graph.edges.length,
    calls: graph.calls.length,
    used: paths.map((p) => sorted(graph.usedExports(p))),
    dependents: paths.map((p) => sorted(graph.dependentsOf(p))),
  };
}

function checkRepository({ graph, facts, resolver }: LoadedRepository): void {
  const before = observe(graph);
  const synthetic = syntheticImporter(graph);
  const extended = extendCodeGraph(graph, [synthetic.input], synthetic.resolver);
  const inputs = [...facts].map(([path, f]) => ({ path, facts: f }));
  const rebuilt = buildCodeGraph([...inputs, synthetic.input], combined(resolver, synthetic.resolver));
  expect(extended.modules.get(SYNTHETIC)!.imports.length).toBeGreaterThan(0);
  expectSameGraph(extended, rebuilt);
  // Nothing imports the synthetic module: its cycles are base's, found once.
  expect(extended.cycles).toBe(graph.cycles);
  expect(graph.modules.has(SYNTHETIC)).toBe(false);
  expect(observe(graph)).toEqual(before);
}

describe('extendCodeGraph', () => {
  for (const name of ['barrels', 'cycles', 'commonjs', 'workspaces', 'tsconfig-paths']) {
    it(`equals a rebuild with the added module, base unchanged: fixture ${name}`, () => {
      checkRepository(loadRepository(fixtureRoot(name)));
    });
  }

  it('equals a rebuild on real code (rxjs 7.8.2 sources), base unchanged', (context) => {
    const rxjs = obtainRxjs();
    if (rxjs.error !== undefined) {
      console.warn(`SKIPPED: ${rxjs.error}`);
      return context.skip();
    }
    const repo = loadRepository(rxjs.root, { include: (path) => path.startsWith('src/') && path.endsWith('.ts') });
    expect(repo.graph.modules.size).toBeGreaterThan(240);
    checkRepository(repo);
  });

  it('gives an added module the importers base already had for its path', () => {
    const facts = (specifiers: string[]): ModuleFacts => ({
      imports: specifiers.map((specifier, i) => ({ specifier, kind: 'static', names: ['x'], line: i + 1 })),
      exports: [{ name: 'x', kind: 'variable', line: 1, typeOnly: false }],
      symbols: [],
      commonJs: false,
    });
    const resolver: ModuleResolver = { resolve: (_from, specifier) => ({ kind: 'internal', path: `${specifier.slice(2)}.ts` }) };
    // a.ts imports extra.ts, which is not a module of base; extra.ts imports b.ts and a.ts.
    const base = buildCodeGraph(
      [
        { path: 'a.ts', facts: facts(['./extra', './b']) },
        { path: 'b.ts', facts: facts([]) },
      ],
      resolver,
    );
    const extra = { path: 'extra.ts', facts: facts(['./b', './a']) };
    const extended = extendCodeGraph(base, [extra], resolver);
    expect(extended.modules.get('extra.ts')!.importedBy).toEqual(['a.ts']);
    expect(extended.modules.get('b.ts')!.importedBy).toEqual(['a.ts', 'extra.ts']);
    expect(extended.cycles).toEqual([['a.ts', 'extra.ts']]);
    const rebuilt = buildCodeGraph([{ path: 'a.ts', facts: facts(['./extra', './b']) }, { path: 'b.ts', facts: facts([]) }, extra], resolver);
    expect(extended.modules).toEqual(rebuilt.modules);
    expect(sorted(extended.usedExports('a.ts'))).toEqual(sorted(rebuilt.usedExports('a.ts')));
    expect(base.modules.get('b.ts')!.importedBy).toEqual(['a.ts']);
  });

  it('refuses to add a module base already has', () => {
    const base = buildCodeGraph([{ path: 'a.ts', facts: { imports: [], exports: [], symbols: [], commonJs: false } }], {
      resolve: () => ({ kind: 'unresolved' }),
    });
    expect(() =>
      extendCodeGraph(base, [{ path: 'a.ts', facts: { imports: [], exports: [], symbols: [], commonJs: false } }], { resolve: () => ({ kind: 'unresolved' }) }),
    ).toThrow(/already a module/);
  });
});
