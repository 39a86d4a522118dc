// The architecture review: design problems read off the code graph and its directory structure.
// - import-cycle: modules that import one another (run-time cycles, or type-only ones);
// - layering-violation: in a group of components that depend on one another, the weakest
//   dependencies (fewest imports) that close the cycles, i.e. those against the dominant direction;
// - unstable-dependency: a component depending on a clearly less stable one (Robert C. Martin's
//   Stable Dependencies Principle, instability I = Ce / (Ca + Ce));
// - hub-module: a module with both many importers and many imports (hub-like modularisation).
import type { ArchitectureFinding, ArchitectureReviewMetrics, ArchitectureReviewResult } from '../api/architecture.js';
import { shortestCycle } from '@codehealth/engine';
import type { Severity } from '@codehealth/engine';
import { SEVERITY_RANK } from './issue-records.js';
import { toWireFinding, type Draft, type Rule } from './architecture-findings.js';
import {
  analyseStructure,
  round,
  stronglyConnected,
  toSources,
  type ArchitectureInput,
  type ArchitectureSource,
  type ComponentEdge,
  type RepositoryStructure,
} from './architecture-structure.js';

export interface ArchitectureReviewOptions {
  /** A hub module has at least this many importing and this many imported source modules. */
  hubMinFanIn: number;
  hubMinFanOut: number;
  /** An unstable dependency: I(target) exceeds I(source) by more than this. */
  instabilityMargin: number;
  /** ...between components that each have at least this much coupling (Ca + Ce), so that I means something. */
  minCoupling: number;
  /** Run-time import cycles with at least this many modules are `high`, smaller ones `medium`. */
  largeCycle: number;
}

export const ARCHITECTURE_REVIEW_DEFAULTS: ArchitectureReviewOptions = {
  hubMinFanIn: 10,
  hubMinFanOut: 10,
  instabilityMargin: 0.25,
  minCoupling: 3,
  largeCycle: 10,
};

