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
  for (const { path, facts } of inputs) {
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
    modules.set(path, { path, exports: facts.exports, symbols: facts.symbols, imports, importedBy: [] });
  }

  const importers = new Map<string, Set<string>>();
  for (const edge of edges) if (edge.to !== undefined) addTo(importers, edge.to, edge.from);
  for (const [path, from] of importers) {
    const module = modules.get(path);
    if (module) module.importedBy = [...from].sort();
  }
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
      return (cycles ??= findCycles(sortedPaths(), successorsOfAll()));
    },
    get runtimeCycles() {
      return (runtimeCycles ??= findCycles(sortedPaths(), (runtimeSuccessors ??= successorsOf(edges, true))));
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
