// Resolves import specifiers to repository files, external packages or nothing, over a known set
// of repository files. Order, as TypeScript with Node-style packages: relative paths; `#` package
// imports; `node:`; tsconfig `paths`, then `baseUrl`; Node builtins; workspace packages; anything
// else is an external package. Results are cached per importing directory.
import { builtinModules } from 'node:module';
import { FileProbe, dirOf, isObject, joinPath, type ReadJson } from './file-probe.js';
import { DEFAULT_CONDITIONS, mapTargets } from './package-exports.js';
import { loadTsconfig, pathsCandidates, type TsconfigPaths } from './tsconfig-paths.js';
import { WorkspaceResolver, findWorkspacePackages, splitPackageSpecifier, type WorkspacePackage } from './workspace-packages.js';

export type Resolution = { kind: 'internal'; path: string } | { kind: 'external'; packageName: string } | { kind: 'unresolved' };

export interface ModuleResolver {
  /** `from` is the repository-relative path of the importing file. */
  resolve(from: string, specifier: string): Resolution;
}

/** The repository's resolver: imports, and package targets asked for directly. */
export interface RepositoryModuleResolver extends ModuleResolver {
  /**
   * What a `#` import of the package.json in `packageDir` resolves to when its `imports` map it to
   * `target` (`./dist/x.js`: that file, or the source it is built from; a bare target: that
   * package), without a manifest that holds the mapping.
   */
  resolvePackageTarget(packageDir: string, target: string): Resolution;
}

export interface ModuleResolverOptions {
  /** Every file of the repository, repository-relative with `/` separators. */
  files: Iterable<string>;
  /**
   * Reads a JSON file (tsconfig.json, jsconfig.json, package.json) by repository-relative path;
   * undefined when it does not exist or does not parse. tsconfig files may hold comments: use
   * `parseJsonc`. Called at most once per path.
   */
  readJson: ReadJson;
  /** package.json export conditions in order of preference. */
  conditions?: readonly string[];
}

const BUILTINS = new Set(builtinModules);
const UNRESOLVED: Resolution = { kind: 'unresolved' };
// npm names cannot start with `~`, `.` or `_`, nor have an empty scope: `~/x` and `@/x` are aliases.
const PACKAGE_NAME = /^(?:@[A-Za-z0-9][\w.-]*\/)?[A-Za-z0-9][\w.-]*$/;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** The first directory of a package's build output. */
const BUILD_DIR = /^(?:dist|build|out|lib|esm|cjs|es|bundle|types)\//;

export function createModuleResolver(options: ModuleResolverOptions): RepositoryModuleResolver {
  return new RepositoryResolver(options);
}

class RepositoryResolver implements RepositoryModuleResolver {
  private readonly probe: FileProbe;
  private readonly readJson: ReadJson;
  private readonly workspaces: Map<string, WorkspacePackage>;
  private readonly workspaceResolver: WorkspaceResolver;
  private readonly conditions: readonly string[];
  private readonly cache = new Map<string, Map<string, Resolution>>();
  private readonly tsconfigByDir = new Map<string, TsconfigPaths | null>();
  private readonly manifestByDir = new Map<string, Record<string, unknown> | null>();

  constructor(options: ModuleResolverOptions) {
    const files = new Set<string>();
    for (const file of options.files) files.add(file);
    const jsonCache = new Map<string, unknown>();
    this.readJson = (path) => {
      if (!jsonCache.has(path)) jsonCache.set(path, options.readJson(path));
      return jsonCache.get(path);
    };
    this.conditions = options.conditions ?? DEFAULT_CONDITIONS;
    this.probe = new FileProbe(files, this.readJson);
    this.workspaces = findWorkspacePackages(files, this.readJson);
    this.workspaceResolver = new WorkspaceResolver(this.probe, this.readJson, this.conditions);
  }

  resolve(from: string, specifier: string): Resolution {
    const dir = dirOf(from);
    // By directory, then specifier: no `dir\0specifier` key to build and hash per import.
    let byDir = this.cache.get(dir);
    if (!byDir) this.cache.set(dir, (byDir = new Map()));
    let result = byDir.get(specifier);
    if (!result) {
      result = this.resolveUncached(dir, specifier);
      byDir.set(specifier, result);
    }
    return result;
  }

  private resolveUncached(dir: string, specifier: string): Resolution {
    if (specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..') {
      const path = joinPath(dir, specifier);
      return internal(this.probe.resolve(path) ?? this.sourceOfBuildPath(path));
    }
    if (specifier.startsWith('/')) return internal(this.probe.resolve(joinPath('', specifier.slice(1))));
    if (specifier.startsWith('#')) {
      // A `#` import the package scope does not map may still be a tsconfig `paths` alias (msw maps
      // `#core/*` in both, and its nearest package.json, `src/package.json`, only sets the type).
      const resolution = this.resolvePackageImport(dir, specifier);
      if (resolution.kind !== 'unresolved') return resolution;
      const config = this.tsconfigFor(dir);
      for (const candidate of (config && pathsCandidates(config, specifier)) ?? []) {
        const found = this.probe.resolve(candidate);
        if (found) return internal(found);
      }
      return resolution;
    }
    if (specifier.startsWith('node:')) return { kind: 'external', packageName: specifier };
    if (URL_SCHEME.test(specifier)) return { kind: 'external', packageName: specifier };
    const config = this.tsconfigFor(dir);
    if (config) {
      for (const candidate of pathsCandidates(config, specifier) ?? []) {
        const found = this.probe.resolve(candidate);
        if (found) return internal(found);
      }
      if (config.baseUrl !== undefined) {
        const found = this.probe.resolve(joinPath(config.baseUrl, specifier));
        if (found) return internal(found);
      }
    }
    return this.resolveBare(specifier, dir);
  }

