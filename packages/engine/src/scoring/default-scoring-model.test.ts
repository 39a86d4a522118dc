import { describe, expect, it } from 'vitest';
import type { FileRole, Finding, HealthCategoryKey, IssueCategory, Severity } from '../domain/types.js';
import { HEALTH_CATEGORY_KEYS } from '../domain/types.js';
import { DefaultScoringModel } from './default-scoring-model.js';

function finding(category: IssueCategory, severity: Severity, i = 0, ruleId = 'a/r'): Finding {
  return {
    source: 'static_analyzer',
    severity,
    category,
    filePath: `src/f${i}.ts`,
    fileGroup: 'src',
    anchor: { lineStart: 1, lineEnd: 1, codeSnippet: 'x', validated: true },
    title: 't',
    description: 'd',
    whyItMatters: 'w',
    suggestedAction: 's',
    ruleId,
    analyzerName: ruleId.split('/')[0]!,
    confidence: 90,
    autoFixable: false,
  };
}
const all = new Set<HealthCategoryKey>(HEALTH_CATEGORY_KEYS);
const model = new DefaultScoringModel({});

describe('DefaultScoringModel', () => {
  it('gives 100 and grade A with no findings', () => {
    const r = model.score([], { sourceLoc: 5000, testLoc: 0 }, all);
    expect(r.overall).toBe(100);
    expect(r.grade).toBe('A');
    expect(r.categories.security.score).toBe(100);
  });

  it('halves a category score at its half-score density', () => {
    // security: 2 points per KLOC -> 50. 10 KLOC and two critical (20 points) = 2/KLOC.
    const r = model.score([finding('security', 'critical'), finding('security', 'critical', 1)], { sourceLoc: 10_000, testLoc: 0 }, all);
    expect(r.categories.security.score).toBe(50);
    expect(r.categories.security.density).toBe(2);
    expect(r.categories.security.findings).toBe(2);
  });

  it('normalises by size: the same density scores the same at 10k and 1M lines', () => {
    const small = model.score(
      Array.from({ length: 3 }, (_, i) => finding('code_smell', 'high', i)),
      { sourceLoc: 10_000, testLoc: 0 },
      all,
    );
    const large = model.score(
      Array.from({ length: 300 }, (_, i) => finding('code_smell', 'high', i)),
      { sourceLoc: 1_000_000, testLoc: 0 },
      all,
    );
    expect(large.categories.code_smell.score).toBe(small.categories.code_smell.score);
    expect(small.categories.code_smell.score).toBeLessThan(100);
  });

  it('moves when one issue is added or fixed', () => {
    const base = Array.from({ length: 5 }, (_, i) => finding('runtime', 'medium', i));
    const before = model.score(base, { sourceLoc: 20_000, testLoc: 0 }, all);
    const after = model.score([...base, finding('runtime', 'medium', 9)], { sourceLoc: 20_000, testLoc: 0 }, all);
    expect(after.categories.runtime_risks.score).toBeLessThan(before.categories.runtime_risks.score);
    expect(after.overall).toBeLessThan(before.overall);
  });

  it('weights the overall score and leaves unassessed categories out of it', () => {
    const findings = Array.from({ length: 10 }, (_, i) => finding('security', 'critical', i));
    const onlySecurity = model.score(findings, { sourceLoc: 1000, testLoc: 0 }, new Set<HealthCategoryKey>(['security']));
    expect(onlySecurity.overall).toBe(onlySecurity.categories.security.score);
    expect(onlySecurity.categories.dead_code.assessed).toBe(false);
    const everything = model.score(findings, { sourceLoc: 1000, testLoc: 0 }, all);
    // security has weight 0.2, the other seven are 100.
    expect(everything.overall).toBeCloseTo(0.2 * everything.categories.security.score + 80, 0);
  });

  it('blends measured coverage and duplication into their categories', () => {
    const r = model.score([], { sourceLoc: 1000, testLoc: 0, structuralCoveragePct: 40, duplicationIndex: 10 }, new Set());
    expect(r.categories.test_coverage.score).toBe(70);
    expect(r.categories.test_coverage.assessed).toBe(true);
    expect(r.categories.duplication.score).toBe(85);
  });

  it('maps scores to grades at documented thresholds', () => {
    expect([95, 90, 89.9, 80, 70, 60, 59.9, 0].map((s) => model.gradeOf(s))).toEqual(['A', 'A', 'B', 'B', 'C', 'D', 'F', 'F']);
  });

  it('honours configured weights', () => {
    const heavy = new DefaultScoringModel({ weights: { security: 10 } });
    const r = heavy.score([finding('security', 'critical')], { sourceLoc: 1000, testLoc: 0 }, all);
    expect(r.overall).toBeLessThan(model.score([finding('security', 'critical')], { sourceLoc: 1000, testLoc: 0 }, all).overall);
  });
});

