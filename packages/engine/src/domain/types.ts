// The domain vocabulary shared by every package: severities, categories, findings, files.
// Internal names are camelCase; the spec's snake_case wire format is produced in `report/wire.ts`.

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** Issue categories as the spec spells them on an Issue. */
export const ISSUE_CATEGORIES = ['security', 'runtime', 'testing', 'code_smell', 'dead_code', 'duplication', 'consistency', 'compliance'] as const;
export type IssueCategory = (typeof ISSUE_CATEGORIES)[number];

/** Health category keys as the spec spells them on an assessment (`<key>_score`). */
export const HEALTH_CATEGORY_KEYS = [
  'security',
  'runtime_risks',
  'test_coverage',
  'code_smell',
  'duplication',
  'dead_code',
  'consistency',
  'compliance',
] as const;
export type HealthCategoryKey = (typeof HEALTH_CATEGORY_KEYS)[number];

export const ISSUE_SOURCES = ['static_analyzer', 'llm_agent', 'graph_rule', 'convention', 'architecture'] as const;
export type IssueSource = (typeof ISSUE_SOURCES)[number];

export type Language = 'typescript' | 'tsx' | 'javascript' | 'jsx' | 'json' | 'markdown' | 'yaml' | 'css' | 'html' | 'other';

/** How a file is treated: only `source` and `test` files are analysed as code. */
export type FileKind = 'source' | 'test' | 'generated' | 'vendored' | 'config' | 'documentation' | 'asset';

/**
 * What a file is for in the project, as a person would say it (snapshot/file-roles.ts decides):
 * the product's own code (`production`), its tests and their fixtures and snapshots, benchmarks
 * and performance tests, examples and demos, a documentation site, scripts and tool configuration,
 * generated and vendored files. Independent of `FileKind`, which says how a file is analysed: a
 * benchmark is analysed as source, and its findings carry the role `benchmark`.
 */
export const FILE_ROLES = ['production', 'test', 'fixture', 'benchmark', 'example', 'docs', 'tooling', 'generated', 'vendored'] as const;
export type FileRole = (typeof FILE_ROLES)[number];

export interface Anchor {
  lineStart: number;
  lineEnd: number;
  codeSnippet: string;
  /** True only when the snippet was re-read from the file and matches the reported lines. */
  validated: boolean;
  /** Set on findings of `MetricSpec.ofAnchor` rules: codeShape of the whole anchored range (formatting left out). */
  shape?: string;
}

/** One finding of an analyzer; maps 1:1 onto the spec's Issue fields. */
export interface Finding {
  source: IssueSource;
  severity: Severity;
  category: IssueCategory;
  filePath: string;
  /** Group used by dashboards (the file's top-level package or directory). */
  fileGroup: string;
  anchor: Anchor;
  title: string;
  description: string;
  whyItMatters: string;
  suggestedAction: string;
  /** Fully qualified rule id: `<analyzer>/<rule>`. */
  ruleId: string;
  analyzerName: string;
  /** 0-100. */
  confidence: number;
  autoFixable: boolean;
  /** Name of the enclosing symbol (function, class, method), used for the issue fingerprint. */
  symbol?: string;
  /** Numbers behind the finding (e.g. `{ complexity: 23, threshold: 15 }`), for reports and scoring. */
  data?: Record<string, number | string | boolean>;
  /** The role of `filePath` (set by the pipeline for every finding it publishes); absent: production code. */
  role?: FileRole;
  /** Set when the rule measures its subject (its `RuleMeta.metric`): identity is then rule, file and symbol. */
  metric?: MetricSpec;
}

/**
 * What a metric rule measures: the `data` keys of its measured values, the first one the headline
 * (complexity, lines …), and which way is worse (higher unless told). Two findings of one issue
 * with different values are the same issue, worsened or improved.
 */
export interface MetricSpec {
  values: readonly string[];
  worseWhen?: 'higher' | 'lower';
  /**
   * The values measure the anchored code itself (a function's or a class's lines): the finding then
   * carries `anchor.shape`, and an issue whose code is the same but for formatting is unchanged
   * whatever its line count did (a prettier rewrap of a 94-line function gave 98).
   */
  ofAnchor?: boolean;
}

/** The analyzer record of the spec's Repository (`analyzers` array). */
export interface AnalyzerDetection {
  language: string;
  /** Relative directory, `.` for the root. */
  path: string;
  enabled: boolean;
  description: string;
}
