// Graph impact: the exported symbols a PR adds, changes or removes, and the files that depend on
// them through the code graph, up to a number of import hops. A first hop follows the symbol by
// name (an import of another export of the same module is not a dependent), re-exports pass the
// name on; past the first real use, any import of the using module counts, since its own exports
// may now behave differently. Rules documented in pr/README.md ("Graph impact").
import type { GraphImpact } from '../api/pr-analyses.js';
import type { CodeGraph, ImportEdge, ModuleNode } from '../graph/types.js';
import type { ChangedFile, ChangedSymbol } from './types.js';

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
  /** Which graph to search: head for live symbols, base for removed ones. */
  graph: CodeGraph;
}

/** `*` stands for "any use of the module". */
type Use = string;

export function computeGraphImpact(input: GraphImpactInput): GraphImpact {
  const depth = Math.max(1, Math.floor(input.depth ?? DEFAULT_IMPACT_DEPTH));
  const maxFiles = input.maxFiles ?? DEFAULT_MAX_DEPENDENT_FILES;
  const symbols = changedExportedSymbols(input);
  const inPr = new Set(input.files.flatMap((f) => (f.oldPath ? [f.path, f.oldPath] : [f.path])));

  const dependents = new Map<string, number>();
  const perSymbol: Array<{ symbol: ImpactSymbol; count: number; deepest: number }> = [];
  const prUsers = new Set<string>();
  const importers = new Map<CodeGraph, Map<string, ImportEdge[]>>();
  for (const symbol of symbols) {
    let index = importers.get(symbol.graph);
    if (!index) importers.set(symbol.graph, (index = indexImporters(symbol.graph)));
    const reached = dependentsOf(symbol, index, depth);
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
    perSymbol.push({ symbol, count, deepest });
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
      out.set(key, { name: s.name, file: path, kind: s.kind, change, exportNames: exportNamesOf(s, module), graph: removed ? (input.baseGraph ?? input.graph) : input.graph });
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
    .filter((s) => file.status === 'added' || file.hunks.some((h) => s.lineStart <= h.newStart + Math.max(h.newLines, 1) - 1 && s.lineEnd >= h.newStart))
    .map((s) => ({ name: s.container ? `${s.container}.${s.name}` : s.name, kind: s.kind, exported: s.exported, side: 'head' as const, lineStart: s.lineStart, lineEnd: s.lineEnd }));
}

/** The names importers use for a symbol: its own, and `default` when `export default` declares it. */
export function exportNamesOf(symbol: ChangedSymbol, module: ModuleNode | undefined): string[] {
  const names = new Set([symbol.name]);
  for (const record of module?.exports ?? []) {
    if (record.from === undefined && record.line >= symbol.lineStart && record.line <= symbol.lineEnd) names.add(record.name);
  }
  return [...names];
}

function indexImporters(graph: CodeGraph): Map<string, ImportEdge[]> {
  const index = new Map<string, ImportEdge[]>();
  for (const edge of graph.edges) {
    if (edge.to === undefined || edge.to === edge.from) continue;
    const list = index.get(edge.to);
    if (list) list.push(edge);
    else index.set(edge.to, [edge]);
  }
  return index;
}

/** Breadth-first over (module, name) pairs; returns each dependent file with its fewest hops. */
function dependentsOf(symbol: ImpactSymbol, importers: Map<string, ImportEdge[]>, depth: number): Map<string, number> {
  const reached = new Map<string, number>();
  const seen = new Set<string>();
  let frontier: Array<[string, Use]> = symbol.exportNames.map((name) => [symbol.file, name]);
  for (const [path, use] of frontier) seen.add(`${path}\0${use}`);
  for (let hop = 1; hop <= depth && frontier.length > 0; hop++) {
    const next: Array<[string, Use]> = [];
    for (const [path, use] of frontier) {
      for (const edge of importers.get(path) ?? []) {
        if (edge.from === symbol.file) continue;
        for (const forwarded of follow(edge, use, symbol.graph.modules.get(edge.from))) {
          if (!reached.has(edge.from)) reached.set(edge.from, hop);
          const key = `${edge.from}\0${forwarded}`;
          if (!seen.has(key)) (seen.add(key), next.push([edge.from, forwarded]));
        }
      }
    }
    frontier = next;
  }
  return reached;
}

/** What an importing edge passes on for `use`: nothing when it does not use it. */
function follow(edge: ImportEdge, use: Use, importer: ModuleNode | undefined): Use[] {
  if (edge.kind === 're-export-all') return use === 'default' ? [] : [use];
  if (edge.kind === 're-export') {
    if (use === '*' || edge.names.includes('*')) return ['*'];
    if (!edge.names.includes(use)) return [];
    const aliases = (importer?.exports ?? []).filter((e) => e.from === edge.specifier && e.importedName === use).map((e) => e.name);
    return aliases.length > 0 ? aliases : [use];
  }
  if (use === '*') return ['*'];
  // A side-effect import runs the module but names nothing of it.
  if (edge.kind === 'side-effect') return [];
  // `require()` kept whole, `import()` and namespace imports use every export.
  const whole = edge.names.length === 0 || edge.names.includes('*');
  return whole || edge.names.includes(use) ? ['*'] : [];
}

function summarise(
  perSymbol: Array<{ symbol: ImpactSymbol; count: number; deepest: number }>,
  total: number,
  maxFiles: number,
  depth: number,
  reachedDepth: number,
  prUsers: number,
): string {
  if (perSymbol.length === 0) return 'No exported symbol is added, changed or removed: the change stays inside its modules.';
  const byChange = (c: ImpactSymbol['change']) => perSymbol.filter((p) => p.symbol.change === c).length;
  const counts = (['changed', 'added', 'removed'] as const).filter((c) => byChange(c) > 0).map((c) => `${byChange(c)} ${c}`);
  // Symbols with dependents, most first; the rest are only counted.
  const used = perSymbol.filter((p) => p.count > 0).sort((a, b) => b.count - a.count || a.symbol.name.localeCompare(b.symbol.name));
  const top = (used.length > 0 ? used : perSymbol).slice(0, 5);
  const detail = top
    .map((p) => `${p.symbol.name} (${p.symbol.file}, ${p.symbol.change})${p.count > 0 ? `: ${p.count} dependent${p.count === 1 ? '' : 's'}, up to ${p.deepest} hop${p.deepest === 1 ? '' : 's'}` : ''}`)
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
