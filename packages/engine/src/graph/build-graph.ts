// Builds the code graph from per-file module facts and a resolver: resolved edges, reverse
// edges, cycles, export usage and reachability.
import type { ModuleResolver } from './resolve-module.js';
import { findCycles } from './strongly-connected.js';
import type { CallEdge, CodeGraph, ImportEdge, ModuleFacts, ModuleNode } from './types.js';
import { UsedExports } from './used-exports.js';

export interface CodeGraphInput {
  path: string;
  facts: ModuleFacts;
}

export interface CodeGraphOptions {
  /**
   * Entry points (package entries, CLI mains): every export of an entry counts as used, and the
   * use flows through its re-exports to the declaring modules.
   */
  entries?: Iterable<string>;
}

export function buildCodeGraph(inputs: Iterable<CodeGraphInput>, resolver: ModuleResolver, options: CodeGraphOptions = {}): CodeGraph {
  const modules = new Map<string, ModuleNode>();
  const edges: ImportEdge[] = [];
  const calls: CallEdge[] = [];
  for (const input of inputs) addModule(input, resolver, modules, edges, calls);

  const importers = new Map<string, Set<string>>();
  for (const edge of edges) if (edge.to !== undefined) addTo(importers, edge.to, edge.from);
  for (const [path, from] of importers) {
    const module = modules.get(path);
    if (module) module.importedBy = [...from].sort();
  }
  return graphOf(modules, edges, calls, () => importers, options);
}

/**
 * `base` plus the given modules, equal to `buildCodeGraph` over base's modules (resolved as base
 * resolved them) followed by these, without resolving base's modules again: base's nodes, edges
 * and calls are shared, and only the nodes the added modules import are copied, their `importedBy`
 * grown. `base` is left as it is (other rules read it). For a synthetic importer, such as the
 * dead-code model's module of entry uses: rebuilding the whole graph for it cost more than the
 * rules that read it. An added path must not be one of base's modules. When nothing imports an
 * added module, the cycles are base's (the same arrays, found once for both).
 */
export function extendCodeGraph(base: CodeGraph, inputs: Iterable<CodeGraphInput>, resolver: ModuleResolver, options: CodeGraphOptions = {}): CodeGraph {
  const modules = new Map(base.modules);
  const edges = [...base.edges];
  const calls = [...base.calls];
  const added = new Set<string>();
  for (const input of inputs) {
    if (modules.has(input.path)) throw new Error(`extendCodeGraph: ${input.path} is already a module of the graph`);
    addModule(input, resolver, modules, edges, calls);
    added.add(input.path);
  }
  // Base's edges may lead to an added path (an import that resolved to a file that was not a module).
  const grown = new Map<string, Set<string>>();
  for (const edge of edges) {
    if (edge.to !== undefined && (added.has(edge.from) || added.has(edge.to))) addTo(grown, edge.to, edge.from);
  }
  for (const [path, from] of grown) {
    const module = modules.get(path);
    if (!module) continue;
    for (const importer of module.importedBy) from.add(importer);
    modules.set(path, { ...module, importedBy: [...from].sort() });
  }
  let importers: Map<string, Set<string>> | undefined;
  const importersOf = () => {
    if (importers) return importers;
    importers = new Map();
    for (const edge of edges) if (edge.to !== undefined) addTo(importers, edge.to, edge.from);
    return importers;
  };
  // A module that nothing imports (itself included) is in no cycle, and cycles depend on the graph
  // alone, not on the order it is walked in (findCycles sorts them): then base's are these, and
  // are found once for both graphs.
  const unimported = [...added].every((path) => !grown.has(path));
  const cyclesOf = unimported ? { all: () => base.cycles, runtime: () => base.runtimeCycles } : undefined;
  return graphOf(modules, edges, calls, importersOf, options, cyclesOf);
}