  private resolveBare(specifier: string, dir?: string): Resolution {
    const { name, subpath } = splitPackageSpecifier(specifier);
    if (BUILTINS.has(specifier) || (BUILTINS.has(name) && !name.startsWith('@'))) {
      return { kind: 'external', packageName: `node:${BUILTINS.has(specifier) ? specifier : name}` };
    }
    const pkg = this.workspaces.get(name) ?? (dir === undefined ? undefined : this.enclosingPackage(dir, name));
    if (pkg) return internal(this.workspaceResolver.resolve(pkg, subpath));
    return PACKAGE_NAME.test(name) ? { kind: 'external', packageName: name } : UNRESOLVED;
  }

  /** `#x` subpath imports of the nearest package.json; targets may be paths or other packages. */
  private resolvePackageImport(dir: string, specifier: string): Resolution {
    const scope = this.nearestManifest(dir);
    if (!scope) return UNRESOLVED;
    for (const target of mapTargets(scope.manifest.imports, specifier, this.conditions)) {
      const resolution = this.resolveTargetOf(scope, target);
      if (resolution) return resolution;
    }
    return UNRESOLVED;
  }

  /**
   * A relative import of the package's own build output that is not in the repository (a test
   * importing `../dist/index.js`, a bin shim importing `../lib/cli.js`): the source it is built
   * from, as the package's entry points are mapped (workspace-packages.ts).
   */
  private sourceOfBuildPath(path: string): string | undefined {
    const scope = this.nearestManifest(dirOf(path));
    if (!scope) return undefined;
    const relative = scope.dir === '' ? path : path.slice(scope.dir.length + 1);
    if (!BUILD_DIR.test(relative)) return undefined;
    return this.workspaceResolver.resolveTarget({ name: '', dir: scope.dir, manifest: scope.manifest }, path);
  }

  /**
   * A package importing itself by name (`import * as z from 'zod/v3'` in zod's own tests) when the
   * workspaces are not listed in the root package.json (pnpm's pnpm-workspace.yaml): the nearest
   * enclosing package.json of that name.
   */
  private enclosingPackage(dir: string, name: string): WorkspacePackage | undefined {
    for (let d: string | undefined = dir; d !== undefined; d = d === '' ? undefined : dirOf(d)) {
      const scope = this.nearestManifest(d);
      if (!scope) return undefined;
      if (scope.manifest.name === name) return { name, dir: scope.dir, manifest: scope.manifest };
      d = scope.dir;
    }
    return undefined;
  }

  resolvePackageTarget(packageDir: string, target: string): Resolution {
    return this.resolveTargetOf({ dir: packageDir, manifest: this.nearestManifest(packageDir)?.manifest ?? {} }, target) ?? UNRESOLVED;
  }

  /** One target of an `imports` entry: undefined to try the next one. */
  private resolveTargetOf(scope: { dir: string; manifest: Record<string, unknown> }, target: string): Resolution | undefined {
    if (target.startsWith('./')) {
      const found = this.workspaceResolver.resolveTarget({ name: '', dir: scope.dir, manifest: scope.manifest }, joinPath(scope.dir, target));
      return found ? internal(found) : undefined;
    }
    return target.startsWith('#') ? undefined : this.resolveBare(target);
  }

  private tsconfigFor(dir: string): TsconfigPaths | undefined {
    const cached = this.tsconfigByDir.get(dir);
    if (cached !== undefined) return cached ?? undefined;
    const prefix = dir === '' ? '' : `${dir}/`;
    let config = loadTsconfig(`${prefix}tsconfig.json`, this.readJson) ?? loadTsconfig(`${prefix}jsconfig.json`, this.readJson);
    if (!config && dir !== '') config = this.tsconfigFor(dirOf(dir));
    this.tsconfigByDir.set(dir, config ?? null);
    return config;
  }

  private nearestManifest(dir: string): { dir: string; manifest: Record<string, unknown> } | undefined {
    for (let d: string | undefined = dir; d !== undefined; d = d === '' ? undefined : dirOf(d)) {
      let manifest = this.manifestByDir.get(d);
      if (manifest === undefined) {
        const json = this.readJson(d === '' ? 'package.json' : `${d}/package.json`);
        manifest = isObject(json) ? json : null;
        this.manifestByDir.set(d, manifest);
      }
      if (manifest) return { dir: d, manifest };
    }
    return undefined;
  }
}

function internal(path: string | undefined): Resolution {
  return path === undefined ? UNRESOLVED : { kind: 'internal', path };
}
