// Compares our dead-code findings (unused exports, exported types, unused files) with knip 6's on
// the same directory, and classifies every disagreement. Used by the agreement test in
// packages/analyzers and by `node test/compare/unused-exports.mjs`.
import { createEngine, createSnapshot, type Finding, type RepositoryRuleContext } from '@codehealth/engine';
import { deadCode } from '../../packages/analyzers/src/dead-code/index.js';
import { deadCodeModel } from '../../packages/analyzers/src/dead-code/shared/dead-code-model.js';
import { runKnip, type KnipIssue } from './knip.js';
import { classifyDisagreement, type ClassifierFacts } from './unused-exports-classify.js';

export type IssueType = 'export' | 'type' | 'file';

export interface Disagreement {
  key: string;
  type: IssueType;
  file: string;
  name?: string;
  side: 'ours' | 'knip';
  reason: string;
}

export interface ComparisonReport {
  corpus: string;
  /** Counts per issue type: both, ours only, knip only. */
  counts: Record<IssueType, { both: number; ours: number; knip: number }>;
  disagreements: Disagreement[];
  /** Issues both report / issues either reports, over exports, types and files. */
  agreement: number;
  /** The same, leaving out files outside CodeHealth's scope (tests, fixtures, build output, configs). */
  comparableAgreement: number;
  knipStderr: string;
}

/** Disagreements about files CodeHealth does not analyse as source at all. */
const OUT_OF_SCOPE = /^(test or fixture file|build output|configuration file|file CodeHealth does not parse)/;

const keyOf = (type: IssueType, file: string, name?: string) => (name === undefined ? `${type} ${file}` : `${type} ${file}#${name}`);

/** Our findings as knip-comparable issues: an export finding is `type` when the export is type-only. */
export function ourIssues(findings: readonly Finding[]): Map<string, { type: IssueType; file: string; name?: string; finding: Finding }> {
  const out = new Map<string, { type: IssueType; file: string; name?: string; finding: Finding }>();
  for (const finding of findings) {
    if (finding.ruleId === 'dead-code/unused-file') {
      out.set(keyOf('file', finding.filePath), { type: 'file', file: finding.filePath, finding });
    } else if (finding.ruleId === 'dead-code/unused-export') {
      const type: IssueType = finding.data?.typeOnly ? 'type' : 'export';
      const name = exportNameOf(finding);
      out.set(keyOf(type, finding.filePath, name), { type, file: finding.filePath, name, finding });
    }
  }
  return out;
}

/** The exported name: the title ends with `<name> in <file>`. */
function exportNameOf(finding: Finding): string {
  const match = /\s(\S+) in \S+$/.exec(finding.title);
  return match ? match[1] : String(finding.symbol);
}

export async function compareWithKnip(corpus: string, dir: string, knipBin: string): Promise<ComparisonReport> {
  const knip = runKnip(knipBin, dir);
  const engine = await createEngine({ plugins: [{ name: 'dead-code', analyzers: [deadCode] }], cacheDir: false, workers: 0 });
  const result = await engine.analyze(dir);
  const snapshot = await createSnapshot(dir);
  const context = { snapshot, summaries: result.summaries, graph: result.graph } as unknown as RepositoryRuleContext<unknown>;
  const model = await deadCodeModel(context, { entries: [] });
  const facts: ClassifierFacts = { root: dir, files: new Map(snapshot.files.map((f) => [f.path, f.kind])), summaries: result.summaries, model };

  const ours = ourIssues(result.findings);
  const theirs = new Map<string, KnipIssue>();
  for (const issue of knip.issues) theirs.set(keyOf(issue.type, issue.file, issue.name), issue);
  const counts = { export: { both: 0, ours: 0, knip: 0 }, type: { both: 0, ours: 0, knip: 0 }, file: { both: 0, ours: 0, knip: 0 } };
  const disagreements: Disagreement[] = [];
  for (const [key, issue] of ours) {
    if (theirs.has(key)) counts[issue.type].both++;
    else {
      counts[issue.type].ours++;
      disagreements.push({
        key,
        type: issue.type,
        file: issue.file,
        name: issue.name,
        side: 'ours',
        reason: classifyDisagreement('ours', issue, facts, theirs),
      });
    }
  }
  for (const [key, issue] of theirs) {
    if (ours.has(key)) continue;
    counts[issue.type].knip++;
    disagreements.push({ key, type: issue.type, file: issue.file, name: issue.name, side: 'knip', reason: classifyDisagreement('knip', issue, facts, theirs) });
  }
  const both = Object.values(counts).reduce((n, c) => n + c.both, 0);
  const either = Object.values(counts).reduce((n, c) => n + c.both + c.ours + c.knip, 0);
  const outOfScope = disagreements.filter((d) => OUT_OF_SCOPE.test(d.reason)).length;
  return {
    corpus,
    counts,
    disagreements,
    agreement: either === 0 ? 1 : both / either,
    comparableAgreement: either - outOfScope === 0 ? 1 : both / (either - outOfScope),
    knipStderr: knip.stderr,
  };
}

export function formatReport(report: ComparisonReport): string {
  const lines = [`unused exports/types/files vs knip — ${report.corpus}`];
  for (const [type, c] of Object.entries(report.counts)) lines.push(`  ${type.padEnd(7)} both ${c.both}, ours only ${c.ours}, knip only ${c.knip}`);
  lines.push(`  agreement (both / either): ${(report.agreement * 100).toFixed(1)}%`);
  lines.push(`  agreement on files both tools analyse as source: ${(report.comparableAgreement * 100).toFixed(1)}%`);
  const byReason = new Map<string, Disagreement[]>();
  for (const d of report.disagreements) byReason.set(`${d.side} only: ${d.reason}`, [...(byReason.get(`${d.side} only: ${d.reason}`) ?? []), d]);
  for (const [reason, list] of [...byReason].sort((a, b) => b[1].length - a[1].length)) {
    lines.push(`  [${list.length}] ${reason}`);
    for (const d of list.slice(0, 6)) lines.push(`      ${d.key}`);
    if (list.length > 6) lines.push(`      … and ${list.length - 6} more`);
  }
  if (report.knipStderr.trim()) lines.push(`  knip stderr: ${report.knipStderr.trim().split('\n').slice(0, 5).join(' | ')}`);
  return lines.join('\n');
}
