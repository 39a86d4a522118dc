// Graph impact: the exported symbols a PR adds, changes or removes, and the files that depend on
// them through the code graph, up to a number of import hops. A first hop follows the symbol by
// name (an import of another export of the same module is not a dependent), re-exports pass the
// name on; past the first real use, any import of the using module counts, since its own exports
// may now behave differently. Rules documented in pr/README.md ("Graph impact").
//
// The importers come from an `ImporterSource`: the in-memory code graph, or the graph store
// (Neo4j or the embedded tables) with the PR's changed files overlaid from the head's graph. The
// walk goes hop by hop, so a store answers one query per hop and side.
import { meaningfulHunks } from './cosmetic-hunks.js';
import type { GraphImpact } from './result.js';
import type { CodeGraph, ModuleNode } from '../graph/types.js';
import { reExportAliases, type GraphStore, type ImpactCall, type ImpactEdge } from '../contracts/graph-store.js';
import type { ChangedFile, ChangedSymbol } from './types.js';

/** Where the walk reads importers and calls: one side of the change (head, or base for removed symbols). */
export interface ImporterSource {
  /** The internal import edges into each of `paths` (self-imports left out). */
  importersOf(paths: readonly string[]): Promise<Map<string, ImpactEdge[]>>;
  /** Calls into the given exports (`file` + export `name`). */
  callsInto(targets: ReadonlyArray<{ file: string; name: string }>): Promise<ImpactCall[]>;
}

export interface GraphImpactInput {
  files: readonly ChangedFile[];
  /** Code graph at the PR's head. */
  graph: CodeGraph;
  /** Code graph at the merge base: importers of removed symbols and deleted files. */
  baseGraph?: CodeGraph;
  /** Import-hop limit (default 3). */
  depth?: number;
  /** Cap of `dependent_files` (default 100); `dependents_count` is always the full count. */
  maxFiles?: number;
  /** Where to read importers and calls; default: `graph` (head) and `baseGraph` (base) in memory. */
  sources?: { head: ImporterSource; base: ImporterSource };
}

export const DEFAULT_IMPACT_DEPTH = 3;
export const DEFAULT_MAX_DEPENDENT_FILES = 100;

interface ImpactSymbol {
  name: string;
  file: string;
  kind: string;
  change: 'added' | 'changed' | 'removed';
  /** Names importers use for it: the declared name plus any export name declared on its lines (`default`). */
  exportNames: string[];
  /** Which side to search: head for live symbols, base for removed ones. */
  side: 'head' | 'base';
}

/** `*` stands for "any use of the module". */
type Use = string;

export async function computeGraphImpact(input: GraphImpactInput): Promise<GraphImpact> {
  const depth = Math.max(1, Math.floor(input.depth ?? DEFAULT_IMPACT_DEPTH));
  const maxFiles = input.maxFiles ?? DEFAULT_MAX_DEPENDENT_FILES;
  const symbols = changedExportedSymbols(input);
  const inPr = new Set(input.files.flatMap((f) => (f.oldPath ? [f.path, f.oldPath] : [f.path])));
  const sources = input.sources ?? { head: graphImporters(input.graph), base: graphImporters(input.baseGraph ?? input.graph) };

  const walks = await walkDependents(symbols, sources, depth);
  const dependents = new Map<string, number>();
  const perSymbol: SymbolImpact[] = [];
  const prUsers = new Set<string>();
  for (const [n, symbol] of symbols.entries()) {
    const { reached, callers } = walks[n]!;
    let count = 0;
    let deepest = 0;
    for (const [file, hops] of reached) {
      if (inPr.has(file)) {
        prUsers.add(file);
        continue;
      }
      count++;
      deepest = Math.max(deepest, hops);
      dependents.set(file, Math.min(dependents.get(file) ?? hops, hops));
    }
    const outside = callers.filter((c) => !inPr.has(c.from));
    perSymbol.push({ symbol, count, deepest, callers: new Set(outside.map((c) => `${c.from}\0${c.caller}`)).size });
  }

  const files = [...dependents.keys()].sort();
  const reachedDepth = Math.max(0, ...dependents.values());
  return {
    changed_symbols: symbols.map((s) => ({ name: s.name, file: s.file, kind: s.kind })),
    dependents_count: files.length,
    dependent_files: files.slice(0, maxFiles),
    depth,
    summary: summarise(perSymbol, files.length, maxFiles, depth, reachedDepth, prUsers.size),
  };
}

