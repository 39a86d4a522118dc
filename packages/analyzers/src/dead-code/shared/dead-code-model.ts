// What the dead-code rules share, computed once per run: entry points, the code graph with entry
// usage, and the modules reachable from entries, tests and the files of other roles.
//
// The engine's graph is built without entries, and the mapping of `dist/x.js` back to `src/x.ts`
// is internal to the engine. So the model resolves the entry requests with the engine's own
// repository resolver (`createRepositoryResolver`, what `buildRepositoryGraph` uses), as imports of
// one synthetic module per directory (`*` for whole entries, the read names for framework files):
// the engine resolves them exactly as it resolves real imports. Package targets are resolved as a
// `#` subpath import of their package mapped to them would be (`resolvePackageTarget`), because
// such targets get the engine's build-output-to-source mapping. The model's graph is then the
// engine's graph plus one module that imports what the requests use, so that `usedExports` follows
// entries through re-exports and `export *`.
//
// A derived run (a pull request's head) reuses the entries and loads its base run saved when no
// file was added, deleted or renamed and no file that entries are read from changed: only the
// changed files' loads are resolved again (model-state.ts).
import {
  createRepositoryResolver,
  extendCodeGraph,
  roleOfFile,
  type CodeGraph,
  type FileSummary,
  type ModuleResolver,
  type RepositoryRuleContext,
  type RepoSnapshot,
} from '@codehealth/engine/kit';
import { collectEntryRequests, readManifests, type EntryRequest, type EntryRequests } from './entry-requests.js';
import { filesFingerprint, modelState, reusableState, type ModelState, type Use } from './model-state.js';

export interface DeadCodeModel {
  graph: CodeGraph;
  /** Entry modules and why each is one (the first reason found). */
  entries: Map<string, string>;
  /** Modules reachable from entries and tests, following imports of every kind and non-import loads. */
  reachable: Set<string>;
  /** Real modules that import or load `path`. */
  importersOf(path: string): string[];
  /** Whether the file is imported through a specifier that did not resolve and ends like its name. */
  maybeImportedUnresolved(path: string): boolean;
  /**
   * The name of the published package (named, not `private`, no `exports` map) the file belongs to:
   * its consumers may deep-import any file (`ajv/dist/jtd`), so nothing in it is surely unused.
   */
  deepImportablePackage(path: string): string | undefined;
  /** The directory of the package the file belongs to (`''` for the root package), if any. */
  packageOf(path: string): string | undefined;
  /** Package directories with at least one entry point found (manifest, config, HTML, convention). */
  packagesWithEntries: ReadonlySet<string>;
}

export interface ModelOptions {
  entries: readonly string[];
}

const SYNTHETIC_NAME = '__codehealth_dead_code_entries__.ts';
const cache = new WeakMap<readonly FileSummary[], Map<string, Promise<DeadCodeModel>>>();

/**
 * The model of this run; both repository rules ask, it is built once per set of options by the
 * first that asks, with that rule's state (its `previous` on a derived run, `saveState` otherwise).
 */
export function deadCodeModel(context: RepositoryRuleContext<unknown>, options: ModelOptions): Promise<DeadCodeModel> {
  let byOptions = cache.get(context.summaries);
  if (!byOptions) cache.set(context.summaries, (byOptions = new Map()));
  const key = JSON.stringify(options.entries);
  let model = byOptions.get(key);
  if (!model) byOptions.set(key, (model = buildModel(context, options, key)));
  return model;
}

/** Entries, loads and uses of the entry requests, resolved. */
interface ResolvedRequests {
  entries: Map<string, string>;
  entryUses: Use[];
  loads: ModelState['loads'];
}

