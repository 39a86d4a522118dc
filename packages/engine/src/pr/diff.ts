// Reads a pull request's diff from git: the merge base of base and head, every changed file with
// its status (renames and copies detected), line counts, unified hunks (`-U0`), binary detection,
// the engine's file kind (generated and vendored files are set aside from analysis) and the
// symbols the hunks touch on both sides (diff-symbols.ts).
import type { FileKind } from '../domain/types.js';
import { createClassifier, type ClassifyOptions } from '../snapshot/classify.js';
import { isParsedLanguage } from '../parsing/parser.js';
import { detectLanguage } from '../snapshot/languages.js';
import { git, PrGitError, readBlobs, resolveCommits, tryGit } from './diff-git.js';
import { markCosmeticHunks, meaningfulHunks, type DeclarationLines } from './cosmetic-hunks.js';
import { reachedExports } from './reached-symbols.js';
import { parseSides, symbolsOfChange, type SideFacts, type SideFactsReader, type SideRequest } from './diff-symbols.js';
import type { ChangedFile, ChangeStatus, DiffHunk, PullRequestDiff } from './types.js';

/** How much of the head of a file the classifier reads for generated-file markers. */
export const CLASSIFY_HEAD_BYTES = 4096;
const DIFF_FLAGS = ['--no-ext-diff', '--no-textconv', '--no-color', '-M', '-C'];
const MANIFEST = /(^|\/)package\.json$/;
const STATUS: Record<string, ChangeStatus> = { A: 'added', M: 'modified', D: 'deleted', R: 'renamed', C: 'copied', T: 'type_changed' };

export interface ReadDiffOptions {
  /** Extra test and generated globs (a repository's `codehealth.config` `tests` / `generated`). */
  classify?: ClassifyOptions;
  /** Reads the module facts of the changed code files' sides; default: parse each here. */
  sideFacts?: SideFactsReader;
  /**
   * Called with the changed files (and the commits compared) as soon as git has listed them, while
   * it still counts, diffs and reads their blobs: a caller holding head's checkout may start work
   * on them meanwhile.
   */
  onListed?: (files: ReadonlyArray<{ path: string; status: ChangeStatus; oldPath?: string }>, commits: { mergeBaseSha: string; headSha: string }) => void;
}

/** The diff plus what the reader parsed on the way, for the pipeline's later steps. */
export interface PullRequestChange {
  diff: PullRequestDiff;
  /** Module facts and parse health of each side of every code file, by head path (base path for deletions). */
  sides: Map<string, { base?: SideFacts; head?: SideFacts }>;
  /**
   * Text of both sides of changed code files and `package.json` manifests, by head path: the
   * structural-change check compares changed lines, dependency changes are read from manifests.
   */
  texts: Map<string, { base?: string; head?: string }>;
}

export async function readPullRequestDiff(repoDir: string, baseSha: string, headSha: string, options: ReadDiffOptions = {}): Promise<PullRequestDiff> {
  return (await readPullRequestChange(repoDir, baseSha, headSha, options)).diff;
}

/** Splits NUL-separated output, dropping the empty tail; no output (nothing changed: an empty or already-merged PR) is no field. */
const fields = (output: string) => (output === '' ? [] : output.split('\0').slice(0, output.endsWith('\0') ? -1 : undefined));

interface StatusEntry {
  status: ChangeStatus;
  path: string;
  oldPath?: string;
}

function parseNameStatus(output: string): StatusEntry[] {
  const tokens = fields(output);
  const entries: StatusEntry[] = [];
  for (let i = 0; i < tokens.length;) {
    const code = tokens[i++]!;
    const status = STATUS[code[0]!];
    if (!status) throw new PrGitError(`unexpected git name-status entry '${code}'`);
    if (status === 'renamed' || status === 'copied') entries.push({ status, oldPath: tokens[i++]!, path: tokens[i++]! });
    else entries.push({ status, path: tokens[i++]! });
  }
  return entries;
}

/** additions/deletions by destination path; `null` counts mark a binary file. */
function parseNumstat(output: string): Map<string, { additions: number | null; deletions: number | null }> {
  const tokens = fields(output);
  const counts = new Map<string, { additions: number | null; deletions: number | null }>();
  for (let i = 0; i < tokens.length;) {
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(tokens[i++]!);
    if (!match) continue;
    // A rename or copy leaves the path empty and names old and new in the next two fields.
    const path = match[3] === '' ? (i++, tokens[i++]!) : match[3]!;
    const count = (value: string) => (value === '-' ? null : Number(value));
    counts.set(path, { additions: count(match[1]!), deletions: count(match[2]!) });
  }
  return counts;
}

