// Merge readiness rules and the confidence of the verdict.
import { describe, expect, it } from 'vitest';
import type { Finding } from '../domain/types.js';
import { analysisConfidence, BINARY_FILE_WEIGHT, explainConfidence, issueWeight, MAX_CONFIDENCE_REASONS, mergeReadiness } from './readiness.js';
import type { ChangedFile } from './types.js';

const issue = (severity: Finding['severity'], category: Finding['category'], title = 't'): Finding =>
  ({
    severity,
    category,
    title,
    ruleId: `r/${title}`,
    filePath: 'src/a.ts',
    anchor: { lineStart: 4, lineEnd: 4, codeSnippet: '', validated: true },
  }) as Finding;

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
  it("maps counts to the spec's status and explains each weighing issue, worst first", () => {
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

  it('says why a PR is ready, counting the info issues that do not weigh', () => {
    expect(mergeReadiness([], 100).reasons).toEqual(['ready: the change introduces or worsens no blocking or advisory issue']);
    expect(mergeReadiness([issue('low', 'code_smell'), issue('info', 'runtime')], 100).reasons).toEqual([
      'ready: the change introduces or worsens no blocking or advisory issue (2 new or worsened info issues, which only inform)',
    ]);
    // A PR that needs review has no 'ready' line.
    expect(mergeReadiness([issue('medium', 'code_smell', 'long')], 100).reasons.some((r) => r.startsWith('ready'))).toBe(false);
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
    expect(
      analysisConfidence({
        files,
        parseHealth: new Map([
          ['src/a.ts', 1],
          ['src/b.ts', 0.5],
        ]),
        unverified: new Set(),
      }),
    ).toBe(38);
    // A binary file weighs BINARY_FILE_WEIGHT unread lines; an unverified code file reads nothing.
    const mixed = [file('src/a.ts'), file('logo.png', { binary: true, kind: 'asset', additions: 0 })];
    expect(analysisConfidence({ files: mixed, parseHealth: new Map([['src/a.ts', 1]]), unverified: new Set() })).toBe(
      Math.round((100 * 10) / (10 + BINARY_FILE_WEIGHT)),
    );
    expect(analysisConfidence({ files: [file('src/a.ts')], parseHealth: new Map([['src/a.ts', 1]]), unverified: new Set(['src/a.ts', 'src/n.ts']) })).toBe(0);
  });
});

describe('explainConfidence', () => {
  const none = { parseHealth: new Map<string, number>(), unverified: new Set<string>() };

  it('gives no reason at 100', () => {
    expect(
      explainConfidence({
        files: [file('src/a.ts'), file('README.md', { kind: 'documentation' })],
        parseHealth: new Map([['src/a.ts', 1]]),
        unverified: new Set(),
      }),
    ).toEqual({
      confidence: 100,
      reasons: [],
    });
    expect(explainConfidence({ files: [], ...none })).toEqual({ confidence: 100, reasons: [] });
  });

  it('names each file that was not fully read, largest loss first', () => {
    const files = [
      file('src/types.ts', { additions: 30 }),
      file('src/b.ts', { additions: 10 }),
      file('dist/x.js', { generated: true, kind: 'generated', additions: 5 }),
      file('logo.png', { binary: true, kind: 'asset', additions: 0 }),
      file('src/c.ts', { additions: 2 }),
      file('src/ok.ts', { additions: 50 }),
      file('src/app.py', { additions: 3 }),
    ];
    const parseHealth = new Map([
      ['src/types.ts', 0],
      ['src/b.ts', 0.625],
      ['src/ok.ts', 1],
    ]);
    const explained = explainConfidence({ files, parseHealth, unverified: new Set(['src/c.ts', 'src/importer.ts']) });
    expect(explained.confidence).toBe(analysisConfidence({ files, parseHealth, unverified: new Set(['src/c.ts', 'src/importer.ts']) }));
    expect(explained.confidence).toBeLessThan(100);
    expect(explained.reasons).toEqual([
      'src/types.ts could not be parsed',
      'logo.png is binary: not analysed',
      'dist/x.js is generated or vendored: not analysed',
      'src/b.ts: 62 % parsed cleanly',
      'src/app.py was not parsed (its language or size is not analysed)',
      'src/c.ts: its issues at head could not be computed',
      'src/importer.ts (a neighbour of the change): its issues at head could not be computed',
    ]);
  });

  it('names at most MAX_CONFIDENCE_REASONS files and counts the rest', () => {
    const files = Array.from({ length: MAX_CONFIDENCE_REASONS + 3 }, (_, n) => file(`src/f${String(n).padStart(2, '0')}.ts`));
    const { confidence, reasons } = explainConfidence({ files, parseHealth: new Map(files.map((f) => [f.path, 0])), unverified: new Set() });
    expect(confidence).toBe(0);
    expect(reasons).toHaveLength(MAX_CONFIDENCE_REASONS + 1);
    expect(reasons[0]).toBe('src/f00.ts could not be parsed');
    expect(reasons.at(-1)).toBe('…and 3 more files not fully read');
  });
});