interface SymbolImpact {
  symbol: ImpactSymbol;
  count: number;
  deepest: number;
  /** Distinct calling symbols outside the PR (direct calls of the export, through re-exports too). */
  callers: number;
}

interface Walk {
  frontier: Array<[string, Use]>;
  seen: Set<string>;
  reached: Map<string, number>;
  callers: ImpactCall[];
}

/**
 * Breadth-first over (module, name) pairs for all symbols at once, hop by hop, so that each hop
 * asks each side's source once; returns each symbol's dependent files with their fewest hops and
 * the calls into the names it is reached under.
 */
async function walkDependents(symbols: readonly ImpactSymbol[], sources: { head: ImporterSource; base: ImporterSource }, depth: number): Promise<Walk[]> {
  const walks: Walk[] = symbols.map((symbol) => {
    const frontier: Array<[string, Use]> = symbol.exportNames.map((name) => [symbol.file, name]);
    return { frontier, seen: new Set(frontier.map(([path, use]) => `${path}\0${use}`)), reached: new Map(), callers: [] };
  });
  const named = walks.map((walk) => walk.frontier.map(([file, name]) => ({ file, name })));
  for (let hop = 1; hop <= depth; hop++) {
    const importers = new Map<'head' | 'base', Map<string, ImpactEdge[]>>();
    for (const side of ['head', 'base'] as const) {
      const paths = new Set(walks.flatMap((walk, n) => (symbols[n]!.side === side ? walk.frontier.map(([path]) => path) : [])));
      if (paths.size > 0) importers.set(side, await sources[side].importersOf([...paths]));
    }
    if (importers.size === 0) break;
    for (const [n, walk] of walks.entries()) {
      const symbol = symbols[n]!;
      const index = importers.get(symbol.side);
      const next: Array<[string, Use]> = [];
      for (const [path, use] of walk.frontier) {
        for (const edge of index?.get(path) ?? []) {
          if (edge.from === symbol.file) continue;
          for (const forwarded of follow(edge, use)) {
            if (!walk.reached.has(edge.from)) walk.reached.set(edge.from, hop);
            const key = `${edge.from}\0${forwarded}`;
            if (walk.seen.has(key)) continue;
            walk.seen.add(key);
            next.push([edge.from, forwarded]);
            // A name passed on by a re-export is called under that name from the re-exporting module.
            if (forwarded !== '*' && edge.kind.startsWith('re-export')) named[n]!.push({ file: edge.from, name: forwarded });
          }
        }
      }
      walk.frontier = next;
    }
  }
  for (const side of ['head', 'base'] as const) {
    const targets = named.flatMap((list, n) => (symbols[n]!.side === side ? list : []));
    if (targets.length === 0) continue;
    const calls = await sources[side].callsInto(targets);
    for (const [n, list] of named.entries()) {
      if (symbols[n]!.side !== side) continue;
      const wanted = new Set(list.map((t) => `${t.file}\0${t.name}`));
      walks[n]!.callers = calls.filter((c) => wanted.has(`${c.to}\0${c.name}`) && c.from !== symbols[n]!.file);
    }
  }
  return walks;
}

/** Importers and calls of an in-memory code graph. */
export function graphImporters(graph: CodeGraph): ImporterSource {
  let index: Map<string, ImpactEdge[]> | undefined;
  return {
    async importersOf(paths) {
      index ??= indexImporters(graph);
      return new Map(paths.map((path) => [path, index!.get(path) ?? []]));
    },
    // Asked once per walk, for a few targets: one pass over the repository's calls picks theirs
    // (indexing every call by a `to\0name` key cost more than the walk), grouped by target as asked.
    async callsInto(targets) {
      const wanted = new Map<string, Map<string, ImpactCall[]>>();
      const groups: ImpactCall[][] = [];
      for (const { file, name } of targets) {
        let byName = wanted.get(file);
        if (!byName) wanted.set(file, (byName = new Map()));
        if (byName.has(name)) continue;
        const group: ImpactCall[] = [];
        byName.set(name, group);
        groups.push(group);
      }
      for (const call of graph.calls) wanted.get(call.to)?.get(call.name)?.push(call);
      return groups.flat();
    },
  };
}

