// Reads what a package's TypeScript files import, for the packages' boundary tests (issue 19:
// dependencies point one way, hosts → service → engine). Text-level: static imports and
// re-exports, side-effect imports and import() with a literal specifier.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export interface ImportEdge {
  /** The importing file, relative to the package's src. */
  file: string;
  specifier: string;
  /** For a relative specifier: the file it names, relative to the repository's packages folder. */
  target?: string;
  test: boolean;
}

const isTest = (path: string) => path.endsWith('.test.ts') || path.split('/').includes('fixtures');

/** Every import of the .ts files under `srcDir` (the package's src folder). */
export function packageImports(srcDir: string): ImportEdge[] {
  const packagesDir = resolve(srcDir, '../..');
  const edges: ImportEdge[] = [];
  for (const file of (readdirSync(srcDir, { recursive: true }) as string[]).filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts')).sort()) {
    const text = readFileSync(join(srcDir, file), 'utf8');
    for (const match of text.matchAll(/^\s*(?:import|export)\s[^;]*?\bfrom\s+'([^']+)'|^\s*import\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm)) {
      const specifier = (match[1] ?? match[2] ?? match[3])!;
      const edge: ImportEdge = { file, specifier, test: isTest(file) };
      if (specifier.startsWith('.')) edge.target = relative(packagesDir, resolve(dirname(join(srcDir, file)), specifier));
      edges.push(edge);
    }
  }
  return edges;
}

/** The package a bare specifier names (`@scope/name` or `name`), or the builtin (`node:fs`). */
export const packageOf = (specifier: string): string => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);

/** Imports that leave the package's own folder for another package's files (`../../http/src/...`). */
export function reachesIntoOtherPackages(edges: readonly ImportEdge[], ownPackage: string): string[] {
  return edges
    .filter((edge) => edge.target !== undefined && !edge.target.startsWith('..') && !edge.target.startsWith(`${ownPackage}/`))
    .map((edge) => `${edge.file} -> ${edge.target}`);
}
