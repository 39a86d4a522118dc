// What the importing file could not choose, so that it is not a deviation: the module system Node
// gives a `.js` file from its package.json, the extension style of the file's own package, and a
// binding style forced by what the imported module exports.
import type { FileSummary, RepositoryRuleContext } from '@codehealth/engine/kit';

export interface PackageRoot {
  /** Directory of the package.json, '' for the repository root. */
  dir: string;
  /** `"type": "module"`: Node runs its `.js` files as ES modules, else as CommonJS. */
  esm: boolean;
}

const rootsBySnapshot = new WeakMap<object, Promise<PackageRoot[]>>();

/** The repository's package roots, deepest first. */
export function packageRoots(context: RepositoryRuleContext<unknown>): Promise<PackageRoot[]> {
  // A context built from summaries alone (a rerun over kept summaries in tests) has no files to read.
  if (!context.snapshot) return Promise.resolve([]);
  let roots = rootsBySnapshot.get(context.snapshot);
  if (!roots) rootsBySnapshot.set(context.snapshot, (roots = readRoots(context)));
  return roots;
}

async function readRoots(context: RepositoryRuleContext<unknown>): Promise<PackageRoot[]> {
  const manifests = context.snapshot.files.filter((f) => (f.path === 'package.json' || f.path.endsWith('/package.json')) && !f.path.includes('node_modules/'));
  const roots: PackageRoot[] = [];
  for (const manifest of manifests) {
    let esm = false;
    try {
      esm = (JSON.parse(await context.snapshot.readFile(manifest.path)) as { type?: unknown }).type === 'module';
    } catch {
      // An unreadable manifest says nothing about the module system: CommonJS, Node's default.
    }
    roots.push({ dir: manifest.path.slice(0, Math.max(0, manifest.path.length - '/package.json'.length)), esm });
  }
  return roots.sort((a, b) => b.dir.length - a.dir.length);
}

export function packageOf(path: string, roots: readonly PackageRoot[]): PackageRoot | undefined {
  return roots.find((root) => root.dir === '' || path.startsWith(`${root.dir}/`));
}

const SOURCE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const WRITTEN_EXTENSION = /\.(?:[cm]?[jt]s|[jt]sx)$/;

function normalise(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

/** The summary of the repository module a relative specifier names, when the run has it. */
export function resolveLocal(from: string, specifier: string, byPath: ReadonlyMap<string, FileSummary>): FileSummary | undefined {
  const base = normalise(`${from.slice(0, from.lastIndexOf('/') + 1)}${specifier}`);
  const stem = base.replace(WRITTEN_EXTENSION, '');
  const candidates = [base, ...SOURCE_EXTENSIONS.map((ext) => `${stem}${ext}`), ...SOURCE_EXTENSIONS.map((ext) => `${base}${base ? '/' : ''}index${ext}`)];
  for (const candidate of candidates) {
    const found = byPath.get(candidate);
    if (found) return found;
  }
  return undefined;
}

/**
 * The only binding a module offers its importers: `default` when it has a default export and no
 * named value exports, `named` for the reverse; undefined when it offers both (or neither).
 */
export function onlyBinding(target: FileSummary): 'default' | 'named' | undefined {
  const { exports, imports } = target.module;
  const hasDefault = exports.some((e) => e.name === 'default');
  const hasNamed =
    exports.some((e) => e.name !== 'default' && !e.typeOnly && e.kind !== 'type' && e.kind !== 'interface') ||
    imports.some((i) => i.kind === 're-export-all' && !i.typeOnly);
  if (hasDefault === hasNamed) return undefined;
  return hasDefault ? 'default' : 'named';
}
