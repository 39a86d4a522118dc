// Conflicts with the repository's other open pull requests: files both PRs change, hunks that
// overlap, symbols both PRs edit (a semantic conflict: a clean textual merge would not prove the
// combined behaviour right), and files of the other PR that use symbols this one changes. Each
// conflicting PR gets a description and a resolution (merge order, rebase, whom to talk to).
// Rules documented in pr/README.md ("Conflicts").
import type { PrConflicts } from './result.js';
import type { CodeGraph, ImportEdge } from '../graph/types.js';
import { exportNamesOf } from './graph-impact.js';
import type { ChangedFile, ChangedSymbol, DiffHunk, PullRequestInfo } from './types.js';

export interface ConflictCandidate {
  pr: PullRequestInfo;
  files: readonly ChangedFile[];
}

export interface ConflictInput {
  pr: PullRequestInfo;
  files: readonly ChangedFile[];
  /** The other open PRs of the repository with their diffs; the analysed PR itself is skipped if present. */
  others: readonly ConflictCandidate[];
  /** Code graph at this PR's head: finds other PRs editing files that import symbols one of the two changes. */
  graph?: CodeGraph;
  /** PRs of this PR's stack (`stacked_prs`, bottom to top): with them the merge order is already fixed. */
  stack?: readonly number[];
}

/** Lock files and other outputs are regenerated, never merged by hand. */
const REGENERATED = /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?)$/;

interface FileOverlap {
  path: string;
  shared: string[];
  /** Overlapping or abutting hunks, as `here`/`there` line ranges on the base side. */
  clash?: { here: string; there: string };
  regions?: { here: string; there: string };
  regenerate: boolean;
}

interface Usage {
  /** The file of the PR that changes the symbol, and the symbol. */
  symbol: string;
  declaredIn: string;
  /** The file of the other side that imports it. */
  usedIn: string;
  /** Whose symbol: `this` PR changes it, or `other`. */
  changedBy: 'this' | 'other';
}

export function detectConflicts(input: ConflictInput): PrConflicts {
  const others = input.others.filter((o) => o.pr.number !== input.pr.number).sort((a, b) => a.pr.number - b.pr.number);
  const checked_prs = [...new Set(others.map((o) => o.pr.number))];
  const found: Array<{ entry: PrConflicts['conflicts'][number]; severity: number }> = [];
  const importers = input.graph ? importersIndex(input.graph) : undefined;
  for (const other of others) {
    const overlaps = overlapsBetween(input.files, other.files);
    const usages = input.graph && importers ? usagesBetween(input.graph, importers, input.files, other.files) : [];
    if (overlaps.length === 0 && usages.length === 0) continue;
    found.push(describeConflict(input, other, overlaps, usages));
  }
  found.sort((a, b) => b.severity - a.severity || a.entry.pr_number - b.entry.pr_number);
  const conflicts = found.map((f) => f.entry);
  return { conflicts, checked_prs, summary: summarise(checked_prs, found) };
}

function identities(file: ChangedFile): string[] {
  return file.oldPath && file.oldPath !== file.path ? [file.path, file.oldPath] : [file.path];
}

