// The directory-level structure of one analysed repository, shared by the architecture overview
// and the architecture review: components (directories), the imports between them, Robert C.
// Martin's package metrics (Ca, Ce, instability, abstractness, distance) and dependency levels.
import type { ImportEdge, FileSummary, AssessmentResult } from '@codehealth/engine';

/** The parts of an assessment the architecture functions read. */
export type ArchitectureFacts = Pick<AssessmentResult, 'summaries' | 'graph' | 'git'>;

/** One analysed repository of a project; without `repository` (a plain directory) ids are null. */
export interface ArchitectureSource {
  facts: ArchitectureFacts;
  repository?: { id: string; fullName: string } | null;
}

/** An assessment result, one source, or the sources of a project with several repositories. */
export type ArchitectureInput = ArchitectureFacts | ArchitectureSource | readonly ArchitectureSource[];

export function toSources(input: ArchitectureInput): readonly ArchitectureSource[] {
  if (Array.isArray(input)) return input;
  return 'facts' in input ? [input as ArchitectureSource] : [{ facts: input as ArchitectureFacts }];
}

export interface ModuleInfo {
  path: string;
  component: string;
  kind: 'source' | 'test';
  summary: FileSummary;
  /** Distinct source modules importing this one. */
  fanIn: number;
  /** Distinct source modules this one imports. */
  fanOut: number;
}

export interface ComponentInfo {
  path: string;
  modules: string[];
  sourceFiles: number;
  testFiles: number;
  loc: number;
  testLoc: number;
  languages: Map<string, number>;
  ca: number;
  ce: number;
  instability: number | null;
  abstractness: number | null;
  distance: number | null;
  dependsOn: Set<string>;
  usedBy: Set<string>;
  level: number;
  inCycle: boolean;
}

export interface ComponentEdge {
  from: string;
  to: string;
  /** The import statements behind the dependency, in path and line order. */
  imports: ImportEdge[];
  modules: number;
}

export interface RepositoryStructure {
  modules: Map<string, ModuleInfo>;
  components: Map<string, ComponentInfo>;
  edges: ComponentEdge[];
  /** Internal imports between source modules. */
  sourceEdges: ImportEdge[];
  /** Groups of components that depend on one another (strongly connected, more than one). */
  cycles: string[][];
  /** levels[n]: the components of level n, sorted. */
  levels: string[][];
}

/** Directories are split into their children below this depth no more. */
const MAX_DEPTH = 6;

export const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;
const dirOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
export const componentLabel = (dir: string): string => (dir === '' ? '.' : dir);

interface DirNode {
  weight: number;
  directFiles: number;
  children: Set<string>;
}

/**
 * Components: the top-level directories (files at the root form `.`), except that a directory is
 * replaced by its children when it is a pure container (no code files of its own and at least two
 * subdirectories, like `packages/`) or when it holds more than half of all code lines and has
 * subdirectories (like a `src/` holding everything). Its own files then form a component of their own.
 */
function assignComponents(files: readonly FileSummary[]): Map<string, string> {
  const tree = new Map<string, DirNode>();
  const node = (dir: string): DirNode => {
    let found = tree.get(dir);
    if (!found) tree.set(dir, (found = { weight: 0, directFiles: 0, children: new Set() }));
    return found;
  };
  for (const file of files) {
    let dir = dirOf(file.path);
    node(dir).directFiles++;
    const weight = Math.max(1, file.lines.code);
    for (;;) {
      node(dir).weight += weight;
      if (dir === '') break;
      const parent = dirOf(dir);
      node(parent).children.add(dir);
      dir = parent;
    }
  }
  const total = node('').weight;
  const components = new Set<string>();
  const expand = (dir: string, depth: number): void => {
    const current = node(dir);
    if (current.directFiles > 0) components.add(dir);
    for (const child of current.children) {
      const c = node(child);
      const container = (c.directFiles === 0 && c.children.size >= 2) || (c.weight > total / 2 && c.children.size >= 1);
      if (container && depth < MAX_DEPTH) expand(child, depth + 1);
      else components.add(child);
    }
  };
  expand('', 0);
  const byFile = new Map<string, string>();
  for (const file of files) {
    let dir = dirOf(file.path);
    while (!components.has(dir)) dir = dirOf(dir);
    byFile.set(file.path, componentLabel(dir));
  }
  return byFile;
}

/** Tarjan's strongly connected components, each sorted; recursive, as graphs of directories are small. */
export function stronglyConnected(nodes: readonly string[], successors: (node: string) => Iterable<string>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of successors(v)) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      groups.push(group.sort());
    }
  };
  for (const v of nodes) if (!indices.has(v)) visit(v);
  return groups;
}

const isAbstractExport = (kind: string): boolean => kind === 'interface' || kind === 'type';

