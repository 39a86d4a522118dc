// Graph rules: issues (source `graph_rule`) computed from the stored code graph with the graph
// store's queries, after an assessment wrote its snapshot. Documented in ./README.md.
import type { Finding } from '@codehealth/engine';
import { findCycles, orderCycle, shortestCycleThrough } from '@codehealth/engine/internal';
import { layerOf, type GraphStore, type ImportPair } from '../ports/graph-store.js';

export const GRAPH_RULES = {
  importCycle: 'graph/import-cycle',
  layerCycle: 'graph/layer-cycle',
} as const;

export interface GraphRuleInput {
  repositoryId: string;
  /** Reads a file of the analysed commit, to anchor findings on the import's real line. */
  readFile?: (path: string) => Promise<string | undefined>;
}

export async function runGraphRules(store: GraphStore, input: GraphRuleInput): Promise<Finding[]> {
  const pairs = await store.importPairs(input.repositoryId);
  const lineOf = new Map(pairs.map((p) => [`${p.from}\0${p.to}`, p.line]));
  const texts = new Map<string, string[] | undefined>();
  const anchor = async (path: string, line: number) => {
    if (!texts.has(path)) texts.set(path, (await input.readFile?.(path).catch(() => undefined))?.split(/\r?\n/));
    const text = texts.get(path)?.[line - 1];
    return { lineStart: line, lineEnd: line, codeSnippet: text ?? '', validated: text !== undefined };
  };
  const findings: Finding[] = [];
  for (const { members: cycle, chain: path } of importCycles(pairs)) {
    const [first, second] = [path[0]!, path[1]!];
    const chain = [...path, first].join(' → ');
    const others = cycle.length - path.length;
    findings.push({
      ...base(GRAPH_RULES.importCycle, first),
      severity: cycle.length > 5 ? 'medium' : 'low',
      category: 'code_smell',
      anchor: await anchor(first, lineOf.get(`${first}\0${second}`) ?? 1),
      title: `Import cycle of ${cycle.length} modules through ${first.slice(first.lastIndexOf('/') + 1)}`,
      description: `These modules import each other in a cycle: ${chain}${others > 0 ? ` (and ${others} more module(s) are in the same tangle: ${cycle.slice(path.length).join(', ')})` : ''}.`,
      whyItMatters:
        'Modules in a cycle cannot be understood, tested or reused one at a time; initialisation order becomes fragile ' +
        '(an import can see a half-initialised module) and a change to any of them can ripple through all.',
      suggestedAction: 'Break the cycle: move what both sides need into a module of its own, or invert one dependency (pass it in, or depend on an interface).',
      confidence: 95,
      data: { modules: cycle.length },
    });
  }
  const layers = await store.layering(input.repositoryId);
  const count = new Map(layers.map((l) => [`${l.from}\0${l.to}`, l.imports]));
  for (const edge of layers) {
    const back = count.get(`${edge.to}\0${edge.from}`);
    // Each pair once, reported on the weaker direction: the one to reverse.
    if (back === undefined || edge.imports > back || (back === edge.imports && edge.from > edge.to)) continue;
    const example = pairs.find((p) => layerOf(p.from) === edge.from && layerOf(p.to) === edge.to);
    if (!example) continue;
    findings.push({
      ...base(GRAPH_RULES.layerCycle, example.from),
      severity: 'medium',
      category: 'code_smell',
      anchor: await anchor(example.from, example.line),
      title: `${edge.from} and ${edge.to} depend on each other`,
      description:
        `${edge.from} imports ${edge.to} ${edge.imports} time(s) and ${edge.to} imports ${edge.from} ${back} time(s); ` +
        `for example ${example.from} imports ${example.to}.`,
      whyItMatters: 'Two layers that depend on each other are one layer in disguise: neither can be built, tested, released or replaced without the other.',
      suggestedAction: `Decide which of ${edge.from} and ${edge.to} is the lower layer and remove the ${edge.imports} import(s) going the other way (move the shared code down).`,
      confidence: 90,
      data: { imports: edge.imports, reverseImports: back },
    });
  }
  return findings;
}

/**
 * Import cycles: strongly connected components of two or more files (`members`, the shortest cycle
 * through the smallest path first) and that shortest cycle alone (`chain`).
 */
export function importCycles(pairs: readonly ImportPair[]): Array<{ members: string[]; chain: string[] }> {
  const successors = new Map<string, string[]>();
  for (const p of pairs) if (p.from !== p.to) successors.set(p.from, [...(successors.get(p.from) ?? []), p.to]);
  const next = (node: string) => successors.get(node) ?? [];
  return findCycles(successors.keys(), next)
    .filter((c) => c.length > 1)
    .map((c) => {
      const members = orderCycle(c, next);
      return { members, chain: shortestCycleThrough(members[0]!, new Set(c), next) };
    })
    .sort((a, b) => a.members[0]!.localeCompare(b.members[0]!));
}

function base(ruleId: string, filePath: string): Pick<Finding, 'source' | 'filePath' | 'fileGroup' | 'ruleId' | 'analyzerName' | 'autoFixable'> {
  return { source: 'graph_rule', filePath, fileGroup: layerOf(filePath), ruleId, analyzerName: 'graph-rules', autoFixable: false };
}
