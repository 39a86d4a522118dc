import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { diskJsonReader, listFiles } from './fixtures/load-repository.js';
import { createModuleResolver, type Resolution } from './resolve-module.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}/`, import.meta.url));

function memoryResolver(files: string[], json: Record<string, unknown> = {}) {
  const reads: string[] = [];
  const resolver = createModuleResolver({
    files,
    readJson: (path) => {
      reads.push(path);
      return json[path];
    },
  });
  return { resolver, reads };
}

function fixtureResolver(name: string) {
  const root = fixture(name);
  return createModuleResolver({ files: listFiles(root), readJson: diskJsonReader(root) });
}

const internal = (path: string): Resolution => ({ kind: 'internal', path });
const external = (packageName: string): Resolution => ({ kind: 'external', packageName });
const unresolved: Resolution = { kind: 'unresolved' };

describe('relative specifiers', () => {
  const files = [
    'src/a.ts',
    'src/b.tsx',
    'src/c.d.ts',
    'src/c.js',
    'src/d.mts',
    'src/e.cts',
    'src/f.js',
    'src/g.jsx',
    'src/both.ts',
    'src/both.js',
    'src/dir/index.ts',
    'src/jsdir/index.js',
    'src/data.json',
    'src/styles.css',
    'src/name.service.ts',
    'src/types-only.d.ts',
    'src/pkgdir/package.json',
    'src/pkgdir/lib/entry.ts',
    'index.ts',
  ];
  const { resolver } = memoryResolver(files, { 'src/pkgdir/package.json': { main: './lib/entry.js' } });
  const from = 'src/main.ts';

  it('probes extensions in TypeScript order, declarations last', () => {
    expect(resolver.resolve(from, './a')).toEqual(internal('src/a.ts'));
    expect(resolver.resolve(from, './b')).toEqual(internal('src/b.tsx'));
    expect(resolver.resolve(from, './c')).toEqual(internal('src/c.js'));
    expect(resolver.resolve(from, './d')).toEqual(internal('src/d.mts'));
    expect(resolver.resolve(from, './both')).toEqual(internal('src/both.ts'));
    expect(resolver.resolve(from, './types-only')).toEqual(internal('src/types-only.d.ts'));
    expect(resolver.resolve(from, './name.service')).toEqual(internal('src/name.service.ts'));
  });

  it('maps emitted extensions to their TS sources (.js→.ts, .mjs→.mts, .cjs→.cts, .jsx→.tsx)', () => {
    expect(resolver.resolve(from, './a.js')).toEqual(internal('src/a.ts'));
    expect(resolver.resolve(from, './b.js')).toEqual(internal('src/b.tsx'));
    expect(resolver.resolve(from, './b.jsx')).toEqual(internal('src/b.tsx'));
    expect(resolver.resolve(from, './d.mjs')).toEqual(internal('src/d.mts'));
    expect(resolver.resolve(from, './e.cjs')).toEqual(internal('src/e.cts'));
    expect(resolver.resolve(from, './both.js')).toEqual(internal('src/both.ts'));
    expect(resolver.resolve(from, './f.js')).toEqual(internal('src/f.js'));
    expect(resolver.resolve(from, './g.jsx')).toEqual(internal('src/g.jsx'));
    expect(resolver.resolve(from, './c.js')).toEqual(internal('src/c.d.ts'));
  });

  it('resolves directories through package.json entries and index files', () => {
    expect(resolver.resolve(from, './dir')).toEqual(internal('src/dir/index.ts'));
    expect(resolver.resolve(from, './dir/index.js')).toEqual(internal('src/dir/index.ts'));
    expect(resolver.resolve(from, './jsdir')).toEqual(internal('src/jsdir/index.js'));
    expect(resolver.resolve(from, './pkgdir')).toEqual(internal('src/pkgdir/lib/entry.ts'));
    expect(resolver.resolve(from, '..')).toEqual(internal('index.ts'));
    expect(resolver.resolve('src/dir/index.ts', '.')).toEqual(internal('src/dir/index.ts'));
  });

  it('keeps explicit non-code extensions and reports missing files and escapes as unresolved', () => {
    expect(resolver.resolve(from, './data.json')).toEqual(internal('src/data.json'));
    expect(resolver.resolve(from, './styles.css')).toEqual(internal('src/styles.css'));
    expect(resolver.resolve(from, './nope')).toEqual(unresolved);
    expect(resolver.resolve(from, './nope.js')).toEqual(unresolved);
    expect(resolver.resolve(from, '../../outside')).toEqual(unresolved);
    expect(resolver.resolve(from, '/src/a')).toEqual(internal('src/a.ts'));
  });
});

