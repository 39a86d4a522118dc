// What @codehealth/cli may import (issue 19): the top floor composes the others — the engine through
// its public entries (never the unstable /internal, which is the service's), the service and the
// host packages through their package names, node builtins and its declared dependencies; never
// another package's files. Git runs through the engine's hardened runner (test/git-runner.test.ts).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageImports, packageOf, reachesIntoOtherPackages } from '../../../test/helpers/package-imports.js';

const src = fileURLToPath(new URL('.', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
const edges = packageImports(src);
const named = (list: typeof edges) => list.map((edge) => `${edge.file} -> ${edge.specifier}`);

describe('@codehealth/cli boundaries', () => {
  it('imports in production only node builtins and its declared dependencies', () => {
    const bare = edges.filter((edge) => !edge.test && !edge.specifier.startsWith('.'));
    expect(bare.some((edge) => edge.specifier === '@codehealth/service')).toBe(true);
    expect(named(bare.filter((edge) => !edge.specifier.startsWith('node:') && !(packageOf(edge.specifier) in manifest.dependencies)))).toEqual([]);
  });

  it('takes the engine only through its public entries, never @codehealth/engine/internal', () => {
    const engine = edges.filter((edge) => /^@codehealth\/engine(\/|$)/.test(edge.specifier));
    expect(engine.length).toBeGreaterThan(0);
    expect(named(engine.filter((edge) => !['@codehealth/engine', '@codehealth/engine/kit', '@codehealth/engine/testing'].includes(edge.specifier)))).toEqual(
      [],
    );
  });

  it('reaches into no other package’s files', () => {
    expect(reachesIntoOtherPackages(edges, 'cli')).toEqual([]);
  });
});
