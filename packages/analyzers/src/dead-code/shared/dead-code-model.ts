// What the dead-code rules share, computed once per run: entry points, the code graph with entry
// usage, and the modules reachable from entries and tests.
//
// The engine's graph is built without entries, and the resolver that maps `dist/x.js` back to
// `src/x.ts` is internal to the engine. So the model rebuilds the graph through the engine's own
// `buildRepositoryGraph` with one synthetic module per directory that imports every entry request
// (`* ` for whole entries, the read names for framework files): the engine then resolves them
// exactly as it resolves real imports, and `usedExports` follows entries through re-exports and
// `export *`. Package targets go through `#` subpath imports added to the package.json as the
// graph reads it, because `#` targets get the engine's build-output-to-source mapping.
import {
  buildCodeGraph,
  buildRepositoryGraph,
  type CodeGraph,
  type FileSummary,
  type ImportEdge,
  type ModuleResolver,
  type RepositoryRuleContext,
  type RepoSnapshot,
  type Resolution,
} from '@codehealth/engine';
import { collectEntryRequests, type EntryRequest } from './entry-requests.js';

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
}

export interface ModelOptions {
  entries: readonly string[];
}

const SYNTHETIC_NAME = '__codehealth_dead_code_entries__.ts';
const cache = new WeakMap<readonly FileSummary[], Map<string, Promise<DeadCodeModel>>>();

/** The model of this run; both repository rules ask, it is built once per set of options. */
export function deadCodeModel(context: RepositoryRuleContext<unknown>, options: ModelOptions): Promise<DeadCodeModel> {
  let byOptions = cache.get(context.summaries);
  if (!byOptions) cache.set(context.summaries, (byOptions = new Map()));
  const key = JSON.stringify(options.entries);
  let model = byOptions.get(key);
  if (!model) byOptions.set(key, (model = buildModel(context.snapshot, context.summaries, context.graph, options)));
  return model;
}

async function buildModel(snapshot: RepoSnapshot, summaries: readonly FileSummary[], base: CodeGraph, options: ModelOptions): Promise<DeadCodeModel> {
  const unresolved = base.edges.filter((e) => e.resolution === 'unresolved');
  // Relative imports that found no module, or only build output: candidates for the source mapping.
  const relativeMisses = base.edges.filter(
    (e) => (e.specifier.startsWith('./') || e.specifier.startsWith('../')) && (e.to === undefined || !base.modules.has(e.to)),
  );
  const requests = await collectEntryRequests(snapshot, summaries, relativeMisses, options.entries);

  const synthetic = new Map<string, EntryRequest[]>();
  const syntheticSummaries: FileSummary[] = [];
  for (const [dir, list] of requests.byDir) {
    const path = dir === '' ? SYNTHETIC_NAME : `${dir}/${SYNTHETIC_NAME}`;
    synthetic.set(path, list);
    syntheticSummaries.push(syntheticSummary(path, list));
  }
  // Only the synthetic modules need resolving: real imports keep the resolutions of the engine's graph.
  const patched = withManifestImports(snapshot, requests.manifestImports, requests.manifests);
  const resolved = await buildRepositoryGraph(patched, syntheticSummaries);
  const inputs = [...base.modules.keys()].map((path) => summaryByPath(summaries).get(path)).filter((s) => s !== undefined);
  const graph = buildCodeGraph(
    [...inputs, ...syntheticSummaries].map((s) => ({ path: s.path, facts: s.module })),
    knownResolutions([...base.edges, ...resolved.edges]),
  );

  const entries = new Map<string, string>();
  const loads = new Map<string, Set<string>>();
  const resolvedKeys = new Set<string>();
  for (const [path, list] of synthetic) {
    for (const edge of graph.modules.get(path)?.imports ?? []) if (edge.to !== undefined && graph.modules.has(edge.to)) resolvedKeys.add(list[edge.line - 1].specifier);
  }
  for (const [path, list] of synthetic) {
    for (const edge of graph.modules.get(path)?.imports ?? []) {
      if (edge.to === undefined || !graph.modules.has(edge.to)) continue;
      const { origin, mustEndWith, fallbackFor } = list[edge.line - 1];
      if (mustEndWith !== undefined && !edge.to.replace(/\.[^./]+$/, '').endsWith(mustEndWith)) continue;
      if (fallbackFor !== undefined && resolvedKeys.has(fallbackFor)) continue;
      if (origin.type === 'entry') {
        if (!entries.has(edge.to)) entries.set(edge.to, origin.reason);
      } else if (origin.from !== edge.to) {
        const targets = loads.get(origin.from) ?? new Set();
        loads.set(origin.from, targets.add(edge.to));
      }
    }
  }
  const roots = [...entries.keys(), ...summaries.filter((s) => s.kind === 'test' && !s.skipped).map((s) => s.path)];
  const reachable = reach(graph, roots, loads);
  const loadedBy = new Map<string, string[]>();
  for (const [from, targets] of loads) for (const to of targets) loadedBy.set(to, [...(loadedBy.get(to) ?? []), from]);
  const stems = new Set(unresolved.filter((e) => !relativeMisses.includes(e)).map((e) => stemOf(e.specifier)));

  const packageDirs = [...requests.manifests.keys()].sort((a, b) => b.length - a.length);
  return {
    graph,
    entries,
    reachable,
    importersOf: (path) => {
      const importers = (graph.modules.get(path)?.importedBy ?? []).filter((p) => !synthetic.has(p));
      return [...new Set([...importers, ...(loadedBy.get(path) ?? [])])].sort();
    },
    deepImportablePackage: (path) => {
      const dir = packageDirs.find((d) => d === '' || path.startsWith(`${d}/`));
      const manifest = dir === undefined ? undefined : requests.manifests.get(dir);
      if (!manifest || typeof manifest.name !== 'string' || manifest.private === true || manifest.exports !== undefined) return undefined;
      return manifest.name;
    },
    maybeImportedUnresolved: (path) => stems.has(stemOf(path)) || (stemOf(path) === 'index' && stems.has(stemOf(path.slice(0, path.lastIndexOf('/'))))),
  };
}