describe('bare specifiers', () => {
  const { resolver, reads } = memoryResolver(['src/main.ts', 'src/other.ts']);

  it('names the package of external imports, scoped or not, and Node builtins', () => {
    expect(resolver.resolve('src/main.ts', 'lodash')).toEqual(external('lodash'));
    expect(resolver.resolve('src/main.ts', 'lodash/fp/map')).toEqual(external('lodash'));
    expect(resolver.resolve('src/main.ts', '@scope/pkg')).toEqual(external('@scope/pkg'));
    expect(resolver.resolve('src/main.ts', '@scope/pkg/deep/path.js')).toEqual(external('@scope/pkg'));
    expect(resolver.resolve('src/main.ts', 'node:fs')).toEqual(external('node:fs'));
    expect(resolver.resolve('src/main.ts', 'fs')).toEqual(external('node:fs'));
    expect(resolver.resolve('src/main.ts', 'fs/promises')).toEqual(external('node:fs/promises'));
    expect(resolver.resolve('src/main.ts', 'node:test')).toEqual(external('node:test'));
  });

  it('reports path aliases no config defines as unresolved, not as packages', () => {
    expect(resolver.resolve('src/main.ts', '~/components/x')).toEqual(unresolved);
    expect(resolver.resolve('src/main.ts', '@/components/x')).toEqual(unresolved);
    expect(resolver.resolve('src/main.ts', '#internal')).toEqual(unresolved);
  });

  it('reads each JSON file at most once and caches per directory', () => {
    resolver.resolve('src/other.ts', 'lodash');
    resolver.resolve('src/other.ts', 'react');
    expect(reads.length).toBe(new Set(reads).size);
    expect(reads).toContain('src/tsconfig.json');
    expect(reads).toContain('tsconfig.json');
  });
});

describe('workspaces known only through readJson', () => {
  it('finds workspace packages when the file list holds no package.json', () => {
    const { resolver } = memoryResolver(['packages/a/src/index.ts', 'packages/b/lib/main.js', 'app/main.ts'], {
      'package.json': { workspaces: { packages: ['packages/**'] } },
      'packages/a/package.json': { name: '@ws/a', exports: { '.': './src/index.ts' } },
      'packages/b/package.json': { name: 'b', main: 'lib/main.js' },
    });
    expect(resolver.resolve('app/main.ts', '@ws/a')).toEqual(internal('packages/a/src/index.ts'));
    expect(resolver.resolve('app/main.ts', 'b')).toEqual(internal('packages/b/lib/main.js'));
    expect(resolver.resolve('app/main.ts', '@ws/c')).toEqual(external('@ws/c'));
  });
});