async function buildModel(context: RepositoryRuleContext<unknown>, options: ModelOptions, key: string): Promise<DeadCodeModel> {
  const { snapshot, summaries, graph: base } = context;
  const unresolved = base.edges.filter((e) => e.resolution === 'unresolved');
  // Relative imports that found no module, or only build output: candidates for the source mapping.
  const relativeMisses = base.edges.filter(
    (e) => (e.specifier.startsWith('./') || e.specifier.startsWith('../')) && (e.to === undefined || !base.modules.has(e.to)),
  );
  const files = filesFingerprint(snapshot, summaries);
  const saved = context.previous && reusableState(context.previous, snapshot, key, files);
  const manifests = await readManifests(snapshot);
  const isImported = (path: string) => (base.modules.get(path)?.importedBy.length ?? 0) > 0;
  let resolved: ResolvedRequests;
  if (saved && context.previous) {
    // Only the changed files' loads can differ from the saved run's.
    const changed = context.previous.changedPaths;
    const fresh = await resolveRequests(
      snapshot,
      base,
      await collectEntryRequests(
        snapshot,
        summaries,
        relativeMisses.filter((e) => changed.has(e.from)),
        options.entries,
        manifests,
        changed,
        isImported,
      ),
    );
    const loads = saved.loads.filter(([from]) => !changed.has(from));
    context.progress(`Dead code: the base run's entries reused; the loads of ${changed.size} changed files resolved again`);
    resolved = { entries: new Map(saved.entries), entryUses: saved.entryUses, loads: [...loads, ...fresh.loads] };
  } else {
    resolved = await resolveRequests(
      snapshot,
      base,
      await collectEntryRequests(snapshot, summaries, relativeMisses, options.entries, manifests, undefined, isImported),
    );
  }
  context.saveState?.(modelState(key, files, resolved.entries, resolved.entryUses, resolved.loads));

  const { entries } = resolved;
  const loads = new Map<string, Set<string>>();
  for (const [from, targets] of resolved.loads) if (targets.length > 0) loads.set(from, new Set(targets));
  const graph = withUses(base, [...resolved.entryUses, ...resolved.loads.flatMap(([, , uses]) => uses)]);
  // Tests and every file outside the product (benchmarks, examples, documentation sites, scripts,
  // fixtures) are run by someone, not imported: they are roots, like entry points.
  const roots = [...entries.keys(), ...summaries.filter((s) => !s.skipped && roleOfFile(s) !== 'production').map((s) => s.path)];
  const reachable = reach(graph, roots, loads);
  const loadedBy = new Map<string, string[]>();
  for (const [from, targets] of loads) for (const to of targets) loadedBy.set(to, [...(loadedBy.get(to) ?? []), from]);
  const stems = new Set(unresolved.filter((e) => !relativeMisses.includes(e)).map((e) => stemOf(e.specifier)));

  const packageDirs = [...manifests.keys()].sort((a, b) => b.length - a.length);
  const packageOf = (path: string) => packageDirs.find((d) => d === '' || path.startsWith(`${d}/`));
  const packagesWithEntries = new Set<string>();
  for (const entry of entries.keys()) {
    const dir = packageOf(entry);
    if (dir !== undefined) packagesWithEntries.add(dir);
  }
  return {
    packageOf,
    packagesWithEntries,
    graph,
    entries,
    reachable,
    importersOf: (path) => {
      const importers = (graph.modules.get(path)?.importedBy ?? []).filter((p) => p !== SYNTHETIC_NAME);
      return [...new Set([...importers, ...(loadedBy.get(path) ?? [])])].sort();
    },
    deepImportablePackage: (path) => {
      const dir = packageDirs.find((d) => d === '' || path.startsWith(`${d}/`));
      const manifest = dir === undefined ? undefined : manifests.get(dir);
      if (!manifest || typeof manifest.name !== 'string' || manifest.private === true || manifest.exports !== undefined) return undefined;
      return manifest.name;
    },
    maybeImportedUnresolved: (path) => stems.has(stemOf(path)) || (stemOf(path) === 'index' && stems.has(stemOf(path.slice(0, path.lastIndexOf('/'))))),
  };
}

/**
 * Resolves the requests with the resolver the engine's own `buildRepositoryGraph` uses, from one
 * synthetic module per directory: the engine resolves them exactly as it resolves real imports
 * (the graph of those modules held nothing else than these resolutions). Every request that
 * reaches a module is a use (its names count as imported, even when a filter below keeps it from
 * being an entry or a load), except a guess whose target was found; the filters decide entries
 * (first reason found) and loads.
 */
