import type { CodeGraph } from '@codehealth/engine';
import { describe, expect, it } from 'vitest';
import { moduleLookup } from './module-lookup.js';

function graphOf(
  modules: Array<{ path: string; exports: Array<{ name: string; line: number; from?: string }>; imports: Array<{ specifier: string; to?: string }> }>,
): CodeGraph {
  return { modules: new Map(modules.map((m) => [m.path, { ...m, importedBy: [] }])) } as unknown as CodeGraph;
}

describe('moduleLookup', () => {
  it('returns the first export record and the first resolved import of a specifier, as a search would', () => {
    const graph = graphOf([
      {
        path: 'a.ts',
        exports: [
          { name: 'x', line: 1 },
          { name: 'y', line: 2, from: './b' },
          { name: 'x', line: 3 },
        ],
        imports: [{ specifier: './b' }, { specifier: './b', to: 'b.ts' }, { specifier: './b', to: 'c.ts' }, { specifier: './d', to: 'd.ts' }],
      },
    ]);
    const lookup = moduleLookup(graph);
    expect(lookup.exportRecord('a.ts', 'x')?.line).toBe(1);
    expect(lookup.exportRecord('a.ts', 'y')?.from).toBe('./b');
    expect(lookup.exportRecord('a.ts', 'z')).toBeUndefined();
    expect(lookup.exportRecord('missing.ts', 'x')).toBeUndefined();
    expect(lookup.importTarget('a.ts', './b')).toBe('b.ts');
    expect(lookup.importTarget('a.ts', './d')).toBe('d.ts');
    expect(lookup.importTarget('a.ts', './e')).toBeUndefined();
    expect(moduleLookup(graph)).toBe(lookup);
  });
});