export function analyseStructure(facts: ArchitectureFacts): RepositoryStructure {
  const code = facts.summaries
    .filter((s): s is FileSummary & { kind: 'source' | 'test' } => !s.skipped && (s.kind === 'source' || s.kind === 'test'))
    .sort((a, b) => a.path.localeCompare(b.path));
  const componentOf = assignComponents(code);
  const modules = new Map<string, ModuleInfo>();
  for (const summary of code) {
    modules.set(summary.path, { path: summary.path, component: componentOf.get(summary.path)!, kind: summary.kind, summary, fanIn: 0, fanOut: 0 });
  }
  const isSource = (path: string | undefined): path is string => path !== undefined && modules.get(path)?.kind === 'source';

  const sourceEdges = facts.graph.edges
    .filter((edge) => edge.resolution === 'internal' && edge.to !== edge.from && isSource(edge.from) && isSource(edge.to))
    .sort((a, b) => a.from.localeCompare(b.from) || a.line - b.line);
  const importers = new Map<string, Set<string>>();
  const imported = new Map<string, Set<string>>();
  for (const edge of sourceEdges) {
    (importers.get(edge.to!) ?? importers.set(edge.to!, new Set()).get(edge.to!)!).add(edge.from);
    (imported.get(edge.from) ?? imported.set(edge.from, new Set()).get(edge.from)!).add(edge.to!);
  }
  for (const info of modules.values()) {
    info.fanIn = importers.get(info.path)?.size ?? 0;
    info.fanOut = imported.get(info.path)?.size ?? 0;
  }

  const components = new Map<string, ComponentInfo>();
  for (const info of modules.values()) {
    let component = components.get(info.component);
    if (!component) {
      component = {
        path: info.component,
        modules: [],
        sourceFiles: 0,
        testFiles: 0,
        loc: 0,
        testLoc: 0,
        languages: new Map(),
        ca: 0,
        ce: 0,
        instability: null,
        abstractness: null,
        distance: null,
        dependsOn: new Set(),
        usedBy: new Set(),
        level: 0,
        inCycle: false,
      };
      components.set(info.component, component);
    }
    component.modules.push(info.path);
    const lines = info.summary.lines.code;
    if (info.kind === 'source') {
      component.sourceFiles++;
      component.loc += lines;
    } else {
      component.testFiles++;
      component.testLoc += lines;
    }
    component.languages.set(info.summary.language, (component.languages.get(info.summary.language) ?? 0) + lines);
  }

  // Component dependencies and Martin's metrics, counted in modules.
  const edgeMap = new Map<string, ComponentEdge & { importing: Set<string> }>();
  const efferent = new Map<string, Set<string>>();
  const afferent = new Map<string, Set<string>>();
  for (const edge of sourceEdges) {
    const from = modules.get(edge.from)!.component;
    const to = modules.get(edge.to!)!.component;
    if (from === to) continue;
    const key = `${from}\0${to}`;
    let entry = edgeMap.get(key);
    if (!entry) edgeMap.set(key, (entry = { from, to, imports: [], modules: 0, importing: new Set() }));
    entry.imports.push(edge);
    entry.importing.add(edge.from);
    (efferent.get(from) ?? efferent.set(from, new Set()).get(from)!).add(edge.from);
    (afferent.get(to) ?? afferent.set(to, new Set()).get(to)!).add(edge.from);
  }
  const edges = [...edgeMap.values()]
    .map(({ importing, ...edge }) => ({ ...edge, modules: importing.size }))
    .sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
  for (const edge of edges) {
    components.get(edge.from)!.dependsOn.add(edge.to);
    components.get(edge.to)!.usedBy.add(edge.from);
  }
  for (const component of components.values()) {
    component.ca = afferent.get(component.path)?.size ?? 0;
    component.ce = efferent.get(component.path)?.size ?? 0;
    const coupling = component.ca + component.ce;
    component.instability = coupling === 0 ? null : round(component.ce / coupling);
    let own = 0;
    let abstractExports = 0;
    for (const path of component.modules) {
      const info = modules.get(path)!;
      if (info.kind !== 'source') continue;
      for (const record of info.summary.module.exports) {
        if (record.from !== undefined || record.kind === 're-export') continue;
        own++;
        if (isAbstractExport(record.kind)) abstractExports++;
      }
    }
    component.abstractness = own === 0 ? null : round(abstractExports / own);
    component.distance =
      component.instability === null || component.abstractness === null ? null : round(Math.abs(component.abstractness + component.instability - 1));
  }

  // Levels over the condensation: a group of components in a cycle shares one level.
  const names = [...components.keys()].sort();
  const groups = stronglyConnected(names, (name) => [...components.get(name)!.dependsOn].sort());
  const groupOf = new Map<string, number>();
  groups.forEach((group, i) => group.forEach((name) => groupOf.set(name, i)));
  const cycles = groups.filter((group) => group.length > 1).sort((a, b) => a[0]!.localeCompare(b[0]!));
  for (const group of cycles) for (const name of group) components.get(name)!.inCycle = true;
  // Tarjan emits a group after every group it depends on, so one pass in order suffices.
  const groupLevel: number[] = [];
  groups.forEach((group, i) => {
    let level = 0;
    for (const name of group) {
      for (const dep of components.get(name)!.dependsOn) {
        const j = groupOf.get(dep)!;
        if (j !== i) level = Math.max(level, groupLevel[j]! + 1);
      }
    }
    groupLevel[i] = level;
  });
  const levels: string[][] = [];
  for (const name of names) {
    const level = groupLevel[groupOf.get(name)!]!;
    components.get(name)!.level = level;
    (levels[level] ??= []).push(name);
  }
  return { modules, components, edges, sourceEdges, cycles, levels: levels.map((level) => level ?? []) };
}
