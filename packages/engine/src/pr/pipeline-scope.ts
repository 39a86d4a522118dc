// The scope of a PR's incremental analysis: its changed code files and their 1-hop graph
// neighbours (importers and importees). Before head is analysed the neighbours are predicted
// cheaply (relative imports of the changed files on both sides, `git grep` for files importing
// them unless head's run is derived from the base's state, and the base graph when there is one),
// so analyzers run on them; afterwards the head graph gives the exact set, and a neighbour no
// analyzer ran on is marked unverified.
import { isParsedLanguage } from '../parsing/parser.js';
import { detectLanguage } from '../snapshot/languages.js';
import type { CodeGraph } from '../graph/types.js';
import type { FileSummary } from '../pipeline/file-summary.js';
import { git } from './diff-git.js';
import type { PullRequestChange } from './diff.js';
import type { ChangedFile } from './types.js';

const RESOLVE_EXTENSIONS = [
  '',
  '.ts',
  '.tsx',
  '.mts',
  '.cts',
  '.js',
  '.jsx',
  '.mjs',
  '.cjs',
  '/index.ts',
  '/index.tsx',
  '/index.js',
  '/index.jsx',
  '/index.mjs',
];
const CODE_GLOBS = ['*.ts', '*.tsx', '*.mts', '*.cts', '*.js', '*.jsx', '*.mjs', '*.cjs'];
/** Stems per `git grep` pattern: keeps the regular expression small. */
const GREP_BATCH = 40;

export const isAnalysedCode = (file: ChangedFile) =>
  !file.generated && !file.binary && (file.kind === 'source' || file.kind === 'test') && isParsedLanguage(detectLanguage(file.path));

/** `a/b/../c.js` -> `a/c.js`; undefined when it climbs out of the repository. */
function normalise(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join('/');
}

/** Resolves a relative specifier against the repository's files, TypeScript style (`./x.js` may be `x.ts`). */
export function resolveRelative(from: string, specifier: string, files: ReadonlySet<string>): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const dir = from.includes('/') ? from.slice(0, from.lastIndexOf('/')) : '';
  const joined = normalise(`${dir}/${specifier}`);
  if (joined === undefined) return undefined;
  const stems = [joined, joined.replace(/\.([cm]?)jsx?$/, '')];
  for (const stem of stems) for (const ext of RESOLVE_EXTENSIONS) if (files.has(stem + ext)) return stem + ext;
  return undefined;
}

/** The name other files import a module by: its file name without extension, or its directory for an index file. */
function importStem(path: string): string | undefined {
  const parts = path.split('/');
  const name = parts.pop()!.replace(/\.[^.]+$/, '');
  const stem = name === 'index' ? parts.pop() : name;
  return stem && /^[A-Za-z0-9_.@-]+$/.test(stem) ? stem : undefined;
}

const escapeEre = (text: string) => text.replace(/[.[\]()*+?{}|^$\\]/g, '\\$&');

export interface PredictedScope {
  changedCode: string[];
  neighbours: Set<string>;
}

/**
 * Changed code files (head paths) and a superset of their neighbours, before head is analysed.
 * `importers: false` leaves out the `git grep` for files importing them: for a head run derived
 * from the base's state, where every unchanged file gets its findings anyway.
 */