describe('DefaultScoringModel: nothing graded that was not seen', () => {
  const pythonOnly = { analyzers: { security: ['security'] }, productionFiles: 0, unsupportedFiles: { Python: 3 } };

  it('gives no grade and assesses no category when no supported code exists, saying why', () => {
    const r = model.score([], { sourceLoc: 0, testLoc: 0 }, all, pythonOnly);
    expect(r.overall).toBeNull();
    expect(r.grade).toBeNull();
    expect(r.notGradedReason).toBe('no TypeScript or JavaScript files: 3 Python files are not analysed');
    for (const key of HEALTH_CATEGORY_KEYS) {
      expect(r.categories[key]).toMatchObject({ assessed: false, score: null, notAssessedReason: r.notGradedReason, ledger: [], evidence: [] });
    }
    expect(r.ledger).toEqual([]);
  });

  it('names every unsupported language, and TypeScript found only outside production code', () => {
    const mixed = model.score([], { sourceLoc: 0, testLoc: 0 }, all, { productionFiles: 0, unsupportedFiles: { Go: 1, Python: 3 } });
    expect(mixed.notGradedReason).toBe('no TypeScript or JavaScript files: 3 Python files and 1 Go file are not analysed');
    const examplesOnly = model.score([], { sourceLoc: 0, testLoc: 0 }, all, { productionFiles: 0, otherRoleFiles: { example: 4, test: 1 } });
    expect(examplesOnly.notGradedReason).toBe(
      'no production TypeScript or JavaScript code to grade: the analysed files are 4 example files and 1 test file, not production code',
    );
    // A package of hand-written declarations (type-fest): not "no files", types that are not analysed.
    const declarationsOnly = model.score([], { sourceLoc: 0, testLoc: 0 }, all, { productionFiles: 0, declarationFiles: 455 });
    expect(declarationsOnly.notGradedReason).toBe(
      'no TypeScript or JavaScript code to grade: 455 TypeScript declaration files (.d.ts) hold types only and are not analysed',
    );
    const oneDeclaration = model.score([], { sourceLoc: 0, testLoc: 0 }, all, { productionFiles: 0, declarationFiles: 1, unsupportedFiles: { Python: 2 } });
    expect(oneDeclaration.notGradedReason).toBe(
      'no TypeScript or JavaScript code to grade: 1 TypeScript declaration file (.d.ts) holds types only and is not analysed; 2 Python files are not analysed',
    );
    // A model called without run evidence falls back on production lines of code.
    expect(model.score([], { sourceLoc: 0, testLoc: 0 }, all).notGradedReason).toBe('no production code was analysed');
  });

  it('leaves a category no analyzer covers not assessed with its reason, never 100, and out of the overall', () => {
    const r = model.score([], { sourceLoc: 2000, testLoc: 0 }, new Set<HealthCategoryKey>(['security', 'code_smell']), { productionFiles: 4 });
    expect(r.categories.compliance).toMatchObject({ assessed: false, score: null, notAssessedReason: 'no enabled analyzer covers it' });
    expect(r.categories.security).toMatchObject({ assessed: true, score: 100 });
    expect(r.ledger!.map((e) => e.category).sort()).toEqual(['code_smell', 'security']);
    // Findings in a category (an imported SARIF log) are evidence even without an analyzer that declares it.
    const imported = model.score([finding('compliance', 'high', 0, 'sarif-import/licence')], { sourceLoc: 2000, testLoc: 0 }, new Set(), {
      productionFiles: 4,
    });
    expect(imported.categories.compliance).toMatchObject({ assessed: true, evidence: [{ kind: 'findings', analyzers: ['sarif-import'] }] });
  });

  it('has no grade when code exists but nothing is assessed', () => {
    const r = model.score([], { sourceLoc: 2000, testLoc: 0 }, new Set(), { productionFiles: 4 });
    expect(r).toMatchObject({ overall: null, grade: null, notGradedReason: 'no category is assessed: no enabled analyzer covers any' });
  });

  it('says what each score rests on: analyzers, and a coverage report only when there is one', () => {
    const analyzers = { test_coverage: ['testing'], duplication: ['duplication'], consistency: ['consistency'], security: ['security'] };
    const structural = model.score([], { sourceLoc: 2000, testLoc: 0, structuralCoveragePct: 0, duplicationIndex: 2, conventionConsistency: 97 }, all, {
      productionFiles: 3,
      analyzers,
    });
    expect(structural.categories.test_coverage.evidence).toEqual([
      { kind: 'findings', analyzers: ['testing'] },
      { kind: 'structural-coverage', value: 0 },
    ]);
    expect(structural.categories.duplication.evidence).toEqual([
      { kind: 'findings', analyzers: ['duplication'] },
      { kind: 'duplication-index', value: 2 },
    ]);
    expect(structural.categories.consistency.evidence).toEqual([
      { kind: 'findings', analyzers: ['consistency'] },
      { kind: 'convention-consistency', value: 97 },
    ]);
    expect(structural.categories.security.evidence).toEqual([{ kind: 'findings', analyzers: ['security'] }]);
    // No tests at all: assessed, and low.
    expect(structural.categories.test_coverage.score).toBe(50);
    const report = model.score([], { sourceLoc: 2000, testLoc: 0, structuralCoveragePct: 0, actualCoveragePercent: 81.24 }, all, {
      productionFiles: 3,
      analyzers,
    });
    expect(report.categories.test_coverage.evidence).toContainEqual({ kind: 'coverage-report', value: 81.2 });
  });

  it('has id default-v2', () => {
    expect(model.id).toBe('default-v2');
  });
});

