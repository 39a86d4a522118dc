// Self-check (npm run self-check): the code graph of this repository's package sources has no
// unresolved relative import, keeps the engine's layering, and no cycle in the graph folder.
// Moved from packages/engine/src/graph/project-graph.test.ts, which keeps the resolver's behaviour on this tree.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadRepository } from '../../packages/engine/src/graph/fixtures/load-repository.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const skipDirs = new Set(['node_modules', '.git', 'dist', 'coverage', '.codehealth', '.cache']);
// Fixture folders hold mini-repositories with their own roots and deliberate dead ends.
const isSource = (path: string): boolean =>
  path.startsWith('packages/') && /\.[mc]?tsx?$/.test(path) && !path.endsWith('.d.ts') && !path.includes('/fixtures/');
const { graph } = loadRepository(root, { include: isSource, skipDirs });

describe('the code graph of our package sources', () => {
  it('has no unresolved relative import anywhere', () => {
    const unresolved = graph.edges.filter((e) => e.resolution === 'unresolved' && e.specifier.startsWith('.'));
    expect(unresolved.map((e) => `${e.from}:${e.line} ${e.specifier}`)).toEqual([]);
    expect(graph.edges.filter((e) => e.specifier.startsWith('.')).length).toBeGreaterThan(50);
  });

  it('keeps the engine independent of the packages built on it (STYLE.md layering)', () => {
    // Tests may use the repository's shared test helpers; the engine's own modules may not reach out.
    const outward = graph.edges.filter(
      (e) => e.from.startsWith('packages/engine/') && !e.from.endsWith('.test.ts') && e.to !== undefined && !e.to.startsWith('packages/engine/'),
    );
    expect(outward.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it('has no import cycle inside the graph folder', () => {
    const inGraph = graph.cycles.filter((cycle) => cycle.some((m) => m.startsWith('packages/engine/src/graph/')));
    expect(inGraph).toEqual([]);
  });
});