export async function predictScope(
  repoDir: string,
  change: PullRequestChange,
  headFiles: ReadonlySet<string>,
  baseGraph?: CodeGraph,
  options: { importers?: boolean } = {},
): Promise<PredictedScope> {
  const code = change.diff.files.filter(isAnalysedCode);
  const changedCode = code.filter((f) => f.status !== 'deleted').map((f) => f.path);
  const neighbours = new Set<string>();
  for (const file of code) {
    const sides = change.sides.get(file.path);
    const basePath = file.oldPath ?? file.path;
    for (const record of sides?.head?.facts.imports ?? []) {
      const target = resolveRelative(file.path, record.specifier, headFiles);
      if (target) neighbours.add(target);
    }
    for (const record of sides?.base?.facts.imports ?? []) {
      const target = resolveRelative(basePath, record.specifier, headFiles);
      if (target) neighbours.add(target);
    }
    for (const path of baseNeighbours(baseGraph, basePath)) if (headFiles.has(path)) neighbours.add(path);
  }
  const stems =
    options.importers === false
      ? []
      : [
          ...new Set(
            code
              .flatMap((f) => [f.path, f.oldPath ?? f.path])
              .map(importStem)
              .filter((s): s is string => s !== undefined),
          ),
        ];
  for (let i = 0; i < stems.length; i += GREP_BATCH) {
    const alternatives = stems
      .slice(i, i + GREP_BATCH)
      .map(escapeEre)
      .join('|');
    const pattern = `(from|import|require)[[:space:]]*[(]?[[:space:]]*['"][^'"]*/(${alternatives})([.][a-z]+)?['"]`;
    // Exit status 1 means no match: an empty answer.
    const head = change.diff.headSha;
    const out = await git(repoDir, ['grep', '-l', '-z', '-E', '-e', pattern, head, '--', ...CODE_GLOBS]).catch(() => '');
    for (const hit of out.split('\0')) if (hit.startsWith(`${head}:`)) neighbours.add(hit.slice(head.length + 1));
  }
  for (const path of changedCode) neighbours.delete(path);
  return { changedCode, neighbours };
}

function baseNeighbours(graph: CodeGraph | undefined, path: string): string[] {
  const module = graph?.modules.get(path);
  if (!module) return [];
  return [...module.importedBy, ...module.imports.filter((e) => e.resolution === 'internal' && e.to).map((e) => e.to!)];
}

export interface FinalScope {
  changed: Set<string>;
  neighbours: Set<string>;
  /** Code files of the scope whose head findings are missing (not cached and not analysed). */
  unverified: Set<string>;
}

/**
 * The 1-hop neighbours of the changed code in the head graph, in the base graph when there is one
 * (those still in head), and head modules left with an unresolved import of a deleted or renamed
 * file. Changed files that import each other are among them.
 */
export function graphNeighbours(change: PullRequestChange, changedCode: readonly string[], graph: CodeGraph, baseGraph?: CodeGraph): Set<string> {
  const neighbours = new Set<string>();
  for (const path of changedCode) for (const n of baseNeighbours(graph, path)) neighbours.add(n);
  const deletedStems = new Set<string>();
  for (const file of change.diff.files.filter(isAnalysedCode)) {
    const basePath = file.oldPath ?? file.path;
    for (const n of baseNeighbours(baseGraph, basePath)) if (graph.modules.has(n)) neighbours.add(n);
    if (file.status === 'deleted' || file.status === 'renamed') {
      const stem = importStem(basePath);
      if (stem) deletedStems.add(stem);
    }
  }
  if (deletedStems.size > 0) {
    for (const module of graph.modules.values()) {
      if (module.imports.some((e) => e.resolution === 'unresolved' && deletedStems.has(importStem(e.specifier) ?? ''))) neighbours.add(module.path);
    }
  }
  return neighbours;
}

/**
 * The exact scope after head's analysis: the changed files and their `graphNeighbours`. A code
 * file's head findings are trusted when its summary came from the cache (rules ran when it was
 * cached), it was among the analysed paths, or it is unchanged in a run derived from the base's
 * state (which runs the rules on every unchanged file the cache misses).
 */
export function finalScope(
  change: PullRequestChange,
  predicted: PredictedScope,
  head: { graph: CodeGraph; summaries: readonly FileSummary[]; derivedFrom?: string },
  onlyPaths: ReadonlySet<string>,
  baseGraph?: CodeGraph,
): FinalScope {
  const changed = new Set(change.diff.files.filter((f) => f.status !== 'deleted' && !f.generated).map((f) => f.path));
  const neighbours = graphNeighbours(change, predicted.changedCode, head.graph, baseGraph);
  for (const path of changed) neighbours.delete(path);
  const summaries = new Map(head.summaries.map((s) => [s.path, s]));
  const touched = new Set(change.diff.files.map((f) => f.path));
  const unverified = new Set<string>();
  for (const path of [...changed, ...neighbours]) {
    const summary = summaries.get(path);
    if (!summary || !isParsedLanguage(summary.language) || (summary.kind !== 'source' && summary.kind !== 'test')) continue;
    const hadRules = summary.cached || onlyPaths.has(path) || (head.derivedFrom !== undefined && !touched.has(path));
    if (summary.skipped || !hadRules) unverified.add(path);
  }
  return { changed, neighbours, unverified };
}
