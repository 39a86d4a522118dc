// The cap on the issues a run lists per rule: a repository with 40,000 magic numbers gets its
// 1,000 most important ones listed and one summary record "…and 39,000 more findings of rule X not
// listed". Only what is stored is capped: scores, severity counts and drift come from the engine's
// full result, so they are the same with or without the cap.
import type { Finding, Severity } from '@codehealth/engine';
import { SEVERITY_RANK } from './issue-records.js';

/** Issues listed per rule (and repository) of a run when the host sets nothing else. */
export const DEFAULT_MAX_ISSUES_PER_RULE = 1_000;

/** `data.kind` of a summary record, so that readers can tell it from a finding in the code. */
export const NOT_LISTED_KIND = 'findings-not-listed';

export interface CappedFindings {
  /** What is listed: at most `maxPerRule` findings per rule, then one summary per capped rule. */
  findings: Finding[];
  /** Findings left out (summary records not counted). */
  notListed: number;
  /** Per capped rule: how many findings it had and how many are left out. */
  capped: Array<{ ruleId: string; total: number; notListed: number }>;
}

/**
 * Most important first, deterministically, so that the same findings stay listed from run to
 * run (their `is_new` stays meaningful): severity, confidence, then place in the code.
 */
function byImportance(a: Finding, b: Finding): number {
  return (
    SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
    b.confidence - a.confidence ||
    (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : 0) ||
    a.anchor.lineStart - b.anchor.lineStart ||
    (a.title < b.title ? -1 : a.title > b.title ? 1 : 0)
  );
}

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

/** The record that stands for the findings of `ruleId` that are not listed. */
export function notListedFinding(omitted: readonly Finding[], total: number, maxPerRule: number): Finding {
  const first = omitted[0]!;
  const severity = omitted.reduce<Severity>((worst, f) => (SEVERITY_RANK[f.severity] > SEVERITY_RANK[worst] ? f.severity : worst), 'info');
  const files = new Set(omitted.map((f) => f.filePath)).size;
  return {
    source: first.source,
    severity,
    category: first.category,
    filePath: '.',
    fileGroup: '.',
    anchor: { lineStart: 1, lineEnd: 1, codeSnippet: '', validated: false },
    title: `…and ${plural(omitted.length, 'more finding')} of rule ${first.ruleId} not listed`,
    description:
      `This run found ${plural(total, 'finding')} of rule ${first.ruleId}; the ${plural(maxPerRule, 'most important one')} ` +
      `(by severity, then confidence) are listed and ${plural(omitted.length, 'more')} in ${plural(files, 'file')} are not. ` +
      'Scores and severity counts include all of them.',
    whyItMatters: first.whyItMatters,
    suggestedAction:
      'Fix or dismiss the listed findings of this rule first, or disable or tune the rule in codehealth.config.json if it does not fit this code base. ' +
      'A host lists more per rule with CODEHEALTH_MAX_ISSUES_PER_RULE.',
    ruleId: first.ruleId,
    analyzerName: first.analyzerName,
    confidence: omitted.reduce((most, f) => Math.max(most, f.confidence), 0),
    autoFixable: false,
    symbol: `${NOT_LISTED_KIND}:${first.ruleId}`,
    data: { kind: NOT_LISTED_KIND, notListed: omitted.length, total, listed: total - omitted.length },
  };
}

/**
 * At most `maxPerRule` findings of each rule, in the input's order, plus one summary record per
 * rule over the cap. `maxPerRule` 0 (or Infinity) lists everything.
 */
export function capFindingsPerRule(findings: readonly Finding[], maxPerRule: number): CappedFindings {
  if (!(maxPerRule > 0) || !Number.isFinite(maxPerRule)) return { findings: [...findings], notListed: 0, capped: [] };
  const byRule = new Map<string, Finding[]>();
  for (const finding of findings) {
    const list = byRule.get(finding.ruleId);
    if (list) list.push(finding);
    else byRule.set(finding.ruleId, [finding]);
  }
  const dropped = new Set<Finding>();
  const summaries: Finding[] = [];
  const capped: CappedFindings['capped'] = [];
  for (const [ruleId, list] of byRule) {
    if (list.length <= maxPerRule) continue;
    const omitted = [...list].sort(byImportance).slice(maxPerRule);
    for (const finding of omitted) dropped.add(finding);
    summaries.push(notListedFinding(omitted, list.length, maxPerRule));
    capped.push({ ruleId, total: list.length, notListed: omitted.length });
  }
  if (dropped.size === 0) return { findings: [...findings], notListed: 0, capped: [] };
  return { findings: [...findings.filter((f) => !dropped.has(f)), ...summaries], notListed: dropped.size, capped };
}
