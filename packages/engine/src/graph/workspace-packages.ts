// Packages of the repository itself: the root package and the npm/yarn `workspaces` of the root
// package.json, found by name so that `import '@org/pkg/sub'` resolves to the package's sources.
//
// Build output is mapped back to sources: package entry points usually name `dist/x.js` or
// `dist/x.d.ts`, which are not in the repository (or not what we analyse). When such a target is
// missing, we look for the same relative path under the source root with a TS extension:
// first the package tsconfig's `outDir` → `rootDir` (rootDir defaulting to `src`), then, for any
// first directory (`dist`, `lib`, `build`, ...), the rest of the path under `src/` (or `source/`,
// `lib/`), dropping further leading directories one at a time (`dist/esm/x.js` → `src/esm/x`,
// `src/x`), and last
// the whole path under `src/` (date-fns publishes its build at the package root: `./add.js` →
// `src/add/index.ts`). A bundle named after the package (`dist/redux.mjs`, built by tsup from
// `src/index.ts`) has no source of its own name: the package's main entry (`.`) then falls back to
// the source root's index.
import { compileSafeRegExp, type SafeRegExp } from '../patterns/safe-regexp.js';
import { FileProbe, dirOf, isObject, joinPath, type ReadJson } from './file-probe.js';
import { DEFAULT_CONDITIONS, mapTargets } from './package-exports.js';
import { loadTsconfig } from './tsconfig-paths.js';

export interface WorkspacePackage {
  name: string;
  /** Repository-relative directory; `''` for the root package. */
  dir: string;
  manifest: Record<string, unknown>;
}

export function findWorkspacePackages(files: Iterable<string>, readJson: ReadJson): Map<string, WorkspacePackage> {
  const packages = new Map<string, WorkspacePackage>();
  const root = readJson('package.json');
  if (!isObject(root)) return packages;
  const field = root.workspaces;
  const patterns = Array.isArray(field) ? field : isObject(field) && Array.isArray(field.packages) ? field.packages : [];
  const inWorkspace = createWorkspaceMatcher(patterns);
  if (inWorkspace) {
    for (const dir of candidateDirectories(files)) {
      if (!inWorkspace(dir)) continue;
      const manifest = readJson(`${dir}/package.json`);
      if (isObject(manifest) && typeof manifest.name === 'string') packages.set(manifest.name, { name: manifest.name, dir, manifest });
    }
  }
  // Self-reference: a package may import its own name.
  if (typeof root.name === 'string' && !packages.has(root.name)) packages.set(root.name, { name: root.name, dir: '', manifest: root });
  return packages;
}

/** Directories with a package.json; every directory when the file list holds no package.json at all. */
function candidateDirectories(files: Iterable<string>): Set<string> {
  const manifests = new Set<string>();
  const all = new Set<string>();
  for (const file of files) {
    if (file.includes('node_modules/')) continue;
    if (file.endsWith('/package.json')) manifests.add(dirOf(file));
    for (let dir = dirOf(file); dir !== '' && !all.has(dir); dir = dirOf(dir)) all.add(dir);
  }
  return manifests.size > 0 ? manifests : all;
}

/**
 * Matches repository-relative directories against workspace globs (`packages/*`, `apps/**`,
 * `!packages/legacy`), as npm, yarn and pnpm read them. Undefined when no pattern includes anything.
 */
export function createWorkspaceMatcher(patterns: readonly unknown[]): ((dir: string) => boolean) | undefined {
  const globs = patterns.filter((p): p is string => typeof p === 'string');
  const include = globs.filter((g) => !g.startsWith('!')).map(globToRegExp);
  const exclude = globs.filter((g) => g.startsWith('!')).map((g) => globToRegExp(g.slice(1)));
  if (include.length === 0) return undefined;
  return (dir) => include.some((re) => re.test(dir)) && !exclude.some((re) => re.test(dir));
}

