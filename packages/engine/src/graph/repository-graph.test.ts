import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { FileSummary } from '../pipeline/file-summary.js';
import { parseSource } from '../parsing/parser.js';
import { createSnapshot } from '../snapshot/snapshot.js';
import type { RepoSnapshot } from '../snapshot/types.js';
import { extractModuleFacts } from './extract-module-facts.js';
import { languageOf, listFiles } from './fixtures/load-repository.js';
import { buildRepositoryGraph, createRepositoryResolver } from './repository-graph.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}/`, import.meta.url));

/** A snapshot of a fixture folder that, like the real one, reads only inventoried files. */
function snapshotOf(root: string, extra: Record<string, string> = {}) {
  const paths = [...listFiles(root), ...Object.keys(extra)];
  const reads: string[] = [];
  const snapshot: RepoSnapshot = {
    root,
    files: paths.map((path) => ({ path, language: languageOf(path) ?? 'other', kind: 'source', sizeBytes: 1 })),
    async readFile(path) {
      reads.push(path);
      if (path in extra) return extra[path];
      if (!paths.includes(path)) throw new Error(`not in the snapshot: ${path}`);
      return readFileSync(join(root, path), 'utf8');
    },
    git: () => Promise.reject(new Error('no git in this test')),
  };
  const summaries = paths.flatMap((path) => {
    const language = languageOf(path);
    if (!language) return [];
    const source = path in extra ? extra[path] : readFileSync(join(root, path), 'utf8');
    const module = extractModuleFacts(parseSource(source, language), { source, language });
    return [{ path, language, module } as FileSummary];
  });
  return { snapshot, summaries, reads };
}

describe('buildRepositoryGraph', () => {
  it('reads the configuration files first, following extends chains', async () => {
    const { snapshot, summaries, reads } = snapshotOf(fixture('tsconfig-paths'));
    const graph = await buildRepositoryGraph(snapshot, summaries);
    const main = graph.modules.get('src/app/main.ts')!;
    expect(main.imports.filter((e) => e.resolution === 'internal').map((e) => e.to)).toEqual([
      'src/app/util.ts',
      'libs/lib/index.ts',
      'src/shared/log.ts',
      'src/app/util.ts',
    ]);
    expect(graph.modules.get('nested/src/entry.ts')!.imports[0].to).toBe('nested/src/helper.ts');
    expect(reads.every((path) => path.endsWith('.json'))).toBe(true);
    expect(reads).toContain('tsconfig.base.json');
  });

  it('survives extends into packages that are not there and configs that do not parse', async () => {
    const { snapshot, summaries } = snapshotOf(fixture('cycles'), {
      'tsconfig.json': '{ "extends": "@tsconfig/node20/tsconfig.json", "compilerOptions": { "baseUrl": "." } }',
      'broken/tsconfig.json': '{ "compilerOptions": ',
      'broken/x.ts': "import { a } from 'a';\nexport const x = a;",
    });
    const graph = await buildRepositoryGraph(snapshot, summaries);
    expect(graph.modules.get('broken/x.ts')!.imports[0]).toMatchObject({ resolution: 'internal', to: 'a.ts' });
    expect(graph.cycles[0]).toEqual(['a.ts', 'b.ts', 'c.ts']);
  });

  it('links workspace packages and leaves non-code summaries out of the modules', async () => {
    const { snapshot, summaries } = snapshotOf(fixture('workspaces'));
    const withJson = [...summaries, { path: 'packages/core/package.json', language: 'json', module: summaries[0].module } as FileSummary];
    const graph = await buildRepositoryGraph(snapshot, withJson);
    expect(graph.modules.has('packages/core/package.json')).toBe(false);
    expect(graph.modules.get('packages/core/src/index.ts')!.importedBy).toEqual(['packages/app/src/index.ts']);
  });

  it('resolves with createRepositoryResolver exactly as the graph does', async () => {
    // The dead-code model resolves its entry requests with this resolver instead of building a graph of them.
    for (const name of ['tsconfig-paths', 'workspaces', 'cycles']) {
      const { snapshot, summaries } = snapshotOf(fixture(name));
      const graph = await buildRepositoryGraph(snapshot, summaries);
      const resolver = await createRepositoryResolver(snapshot);
      let internal = 0;
      for (const edge of graph.edges) {
        const resolution = resolver.resolve(edge.from, edge.specifier);
        expect(resolution.kind).toBe(edge.resolution);
        if (resolution.kind === 'internal') {
          internal++;
          expect(resolution.path).toBe(edge.to);
        }
      }
      expect(internal).toBeGreaterThan(0);
    }
  });
});

describe('tsconfig extends chains on a real snapshot', () => {
  it('follows extends to a file of the repository, never through a link to a file outside it', async () => {
    const base = mkdtempSync(join(tmpdir(), 'codehealth-extends-'));
    try {
      const aliases = JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@secret/*': ['src/*'] } } });
      mkdirSync(join(base, 'outside'));
      writeFileSync(join(base, 'outside', 'tsconfig.json'), aliases);
      for (const [name, linked] of [
        ['inside', false],
        ['linked', true],
      ] as const) {
        const root = join(base, name);
        mkdirSync(join(root, 'src'), { recursive: true });
        writeFileSync(join(root, 'src', 'util.ts'), 'export const util = 1;\n');
        writeFileSync(join(root, 'src', 'main.ts'), "import { util } from '@secret/util';\nexport const main = util;\n");
        writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ extends: './tsconfig.base.json' }));
        if (linked) symlinkSync(join(base, 'outside', 'tsconfig.json'), join(root, 'tsconfig.base.json'));
        else writeFileSync(join(root, 'tsconfig.base.json'), aliases);
        const snapshot = await createSnapshot(root);
        const resolver = await createRepositoryResolver(snapshot);
        expect(resolver.resolve('src/main.ts', '@secret/util').kind, name).toBe(linked ? 'external' : 'internal');
      }
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});
