// Finds coverage reports where test runners write them, at the root and in each workspace package,
// reads them from disk beside the snapshot (coverage/ is usually gitignored, so the inventory never
// lists it) through the engine's checked read, and maps their per-file numbers onto the
// repository's files.
import { stat } from 'node:fs/promises';
import { isAbsolute, join, posix, relative, sep } from 'node:path';
import { decodeText, repositoryFiles, type RepoSnapshot, type RepositoryFiles } from '@codehealth/engine/kit';
import { parseCobertura } from './cobertura.js';
import { parseIstanbulFinal, parseIstanbulSummary } from './istanbul.js';
import { parseLcov } from './lcov.js';
import type { CoverageFormat, ParsedCoverage } from './types.js';

/** Per directory, the first report found wins: formats with per-line data first. */
const CANDIDATES: ReadonlyArray<{ file: string; format: CoverageFormat }> = [
  { file: 'coverage/lcov.info', format: 'lcov' },
  { file: 'lcov.info', format: 'lcov' },
  { file: 'coverage/coverage-final.json', format: 'istanbul-final' },
  { file: 'coverage/cobertura-coverage.xml', format: 'cobertura' },
  { file: 'coverage/coverage.xml', format: 'cobertura' },
  { file: 'coverage.xml', format: 'cobertura' },
  { file: 'coverage/coverage-summary.json', format: 'istanbul-summary' },
];
/** A report larger than this is not read (a generated report of that size would stall the run). */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

export interface FileCoverageResult {
  path: string;
  found: number;
  hit: number;
  pct: number;
  uncovered?: number[];
  /** Repository-relative path of the report that gave the numbers. */
  report: string;
  reportMtimeMs: number;
}

export interface LoadedCoverage {
  reports: Array<{ file: string; format: CoverageFormat; mtimeMs: number }>;
  /** 0-100 over every report found, one decimal; null when there is none (or it counts no lines). */
  pct: number | null;
  files: Map<string, FileCoverageResult>;
}

const PARSERS: Record<CoverageFormat, (text: string) => ParsedCoverage | undefined> = {
  lcov: parseLcov,
  'istanbul-final': parseIstanbulFinal,
  cobertura: parseCobertura,
  'istanbul-summary': parseIstanbulSummary,
};

const memo = new WeakMap<RepoSnapshot, Promise<LoadedCoverage>>();

export function loadCoverage(snapshot: RepoSnapshot): Promise<LoadedCoverage> {
  let loaded = memo.get(snapshot);
  if (!loaded) memo.set(snapshot, (loaded = load(snapshot)));
  return loaded;
}

const toPosix = (path: string) => path.split(sep).join('/');

/** Maps a report's path onto an inventoried file: under the root, relative to a base, or by suffix. */
function createPathMapper(root: string, paths: readonly string[]): (reported: string, bases: readonly string[]) => string | undefined {
  const known = new Set(paths);
  const byName = new Map<string, string[]>();
  for (const path of paths) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    byName.set(name, [...(byName.get(name) ?? []), path]);
  }
  return (reported, bases) => {
    const normalised = reported.replace(/\\/g, '/');
    const candidates = isAbsolute(reported) || /^[A-Za-z]:\//.test(normalised) ? [reported] : bases.map((base) => join(base, reported));
    for (const candidate of candidates) {
      const rel = toPosix(relative(root, candidate));
      if (!rel.startsWith('..') && known.has(rel)) return rel;
    }
    // Reports written on another machine (CI) keep its absolute paths: match the longest suffix.
    const name = normalised.slice(normalised.lastIndexOf('/') + 1);
    let best: string | undefined;
    for (const path of byName.get(name) ?? []) {
      if ((normalised === path || normalised.endsWith(`/${path}`)) && (!best || path.length > best.length)) best = path;
    }
    return best;
  };
}

async function readReport(
  files: RepositoryFiles,
  dir: string,
): Promise<{ file: string; format: CoverageFormat; mtimeMs: number; parsed: ParsedCoverage } | undefined> {
  // Without a coverage/ directory its candidates cannot exist: one probe instead of five. The probe
  // reads nothing: where a linked coverage/ leads is checked by each read.
  const coverageDir = await stat(join(files.root, dir, 'coverage')).catch(() => undefined);
  const hasCoverageDir = coverageDir?.isDirectory() ?? false;
  for (const candidate of CANDIDATES) {
    if (!hasCoverageDir && candidate.file.startsWith('coverage/')) continue;
    const file = dir === '' ? candidate.file : posix.join(dir, candidate.file);
    // A link is followed only to a report inside the repository; FIFOs, devices and huge files are not read.
    const read = await files.read(file, { maxBytes: MAX_REPORT_BYTES });
    if (!read.ok) continue;
    try {
      const parsed = PARSERS[candidate.format](decodeText(read.bytes));
      if (parsed) return { file, format: candidate.format, mtimeMs: read.mtimeMs, parsed };
    } catch {
      // A malformed report is no report; the next candidate may do.
    }
  }
  return undefined;
}

async function load(snapshot: RepoSnapshot): Promise<LoadedCoverage> {
  const root = snapshot.root;
  const packageDirs = new Set(['']);
  for (const file of snapshot.files) {
    if (file.path === 'package.json' || file.path.endsWith('/package.json')) packageDirs.add(posix.dirname(file.path) === '.' ? '' : posix.dirname(file.path));
  }
  const code = snapshot.files.filter((f) => f.kind === 'source' || f.kind === 'test');
  const testFiles = new Set(code.filter((f) => f.kind === 'test').map((f) => f.path));
  const mapPath = createPathMapper(
    root,
    code.map((f) => f.path),
  );
  const result: LoadedCoverage = { reports: [], pct: null, files: new Map() };
  let found = 0;
  let hit = 0;
  const rates: number[] = [];
  // Every package directory is probed at once (a monorepo or a package with a manifest per
  // entry point has hundreds); the reports are then taken in directory order.
  const dirs = [...packageDirs].sort();
  const files = repositoryFiles(root);
  const reports = await Promise.all(dirs.map((dir) => readReport(files, dir)));
  for (let d = 0; d < dirs.length; d++) {
    const dir = dirs[d];
    const report = reports[d];
    if (!report) continue;
    const { parsed } = report;
    result.reports.push({ file: report.file, format: report.format, mtimeMs: report.mtimeMs });
    found += parsed.total.found;
    hit += parsed.total.hit;
    if (parsed.rate !== undefined) rates.push(parsed.rate);
    const bases = [join(root, dir), ...(parsed.sources ?? []).map((source) => (isAbsolute(source) ? source : join(root, dir, source)))];
    for (const entry of parsed.files) {
      const path = mapPath(entry.path, bases);
      // Some runners (node --test) instrument the tests too; coverage is of the code under test.
      if (path !== undefined && testFiles.has(path)) {
        found -= entry.found;
        hit -= entry.hit;
        continue;
      }
      if (path === undefined || result.files.has(path) || entry.found === 0) continue;
      result.files.set(path, {
        path,
        found: entry.found,
        hit: entry.hit,
        pct: Math.round((entry.hit / entry.found) * 1000) / 10,
        ...(entry.uncovered ? { uncovered: entry.uncovered } : {}),
        report: report.file,
        reportMtimeMs: report.mtimeMs,
      });
    }
  }
  if (found > 0) result.pct = Math.round((hit / found) * 1000) / 10;
  else if (rates.length > 0) result.pct = Math.round((rates.reduce((a, b) => a + b, 0) / rates.length) * 1000) / 10;
  return result;
}