describe('DefaultScoringModel: production code only', () => {
  const withRole = (f: Finding, role: FileRole): Finding => ({ ...f, role });
  const production = [finding('security', 'high', 1, 'security/eval'), finding('code_smell', 'medium', 2, 'code-smell/long-function')];
  const metrics = { sourceLoc: 3000, testLoc: 500 };
  const evidence = { productionFiles: 10, otherRoleLoc: { benchmark: 800, example: 200, test: 500 } };

  it('grades production findings only; other roles are counted by role, not scored', () => {
    const base = model.score(production, metrics, all, evidence);
    const others = [
      withRole(finding('security', 'critical', 3, 'security/eval'), 'benchmark'),
      withRole(finding('code_smell', 'high', 4, 'code-smell/magic-numbers'), 'benchmark'),
      withRole(finding('runtime', 'high', 5, 'runtime/floating-promise'), 'example'),
    ];
    const r = model.score([...production, ...others], metrics, all, evidence);
    expect(r.overall).toBe(base.overall);
    expect(r.categories).toEqual(base.categories);
    expect(r.nonProduction).toEqual({
      benchmark: { findings: 2, points: 15, linesOfCode: 800 },
      example: { findings: 1, points: 5, linesOfCode: 200 },
      test: { findings: 0, points: 0, linesOfCode: 500 },
    });
    // An explicit production role is production.
    expect(
      model.score(
        production.map((f) => withRole(f, 'production')),
        metrics,
        all,
        evidence,
      ).categories,
    ).toEqual(base.categories);
  });

  it('counts a testing finding in test code (a test that asserts nothing) in test coverage, other test findings not', () => {
    const hollow = withRole(finding('testing', 'medium', 6, 'testing/tests-without-assertions'), 'test');
    const smellInTest = withRole(finding('code_smell', 'high', 7, 'code-smell/long-function'), 'test');
    const r = model.score([...production, hollow, smellInTest], metrics, all, evidence);
    expect(r.categories.test_coverage.findings).toBe(1);
    expect(r.categories.code_smell.findings).toBe(1);
    expect(r.nonProduction?.test).toEqual({ findings: 1, points: 5, linesOfCode: 500 });
  });
});

