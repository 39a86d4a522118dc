// Accuracy on a real open-source code base: rxjs as published on npm, which ships its TypeScript
// sources and tsconfig. The tarball is fetched once with `npm pack` into the OS temp directory;
// without the registry these tests are skipped with the reason.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { shortestCycle } from './cycle-path.js';
import { loadRepository, type LoadedRepository } from './fixtures/load-repository.js';
import { obtainRxjs } from '../../../../test/helpers/corpora.js';

function prepareRxjs(): string {
  const corpus = obtainRxjs();
  if (corpus.error !== undefined) throw new Error(corpus.error);
  return corpus.root;
}

let root = '';
let repo: LoadedRepository | undefined;
let unavailable = '';

beforeAll(() => {
  try {
    root = prepareRxjs();
  } catch (error) {
    unavailable = (error as Error).message;
    console.warn(`SKIPPED: ${unavailable}`);
    return;
  }
  const isSource = (path: string): boolean => path.startsWith('src/') && path.endsWith('.ts');
  // The public entry points, as the package's exports map names them.
  const entries = ['src/index.ts', 'src/operators/index.ts', 'src/ajax/index.ts', 'src/fetch/index.ts', 'src/testing/index.ts', 'src/webSocket/index.ts'];
  repo = loadRepository(root, { include: isSource, entries });
  const files = repo.facts.size;
  const lines = [...repo.facts.keys()].reduce((n, p) => n + readFileSync(join(root, p), 'utf8').split('\n').length, 0);
  console.info(
    `rxjs@7.8.2: read+parse+walk+extract of ${files} files (${lines} lines) in ${repo.extractMs.toFixed(0)} ms: ` +
      `${Math.round((files / repo.extractMs) * 1000)} files/s, ${Math.round((lines / repo.extractMs) * 1000)} lines/s`,
  );
});

function loaded(ctx: TestContext): LoadedRepository {
  if (!repo) ctx.skip(unavailable);
  return repo!;
}