describe('build output mapped back to sources', () => {
  it('maps a build at the package root to src/ (date-fns: `./add.js` is built from `src/add/index.ts`)', () => {
    const { resolver } = memoryResolver(['src/index.ts', 'src/add/index.ts', 'test/add.test.ts'], {
      'package.json': { name: 'datelib', exports: { '.': { import: './index.js' }, './add': { import: './add.js' }, './missing': './missing.js' } },
    });
    expect(resolver.resolve('test/add.test.ts', 'datelib/add')).toEqual(internal('src/add/index.ts'));
    expect(resolver.resolve('test/add.test.ts', 'datelib')).toEqual(internal('src/index.ts'));
    // A CommonJS build is built from the `.cts` source when there is one.
    const twins = memoryResolver(['src/index.ts', 'src/index.cts', 'src/index.mts'], {
      'package.json': { name: 'twins', exports: { '.': { require: './dist/index.cjs' } }, module: './dist/index.mjs' },
    }).resolver;
    expect(twins.resolvePackageTarget('', './dist/index.cjs')).toEqual(internal('src/index.cts'));
    expect(twins.resolvePackageTarget('', './dist/index.mjs')).toEqual(internal('src/index.mts'));
    expect(twins.resolvePackageTarget('', './dist/index.js')).toEqual(internal('src/index.ts'));
    // ky: `source/` is built into `distribution/` by a tsconfig the repository does not hold.
    const ky = memoryResolver(['source/index.ts', 'test/a.test.ts'], {
      'package.json': { name: 'ky', exports: { types: './distribution/index.d.ts', default: './distribution/index.js' } },
    }).resolver;
    expect(ky.resolve('test/a.test.ts', 'ky')).toEqual(internal('source/index.ts'));
    // A subpath whose build has no source stays unresolved.
    expect(resolver.resolve('test/add.test.ts', 'datelib/missing')).toEqual(unresolved);
  });

  it("maps a relative import of the package's own build output to its source (a test importing ../dist/index.js)", () => {
    const { resolver } = memoryResolver(['packages/a/src/index.ts', 'packages/a/src/util/x.ts', 'packages/a/test/a.test.ts', 'packages/a/package.json'], {
      'packages/a/package.json': { name: 'a', main: 'dist/index.js' },
    });
    expect(resolver.resolve('packages/a/test/a.test.ts', '../dist/index.js')).toEqual(internal('packages/a/src/index.ts'));
    expect(resolver.resolve('packages/a/test/a.test.ts', '../dist/esm/util/x.mjs')).toEqual(internal('packages/a/src/util/x.ts'));
    // Outside build output a missing relative file stays missing.
    expect(resolver.resolve('packages/a/test/a.test.ts', '../other/index.js')).toEqual(unresolved);
    expect(resolver.resolve('packages/a/test/a.test.ts', '../dist/missing.js')).toEqual(unresolved);
  });

  it('falls back to src/index for a main bundle named after the package (redux: `dist/redux.mjs` from `src/index.ts`)', () => {
    const { resolver } = memoryResolver(['src/index.ts', 'src/compose.ts', 'test/compose.test.ts'], {
      'package.json': { name: 'redux', main: 'dist/cjs/redux.cjs', exports: { '.': { import: './dist/redux.mjs' }, './sub': './dist/sub.mjs' } },
    });
    expect(resolver.resolve('test/compose.test.ts', 'redux')).toEqual(internal('src/index.ts'));
    // Only the main entry falls back: another subpath names its own bundle.
    expect(resolver.resolve('test/compose.test.ts', 'redux/sub')).toEqual(unresolved);
    const noIndex = memoryResolver(['src/main.ts', 'test/a.test.ts'], { 'package.json': { name: 'other', main: 'dist/other.js' } }).resolver;
    expect(noIndex.resolve('test/a.test.ts', 'other')).toEqual(unresolved);
  });
});

describe('a package importing itself by name without root workspaces (pnpm)', () => {
  it('resolves through the enclosing package.json of that name, a root-level build mapped to src/', () => {
    const { resolver } = memoryResolver(
      ['packages/zod/src/index.ts', 'packages/zod/src/v3/index.ts', 'packages/zod/src/v3/tests/a.test.ts', 'packages/other/a.ts'],
      {
        'package.json': { name: 'root', private: true },
        'packages/zod/package.json': { name: 'zod', exports: { './v3': { types: './v3/index.d.cts', import: './v3/index.js' } } },
        'packages/other/package.json': { name: 'other' },
      },
    );
    expect(resolver.resolve('packages/zod/src/v3/tests/a.test.ts', 'zod/v3')).toEqual(internal('packages/zod/src/v3/index.ts'));
    // Another package of the repository is not found without workspaces.
    expect(resolver.resolve('packages/other/a.ts', 'zod/v3')).toEqual(external('zod'));
  });
});

