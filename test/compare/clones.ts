// Compares the duplication analyzer with jscpd 5.3.3 on the same files: the share of jscpd's
// clones we also report (a jscpd clone is found when one of our clones has copies overlapping
// both of its fragments), the clones only one tool reports with the reason, and both tools'
// wall time. Used by the agreement test in packages/analyzers and by `node test/compare/clones.mjs`.
import { cpSync, mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Finding } from '@codehealth/engine';
import { duplication } from '../../packages/analyzers/src/duplication/index.js';
import { CLASS_BITS, TOKEN_CLASS, lexTokens } from '../../packages/analyzers/src/duplication/lexer.js';
import { runJscpd, type CloneLocation, type JscpdClone, type JscpdRun } from './jscpd.js';

export { obtainJscpd, JSCPD_VERSION } from './jscpd.js';
export type { JscpdClone, CloneLocation } from './jscpd.js';

/** Our options that make the analyzer look at what jscpd looks at (tests, imports, overload sets). */
export const JSCPD_COMPATIBLE = { ignoreTests: false, ignoreImports: false, ignoreOverloads: false } as const;
export const THRESHOLDS = { minTokens: 50, minLines: 5 } as const;

export interface OurRun {
  findings: Finding[];
  /** Wall time of the whole engine run (inventory, parse, walk, detection), one thread. */
  ms: number;
  /** Of which the repository rule (clone detection over the stored token streams). */
  ruleMs: number;
  duplicationIndex?: number;
  duplicatedLines?: number;
  files: number;
}

export interface OurClone {
  finding: Finding;
  /** The reported copy first, then the other copies the finding names (its clone's, then related ones). */
  locations: CloneLocation[];
}

export interface ComparisonReport {
  corpus: string;
  jscpd: JscpdRun;
  ours: OurRun;
  /** jscpd clones one of our clones covers. */
  found: number;
  /** found / jscpd clones (1 when jscpd finds none). */
  agreement: number;
  missed: Array<{ clone: JscpdClone; reason: string }>;
  oursOnly: Array<{ clone: OurClone; reason: string }>;
}

export async function runOurs(dir: string, options: Record<string, unknown> = {}): Promise<OurRun> {
  const engine = await createEngine({ plugins: [{ name: 'clones-comparison', analyzers: [duplication] }], cacheDir: false, workers: 0 });
  const started = performance.now();
  let ruleStarted = 0;
  let ruleMs = 0;
  const result = await engine.analyze(dir, {
    config: { rules: { 'duplication/duplicated-code': { options } } },
    onProgress: (event) => {
      if (event.message === 'Running duplication/duplicated-code') ruleStarted = performance.now();
      else if (event.stage === 'scoring' && ruleStarted > 0) ruleMs = performance.now() - ruleStarted;
    },
  });
  return {
    findings: result.findings.filter((f) => f.ruleId === 'duplication/duplicated-code'),
    ms: performance.now() - started,
    ruleMs,
    duplicationIndex: result.metrics.duplicationIndex,
    duplicatedLines: result.metrics.duplicatedLines,
    files: result.summaries.length,
  };
}

export function ourClones(findings: readonly Finding[]): OurClone[] {
  return findings.map((finding) => {
    const others = [finding.data?.locations, finding.data?.relatedLocations]
      .filter((text) => typeof text === 'string' && text !== '')
      .join(', ')
      .split(', ')
      .map((text) => /^(.*):(\d+)-(\d+)$/.exec(text))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => ({ path: m[1], lineStart: Number(m[2]), lineEnd: Number(m[3]) }));
    return { finding, locations: [{ path: finding.filePath, lineStart: finding.anchor.lineStart, lineEnd: finding.anchor.lineEnd }, ...others] };
  });
}

function overlaps(a: CloneLocation, b: CloneLocation): boolean {
  return a.path === b.path && a.lineStart <= b.lineEnd && b.lineStart <= a.lineEnd;
}

/** True when two different copies of one of our clones overlap the two fragments. */
export function covers(clone: OurClone, a: CloneLocation, b: CloneLocation): boolean {
  const { locations } = clone;
  return locations.some((x, i) => overlaps(x, a) && locations.some((y, j) => j !== i && overlaps(y, b)));
}

const FORMAT_BY_EXTENSION: Record<string, string> = { ts: 'typescript', mts: 'typescript', cts: 'typescript', tsx: 'tsx', jsx: 'jsx' };
function formatOf(path: string): string {
  return FORMAT_BY_EXTENSION[path.split('.').pop() ?? ''] ?? 'javascript';
}

/** Lines holding code (not only comments or blanks) in a line range of a file. */
export function codeLinesIn(dir: string, location: CloneLocation): number {
  const tokens = lexTokens(readFileSync(join(dir, location.path), 'utf8'));
  const rows = new Set<number>();
  for (let i = 0; i < tokens.count; i++) {
    const row = tokens.rows[i] + 1;
    if ((tokens.hashes[i] & CLASS_BITS) !== TOKEN_CLASS.comment && row >= location.lineStart && row <= location.lineEnd) rows.add(row);
  }
  return rows.size;
}