describe(`rxjs@7.8.2 code graph`, () => {
  it('resolves every relative import of the sources', (ctx) => {
    const { graph, facts } = loaded(ctx);
    expect(facts.size).toBeGreaterThan(240);
    const relative = graph.edges.filter((e) => e.specifier.startsWith('.'));
    expect(relative.length).toBeGreaterThan(1000);
    const unresolved = relative.filter((e) => e.resolution !== 'internal');
    expect(unresolved.map((e) => `${e.from}:${e.line} ${e.specifier}`)).toEqual([]);
  });

  it('has the edges a reader of the sources sees', (ctx) => {
    const { graph } = loaded(ctx);
    const targets = (path: string): string[] => graph.modules.get(path)!.imports.map((e) => e.to!);
    expect(targets('src/internal/Observable.ts')).toEqual([
      'src/internal/Operator.ts',
      'src/internal/Subscriber.ts',
      'src/internal/Subscription.ts',
      'src/internal/types.ts',
      'src/internal/symbol/observable.ts',
      'src/internal/util/pipe.ts',
      'src/internal/config.ts',
      'src/internal/util/isFunction.ts',
      'src/internal/util/errorContext.ts',
    ]);
    const index = graph.modules.get('src/index.ts')!;
    expect(index.exports.find((e) => e.name === 'Observable')).toMatchObject({ kind: 're-export', from: './internal/Observable' });
    expect(index.imports.find((e) => e.specifier === './internal/types')).toMatchObject({ kind: 're-export-all', to: 'src/internal/types.ts' });
    expect(graph.modules.get('src/internal/operators/map.ts')!.importedBy).toEqual(
      expect.arrayContaining(['src/index.ts', 'src/operators/index.ts', 'src/internal/operators/mapTo.ts']),
    );
  });

  it('resolves the package name through the tsconfig paths rxjs declares for itself', (ctx) => {
    const { resolver } = loaded(ctx);
    const from = 'src/internal/operators/map.ts';
    expect(resolver.resolve(from, 'rxjs')).toEqual({ kind: 'internal', path: 'src/index.ts' });
    expect(resolver.resolve(from, 'rxjs/operators')).toEqual({ kind: 'internal', path: 'src/operators/index.ts' });
    expect(resolver.resolve(from, 'rxjs/internal/Observable')).toEqual({ kind: 'internal', path: 'src/internal/Observable.ts' });
    expect(resolver.resolve(from, 'tslib')).toEqual({ kind: 'external', packageName: 'tslib' });
  });

  it('counts operators used only through the public barrels as used', (ctx) => {
    const { graph } = loaded(ctx);
    expect([...graph.usedExports('src/internal/operators/pairwise.ts')]).toEqual(['pairwise']);
    expect(graph.usedExports('src/internal/operators/map.ts').has('map')).toBe(true);
    // `export * from './internal/types'` in the index passes every type on.
    expect(graph.usedExports('src/internal/types.ts').has('OperatorFunction')).toBe(true);
  });

  it('finds import cycles that the files confirm, and none that survives compilation', (ctx) => {
    const { graph } = loaded(ctx);
    expect(graph.cycles.length).toBeGreaterThan(0);
    expect(graph.cycles.map((c) => c.slice(0, 2))).toContainEqual(['src/internal/Scheduler.ts', 'src/internal/scheduler/Action.ts']);
    // Read the files: each link of each cycle's import chain is an import or export statement
    // whose specifier names the next file on disk.
    const importsOf = (path: string): string[] => {
      const text = readFileSync(join(root, path), 'utf8');
      const specifiers = [...text.matchAll(/^(?:import|export)\b[^;]*?from '(\.[^']+)'/gms)].map((m) => m[1]);
      return specifiers.map((s) => join(dirname(path), `${s}.ts`)).filter((p) => existsSync(join(root, p)));
    };
    for (const cycle of graph.cycles) {
      const chain = shortestCycle(graph, cycle);
      expect(chain.length).toBeGreaterThan(1);
      chain.forEach((from, i) => {
        const to = chain[(i + 1) % chain.length];
        expect(importsOf(from), `${from} imports ${to}`).toContain(to);
      });
    }
    // rxjs runs dependency-cruiser's no-circular on its compiled output in CI (`test:circular`):
    // the cycles in the sources go through imports that are only used as types.
    expect(graph.runtimeCycles).toEqual([]);
  });

  it('agrees with the TypeScript compiler on every resolution and every elided import', (ctx) => {
    const { graph } = loaded(ctx);
    const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const resolutionMismatches: string[] = [];
    const elisionMismatches: string[] = [];
    for (const module of graph.modules.values()) {
      const file = join(root, module.path);
      for (const edge of module.imports) {
        const resolved = ts.resolveModuleName(edge.specifier, file, options, ts.sys).resolvedModule;
        const theirs = resolved && !resolved.isExternalLibraryImport ? resolved.resolvedFileName.slice(root.length + 1) : undefined;
        if (theirs !== edge.to) resolutionMismatches.push(`${module.path} ${edge.specifier}: ours ${edge.to}, tsc ${theirs}`);
      }
      // transpileModule elides, per file, the imports whose bindings are not used as values.
      const emitted = ts.transpileModule(readFileSync(file, 'utf8'), {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2020 },
      }).outputText;
      const kept = new Set([...emitted.matchAll(/^(?:import|export)\b[^;]*?['"]([^'"]+)['"];?$/gm)].map((m) => m[1]));
      for (const edge of module.imports) {
        if (edge.kind !== 'static' && edge.kind !== 'require') continue;
        if (kept.has(edge.specifier) === Boolean(edge.elidable)) {
          elisionMismatches.push(`${module.path} ${edge.specifier}: ours ${edge.elidable ? 'elided' : 'kept'}`);
        }
      }
    }
    expect(resolutionMismatches).toEqual([]);
    expect(elisionMismatches).toEqual([]);
    expect(graph.edges.filter((e) => e.elidable).length).toBeGreaterThan(100);
  });
});