function reach(graph: CodeGraph, roots: string[], loads: Map<string, Set<string>>): Set<string> {
  const seen = new Set(roots);
  const queue = [...seen];
  for (let i = 0; i < queue.length; i++) {
    const next = [...(graph.modules.get(queue[i])?.imports ?? []).map((e) => e.to), ...(loads.get(queue[i]) ?? [])];
    for (const to of next) {
      if (to === undefined || seen.has(to) || !graph.modules.has(to)) continue;
      seen.add(to);
      queue.push(to);
    }
  }
  return seen;
}

const byPathCache = new WeakMap<readonly FileSummary[], Map<string, FileSummary>>();

function summaryByPath(summaries: readonly FileSummary[]): Map<string, FileSummary> {
  let map = byPathCache.get(summaries);
  if (!map) byPathCache.set(summaries, (map = new Map(summaries.map((s) => [s.path, s]))));
  return map;
}

/** A resolver that answers from edges already resolved. */
function knownResolutions(edges: readonly ImportEdge[]): ModuleResolver {
  const known = new Map<string, Resolution>();
  for (const edge of edges) {
    const resolution: Resolution =
      edge.resolution === 'internal' && edge.to !== undefined
        ? { kind: 'internal', path: edge.to }
        : edge.resolution === 'external'
          ? { kind: 'external', packageName: edge.packageName ?? edge.specifier }
          : { kind: 'unresolved' };
    known.set(`${edge.from}\0${edge.specifier}`, resolution);
  }
  return { resolve: (from, specifier) => known.get(`${from}\0${specifier}`) ?? { kind: 'unresolved' } };
}

function syntheticSummary(path: string, requests: EntryRequest[]): FileSummary {
  return {
    path,
    contentHash: '',
    language: 'typescript',
    kind: 'source',
    lines: { total: 0, code: 0, comment: 0, blank: 0 },
    parse: { errorNodes: 0, errorBytes: 0, cleanRatio: 1, parseMs: 0 },
    module: {
      imports: requests.map((r, i) => ({ specifier: r.specifier, kind: 'static' as const, names: r.names, line: i + 1 })),
      exports: [],
      symbols: [],
      commonJs: false,
    },
    functions: [],
    findings: [],
    facts: {},
  };
}

/**
 * The snapshot as the graph builder reads it: package.json files carry our `#` entries in `imports`,
 * and build output is hidden, so that a target in `dist/` that happens to exist (a published package,
 * a committed build) is mapped back to its source like one that does not.
 */
function withManifestImports(
  snapshot: RepoSnapshot,
  imports: Map<string, Record<string, string>>,
  manifests: Map<string, Record<string, unknown>>,
): RepoSnapshot {
  const patched = new Map<string, string>();
  for (const [dir, entries] of imports) {
    const manifest = manifests.get(dir);
    if (!manifest) continue;
    const own = typeof manifest.imports === 'object' && manifest.imports !== null ? manifest.imports : {};
    patched.set(dir === '' ? 'package.json' : `${dir}/package.json`, JSON.stringify({ ...manifest, imports: { ...own, ...entries } }));
  }
  return {
    root: snapshot.root,
    files: snapshot.files.filter((f) => f.kind !== 'generated'),
    readFile: (path) => (patched.has(path) ? Promise.resolve(patched.get(path)!) : snapshot.readFile(path)),
    git: () => snapshot.git(),
  };
}

function stemOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.replace(/\.[^.]*$/, '').replace(/\.d$/, '');
}