describe('# imports the package scope does not map', () => {
  it('fall back to tsconfig paths (msw: `#core/*` in tsconfig, nearest package.json `src/package.json` without imports)', () => {
    const { resolver } = memoryResolver(['src/core/compat.ts', 'src/node/setup.ts', 'src/package.json'], {
      'package.json': { name: 'msw', imports: { '#core/*': './src/core/*' } },
      'src/package.json': { type: 'module' },
      'tsconfig.json': { compilerOptions: { paths: { '#core/*': ['./src/core/*'] } } },
    });
    expect(resolver.resolve('src/node/setup.ts', '#core/compat')).toEqual(internal('src/core/compat.ts'));
    expect(resolver.resolve('src/node/setup.ts', '#core/missing')).toEqual(unresolved);
    expect(resolver.resolve('src/node/setup.ts', '#other')).toEqual(unresolved);
  });
});

describe('tsconfig paths fixture', () => {
  const resolver = fixtureResolver('tsconfig-paths');
  const from = 'src/app/main.ts';

  it('resolves paths patterns against baseUrl, through extends, trying targets in order', () => {
    expect(resolver.resolve(from, '@app/util')).toEqual(internal('src/app/util.ts'));
    expect(resolver.resolve(from, '@lib')).toEqual(internal('libs/lib/index.ts'));
    expect(resolver.resolve(from, 'shared/log')).toEqual(internal('src/shared/log.ts'));
    expect(resolver.resolve(from, 'src/app/util')).toEqual(internal('src/app/util.ts'));
  });

  it('falls through to packages when no path matches a file', () => {
    expect(resolver.resolve(from, 'lodash')).toEqual(external('lodash'));
    expect(resolver.resolve(from, 'shared/none')).toEqual(external('shared'));
    expect(resolver.resolve(from, '@scope/pkg/sub')).toEqual(external('@scope/pkg'));
    expect(resolver.resolve(from, './missing')).toEqual(unresolved);
  });

  it('anchors inherited-baseUrl paths at the baseUrl and config-only paths at their config', () => {
    expect(resolver.resolve('nested/src/entry.ts', '@n/helper')).toEqual(internal('nested/src/helper.ts'));
    // The nested config replaces `paths`, so the base config's `@app/*` no longer applies there.
    expect(resolver.resolve('nested/src/entry.ts', '@app/util')).toEqual(external('@app/util'));
    expect(resolver.resolve('standalone/src/a.ts', '@s/b')).toEqual(internal('standalone/src/b.ts'));
  });
});

describe('workspaces fixture', () => {
  const resolver = fixtureResolver('workspaces');
  const from = 'packages/app/src/index.ts';

  it('resolves workspace packages through exports maps, preferring sources', () => {
    expect(resolver.resolve(from, '@demo/core')).toEqual(internal('packages/core/src/index.ts'));
    expect(resolver.resolve(from, '@demo/core/utils/strings')).toEqual(internal('packages/core/src/utils/strings.ts'));
    expect(resolver.resolve(from, '@demo/core/feature')).toEqual(internal('packages/core/src/feature/index.ts'));
    expect(resolver.resolve(from, '@demo/core/package.json')).toEqual(internal('packages/core/package.json'));
  });

  it('refuses subpaths the exports map excludes or does not list', () => {
    expect(resolver.resolve(from, '@demo/core/internal/x')).toEqual(unresolved);
    expect(resolver.resolve(from, '@demo/core/not-exported')).toEqual(unresolved);
  });

  it('uses main fields without an exports map, mapping missing build output to sources', () => {
    expect(resolver.resolve(from, 'legacy')).toEqual(internal('packages/legacy/src/main.ts'));
    expect(resolver.resolve(from, 'legacy/src/extra')).toEqual(internal('packages/legacy/src/extra.ts'));
    // The build output is in the repository here, so it is what the import loads.
    expect(resolver.resolve(from, 'built')).toEqual(internal('packages/built/out/index.js'));
  });

  it('resolves `#` imports of the nearest package.json, to files or packages', () => {
    expect(resolver.resolve(from, '#config')).toEqual(internal('packages/app/src/config.ts'));
    expect(resolver.resolve(from, '#internal/db')).toEqual(internal('packages/app/src/internal/db.ts'));
    expect(resolver.resolve(from, '#dep')).toEqual(external('lodash'));
    expect(resolver.resolve(from, '#missing')).toEqual(unresolved);
  });

  it('leaves excluded workspace folders to the package registry', () => {
    expect(resolver.resolve(from, 'ignored-pkg')).toEqual(external('ignored-pkg'));
    // The root package can import itself by name, but this one has no entry point.
    expect(resolver.resolve(from, 'demo-root')).toEqual(unresolved);
  });
});