function whyMissed(dir: string, clone: JscpdClone, compatible?: readonly OurClone[]): string {
  if (Math.max(codeLinesIn(dir, clone.a), codeLinesIn(dir, clone.b)) < THRESHOLDS.minLines) {
    return `fewer than ${THRESHOLDS.minLines} lines of code (jscpd counts the comment and blank lines inside)`;
  }
  if (compatible?.some((c) => covers(c, clone.a, clone.b))) {
    if (/\.(test|spec)\.|\/(test|tests|__tests__|fixtures)\//.test(`/${clone.a.path} /${clone.b.path}`)) return 'left out by default: test code';
    const code = clone.fragment
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !/^(\/\/|\/\*|\*)/.test(l));
    if (code.filter((l) => /^(import\b|export\b.*\bfrom\b|\} from\b)/.test(l)).length * 2 >= code.length) return 'left out by default: import declarations';
    return 'left out by default: inside one overload set';
  }
  return 'not found';
}

function whyOursOnly(clone: OurClone, original: CloneLocation, jscpd: readonly JscpdClone[]): string {
  const own = clone.locations[0];
  if (formatOf(own.path) !== formatOf(original.path)) return 'across file formats (jscpd compares files of one format)';
  const first = original.path < own.path || (original.path === own.path && original.lineStart < own.lineStart) ? original : own;
  if (first.lineEnd - first.lineStart < THRESHOLDS.minLines)
    return `spans ${THRESHOLDS.minLines} lines (jscpd needs its first copy to span more than ${THRESHOLDS.minLines})`;
  if (jscpd.some((j) => covers(clone, j.a, j.b))) return 'a pair of a clone class jscpd reports through its other pairs';
  return 'other';
}

export function compareClones(corpus: string, dir: string, jscpd: JscpdRun, ours: OurRun, compatible?: OurRun): ComparisonReport {
  const clones = ourClones(ours.findings);
  const compatibleClones = compatible ? ourClones(compatible.findings) : undefined;
  const missed: ComparisonReport['missed'] = [];
  let found = 0;
  for (const clone of jscpd.clones) {
    if (clones.some((c) => covers(c, clone.a, clone.b))) found++;
    else missed.push({ clone, reason: whyMissed(dir, clone, compatibleClones) });
  }
  const oursOnly: ComparisonReport['oursOnly'] = [];
  for (const clone of clones) {
    const original = {
      path: String(clone.finding.data?.originalPath),
      lineStart: Number(clone.finding.data?.originalLineStart),
      lineEnd: Number(clone.finding.data?.originalLineEnd),
    };
    const own = clone.locations[0];
    const reported = jscpd.clones.some((j) => (overlaps(own, j.a) && overlaps(original, j.b)) || (overlaps(own, j.b) && overlaps(original, j.a)));
    if (!reported) oursOnly.push({ clone, reason: whyOursOnly(clone, original, jscpd.clones) });
  }
  const agreement = jscpd.clones.length === 0 ? 1 : found / jscpd.clones.length;
  return { corpus, jscpd, ours, found, agreement, missed, oursOnly };
}

const at = (l: CloneLocation): string => `${l.path}:${l.lineStart}-${l.lineEnd}`;

export function formatComparison(report: ComparisonReport): string {
  const { jscpd, ours } = report;
  const percent = (report.agreement * 100).toFixed(1);
  const lines = [
    `duplication vs jscpd ${'5.3.3'} on ${report.corpus}: we find ${report.found}/${jscpd.clones.length} of jscpd's clones (${percent}%)`,
    `  jscpd: ${jscpd.clones.length} clones, ${jscpd.statistics.duplicatedLines} duplicated lines (${jscpd.statistics.percentage.toFixed(2)}%), ${jscpd.ms.toFixed(0)} ms`,
    `  ours:  ${ours.findings.length} findings, ${ours.duplicatedLines ?? 0} duplicated lines of code (index ${ours.duplicationIndex ?? 0}%), ${ours.ms.toFixed(0)} ms for the whole engine run (parse, walk, detection) on ${ours.files} files, one thread, of which ${ours.ruleMs.toFixed(0)} ms clone detection`,
  ];
  for (const { clone, reason } of report.missed) lines.push(`  missed: ${at(clone.a)} ~ ${at(clone.b)} (${clone.tokens} tokens): ${reason}`);
  const byReason = new Map<string, number>();
  for (const { reason } of report.oursOnly) byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  for (const [reason, count] of byReason) lines.push(`  ours only: ${count} × ${reason}`);
  for (const { clone, reason } of report.oursOnly.filter((o) => o.reason === 'other')) {
    lines.push(
      `    ${at(clone.locations[0])} ~ ${clone.finding.data?.originalPath}:${clone.finding.data?.originalLineStart} (${clone.finding.data?.tokens} tokens) ${reason}`,
    );
  }
  return lines.join('\n');
}

/** A copy of this project's package sources (`packages/<name>/src`) in a temp directory, so both tools read the same files. */
export function copyProjectSources(root: string): string {
  const copy = mkdtempSync(join(tmpdir(), 'codehealth-clones-project-'));
  for (const name of readdirSync(join(root, 'packages'))) {
    const src = join(root, 'packages', name, 'src');
    if (existsSync(src))
      cpSync(src, join(copy, 'packages', name, 'src'), { recursive: true, filter: (path) => !/[\\/](node_modules|dist)([\\/]|$)/.test(path) });
  }
  return copy;
}

export { runJscpd };