/** Hunks of each file pair, in diff order (the order of `--name-status`: git emits one queue). */
function parseHunks(patch: string): DiffHunk[][] {
  const files: DiffHunk[][] = [];
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) files.push([]);
    else if (line.startsWith('@@ ') && files.length > 0) {
      const match = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (!match) continue;
      files[files.length - 1]!.push({
        oldStart: Number(match[1]),
        oldLines: match[2] === undefined ? 1 : Number(match[2]),
        newStart: Number(match[3]),
        newLines: match[4] === undefined ? 1 : Number(match[4]),
      });
    }
  }
  return files;
}

async function commitsBetween(repoDir: string, from: string, to: string): Promise<PullRequestDiff['commits']> {
  const log = await git(repoDir, ['log', '--no-show-signature', '--format=%H%x1f%s', '--reverse', `${from}..${to}`]);
  return log
    .split('\n')
    .filter((line) => line.includes('\x1f'))
    .map((line) => {
      const [sha, subject] = line.split('\x1f');
      return { sha: sha!, subject: subject ?? '' };
    });
}

/** The merge base of base and head; base itself when the histories are unrelated. */
export async function mergeBaseOf(repoDir: string, baseSha: string, headSha: string): Promise<string> {
  return (await tryGit(repoDir, ['merge-base', baseSha, headSha]))?.trim() || baseSha;
}

const utf8 = new TextDecoder('utf-8');

/** A side's top-level declarations (methods sit inside their class), none when its parse had errors. */
const declarationsOf = (side: SideFacts | undefined): DeclarationLines | undefined =>
  side === undefined || side.facts.partial ? undefined : side.facts.symbols.filter((symbol) => symbol.container === undefined);