function overlapsBetween(mine: readonly ChangedFile[], theirs: readonly ChangedFile[]): FileOverlap[] {
  const byPath = new Map<string, ChangedFile>();
  for (const file of theirs) for (const id of identities(file)) byPath.set(id, file);
  const out: FileOverlap[] = [];
  for (const file of mine) {
    const other = identities(file)
      .map((id) => byPath.get(id))
      .find((f) => f !== undefined);
    if (!other) continue;
    const shared = sharedSymbols(file.symbols, other.symbols);
    const regenerate = file.binary || other.binary || REGENERATED.test(file.path);
    const overlap: FileOverlap = { path: file.path, shared, regenerate };
    const clash = clashingHunks(file.hunks, other.hunks);
    if (clash) overlap.clash = clash;
    else overlap.regions = { here: ranges(file.hunks), there: ranges(other.hunks) };
    out.push(overlap);
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Innermost symbols only: a class both PRs touch because each edits a different method of it is
 * not a shared edit; the methods are what was edited.
 */
function innermost(symbols: readonly ChangedSymbol[]): Set<string> {
  const names = new Set<string>();
  for (const s of symbols) {
    const contains = symbols.some(
      (t) => t !== s && t.side === s.side && t.lineStart >= s.lineStart && t.lineEnd <= s.lineEnd && (t.lineStart !== s.lineStart || t.lineEnd !== s.lineEnd),
    );
    if (!contains) names.add(s.name);
  }
  return names;
}

function sharedSymbols(a: readonly ChangedSymbol[], b: readonly ChangedSymbol[]): string[] {
  // An export reached through a helper was not edited: two PRs editing two helpers of one export do not edit one symbol.
  const edited = (symbols: readonly ChangedSymbol[]) => innermost(symbols.filter((s) => s.reachedThrough === undefined));
  const theirs = edited(b);
  return [...edited(a)].filter((name) => theirs.has(name)).sort();
}

/**
 * Base-side line spans: a change of lines a..b covers [a, b]; a pure insertion after line k sits
 * between k and k + 1. Spans that overlap or touch make git's three-way merge stop with a conflict.
 */
function span(h: DiffHunk): [number, number] {
  return h.oldLines === 0 ? [h.oldStart + 0.5, h.oldStart + 0.5] : [h.oldStart, h.oldStart + h.oldLines - 1];
}

function clashingHunks(a: readonly DiffHunk[], b: readonly DiffHunk[]): { here: string; there: string } | undefined {
  for (const x of a) {
    const [x0, x1] = span(x);
    for (const y of b) {
      const [y0, y1] = span(y);
      if (x1 + 1 >= y0 && y1 + 1 >= x0) return { here: range(x), there: range(y) };
    }
  }
  return undefined;
}

function range(h: DiffHunk): string {
  if (h.oldLines === 0) return `after line ${h.oldStart}`;
  return h.oldLines === 1 ? `line ${h.oldStart}` : `lines ${h.oldStart}-${h.oldStart + h.oldLines - 1}`;
}

function ranges(hunks: readonly DiffHunk[]): string {
  if (hunks.length === 0) return 'the whole file';
  const shown = hunks.slice(0, 3).map(range).join(', ');
  return hunks.length > 3 ? `${shown} and ${hunks.length - 3} more` : shown;
}

function importersIndex(graph: CodeGraph): Map<string, ImportEdge[]> {
  const index = new Map<string, ImportEdge[]>();
  for (const edge of graph.edges) {
    if (edge.to === undefined) continue;
    const list = index.get(edge.to);
    if (list) list.push(edge);
    else index.set(edge.to, [edge]);
  }
  return index;
}

/** Files of one PR that import, by name, an exported symbol the other PR changes (both ways, on this head's graph). */
function usagesBetween(graph: CodeGraph, importers: Map<string, ImportEdge[]>, mine: readonly ChangedFile[], theirs: readonly ChangedFile[]): Usage[] {
  const out: Usage[] = [];
  const scan = (changer: readonly ChangedFile[], user: readonly ChangedFile[], changedBy: Usage['changedBy']) => {
    const userPaths = new Set(user.flatMap(identities));
    const changerPaths = new Set(changer.flatMap(identities));
    for (const file of changer) {
      // Import name -> symbol: `default` names the symbol `export default` declares.
      const exported = new Map<string, string>();
      const module = graph.modules.get(file.path);
      for (const s of file.symbols) if (s.exported && !s.name.includes('.')) for (const name of exportNamesOf(s, module)) exported.set(name, s.name);
      if (exported.size === 0) continue;
      for (const edge of importers.get(file.path) ?? []) {
        if (!userPaths.has(edge.from) || changerPaths.has(edge.from)) continue;
        const used = edge.names.includes('*') ? [...new Set(exported.values())] : edge.names.flatMap((name) => exported.get(name) ?? []);
        for (const symbol of used) out.push({ symbol, declaredIn: file.path, usedIn: edge.from, changedBy });
      }
    }
  };
  scan(mine, theirs, 'this');
  scan(theirs, mine, 'other');
  const seen = new Set<string>();
  return out.filter((u) => {
    const key = `${u.changedBy}\0${u.symbol}\0${u.declaredIn}\0${u.usedIn}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

const size = (files: readonly ChangedFile[]): number => files.reduce((n, f) => n + f.additions + f.deletions, 0);
const quote = (names: readonly string[]): string => names.map((n) => `\`${n}\``).join(', ');

function describeConflict(
  input: ConflictInput,
  other: ConflictCandidate,
  overlaps: FileOverlap[],
  usages: Usage[],
): { entry: PrConflicts['conflicts'][number]; severity: number } {
  const n = other.pr.number;
  const who = other.pr.author ? `@${other.pr.author} (#${n})` : `the author of #${n}`;
  const symbolic = overlaps.filter((o) => o.shared.length > 0);
  const clashing = overlaps.filter((o) => o.clash && !o.regenerate);
  const regenerated = overlaps.filter((o) => o.regenerate);
  const apart = overlaps.filter((o) => o.regions && !o.regenerate && o.shared.length === 0);

  const semantic: string[] = [];
  for (const o of symbolic) semantic.push(`both PRs change ${quote(o.shared)} in ${o.path}`);
  for (const u of usages) {
    semantic.push(
      u.changedBy === 'this'
        ? `#${n} edits ${u.usedIn}, which uses \`${u.symbol}\` that this PR changes in ${u.declaredIn}`
        : `this PR edits ${u.usedIn}, which uses \`${u.symbol}\` that #${n} changes in ${u.declaredIn}`,
    );
  }
  let semantic_conflict: string;
  if (semantic.length > 0) semantic_conflict = `${capitalise(semantic.join('; '))}: the combined behaviour must be checked even if git merges cleanly.`;
  else if (clashing.length > 0)
    semantic_conflict = `None at symbol level, but the edits overlap textually: ${clashing.map((o) => `${o.path} (here ${o.clash!.here}; #${n}: ${o.clash!.there})`).join(', ')}; git will stop with a conflict.`;
  else if (apart.length > 0)
    semantic_conflict = `None: the PRs edit different regions of ${apart.map((o) => `${o.path} (here ${o.regions!.here}; #${n}: ${o.regions!.there})`).join(', ')}.`;
  else semantic_conflict = `None: the only shared files are generated or binary (${regenerated.map((o) => o.path).join(', ')}).`;

  const steps: string[] = [];
  const stack = input.stack ?? [];
  if (stack.includes(n) && stack.includes(input.pr.number)) {
    const order = stack.filter((s) => s === n || s === input.pr.number);
    steps.push(`#${n} is in this PR's stack: merge in stack order (#${order.join(', then #')}) and rebase the upper PR on the lower one after each merge`);
  } else if (symbolic.length > 0 || clashing.length > 0) {
    const mine = size(input.files);
    const theirs = size(other.files);
    const first = theirs < mine || (theirs === mine && n < input.pr.number) ? `#${n}` : 'this PR';
    const second = first === 'this PR' ? `#${n}` : 'this PR';
    const what = symbolic.length > 0 ? quote(symbolic.flatMap((o) => o.shared)) : clashing.map((o) => o.path).join(', ');
    steps.push(
      `coordinate with ${who} on ${what}: merge ${first} first (the smaller change: ${Math.min(mine, theirs)} vs ${Math.max(mine, theirs)} changed lines), then rebase ${second} onto it, resolve ${what} by hand and re-run its tests`,
    );
  } else if (usages.length > 0) {
    steps.push(
      `tell ${who} that ${quote([...new Set(usages.map((u) => u.symbol))])} changes; after either PR merges, rebase the other and re-run the tests that cover those uses`,
    );
  } else if (apart.length > 0) {
    steps.push(
      `no coordination needed: after either PR merges, rebase the other (git should merge ${apart.map((o) => o.path).join(', ')} cleanly) and re-run the tests`,
    );
  }
  if (regenerated.length > 0) steps.push(`do not hand-merge ${regenerated.map((o) => o.path).join(', ')}: after the first PR merges, rebase and regenerate it`);

  const severity = symbolic.length > 0 ? 4 : clashing.length > 0 ? 3 : usages.length > 0 ? 2 : 1;
  return {
    entry: {
      pr_number: n,
      title: other.pr.title,
      semantic_conflict,
      resolution_suggestion: `${capitalise(steps.join('; '))}.`,
      overlapping_files: overlaps.map((o) => o.path),
    },
    severity,
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function summarise(checked: number[], found: Array<{ entry: PrConflicts['conflicts'][number]; severity: number }>): string {
  if (checked.length === 0) return 'No other open pull requests to compare with.';
  const list = (severity: number) => found.filter((f) => f.severity === severity).map((f) => `#${f.entry.pr_number}`);
  const parts: string[] = [];
  const symbolic = list(4);
  const textual = list(3);
  const usage = list(2);
  const apart = list(1);
  if (symbolic.length > 0) parts.push(`${symbolic.length} edit the same symbols (${symbolic.join(', ')})`);
  if (textual.length > 0) parts.push(`${textual.length} overlap textually (${textual.join(', ')})`);
  if (usage.length > 0) parts.push(`${usage.length} edit code that uses a symbol the other changes (${usage.join(', ')})`);
  if (apart.length > 0) parts.push(`${apart.length} share files without overlapping edits (${apart.join(', ')})`);
  const clean = checked.length - found.length;
  if (clean > 0) parts.push(`${clean} have no overlap`);
  return `Checked ${checked.length} open PR${checked.length === 1 ? '' : 's'} (${checked.map((c) => `#${c}`).join(', ')}): ${parts.join('; ')}.`;
}
