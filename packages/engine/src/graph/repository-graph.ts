// The code graph of a repository snapshot, from the module facts of its file summaries. The
// resolver reads JSON synchronously, so the configuration files it may need are read first:
// every package.json, tsconfig*.json and jsconfig.json, then the files their `extends` name.
import type { FileSummary } from '../pipeline/file-summary.js';
import type { RepoSnapshot } from '../snapshot/types.js';
import { buildCodeGraph, type CodeGraphOptions } from './build-graph.js';
import { dirOf, isObject, isOutside } from './file-probe.js';
import { parseJsonc } from './parse-jsonc.js';
import { createModuleResolver, type RepositoryModuleResolver } from './resolve-module.js';
import { extendsCandidates } from './tsconfig-paths.js';
import type { CodeGraph } from './types.js';

const GRAPH_LANGUAGES = new Set(['typescript', 'tsx', 'javascript', 'jsx']);
const CONFIG_FILE = /(^|\/)(package\.json|[jt]sconfig[^/]*\.json)$/;

/** Configuration read per snapshot, once: the pipeline starts it early, while files are analysed. */
const configReads = new WeakMap<RepoSnapshot, Promise<Map<string, unknown>>>();

function configFilesOf(snapshot: RepoSnapshot): Promise<Map<string, unknown>> {
  let read = configReads.get(snapshot);
  if (!read)
    configReads.set(
      snapshot,
      (read = readConfigFiles(
        snapshot,
        snapshot.files.map((f) => f.path),
      )),
    );
  return read;
}

/** Starts reading the configuration files the graph of `snapshot` needs; buildRepositoryGraph waits for them. */
export function prefetchRepositoryGraph(snapshot: RepoSnapshot): void {
  configFilesOf(snapshot).catch(() => {
    // buildRepositoryGraph awaits the same reads and reports their failure.
  });
}

export async function buildRepositoryGraph(snapshot: RepoSnapshot, summaries: readonly FileSummary[], options: CodeGraphOptions = {}): Promise<CodeGraph> {
  return (await repositoryGraphBuilder(snapshot, summaries, options))();
}

/**
 * `buildRepositoryGraph` in two steps: the configuration files are read now, the graph is built
 * when first asked for (a rules worker may run only rules that never read it).
 */
export async function repositoryGraphBuilder(
  snapshot: RepoSnapshot,
  summaries: readonly FileSummary[],
  options: CodeGraphOptions = {},
): Promise<() => CodeGraph> {
  const resolver = await createRepositoryResolver(snapshot);
  let graph: CodeGraph | undefined;
  return () => {
    graph ??= buildCodeGraph(
      summaries.filter((s) => GRAPH_LANGUAGES.has(s.language)).map((s) => ({ path: s.path, facts: s.module })),
      resolver,
      options,
    );
    return graph;
  };
}

/**
 * The resolver `buildRepositoryGraph` resolves the snapshot's imports with: for callers that need
 * resolutions of specifiers or package targets no file holds (the dead-code model's entry
 * requests) without a graph.
 */
export async function createRepositoryResolver(snapshot: RepoSnapshot): Promise<RepositoryModuleResolver> {
  const files = snapshot.files.map((f) => f.path);
  const json = await configFilesOf(snapshot);
  return createModuleResolver({ files, readJson: (path) => json.get(path) });
}

async function readConfigFiles(snapshot: RepoSnapshot, files: readonly string[]): Promise<Map<string, unknown>> {
  const json = new Map<string, unknown>();
  let pending = new Set(files.filter((f) => CONFIG_FILE.test(f) && !f.includes('node_modules/')));
  while (pending.size > 0) {
    const batch = [...pending];
    // Missing files (an `extends` into an uninstalled package) read as undefined.
    const values = await Promise.all(batch.map((path) => snapshot.readFile(path).then(parseJsonc, () => undefined)));
    batch.forEach((path, i) => json.set(path, values[i]));
    pending = new Set();
    batch.forEach((path, i) => {
      const value = values[i];
      if (!isObject(value) || path.endsWith('package.json')) return;
      const parents = typeof value.extends === 'string' ? [value.extends] : Array.isArray(value.extends) ? value.extends : [];
      for (const parent of parents) {
        if (typeof parent !== 'string') continue;
        // Never read outside the repository.
        for (const candidate of extendsCandidates(dirOf(path), parent)) if (!json.has(candidate) && !isOutside(candidate)) pending.add(candidate);
      }
    });
  }
  return json;
}