async function resolveRequests(snapshot: RepoSnapshot, base: CodeGraph, requests: EntryRequests): Promise<ResolvedRequests> {
  const entries = new Map<string, string>();
  const entryUses = new Map<string, Set<string>>();
  const loads = new Map<string, { targets: Set<string>; uses: Map<string, Set<string>> }>();
  if (requests.byDir.size === 0) return { entries, entryUses: [], loads: [] };
  const resolver = await createRepositoryResolver(withoutBuildOutput(snapshot));
  const resolved: Array<{ request: EntryRequest; to: string }> = [];
  const resolvedKeys = new Set<string>();
  for (const [dir, list] of requests.byDir) {
    const path = dir === '' ? SYNTHETIC_NAME : `${dir}/${SYNTHETIC_NAME}`;
    for (const request of list) {
      const resolution =
        request.packageTarget === undefined ? resolver.resolve(path, request.specifier) : resolver.resolvePackageTarget(dir, request.packageTarget);
      if (resolution.kind !== 'internal' || !base.modules.has(resolution.path)) continue;
      resolved.push({ request, to: resolution.path });
      resolvedKeys.add(request.specifier);
    }
  }
  for (const { request, to } of resolved) {
    const { origin, mustEndWith, fallbackFor, names } = request;
    // A guess is nothing when the target it stands in for was found.
    if (fallbackFor !== undefined && resolvedKeys.has(fallbackFor)) continue;
    let load = origin.type === 'load' ? loads.get(origin.from) : undefined;
    if (origin.type === 'load' && !load) loads.set(origin.from, (load = { targets: new Set(), uses: new Map() }));
    addUse(load ? load.uses : entryUses, to, names);
    if (mustEndWith !== undefined && !to.replace(/\.[^./]+$/, '').endsWith(mustEndWith)) continue;
    if (origin.type === 'entry') {
      if (!entries.has(to)) entries.set(to, origin.reason);
    } else if (origin.from !== to) {
      load!.targets.add(to);
    }
  }
  const usesOf = (uses: Map<string, Set<string>>): Use[] => [...uses].map(([to, names]) => [to, [...names]]);
  return {
    entries,
    entryUses: usesOf(entryUses),
    loads: [...loads].map(([from, { targets, uses }]) => [from, [...targets], usesOf(uses)]),
  };
}

function addUse(uses: Map<string, Set<string>>, to: string, names: readonly string[]): void {
  const set = uses.get(to);
  if (set) for (const name of names) set.add(name);
  else uses.set(to, new Set(names));
}

/**
 * The engine's graph plus one synthetic module that imports every use, so that `usedExports`
 * follows entries and loads through re-exports and `export *`. Real modules keep the engine's
 * nodes and resolutions: the graph is extended, not rebuilt (a rebuild over every module cost
 * more than the rules reading it), and the engine's graph is left as other rules read it.
 */
function withUses(base: CodeGraph, uses: readonly Use[]): CodeGraph {
  const imports = uses.map(([, names], i) => ({ specifier: String(i), kind: 'static' as const, names, line: i + 1 }));
  const synthetic = { path: SYNTHETIC_NAME, facts: { imports, exports: [], symbols: [], commonJs: false } };
  const resolver: ModuleResolver = { resolve: (_from, specifier) => ({ kind: 'internal', path: uses[Number(specifier)][0] }) };
  return extendCodeGraph(base, [synthetic], resolver);
}

function reach(graph: CodeGraph, roots: string[], loads: Map<string, Set<string>>): Set<string> {
  const seen = new Set(roots);
  const queue = [...seen];
  const visit = (to: string | undefined): void => {
    if (to === undefined || seen.has(to) || !graph.modules.has(to)) return;
    seen.add(to);
    queue.push(to);
  };
  for (let i = 0; i < queue.length; i++) {
    for (const edge of graph.modules.get(queue[i])?.imports ?? []) visit(edge.to);
    for (const to of loads.get(queue[i]) ?? []) visit(to);
  }
  return seen;
}

/**
 * The snapshot as the resolver reads it: build output is hidden, so that a target in `dist/` that
 * happens to exist (a published package, a committed build) is mapped back to its source like one
 * that does not.
 */
function withoutBuildOutput(snapshot: RepoSnapshot): RepoSnapshot {
  return {
    root: snapshot.root,
    files: snapshot.files.filter((f) => f.kind !== 'generated'),
    readFile: (path) => snapshot.readFile(path),
    git: () => snapshot.git(),
  };
}

function stemOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.replace(/\.[^.]*$/, '').replace(/\.d$/, '');
}