/**
 * Exported symbols of the diff: from the diff's symbols of each file (both sides), removed when
 * only the base side has them. A file the diff reader found no symbols in falls back on the head
 * graph's symbols whose lines meet a hunk.
 */
function changedExportedSymbols(input: GraphImpactInput): ImpactSymbol[] {
  const out = new Map<string, ImpactSymbol>();
  for (const file of input.files) {
    if (file.binary || file.generated) continue;
    const head = input.graph.modules.get(file.path);
    const base = input.baseGraph?.modules.get(file.oldPath ?? file.path);
    const symbols = file.symbols.length > 0 ? file.symbols : fallbackSymbols(file, head);
    const headNames = new Set(symbols.filter((s) => s.side === 'head').map((s) => s.name));
    const baseNames = new Set(symbols.filter((s) => s.side === 'base').map((s) => s.name));
    // Head side first: a symbol on both sides is described by its head.
    for (const s of [...symbols].sort((a, b) => (a.side === b.side ? 0 : a.side === 'head' ? -1 : 1))) {
      if (!s.exported || s.name.includes('.')) continue;
      const removed =
        file.status === 'deleted' ||
        (s.side === 'base' && (s.change ? s.change === 'removed' : !headNames.has(s.name) && !head?.symbols.some((h) => h.name === s.name)));
      const added = !removed && (s.change ? s.change === 'added' : isAdded(file, s, baseNames, input.baseGraph ? (base ?? null) : undefined));
      const change = removed ? 'removed' : added ? 'added' : 'changed';
      const module = removed ? base : head;
      const path = removed ? (file.oldPath ?? file.path) : file.path;
      const key = `${path}\0${s.name}`;
      if (out.has(key)) continue;
      out.set(key, { name: s.name, file: path, kind: s.kind, change, exportNames: exportNamesOf(s, module), side: removed ? 'base' : 'head' });
    }
  }
  return [...out.values()].sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name));
}

/**
 * New in this PR: the file is new, or the base module lacks the name (with a base graph; `null`
 * when the file was not in it), or else the diff has no base side of it and it lies wholly inside
 * inserted lines.
 */
function isAdded(file: ChangedFile, s: ChangedSymbol, baseNames: Set<string>, base: ModuleNode | null | undefined): boolean {
  if (file.status === 'added' || base === null) return true;
  if (base) return !base.symbols.some((b) => b.name === s.name);
  return !baseNames.has(s.name) && file.hunks.some((h) => h.oldLines === 0 && s.lineStart >= h.newStart && s.lineEnd < h.newStart + h.newLines);
}

function fallbackSymbols(file: ChangedFile, module: ModuleNode | undefined): ChangedSymbol[] {
  if (!module) return [];
  return module.symbols
    .filter(
      (s) =>
        file.status === 'added' || meaningfulHunks(file.hunks).some((h) => s.lineStart <= h.newStart + Math.max(h.newLines, 1) - 1 && s.lineEnd >= h.newStart),
    )
    .map((s) => ({
      name: s.container ? `${s.container}.${s.name}` : s.name,
      kind: s.kind,
      exported: s.exported,
      side: 'head' as const,
      lineStart: s.lineStart,
      lineEnd: s.lineEnd,
    }));
}

/** The names importers use for a symbol: its own, and `default` when `export default` declares it. */
export function exportNamesOf(symbol: ChangedSymbol, module: ModuleNode | undefined): string[] {
  const names = new Set([symbol.name]);
  for (const record of module?.exports ?? []) {
    if (record.from === undefined && record.line >= symbol.lineStart && record.line <= symbol.lineEnd) names.add(record.name);
  }
  return [...names];
}

/** Importers and calls of a repository's graph in the graph store (its latest assessed commit). */
export function storedImporters(store: GraphStore, repositoryId: string): ImporterSource {
  return {
    importersOf: (paths) => store.importersOf({ repositoryId, paths }),
    callsInto: (targets) => store.callsInto({ repositoryId, targets }),
  };
}

/**
 * A stored graph with the PR's files overlaid: edges and calls out of `changed` files come from
 * the head's graph (what the PR makes them import and call), the rest from the store.
 */