/** Workspace globs come from the repository's manifests: matched in linear time (`a*a*a*a*b` backtracks). */
function globToRegExp(glob: string): Pick<SafeRegExp, 'test'> {
  const clean = glob.trim().replace(/^\.\//, '').replace(/\/+$/, '');
  let source = '';
  for (let i = 0; i < clean.length; i++) {
    const c = clean[i];
    if (c === '*' && clean[i + 1] === '*') {
      source += '.*';
      i++;
      if (clean[i + 1] === '/') i++;
    } else if (c === '*') source += '[^/]*';
    else source += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  try {
    return compileSafeRegExp(`^${source}$`);
  } catch {
    // Too large for the matcher (tens of thousands of characters): it matches nothing.
    return { test: () => false };
  }
}

/** Splits a bare specifier into package name and subpath (`@a/b/c` → `@a/b`, `./c`). */
export function splitPackageSpecifier(specifier: string): { name: string; subpath: string } {
  const parts = specifier.split('/');
  const length = specifier.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, length).join('/');
  const rest = parts.slice(length).join('/');
  return { name, subpath: rest ? `./${rest}` : '.' };
}

const MAIN_FIELDS = ['source', 'types', 'typings', 'module', 'main'];
/** Where sources live when the tsconfig does not say (its `extends` may be a package not installed: ky's `@sindresorhus/tsconfig` builds `source/` into `distribution/`). */
const SOURCE_ROOTS = ['src', 'source', 'lib'];
/** The first directory of build output. */
const BUILD_DIR = /^(?:dist|build|out|lib|esm|cjs|es|bundle|types|distribution)\//;
const BUILD_EXTENSION = /(\.d\.[mc]?ts|\.[mc]?[jt]sx?)$/;

export class WorkspaceResolver {
  /** The tsconfig's `outDir` and `rootDir` of each package directory, relative to it: read once, not per target. */
  private readonly buildRoots = new Map<string, { outDir?: string; rootDir: string }>();

  constructor(
    private readonly probe: FileProbe,
    private readonly readJson: ReadJson,
    private readonly conditions: readonly string[] = DEFAULT_CONDITIONS,
  ) {}

  /** Resolves `subpath` (`.` or `./x`) of a workspace package to a repository file. */
  resolve(pkg: WorkspacePackage, subpath: string): string | undefined {
    const { manifest, dir } = pkg;
    if (manifest.exports !== undefined) {
      const targets = mapTargets(manifest.exports, subpath, this.conditions);
      for (const target of targets) {
        const found = this.resolveTarget(pkg, joinPath(dir, target));
        if (found) return found;
      }
      return subpath === '.' && targets.length > 0 ? this.sourceIndex(pkg) : undefined;
    }
    if (subpath !== '.') return this.resolveTarget(pkg, joinPath(dir, subpath));
    for (const field of MAIN_FIELDS) {
      const entry = manifest[field];
      if (typeof entry !== 'string') continue;
      const found = this.resolveTarget(pkg, joinPath(dir, entry));
      if (found) return found;
    }
    return this.probe.resolve(dir) ?? this.sourceIndex(pkg);
  }

  /**
   * The source root's index (`src/index.ts`) of a package whose main entry names build output
   * that nothing in the repository maps to: what the bundler was given (tsup/rollup entries are
   * conventionally `src/index.ts`, whatever the bundle's name).
   */
  sourceIndex(pkg: WorkspacePackage): string | undefined {
    const { rootDir } = this.buildRootsOf(pkg.dir);
    const found = this.probe.resolve(joinPath(pkg.dir, `${rootDir}/index`));
    return found && !/\.d\.[mc]?ts$/.test(found) ? found : undefined;
  }

  /** A target path of the package, or the source it was built from when the target is missing. */
  resolveTarget(pkg: WorkspacePackage, target: string): string | undefined {
    return this.probe.resolve(target) ?? this.sourceOfBuildOutput(pkg, target);
  }

  private sourceOfBuildOutput(pkg: WorkspacePackage, target: string): string | undefined {
    const prefix = pkg.dir === '' ? '' : `${pkg.dir}/`;
    if (!target.startsWith(prefix)) return undefined;
    const relative = target.slice(prefix.length).replace(BUILD_EXTENSION, '');
    // `index.cjs` is built from `index.cts` when there is one (zshy and tsup keep both formats' sources).
    const twin = /\.(?:d\.)?cts$|\.cjs$/.test(target) ? '.cts' : /\.(?:d\.)?mts$|\.mjs$/.test(target) ? '.mts' : undefined;
    for (const candidate of this.sourceCandidates(pkg, relative)) {
      const found = (twin && this.probe.resolve(prefix + candidate + twin)) || this.probe.resolve(prefix + candidate);
      if (found && !found.endsWith('.d.ts')) return found;
    }
    return undefined;
  }

  private sourceCandidates(pkg: WorkspacePackage, relative: string): string[] {
    const out: string[] = [];
    const { outDir, rootDir } = this.buildRootsOf(pkg.dir);
    if (outDir && relative.startsWith(`${outDir}/`)) out.push(joinPath(rootDir, relative.slice(outDir.length + 1)));
    // Built at the package root (`./v3/index.js` from `src/v3/index.ts`): the whole path first, before
    // a shorter tail (`src/index.ts`) matches by accident.
    if (!BUILD_DIR.test(relative) && !relative.startsWith('src/')) out.push(`src/${relative}`);
    // The rest of the path after each of its directories: `a/b/c` → `src/b/c`, `src/c`.
    for (let slash = relative.indexOf('/'); slash >= 0; slash = relative.indexOf('/', slash + 1)) {
      for (const root of SOURCE_ROOTS) if (!relative.startsWith(`${root}/`)) out.push(`${root}/${relative.slice(slash + 1)}`);
    }
    if (BUILD_DIR.test(relative)) out.push(`src/${relative}`);
    return out;
  }

  private buildRootsOf(dir: string): { outDir?: string; rootDir: string } {
    let roots = this.buildRoots.get(dir);
    if (!roots) {
      const config = loadTsconfig(joinPath(dir, 'tsconfig.json'), this.readJson);
      const prefix = dir === '' ? '' : `${dir}/`;
      const strip = (p: string | undefined): string | undefined => (p !== undefined && p.startsWith(prefix) ? p.slice(prefix.length) : p);
      roots = { outDir: strip(config?.outDir), rootDir: strip(config?.rootDir) ?? 'src' };
      this.buildRoots.set(dir, roots);
    }
    return roots;
  }
}
