// The per-rule cap on listed issues: which findings stay (most severe, then most confident, then by
// place), the order they keep, and the one "N more" record per capped rule.
import { describe, expect, it } from 'vitest';
import { issueFingerprint } from '@codehealth/engine';
import type { Finding, Severity } from '@codehealth/engine';
import { capFindingsPerRule, NOT_LISTED_KIND } from './finding-cap.js';

const finding = (ruleId: string, filePath: string, line: number, severity: Severity = 'low', confidence = 60): Finding => ({
  source: 'static_analyzer',
  severity,
  category: 'code_smell',
  filePath,
  fileGroup: filePath.split('/')[0]!,
  anchor: { lineStart: line, lineEnd: line, codeSnippet: `x * ${line}`, validated: true },
  title: `finding at ${filePath}:${line}`,
  description: 'd',
  whyItMatters: 'why',
  suggestedAction: 'fix',
  ruleId,
  analyzerName: ruleId.split('/')[0]!,
  confidence,
  autoFixable: false,
});

describe('capFindingsPerRule', () => {
  const noisy = Array.from({ length: 6 }, (_, i) => finding('code-smell/magic-numbers', `src/f${i % 3}.ts`, 10 + i));
  noisy[4] = finding('code-smell/magic-numbers', 'src/z.ts', 99, 'high');
  noisy[5] = finding('code-smell/magic-numbers', 'src/y.ts', 5, 'low', 90);
  const quiet = [finding('runtime/empty-catch', 'src/a.ts', 3, 'medium')];
  const all = [noisy[0]!, quiet[0]!, ...noisy.slice(1)];

  it('keeps the most severe, then most confident findings of a rule over the cap, in their input order', () => {
    const { findings, notListed, capped } = capFindingsPerRule(all, 3);
    expect(findings.slice(0, 4).map((f) => `${f.filePath}:${f.anchor.lineStart}`)).toEqual(['src/f0.ts:10', 'src/a.ts:3', 'src/z.ts:99', 'src/y.ts:5']);
    expect(notListed).toBe(3);
    expect(capped).toEqual([{ ruleId: 'code-smell/magic-numbers', total: 6, notListed: 3 }]);
  });

  it('adds one summary record per capped rule that names the rule and the count, with the worst severity left out', () => {
    const withHigh = [...all, finding('code-smell/magic-numbers', 'src/w.ts', 1, 'critical', 10)];
    const { findings } = capFindingsPerRule(withHigh, 1);
    const summary = findings.at(-1)!;
    expect(findings).toHaveLength(1 + 1 + 1); // one magic number, the empty catch, the summary
    expect(summary).toMatchObject({
      ruleId: 'code-smell/magic-numbers',
      title: '…and 6 more findings of rule code-smell/magic-numbers not listed',
      severity: 'high',
      filePath: '.',
      confidence: 90,
      data: { kind: NOT_LISTED_KIND, notListed: 6, total: 7, listed: 1 },
    });
    expect(summary.description).toContain('found 7 findings of rule code-smell/magic-numbers');
    // The record's identity is the rule's: the same fingerprint on every run.
    expect(issueFingerprint(summary)).toBe(issueFingerprint(capFindingsPerRule([...withHigh].reverse(), 2).findings.at(-1)!));
  });

  it('lists everything with a cap of 0 or when no rule reaches it', () => {
    expect(capFindingsPerRule(all, 0)).toEqual({ findings: all, notListed: 0, capped: [] });
    expect(capFindingsPerRule(all, 6)).toEqual({ findings: all, notListed: 0, capped: [] });
  });
});