describe('package targets asked for directly', () => {
  /** A small deterministic generator, so that a failure names a reproducible case. */
  function random(seed: number) {
    let state = seed;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    return { pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)], chance: (p: number) => next() < p };
  }
  const dirs = ['a', 'a/b', 'b', 'src', 'src/a', 'lib', 'dist', 'build', 'source', 'dist/esm', ''];
  const stems = ['x', 'y', 'index', 'a', 'b'];
  const extensions = ['.ts', '.tsx', '.mts', '.d.ts', '.js', '.mjs'];
  const targets = [
    './dist/*.js',
    './dist/esm/*.mjs',
    './*.js',
    './a/*.js',
    './lib/*/index.js',
    './src/*',
    './build/*.d.ts',
    './dist/x.js',
    './build/a/index.mjs',
    './x.js',
    './lib/y.cjs',
    '#other',
    'node:fs',
    'lodash/fp',
    'inner/x',
  ];
  const matches = ['x', 'a/x', 'b', 'a/b/y', 'index', 'src/a/x', 'dist/x', 'y'];

  it('resolves as a # import of the package mapped to the target does, on 400 generated packages', () => {
    let internalCount = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const { pick, chance } = random(seed);
      const home = pick(['', 'pkg', 'packages/p']);
      const at = (path: string) => (home === '' ? path : `${home}/${path}`).replace(/\/$/, '');
      const files = new Set<string>();
      for (let n = 0; n < 12; n++) {
        const dir = pick(dirs);
        files.add(at(`${dir === '' ? '' : `${dir}/`}${pick(stems)}${pick(extensions)}`));
      }
      const json: Record<string, unknown> = {};
      if (chance(0.5)) json[at('tsconfig.json')] = { compilerOptions: { outDir: pick(['dist', 'build', 'lib']), rootDir: pick(['src', 'source', '.']) } };
      if (chance(0.3)) {
        files.add(at('a/package.json'));
        json[at('a/package.json')] = { main: pick(['./x.js', 'y', './b/index.js']) };
      }
      files.add('packages/inner/package.json');
      files.add('packages/inner/src/x.ts');
      json['packages/inner/package.json'] = { name: 'inner', exports: { './x': './dist/x.js' } };
      const manifest = { name: 'p', ...(chance(0.3) ? { imports: { '#own': './x.js' } } : {}) };
      files.add(at('package.json'));
      for (const target of targets) {
        const requests = target.includes('*') ? matches.map((m) => [`#t/${m}`, target.replaceAll('*', m)]) : [['#t', target]];
        const imports = { ...(manifest.imports ?? {}), [target.includes('*') ? '#t/*' : '#t']: target };
        const viaImport = createModuleResolver({ files, readJson: (path) => (path === at('package.json') ? { ...manifest, imports } : json[path]) });
        const direct = createModuleResolver({ files, readJson: (path) => (path === at('package.json') ? manifest : json[path]) });
        for (const [specifier, expanded] of requests) {
          const expected = viaImport.resolve(at('__request.ts'), specifier);
          expect(direct.resolvePackageTarget(home, expanded), `seed ${seed}: ${target} as ${expanded}`).toEqual(expected);
          if (expected.kind === 'internal') internalCount++;
        }
      }
    }
    // The generated cases reach files through the build-output mapping, not only misses.
    expect(internalCount).toBeGreaterThan(2000);
  });
});