export async function readPullRequestChange(repoDir: string, baseRev: string, headRev: string, options: ReadDiffOptions = {}): Promise<PullRequestChange> {
  for (const rev of [baseRev, headRev]) if (rev.startsWith('-')) throw new PrGitError(`invalid revision '${rev}'`);
  // The merge base is asked of the revisions as given while they are resolved: one git round trip fewer.
  const [[baseSha, headSha], mergeBase] = await Promise.all([resolveCommits(repoDir, [baseRev, headRev]), tryGit(repoDir, ['merge-base', baseRev, headRev])]);
  const mergeBaseSha = mergeBase?.trim() || baseSha;
  const range = [mergeBaseSha, headSha];
  const listing = git(repoDir, ['diff', ...DIFF_FLAGS, '--name-status', '-z', ...range]);
  const rest = Promise.all([
    git(repoDir, ['diff', ...DIFF_FLAGS, '--numstat', '-z', ...range]),
    git(repoDir, ['diff', ...DIFF_FLAGS, '-U0', ...range]),
    commitsBetween(repoDir, mergeBaseSha, headSha),
  ]);
  rest.catch(() => {
    // Awaited below; a failure of the listing must not leave this one unhandled.
  });
  const entries = parseNameStatus(await listing);
  const sidesOf = (entry: StatusEntry) => [
    ...(entry.status !== 'deleted' ? [`${headSha}:${entry.path}`] : []),
    ...(entry.status !== 'added' ? [`${mergeBaseSha}:${entry.oldPath ?? entry.path}`] : []),
  ];
  // Code files are text: their blobs are read while git counts and diffs (one round trip fewer).
  // Binary ones (known from the counts) are left out below as before.
  const earlySpecs = new Set(
    entries.filter((entry) => isParsedLanguage(detectLanguage(entry.path)) || isParsedLanguage(detectLanguage(entry.oldPath ?? entry.path))).flatMap(sidesOf),
  );
  // A failure (a huge binary file with a code extension, say) only sends them to the read below.
  const early = readBlobs(repoDir, [...earlySpecs]).catch(() => undefined);
  options.onListed?.(
    entries.map(({ path, status, oldPath }) => ({ path, status, ...(oldPath !== undefined ? { oldPath } : {}) })),
    { mergeBaseSha, headSha },
  );
  const [numstat, patch, commits] = await rest;
  const counts = parseNumstat(numstat);
  const hunks = parseHunks(patch);
  if (hunks.length !== entries.length) throw new PrGitError(`git diff listed ${entries.length} files but printed ${hunks.length} patches`);

  // Both sides of every text file: the classifier needs the head of the file, the symbol mapper
  // and the manifest reader the whole text.
  const specs: string[] = [];
  entries.forEach((entry, i) => {
    if (counts.get(entry.path)?.additions === null && hunks[i]!.length === 0) return; // binary
    specs.push(...sidesOf(entry));
  });
  const earlyBlobs = await early;
  const readEarly = (spec: string) => earlyBlobs !== undefined && earlySpecs.has(spec);
  const laterBlobs = await readBlobs(
    repoDir,
    specs.filter((spec) => !readEarly(spec)),
  );
  const blobs = new Map(specs.map((spec) => [spec, readEarly(spec) ? earlyBlobs!.get(spec) : laterBlobs.get(spec)]));
  const text = (sha: string, path: string) => {
    const blob = blobs.get(`${sha}:${path}`);
    return blob === undefined ? undefined : utf8.decode(blob);
  };

  const classify = createClassifier(options.classify);
  const read = entries.map((entry) => {
    const count = counts.get(entry.path) ?? { additions: 0, deletions: 0 };
    const basePath = entry.oldPath ?? entry.path;
    const headText = entry.status === 'deleted' ? undefined : text(headSha, entry.path);
    const baseText = entry.status === 'added' ? undefined : text(mergeBaseSha, basePath);
    const kind: FileKind =
      entry.status === 'deleted' ? classify(basePath, baseText?.slice(0, CLASSIFY_HEAD_BYTES)) : classify(entry.path, headText?.slice(0, CLASSIFY_HEAD_BYTES));
    const binary = count.additions === null;
    const code = !binary && (kind === 'source' || kind === 'test');
    return { entry, count, basePath, headText, baseText, kind, binary, code };
  });
  // Both sides of every code file in one batch: the engine's reader answers most from its cache.
  const requests: SideRequest[] = [];
  const sideIndex = new Map<string, number>();
  for (const { entry, basePath, headText, baseText, kind, code } of read) {
    if (!code || kind === 'generated' || kind === 'vendored') continue;
    if (baseText !== undefined)
      sideIndex.set(`base\0${entry.path}`, requests.push({ path: basePath, kind, language: detectLanguage(basePath), source: baseText }) - 1);
    if (headText !== undefined)
      sideIndex.set(`head\0${entry.path}`, requests.push({ path: entry.path, kind, language: detectLanguage(entry.path), source: headText }) - 1);
  }
  const answers = requests.length > 0 ? await (options.sideFacts ?? parseSides)(requests) : [];
  const factsFor = (side: 'base' | 'head', path: string) => {
    const index = sideIndex.get(`${side}\0${path}`);
    return index === undefined ? undefined : answers[index];
  };

  const files: ChangedFile[] = [];
  const sides: PullRequestChange['sides'] = new Map();
  const texts: PullRequestChange['texts'] = new Map();
  read.forEach(({ entry, count, basePath, headText, baseText, kind, binary, code }, i) => {
    const generated = kind === 'generated' || kind === 'vendored';
    let fileHunks = hunks[i]!;
    let symbols: ChangedFile['symbols'] = [];
    if (code && !generated) {
      // Comment-only and whitespace-only hunks touch no symbol.
      const base = factsFor('base', entry.path);
      const head = factsFor('head', entry.path);
      fileHunks = markCosmeticHunks(fileHunks, baseText, headText, detectLanguage(entry.path), { base: declarationsOf(base), head: declarationsOf(head) });
      const mapped = symbolsOfChange({ hunks: meaningfulHunks(fileHunks), base, head });
      // Exported symbols that use a touched private helper of the module change with it.
      symbols = [...mapped.symbols, ...reachedExports(mapped.symbols, mapped.head, headText)];
      // A copy is diffed against its source, which still exists: what the copy leaves out of the
      // source is not removed from the code (no "removes X" API change, no rename to pair it with).
      if (entry.status === 'copied') symbols = symbols.filter((symbol) => symbol.change !== 'removed');
      if (mapped.base || mapped.head) sides.set(entry.path, { base: mapped.base, head: mapped.head });
      texts.set(entry.path, { base: baseText, head: headText });
    }
    if (MANIFEST.test(entry.path) || MANIFEST.test(basePath)) texts.set(entry.path, { base: baseText, head: headText });
    files.push({
      path: entry.path,
      ...(entry.oldPath !== undefined ? { oldPath: entry.oldPath } : {}),
      status: entry.status,
      additions: count.additions ?? 0,
      deletions: count.deletions ?? 0,
      binary,
      generated,
      kind,
      hunks: fileHunks,
      symbols,
    });
  });
  return { diff: { baseSha, headSha, mergeBaseSha, files, commits }, sides, texts };
}