export function overlayImporters(stored: ImporterSource, head: CodeGraph, changed: ReadonlySet<string>): ImporterSource {
  const own = graphImporters(head);
  return {
    async importersOf(paths) {
      const [base, mine] = await Promise.all([stored.importersOf(paths), own.importersOf(paths)]);
      return new Map(
        paths.map((path) => [
          path,
          [...(base.get(path) ?? []).filter((e) => !changed.has(e.from)), ...(mine.get(path) ?? []).filter((e) => changed.has(e.from))],
        ]),
      );
    },
    async callsInto(targets) {
      const [base, mine] = await Promise.all([stored.callsInto(targets), own.callsInto(targets)]);
      return [...base.filter((c) => !changed.has(c.from)), ...mine.filter((c) => changed.has(c.from))];
    },
  };
}

function indexImporters(graph: CodeGraph): Map<string, ImpactEdge[]> {
  const index = new Map<string, ImpactEdge[]>();
  for (const edge of graph.edges) {
    if (edge.to === undefined || edge.to === edge.from) continue;
    const impact: ImpactEdge = { from: edge.from, kind: edge.kind, names: edge.names, aliases: reExportAliases(edge, graph.modules.get(edge.from)) };
    const list = index.get(edge.to);
    if (list) list.push(impact);
    else index.set(edge.to, [impact]);
  }
  return index;
}

/** What an importing edge passes on for `use`: nothing when it does not use it. */
function follow(edge: ImpactEdge, use: Use): Use[] {
  if (edge.kind === 're-export-all') return use === 'default' ? [] : [use];
  if (edge.kind === 're-export') {
    if (use === '*' || edge.names.includes('*')) return ['*'];
    if (!edge.names.includes(use)) return [];
    const aliases = edge.aliases.filter(([imported]) => imported === use).map(([, exported]) => exported);
    return aliases.length > 0 ? aliases : [use];
  }
  if (use === '*') return ['*'];
  // A side-effect import runs the module but names nothing of it.
  if (edge.kind === 'side-effect') return [];
  // `require()` kept whole, `import()` and namespace imports use every export.
  const whole = edge.names.length === 0 || edge.names.includes('*');
  return whole || edge.names.includes(use) ? ['*'] : [];
}

function summarise(perSymbol: SymbolImpact[], total: number, maxFiles: number, depth: number, reachedDepth: number, prUsers: number): string {
  if (perSymbol.length === 0) return 'No exported symbol is added, changed or removed: the change stays inside its modules.';
  const byChange = (c: ImpactSymbol['change']) => perSymbol.filter((p) => p.symbol.change === c).length;
  const counts = (['changed', 'added', 'removed'] as const).filter((c) => byChange(c) > 0).map((c) => `${byChange(c)} ${c}`);
  // Symbols with dependents, most first; the rest are only counted.
  const used = perSymbol.filter((p) => p.count > 0).sort((a, b) => b.count - a.count || a.symbol.name.localeCompare(b.symbol.name));
  const top = (used.length > 0 ? used : perSymbol).slice(0, 5);
  const detail = top
    .map(
      (p) =>
        `${p.symbol.name} (${p.symbol.file}, ${p.symbol.change})${p.count > 0 ? `: ${p.count} dependent${p.count === 1 ? '' : 's'}, up to ${p.deepest} hop${p.deepest === 1 ? '' : 's'}${callersOf(p)}` : ''}`,
    )
    .join('; ');
  const rest = perSymbol.length - top.length;
  const more = rest > 0 ? `; ${rest} more${used.length > top.length ? '' : ' without dependents'}` : '';
  const reach =
    total === 0
      ? `No file outside this PR depends on them within ${depth} import hops`
      : `${total} file${total === 1 ? '' : 's'} outside this PR depend${total === 1 ? 's' : ''} on them within ${depth} import hops (deepest ${reachedDepth})${total > maxFiles ? `; the first ${maxFiles} are listed` : ''}`;
  const inside = prUsers > 0 ? `; ${prUsers} file${prUsers === 1 ? '' : 's'} of this PR use${prUsers === 1 ? 's' : ''} them too` : '';
  return `${perSymbol.length} exported symbol${perSymbol.length === 1 ? '' : 's'} (${counts.join(', ')}): ${detail}${more}. ${reach}${inside}.`;
}

function callersOf(impact: SymbolImpact): string {
  return impact.callers > 0 ? `, called by ${impact.callers} function${impact.callers === 1 ? '' : 's'}` : '';
}
