// The analyzer contract: what a plugin implements and what the engine hands to it.
//
// An analyzer is a named set of rules. A *file rule* subscribes to syntax node types and is run
// during the single walk of each parsed file (ESLint-style); a *repository rule* runs once over
// the summaries of every file and the code graph. Rules report findings through their context;
// they never persist, score or print. A *collector* extracts serialisable per-file facts during the
// walk (e.g. token fingerprints) for the analyzer's repository rules.
import type { SyntaxNode } from 'tree-sitter';
import type { z } from 'zod';
import type { AnalyzerDetection, FileRole, IssueCategory, IssueSource, Language, MetricSpec, Severity } from '../domain/types.js';
import type { RepoFile, RepoSnapshot, GitFacts } from '../snapshot/types.js';
import type { CodeGraph } from '../graph/types.js';
import type { FileSummary } from '../pipeline/file-summary.js';

export type { SyntaxNode };

// The walk's visitor type lives beside the walk (parsing); the contract names it for rules.
import type { NodeVisitor } from '../parsing/walk.js';
export type { NodeVisitor };

export interface RuleDocs {
  /** One paragraph; becomes the finding's `why_it_matters` unless the report overrides it. */
  whyItMatters: string;
  /** One paragraph; becomes the finding's `suggested_action` unless the report overrides it. */
  suggestedAction: string;
}

export interface RuleMeta<Options = unknown> {
  /** Rule id inside its analyzer, kebab-case (`cognitive-complexity`). */
  id: string;
  description: string;
  category: IssueCategory;
  /** Default severity; a report may raise or lower it by documented rules. */
  severity: Severity;
  source?: IssueSource;
  /** Zod schema of the options, with defaults; `parse(undefined)` must give the defaults. */
  options?: z.ZodType<Options>;
  docs: RuleDocs;
  /** Default confidence 0-100. */
  confidence?: number;
  autoFixable?: boolean;
  /** Languages the rule applies to; defaults to the analyzer's. */
  languages?: Language[];
  /** File kinds the rule sees; defaults to `['source']`. */
  fileKinds?: Array<'source' | 'test'>;
  /** File roles the rule sees (`['production']`: the product's own code only); defaults to every role. */
  roles?: FileRole[];
  /**
   * For a rule that reports a measure over a threshold (complexity, length, parameters …): the
   * `data` keys holding the measured values. Its issue is then identified by rule, file and symbol
   * alone, and a change of the values is the same issue worsened or improved, not a new one.
   */
  metric?: MetricSpec;
}

/** A location for a report: a node, or an explicit 1-based line range. */
export type ReportLocation = { node: SyntaxNode } | { lineStart: number; lineEnd?: number };

export type ReportDescriptor = ReportLocation & {
  title: string;
  description: string;
  severity?: Severity;
  confidence?: number;
  whyItMatters?: string;
  suggestedAction?: string;
  /** Enclosing symbol name, for the issue fingerprint. */
  symbol?: string;
  data?: Record<string, number | string | boolean>;
  /** Secret values to mask in the code snippet (kept: the first 4 characters), so reports never carry them. */
  redact?: string[];
};

export interface FileRuleContext<Options = unknown> {
  readonly file: RepoFile;
  readonly source: string;
  readonly options: Options;
  report(descriptor: ReportDescriptor): void;
}

export interface FileRule<Options = unknown> {
  kind: 'file';
  meta: RuleMeta<Options>;
  create(context: FileRuleContext<Options>): NodeVisitor;
}

/**
 * The report of a repository rule must name the file. Importers of other tools' results (SARIF)
 * keep the original tool's identity with `origin`.
 */
export type RepositoryReportDescriptor = ReportDescriptor & {
  filePath: string;
  origin?: { ruleId: string; analyzerName: string; category?: IssueCategory; source?: IssueSource; autoFixable?: boolean };
};