describe('DefaultScoringModel: the score ledger', () => {
  // A small deterministic generator: the same cases every run.
  function random(seed: number) {
    let state = seed;
    return () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  }
  const severities: Severity[] = ['critical', 'high', 'medium', 'low', 'info'];
  const categories: IssueCategory[] = ['security', 'runtime', 'testing', 'code_smell', 'dead_code', 'duplication', 'consistency', 'compliance'];
  const tenths = (n: number) => Math.round(n * 10);

  it('adds up exactly: rules and measurements to 100 − the category score, categories to 100 − overall', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const findings = Array.from({ length: Math.floor(next() * 80) }, (_, i) =>
        finding(
          categories[Math.floor(next() * categories.length)]!,
          severities[Math.floor(next() * severities.length)]!,
          i,
          `r${Math.floor(next() * 6)}/rule-${Math.floor(next() * 4)}`,
        ),
      );
      const metrics = {
        sourceLoc: Math.floor(next() * 40_000),
        testLoc: 0,
        ...(next() < 0.7 ? { structuralCoveragePct: next() * 100 } : {}),
        ...(next() < 0.3 ? { actualCoveragePercent: next() * 100 } : {}),
        ...(next() < 0.7 ? { duplicationIndex: next() * 40 } : {}),
        ...(next() < 0.7 ? { conventionConsistency: next() * 100 } : {}),
      };
      const weights = next() < 0.5 ? {} : { weights: { security: next(), compliance: next() * 3 } };
      const r = new DefaultScoringModel(weights).score(findings, metrics, all, { productionFiles: 1 + Math.floor(next() * 50) });
      for (const key of HEALTH_CATEGORY_KEYS) {
        const c = r.categories[key];
        const spent = c.ledger!.reduce((sum, e) => sum + tenths(e.cost), 0);
        expect(spent, `seed ${seed}, ${key}`).toBe(tenths(100 - c.score!));
        for (const e of c.ledger!) expect(tenths(e.cost) / 10, `seed ${seed}: costs have one decimal`).toBe(e.cost);
      }
      const spent = r.ledger!.reduce((sum, e) => sum + tenths(e.cost), 0);
      expect(spent, `seed ${seed}, overall`).toBe(tenths(100 - r.overall!));
    }
  });

  it('charges each rule in proportion to its severity points, and a measurement half of what it lacks', () => {
    // Code smell at 10 KLOC: 4 high (20 points) + 4 medium (8 points) = 2.8 points per KLOC.
    const findings = [
      ...Array.from({ length: 4 }, (_, i) => finding('code_smell', 'high', i, 'code-smell/cognitive-complexity')),
      ...Array.from({ length: 4 }, (_, i) => finding('code_smell', 'medium', 10 + i, 'code-smell/long-function')),
      finding('code_smell', 'info', 20, 'code-smell/note'),
    ];
    const r = model.score(findings, { sourceLoc: 10_000, testLoc: 0, structuralCoveragePct: 40 }, all, { productionFiles: 20 });
    const lost = 100 - r.categories.code_smell.score!;
    const [first, second] = r.categories.code_smell.ledger!;
    expect(first).toMatchObject({ kind: 'rule', id: 'code-smell/cognitive-complexity', findings: 4, points: 20 });
    expect(second).toMatchObject({ kind: 'rule', id: 'code-smell/long-function', findings: 4, points: 8 });
    expect(first!.cost).toBeCloseTo((lost * 20) / 28, 0);
    // Info findings cost nothing and are not listed.
    expect(r.categories.code_smell.ledger).toHaveLength(2);
    // Test coverage: no findings, structural coverage 40% -> score 70, the measurement costs 30.
    expect(r.categories.test_coverage.ledger).toEqual([{ kind: 'measurement', id: 'structural-coverage', value: 40, cost: 30 }]);
    // The overall ledger names what each category cost, in its weighted share.
    const smell = r.ledger!.find((e) => e.category === 'code_smell')!;
    expect(smell.share).toBe(0.15);
    expect(smell.cost).toBeCloseTo(0.15 * lost, 0);
  });
});
