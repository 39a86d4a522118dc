// Hand-built assessment results for the report tests: every number distinct, so a test can tell
// which input a field came from.
import type { CategoryScore } from '../contracts/scoring.js';
import { HEALTH_CATEGORY_KEYS, type Finding, type HealthCategoryKey } from '../domain/types.js';
import type { CodeGraph } from '../graph/types.js';
import type { AssessmentMetrics, AssessmentResult } from '../pipeline/types.js';

export function makeFinding(overrides: Partial<Finding> = {}): Finding {
  return {
    source: 'static_analyzer',
    severity: 'high',
    category: 'code_smell',
    filePath: 'src/orders/checkout.ts',
    fileGroup: 'src',
    anchor: { lineStart: 12, lineEnd: 14, codeSnippet: 'function checkout(cart) {\n  if (a) { if (b) {} }\n}', validated: true },
    title: 'Function `checkout` is too complex',
    description: 'Cognitive complexity is 23; the limit is 15.',
    whyItMatters: 'Complex functions are hard to read and to change safely.',
    suggestedAction: 'Extract the nested branches into named helpers.',
    ruleId: 'code-smell/cognitive-complexity',
    analyzerName: 'code-smell',
    confidence: 95,
    autoFixable: false,
    symbol: 'checkout',
    data: { complexity: 23, threshold: 15 },
    ...overrides,
  };
}

/** Three findings over two rules and three severities, in the pipeline's order. */
export function sampleFindings(): Finding[] {
  return [
    makeFinding({
      severity: 'critical',
      category: 'security',
      ruleId: 'security/no-eval',
      analyzerName: 'security',
      filePath: 'packages/api/src/run script.ts',
      fileGroup: 'packages/api',
      anchor: { lineStart: 3, lineEnd: 3, codeSnippet: 'eval(input)', validated: true },
      title: 'Avoid `eval` of <user> input',
      description: 'Input reaches eval | unchecked.',
      whyItMatters: 'eval runs arbitrary code.',
      suggestedAction: 'Parse the input instead.',
      confidence: 87.6,
      symbol: undefined,
      data: undefined,
    }),
    makeFinding(),
    makeFinding({ severity: 'medium', anchor: { lineStart: 40, lineEnd: 52, codeSnippet: 'function pay() {}', validated: false }, symbol: 'pay', title: 'Function `pay` is too complex', autoFixable: true }),
  ];
}

const SCORES: Record<HealthCategoryKey, number> = {
  security: 61.26,
  runtime_risks: 72.04,
  test_coverage: 100,
  code_smell: 55.55,
  duplication: 93.3,
  dead_code: 88.88,
  consistency: 99.96,
  compliance: 80,
};

function emptyGraph(cycles: string[][]): CodeGraph {
  return {
    modules: new Map(),
    edges: [],
    cycles,
    runtimeCycles: cycles,
    usedExports: () => new Set(),
    reachableFrom: () => new Set(),
    dependentsOf: () => new Set(),
  };
}

export function makeMetrics(overrides: Partial<AssessmentMetrics> = {}): AssessmentMetrics {
  return {
    files: { total: 40, analysed: 31, source: 20, test: 11, generated: 2, vendored: 3, config: 2, other: 1, skipped: 1 },
    totalLinesOfCode: 12345,
    testLinesOfCode: 4321,
    parse: { files: 31, filesWithErrors: 2, cleanPercent: 98.765, cachedFiles: 7 },
    severityCounts: { critical: 1, high: 1, medium: 1, low: 0, info: 0 },
    categoryCounts: { security: 1, runtime_risks: 0, test_coverage: 0, code_smell: 2, duplication: 0, dead_code: 0, consistency: 0, compliance: 0 },
    structuralCoveragePct: 64.44,
    actualCoveragePercent: null,
    mockUsagePct: 12.35,
    duplicationIndex: 3.21,
    conventionConsistency: 91.04,
    churn: { linesAdded30d: 500, linesDeleted30d: 120, churnRate: 50.22, hotFiles: ['src/orders/checkout.ts'] },
    graph: { modules: 25, internalEdges: 40, externalEdges: 12, unresolvedEdges: 1, cycles: 1 },
    analyzerMetrics: { 'code-smell.functions': 88 },
    durationMs: 1234.4,
    ...overrides,
  };
}

export function makeAssessmentResult(overrides: Partial<AssessmentResult> = {}): AssessmentResult {
  const findings = overrides.findings ?? sampleFindings();
  const categories = Object.fromEntries(
    HEALTH_CATEGORY_KEYS.map((key): [HealthCategoryKey, CategoryScore] => [
      key,
      { key, score: SCORES[key], assessed: key !== 'test_coverage', findings: key === 'code_smell' ? 2 : key === 'security' ? 1 : 0, density: 1.26 },
    ]),
  ) as Record<HealthCategoryKey, CategoryScore>;
  return {
    root: '/tmp/shop',
    startedAt: '2026-03-01T10:00:00.000Z',
    completedAt: '2026-03-01T10:00:01.234Z',
    findings,
    scores: { categories, overall: 78.35, grade: 'C' },
    metrics: makeMetrics(),
    summaries: [],
    graph: emptyGraph([['src/a.ts', 'src/b.ts']]),
    git: {
      available: true,
      headSha: '0123456789abcdef0123456789abcdef01234567',
      branch: 'main',
      files: new Map(),
      totals: { linesAdded30d: 500, linesDeleted30d: 120, linesAdded90d: 900, linesDeleted90d: 300, commits30d: 9, commits90d: 20, authors30d: 2, authors90d: 3 },
    },
    skipped: [{ path: 'assets/big.min.js', reason: 'larger than maxFileBytes' }],
    analyzers: [
      { id: 'code-smell', rules: ['code-smell/cognitive-complexity'] },
      { id: 'security', rules: ['security/no-eval'] },
    ],
    config: {},
    ...overrides,
  };
}