export interface RepositoryRuleContext<Options = unknown> {
  readonly snapshot: RepoSnapshot;
  readonly summaries: readonly FileSummary[];
  readonly graph: CodeGraph;
  git(): Promise<GitFacts>;
  readonly options: Options;
  /**
   * Set on a pull request's head run: only reports in these files are kept. A rule may skip
   * per-file work (git blame, reading texts) outside them; well-known metrics must still cover
   * the whole repository, other metrics that would need that work may be published as null.
   */
  readonly scope?: ReadonlySet<string>;
  readonly signal: AbortSignal;
  progress(message: string): void;
  report(descriptor: RepositoryReportDescriptor): void;
  /**
   * Publishes a repository metric. Well-known names (`WELL_KNOWN_METRICS`) feed the assessment's
   * own fields and the scoring model; any other name is kept as `<analyzer>.<name>`.
   */
  metric(name: WellKnownMetric | string, value: number | null): void;
  /** Publishes detected convention patterns (the consistency dashboard and drift). */
  conventions(patterns: ConventionPattern[]): void;
  /**
   * Set when the run records its state for later runs on descendant commits (a full run of a
   * clean checkout): keeps one JSON-serialisable value for this rule with that state (the last
   * call wins). A later run derived from it hands the value back as `previous.state`.
   */
  saveState?(value: unknown): void;
  /**
   * Set on a run derived from an earlier one's recorded state (a PR's head after its merge base,
   * `AnalyzeOptions.incremental`) when this rule saved a state there, with the same rules and
   * options. A rule may update its result from it instead of computing everything again, but must
   * publish exactly what a run without it would.
   */
  readonly previous?: PreviousRun;
}

/** What a derived run knows of the run it derives from (see `RepositoryRuleContext.previous`). */
export interface PreviousRun {
  /** The value this rule saved then: validate it before use (it comes from disk). */
  readonly state: unknown;
  /** Every path that differs between the two commits (both sides of renames); other files are the same. */
  readonly changedPaths: ReadonlySet<string>;
  /** The earlier run's summary of a file, when it was a code file then and its summary is still cached. */
  summaryBefore(path: string): Promise<FileSummary | undefined>;
}

/** Metrics the engine itself understands; an analyzer that measures one publishes it by this name. */
export const WELL_KNOWN_METRICS = [
  'structuralCoveragePct',
  'actualCoveragePercent',
  'mockUsagePct',
  'assertionDensity',
  'testCodeRatio',
  'duplicationIndex',
  'duplicatedLines',
  'conventionConsistency',
] as const;
export type WellKnownMetric = (typeof WELL_KNOWN_METRICS)[number];

/** A convention as the spec's dashboard shows it; deviations are also reported as issues. */
export interface ConventionPattern {
  /** e.g. `function-naming`, `import-style`. */
  name: string;
  /** 0-100: share of occurrences that follow the dominant value. */
  consistency: number;
  dominantValue: string;
  totalCount: number;
  deviationCount: number;
  /** Counts per observed value, e.g. `{ camelCase: 120, snake_case: 3 }`. */
  values?: Record<string, number>;
}

export interface RepositoryRule<Options = unknown> {
  kind: 'repository';
  meta: RuleMeta<Options>;
  analyze(context: RepositoryRuleContext<Options>): void | Promise<void>;
}

// `any` by default: the type of a list of rules of different option types (an analyzer's `rules`);
// each rule's options are typed where it is defined (`defineRule`, from its schema).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Rule<Options = any> = FileRule<Options> | RepositoryRule<Options>;

export interface CollectorContext {
  readonly file: RepoFile;
  readonly source: string;
}

/** Extracts serialisable facts per file during the walk; stored as `summary.facts[collector.id]`. */
export interface Collector<Fact = unknown> {
  id: string;
  languages?: Language[];
  create(context: CollectorContext): { visitor: NodeVisitor; result(): Fact };
}

export interface Analyzer {
  /** Kebab-case id, unique across plugins (`code-smell`). */
  id: string;
  description: string;
  categories: IssueCategory[];
  languages: Language[];
  rules: Rule[];
  collectors?: Collector[];
  /**
   * `false` when none of its repository rules reads `context.graph`. A rules worker builds its own
   * graph when a rule first reads it; it starts with these analyzers (the main thread, which holds
   * the run's graph, with the others), so it often needs none. Defaults to true.
   */
  readsGraph?: boolean;
  /** Onboarding's analyzer detection: where in the repository this analyzer applies. */
  detect?(repo: RepoSnapshot): AnalyzerDetection[] | Promise<AnalyzerDetection[]>;
}

/** What a plugin package exports (default export or named `plugin`). */
export interface Plugin {
  name: string;
  /**
   * The plugin's version, for a plugin handed to createEngine as an object: with its name, it keys
   * the summary cache, so change it when the plugin's code changes. (A plugin loaded by name or path
   * is known by its package version and a hash of its code.)
   */
  version?: string;
  analyzers: Analyzer[];
}