/** Resolves one module's imports and calls and adds its node, edges and calls (its `importedBy` is left empty). */
function addModule({ path, facts }: CodeGraphInput, resolver: ModuleResolver, modules: Map<string, ModuleNode>, edges: ImportEdge[], calls: CallEdge[]): void {
  const targets = new Map<string, string>();
  const imports = facts.imports.map((record) => {
    const resolution = resolver.resolve(path, record.specifier);
    const edge: ImportEdge = {
      from: path,
      specifier: record.specifier,
      kind: record.kind,
      names: record.names,
      line: record.line,
      resolution: resolution.kind,
    };
    if (resolution.kind === 'internal') {
      edge.to = resolution.path;
      targets.set(record.specifier, resolution.path);
    }
    if (resolution.kind === 'external') edge.packageName = resolution.packageName;
    if (record.typeOnly) edge.typeOnly = true;
    if (record.elidable) edge.elidable = true;
    return edge;
  });
  edges.push(...imports);
  for (const call of facts.calls ?? []) {
    const to = targets.get(call.specifier);
    if (to !== undefined && to !== path) calls.push({ from: path, caller: call.caller, to, name: call.name, line: call.line, count: call.count });
  }
  modules.set(path, { path, exports: facts.exports, symbols: facts.symbols, imports, importedBy: [], ...(facts.partial ? { partial: true } : {}) });
}

/** The graph over resolved modules, with what is derived from them worked out on first use. */
function graphOf(
  modules: Map<string, ModuleNode>,
  edges: ImportEdge[],
  calls: CallEdge[],
  importersOf: () => ReadonlyMap<string, ReadonlySet<string>>,
  options: CodeGraphOptions,
  cyclesOf?: { all: () => string[][]; runtime: () => string[][] },
): CodeGraph {
  // Successor lists and cycles are worked out on first use: many graphs never need them (a rules
  // worker's, the dead-code model's until a file is dead).
  let allSuccessors: Successors | undefined;
  let runtimeSuccessors: Successors | undefined;
  let cycles: string[][] | undefined;
  let runtimeCycles: string[][] | undefined;
  let paths: string[] | undefined;
  const sortedPaths = () => (paths ??= [...modules.keys()].sort());
  const successorsOfAll = () => (allSuccessors ??= successorsOf(edges, false));
  let usage: UsedExports | undefined;

  return {
    modules,
    edges,
    calls,
    get cycles() {
      return (cycles ??= cyclesOf ? cyclesOf.all() : findCycles(sortedPaths(), successorsOfAll()));
    },
    get runtimeCycles() {
      return (runtimeCycles ??= cyclesOf ? cyclesOf.runtime() : findCycles(sortedPaths(), (runtimeSuccessors ??= successorsOf(edges, true))));
    },
    usedExports(path) {
      usage ??= new UsedExports(modules, options.entries ?? []);
      return usage.of(path);
    },
    reachableFrom(starts) {
      const seen = new Set<string>();
      const queue = [...starts];
      for (const start of queue) seen.add(start);
      const successors = successorsOfAll();
      for (let i = 0; i < queue.length; i++) {
        for (const next of successors(queue[i])) {
          if (seen.has(next)) continue;
          seen.add(next);
          queue.push(next);
        }
      }
      return seen;
    },
    dependentsOf(path, depth = Number.POSITIVE_INFINITY) {
      const importers = importersOf();
      const seen = new Set<string>([path]);
      let frontier = [path];
      for (let level = 0; level < depth && frontier.length > 0; level++) {
        const next: string[] = [];
        for (const node of frontier) {
          for (const importer of importers.get(node) ?? []) {
            if (seen.has(importer)) continue;
            seen.add(importer);
            next.push(importer);
          }
        }
        frontier = next;
      }
      seen.delete(path);
      return seen;
    },
  };
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

type Successors = (node: string) => readonly string[];

/** Sorted internal targets per module; `runtimeOnly` leaves out edges that do not exist at run time. */
function successorsOf(edges: readonly ImportEdge[], runtimeOnly: boolean): Successors {
  const adjacency = new Map<string, Set<string>>();
  for (const edge of edges) {
    if (edge.to === undefined || (runtimeOnly && (edge.typeOnly || edge.elidable || edge.kind === 'type'))) continue;
    addTo(adjacency, edge.from, edge.to);
  }
  const lists = new Map<string, string[]>();
  for (const [node, targets] of adjacency) lists.set(node, [...targets].sort());
  const none: string[] = [];
  return (node) => lists.get(node) ?? none;
}
