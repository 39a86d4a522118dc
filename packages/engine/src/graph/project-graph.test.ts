// The code graph of this repository itself, with its real tsconfig and package.json files: how the resolver
// reads a real tree. Bounds on that tree (no unresolved import, layering, no cycle) are npm run self-check's.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadRepository } from './fixtures/load-repository.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const skipDirs = new Set(['node_modules', '.git', 'dist', 'coverage', '.codehealth', '.cache']);
// Fixture folders hold mini-repositories with their own roots and deliberate dead ends: they are
// known to the resolver (tests import helpers from them) but not analysed as part of this one.
const isSource = (path: string): boolean =>
  path.startsWith('packages/') && /\.[mc]?tsx?$/.test(path) && !path.endsWith('.d.ts') && !path.includes('/fixtures/');
const { graph, resolver, facts } = loadRepository(root, { include: isSource, skipDirs });

describe('code graph of this repository', () => {
  it('covers every TypeScript source of the packages', () => {
    expect(facts.size).toBeGreaterThan(20);
    expect(graph.modules.has('packages/engine/src/parsing/walk.ts')).toBe(true);
    expect(graph.modules.has('packages/engine/src/graph/fixtures/load-repository.ts')).toBe(false);
  });

  it('resolves the .js-suffixed relative imports of walk.ts to their TS sources', () => {
    const walk = graph.modules.get('packages/engine/src/parsing/walk.ts')!;
    expect(walk.imports.map((e) => [e.specifier, e.kind, e.resolution, e.to ?? e.packageName])).toEqual([
      ['tree-sitter', 'type', 'external', 'tree-sitter'],
      ['./flat-tree.js', 'static', 'internal', 'packages/engine/src/parsing/flat-tree.ts'],
    ]);
    expect(graph.modules.get('packages/engine/src/parsing/flat-tree.ts')!.importedBy).toContain('packages/engine/src/parsing/walk.ts');
  });

  it('sees the createRequire-based require() of the parser as loads of its packages', () => {
    const parser = graph.modules.get('packages/engine/src/parsing/parser.ts')!;
    const external = parser.imports.filter((e) => e.resolution === 'external').map((e) => `${e.kind} ${e.packageName}`);
    expect(external).toEqual(expect.arrayContaining(['static node:module', 'type tree-sitter', 'require tree-sitter', 'require tree-sitter-typescript']));
  });

  it('resolves workspace package names through their exports maps to sources', () => {
    for (const pkg of ['analyzers', 'http', 'worker', 'cli']) {
      expect(resolver.resolve(`packages/${pkg}/src/index.ts`, '@codehealth/engine')).toEqual({
        kind: 'internal',
        path: 'packages/engine/src/index.ts',
      });
    }
    expect(resolver.resolve('packages/cli/src/index.ts', '@codehealth/analyzers')).toEqual({
      kind: 'internal',
      path: 'packages/analyzers/src/index.ts',
    });
  });

  it('lists the dependents of a module', () => {
    expect(graph.dependentsOf('packages/engine/src/graph/types.ts', 1)).toContain('packages/engine/src/graph/build-graph.ts');
  });
});
