// Merge readiness rules and the confidence of the verdict.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../domain/types.js';
import { analysisConfidence, BINARY_FILE_WEIGHT, issueWeight, mergeReadiness } from './readiness.js';
import type { ChangedFile } from './types.js';

const issue = (severity: Finding['severity'], category: Finding['category'], title = 't'): Finding =>
  ({ severity, category, title, ruleId: `r/${title}`, filePath: 'src/a.ts', anchor: { lineStart: 4, lineEnd: 4, codeSnippet: '', validated: true } }) as Finding;

const file = (path: string, over: Partial<ChangedFile> = {}): ChangedFile => ({
  path,
  status: 'modified',
  additions: 10,
  deletions: 0,
  binary: false,
  generated: false,
  kind: 'source',
  hunks: [],
  symbols: [],
  ...over,
});

describe('issueWeight', () => {
  it('blocks on critical issues and on high security or runtime issues', () => {
    expect(issueWeight(issue('critical', 'code_smell'))).toBe('blocking');
    expect(issueWeight(issue('high', 'security'))).toBe('blocking');
    expect(issueWeight(issue('high', 'runtime'))).toBe('blocking');
    expect(issueWeight(issue('high', 'dead_code'))).toBe('advisory');
    expect(issueWeight(issue('medium', 'security'))).toBe('advisory');
    expect(issueWeight(issue('low', 'security'))).toBe('info');
    expect(issueWeight(issue('info', 'runtime'))).toBe('info');
  });
});

describe('mergeReadiness', () => {
  it('maps counts to the spec\'s status and explains each weighing issue, worst first', () => {
    expect(mergeReadiness([], 100).readiness).toEqual({ status: 'ready', blocking_count: 0, advisory_count: 0, info_count: 0, confidence: 100 });
    expect(mergeReadiness([issue('low', 'code_smell')], 90).readiness.status).toBe('ready');
    const review = mergeReadiness([issue('medium', 'code_smell', 'long'), issue('low', 'consistency')], 90);
    expect(review.readiness).toMatchObject({ status: 'needs_review', advisory_count: 1, info_count: 1 });
    const blocked = mergeReadiness([issue('medium', 'code_smell', 'long'), issue('critical', 'security', 'secret')], 80);
    expect(blocked.readiness).toMatchObject({ status: 'blocked', blocking_count: 1, advisory_count: 1, confidence: 80 });
    expect(blocked.reasons).toEqual([
      "blocking: new critical security issue 'secret' (r/secret) at src/a.ts:4",
      "advisory: new medium code_smell issue 'long' (r/long) at src/a.ts:4",
    ]);
  });

  it('weighs a metric issue the PR made worse like a new one, and says by how much', () => {
    const worse = { ...issue('medium', 'code_smell', 'complex'), metric: { values: ['complexity'] }, data: { complexity: 71 } } as Finding;
    const verdict = mergeReadiness([], 100, [{ finding: worse, previousValue: 43 }]);
    expect(verdict.readiness).toMatchObject({ status: 'needs_review', advisory_count: 1 });
    expect(verdict.reasons).toEqual(["advisory: worsened medium code_smell issue 'complex' (complexity 43 -> 71) (r/complex) at src/a.ts:4"]);
  });
});

describe('analysisConfidence', () => {
  it('weighs changed lines by how much of them could be read', () => {
    const none = { parseHealth: new Map<string, number>(), unverified: new Set<string>() };
    expect(analysisConfidence({ files: [], ...none })).toBe(100);
    expect(analysisConfidence({ files: [file('README.md', { kind: 'documentation' })], ...none })).toBe(100);
    expect(analysisConfidence({ files: [file('package-lock.json', { kind: 'generated', generated: true, additions: 900 })], ...none })).toBe(100);
    // 10 clean lines, 10 half-parsed lines, 20 generated lines: (10 + 5) / 40.
    const files = [file('src/a.ts'), file('src/b.ts'), file('dist/x.js', { generated: true, kind: 'generated', additions: 20 })];
    expect(analysisConfidence({ files, parseHealth: new Map([['src/a.ts', 1], ['src/b.ts', 0.5]]), unverified: new Set() })).toBe(38);
    // A binary file weighs BINARY_FILE_WEIGHT unread lines; an unverified code file reads nothing.
    const mixed = [file('src/a.ts'), file('logo.png', { binary: true, kind: 'asset', additions: 0 })];
    expect(analysisConfidence({ files: mixed, parseHealth: new Map([['src/a.ts', 1]]), unverified: new Set() })).toBe(Math.round((100 * 10) / (10 + BINARY_FILE_WEIGHT)));
    expect(analysisConfidence({ files: [file('src/a.ts')], parseHealth: new Map([['src/a.ts', 1]]), unverified: new Set(['src/a.ts', 'src/n.ts']) })).toBe(0);
  });
});