const arrow = (chain: readonly string[], max = 6): string => [...(chain.length > max ? [...chain.slice(0, max), '…'] : chain), chain[0]].join(' → ');
const and = (items: readonly string[]): string => (items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
const instabilityText = (value: number | null): string => (value === null ? 'n/a' : value.toFixed(2));

function cycleFindings(source: ArchitectureSource, structure: RepositoryStructure, options: ArchitectureReviewOptions): Draft[] {
  const { graph } = source.facts;
  const drafts: Draft[] = [];
  const report = (members: readonly string[], runtime: boolean): void => {
    const chain = shortestCycle(graph, members, { runtimeOnly: runtime });
    const path = chain.length > 0 ? chain : [...members];
    const next = path[1] ?? path[0]!;
    const kind = runtime ? 'at run time' : 'through type-only imports';
    drafts.push({
      rule: 'architecture/import-cycle',
      severity: !runtime ? 'low' : members.length >= options.largeCycle ? 'high' : 'medium',
      title: `Import cycle of ${members.length} module${members.length === 1 ? '' : 's'} ${kind}: ${arrow(path)}`,
      description: `${members.length === 1 ? `${path[0]} imports itself` : `These modules import one another ${kind}: ${members.join(', ')}`}. One shortest chain is ${arrow(path, path.length)}.`,
      filePath: path[0]!,
      line: graph.modules.get(path[0]!)?.imports.find((edge) => edge.to === next)?.line ?? 1,
      snippet: arrow(path, path.length),
      components: [...new Set(members.map((m) => structure.modules.get(m)?.component ?? '.'))].sort(),
      modules: [...members],
    });
  };
  for (const members of graph.runtimeCycles) report(members, true);
  for (const members of graph.cycles) {
    const set = new Set(members);
    if (!graph.runtimeCycles.some((runtime) => runtime.every((m) => set.has(m)))) report(members, false);
  }
  return drafts;
}

/** The weakest edges that, removed one by one, leave no cycle among components. */
function feedbackEdges(structure: RepositoryStructure): ComponentEdge[] {
  const removed: ComponentEdge[] = [];
  const stability = (name: string): number => structure.components.get(name)!.instability ?? 0;
  for (const group of structure.cycles) {
    const members = new Set(group);
    let remaining = structure.edges.filter((edge) => members.has(edge.from) && members.has(edge.to));
    for (;;) {
      const successors = (name: string) => remaining.filter((edge) => edge.from === name).map((edge) => edge.to);
      const sccOf = new Map<string, number>();
      stronglyConnected(group, successors).forEach((scc, i) => scc.length > 1 && scc.forEach((name) => sccOf.set(name, i)));
      const candidates = remaining.filter((edge) => sccOf.has(edge.from) && sccOf.get(edge.from) === sccOf.get(edge.to));
      if (candidates.length === 0) break;
      // Fewest imports first; on a tie the edge towards the more unstable component (against the SDP).
      candidates.sort(
        (a, b) =>
          a.imports.length - b.imports.length ||
          a.modules - b.modules ||
          stability(b.to) - stability(b.from) - (stability(a.to) - stability(a.from)) ||
          a.from.localeCompare(b.from) ||
          a.to.localeCompare(b.to),
      );
      const weakest = candidates[0]!;
      removed.push(weakest);
      remaining = remaining.filter((edge) => edge !== weakest);
    }
  }
  return removed;
}

const importingModules = (edge: ComponentEdge): string[] => [...new Set(edge.imports.map((e) => e.from))];

function edgeDraft(rule: Rule, severity: Severity, edge: ComponentEdge, title: string, description: string): Draft {
  const first = edge.imports[0]!;
  const modules = importingModules(edge);
  return {
    rule,
    severity,
    title,
    description,
    filePath: first.from,
    line: first.line,
    snippet: `import '${first.specifier}'`,
    components: [edge.from, edge.to],
    modules,
  };
}

function structureFindings(structure: RepositoryStructure, options: ArchitectureReviewOptions): Draft[] {
  const drafts: Draft[] = [];
  const violations = feedbackEdges(structure);
  const counter = (edge: ComponentEdge) => structure.edges.find((e) => e.from === edge.to && e.to === edge.from);
  for (const edge of violations) {
    const group = structure.cycles.find((g) => g.includes(edge.from))!;
    const reverse = counter(edge);
    const dominant = reverse
      ? `${edge.to} imports ${edge.from} ${reverse.imports.length} times from ${reverse.modules} modules, `
      : `${edge.to} reaches ${edge.from} through the other components of the cycle (${group.join(', ')}), `;
    drafts.push(
      edgeDraft(
        'architecture/layering-violation',
        'medium',
        edge,
        `Layering violation: ${edge.from} imports ${edge.to}, against the dominant direction`,
        `${dominant}while ${edge.from} imports ${edge.to} only ${edge.imports.length} time${edge.imports.length === 1 ? '' : 's'} (from ${importingModules(edge).join(', ')}). ` +
          `This is the weakest dependency closing the cycle between ${and(group)}.`,
      ),
    );
  }
  const flagged = new Set(violations);
  for (const edge of structure.edges) {
    if (flagged.has(edge)) continue;
    const from = structure.components.get(edge.from)!;
    const to = structure.components.get(edge.to)!;
    if (from.instability === null || to.instability === null) continue;
    if (from.ca + from.ce < options.minCoupling || to.ca + to.ce < options.minCoupling) continue;
    if (to.instability - from.instability <= options.instabilityMargin) continue;
    drafts.push(
      edgeDraft(
        'architecture/unstable-dependency',
        'low',
        edge,
        `Unstable dependency: ${edge.from} (I=${instabilityText(from.instability)}) depends on ${edge.to} (I=${instabilityText(to.instability)})`,
        `${edge.from} is stable (Ca=${from.ca}, Ce=${from.ce}, I=${instabilityText(from.instability)}) but imports ${edge.to}, which is much less stable ` +
          `(Ca=${to.ca}, Ce=${to.ce}, I=${instabilityText(to.instability)}), ${edge.imports.length} time${edge.imports.length === 1 ? '' : 's'}.`,
      ),
    );
  }
  for (const info of structure.modules.values()) {
    if (info.kind !== 'source' || info.fanIn < options.hubMinFanIn || info.fanOut < options.hubMinFanOut) continue;
    drafts.push({
      rule: 'architecture/hub-module',
      severity: 'medium',
      title: `Hub module: ${info.path} is imported by ${info.fanIn} modules and imports ${info.fanOut}`,
      description: `${info.path} (component ${info.component}) has ${info.fanIn} importing source modules and ${info.fanOut} imported ones (thresholds ${options.hubMinFanIn} and ${options.hubMinFanOut}).`,
      filePath: info.path,
      line: 1,
      snippet: `fan-in ${info.fanIn}, fan-out ${info.fanOut}`,
      components: [info.component],
      modules: [info.path],
    });
  }
  return drafts;
}

const mean = (values: number[]): number | null => (values.length === 0 ? null : round(values.reduce((a, b) => a + b, 0) / values.length));

/** Reviews one repository's assessment, or a project's repositories. */
export function reviewArchitecture(input: ArchitectureInput, overrides: Partial<ArchitectureReviewOptions> = {}): ArchitectureReviewResult {
  const options = { ...ARCHITECTURE_REVIEW_DEFAULTS, ...overrides };
  const findings: ArchitectureFinding[] = [];
  const metrics: ArchitectureReviewMetrics = {
    repositories: 0,
    modules: 0,
    components: 0,
    internal_imports: 0,
    component_dependencies: 0,
    layers: 0,
    import_cycles: 0,
    runtime_import_cycles: 0,
    component_cycles: 0,
    layering_violations: 0,
    unstable_dependencies: 0,
    hub_modules: 0,
    average_instability: null,
    average_distance: null,
    component_metrics: [],
  };
  for (const source of toSources(input)) {
    const structure = analyseStructure(source.facts);
    const repositoryId = source.repository?.id ?? null;
    const drafts = [...cycleFindings(source, structure, options), ...structureFindings(structure, options)];
    findings.push(...drafts.map((draft) => toWireFinding(draft, repositoryId)));
    metrics.repositories++;
    metrics.modules += [...structure.modules.values()].filter((m) => m.kind === 'source').length;
    metrics.components += structure.components.size;
    metrics.internal_imports += structure.sourceEdges.length;
    metrics.component_dependencies += structure.edges.length;
    metrics.layers = Math.max(metrics.layers, structure.levels.length);
    metrics.import_cycles += source.facts.graph.cycles.length;
    metrics.runtime_import_cycles += source.facts.graph.runtimeCycles.length;
    metrics.component_cycles += structure.cycles.length;
    for (const c of [...structure.components.values()].sort((a, b) => a.path.localeCompare(b.path))) {
      metrics.component_metrics.push({
        repository_id: repositoryId,
        path: c.path,
        modules: c.sourceFiles,
        afferent_coupling: c.ca,
        efferent_coupling: c.ce,
        instability: c.instability,
        abstractness: c.abstractness,
        distance: c.distance,
      });
    }
  }
  const count = (rule: Rule) => findings.filter((f) => f.rule_id === rule).length;
  metrics.layering_violations = count('architecture/layering-violation');
  metrics.unstable_dependencies = count('architecture/unstable-dependency');
  metrics.hub_modules = count('architecture/hub-module');
  metrics.average_instability = mean(metrics.component_metrics.flatMap((c) => (c.instability === null ? [] : [c.instability])));
  metrics.average_distance = mean(metrics.component_metrics.flatMap((c) => (c.distance === null ? [] : [c.distance])));
  findings.sort(
    (a, b) =>
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      a.rule_id.localeCompare(b.rule_id) ||
      a.file_path.localeCompare(b.file_path) ||
      a.title.localeCompare(b.title),
  );
  return { summary: summarise(metrics, findings.length), findings, metrics };
}

function summarise(m: ArchitectureReviewMetrics, total: number): string {
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  const scope = `Reviewed ${n(m.modules, 'source module')} in ${n(m.components, 'component')}${m.repositories > 1 ? ` across ${m.repositories} repositories` : ''}`;
  const parts = [
    `${n(m.import_cycles, 'import cycle')} (${m.runtime_import_cycles} at run time)`,
    n(m.layering_violations, 'layering violation'),
    n(m.unstable_dependencies, 'unstable dependency').replace(/dependencys$/, 'dependencies'),
    n(m.hub_modules, 'hub module'),
  ];
  const averages =
    m.average_instability === null
      ? ''
      : ` Average component instability ${m.average_instability.toFixed(2)}${m.average_distance === null ? '' : `, average distance from the main sequence ${m.average_distance.toFixed(2)}`}.`;
  return `${scope}: ${parts.join(', ')}.${averages}${total === 0 ? ' No architecture problems were found.' : ''}`;
}
