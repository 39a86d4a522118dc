// The result of one health assessment of a directory, and the options of a run.
import type { FileRole, Finding, HealthCategoryKey, Severity } from '../domain/types.js';
import type { ScoreResult } from '../contracts/scoring.js';
import type { CodeGraph } from '../graph/types.js';
import type { GitFacts } from '../snapshot/types.js';
import type { CodeHealthConfig } from '../config/schema.js';
import type { FileSummary } from './file-summary.js';
import type { ConventionPattern } from '../contracts/analyzer.js';

export interface ProgressEvent {
  /** Stage of the pipeline. */
  stage: 'inventory' | 'parse' | 'graph' | 'repository-rules' | 'scoring' | 'done';
  message: string;
  /** 0-100 when the stage knows its size. */
  percent?: number;
  done?: number;
  total?: number;
}

export interface AnalyzeOptions {
  /** Config to use instead of the repository's `codehealth.config.*` (merged over it when `mergeConfig`). */
  config?: CodeHealthConfig;
  /**
   * Trust the repository's code: load a `codehealth.config.js/ts` (code) and import the plugins its
   * config names (the CLI on a directory the user chose). Default false, for hosts analysing
   * repositories they do not trust: only `codehealth.config.json` is read, and a plugin it names is
   * used only when the engine was created with it; any other becomes an `info` finding
   * (`config/plugin-not-installed`), never an import.
   */
  allowCodeConfig?: boolean;
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  /** Restrict per-file analysis to these repository-relative paths (PR analysis); other files come from the cache or are summarised. */
  onlyPaths?: readonly string[];
  /**
   * Keep findings only in these paths (a PR's changed files and their neighbours): repository rules
   * may skip per-file work elsewhere (see `RepositoryRuleContext.scope`). Scores then describe the
   * scope only; the well-known metrics still cover the whole repository. A function is given the
   * run's code graph once it is built (a PR's neighbours are the graph's, known only then), and
   * may return a promise (a PR pipeline that started the run while git still diffs).
   */
  findingsScope?: readonly string[] | ((graph: CodeGraph) => Iterable<string> | Promise<Iterable<string>>);
  /**
   * The directory is a clean checkout of `headCommit`, which differs from `baseCommit` by
   * `changedPaths`: when a full run of `baseCommit` recorded its state, the inventory, the content
   * hashes of unchanged files and the git facts are derived from it instead of read again. The
   * result is the same as without it.
   */
  incremental?: IncrementalBase;
}

/**
 * The three things a score may move with — the code, the configuration, the engine — recorded with
 * every run, so that a changed score can be traced to one of them.
 */
export interface RunProvenance {
  /** The analysed commit (undefined outside git or before the first commit). */
  commit?: string;
  /** The commit's committer date (ISO 8601): ages and churn windows are measured from it. */
  commitDate?: string;
  /** sha256 (hex, 16) of the effective configuration, keys sorted. */
  configDigest: string;
  /** The engine's package version. */
  engineVersion: string;
  /** Fingerprint of the enabled rules with their options and severities. */
  ruleSet: string;
  /** The scoring model's id. */
  scoringModel: string;
}

/** A run on a commit that descends from an assessed one (see `AnalyzeOptions.incremental`). */
export interface IncrementalBase {
  /** The commit assessed before (by a full run of a clean checkout, with this engine's cache). */
  baseCommit: string;
  /** The commit checked out, clean, in the directory analysed. */
  headCommit: string;
  /** Every path that differs between the two commits (both sides of a rename). */
  changedPaths: readonly string[];
}

export interface SkippedFile {
  path: string;
  reason: string;
}

/** The size of one role in a repository. */
export interface RoleSize {
  files: number;
  linesOfCode: number;
}

export interface AssessmentMetrics {
  files: {
    total: number;
    analysed: number;
    source: number;
    test: number;
    generated: number;
    vendored: number;
    config: number;
    other: number;
    skipped: number;
  };
  totalLinesOfCode: number;
  testLinesOfCode: number;
  /**
   * Lines of code of production source files, the size scores are measured against (files of
   * other roles are reported, not graded); undefined in results made before roles were scored.
   */
  productionLinesOfCode?: number;
  /**
   * Files and lines of code by role (snapshot/file-roles.ts): `files` counts every inventoried file
   * of the role, `linesOfCode` the code lines of its analysed TypeScript/JavaScript files. Undefined
   * in results made before roles were classified.
   */
  roles?: Record<FileRole, RoleSize>;
  /** Parse health: how much of the code parsed cleanly, counted in files (a byte share hides a central file that failed). */
  parse: {
    files: number;
    /** Files whose tree has ERROR or MISSING nodes (after the parse repairs of parsing/parse-repair.ts). */
    filesWithErrors: number;
    /** 0-100: share of parsed files with errors. */
    filesWithErrorsPercent: number;
    /** 0-100: share of parsed bytes outside ERROR nodes. */
    cleanPercent: number;
    /** Files parsed with repairs of the grammar's known gaps (clean or not). */
    repairedFiles: number;
    /** Files with errors and the line of their first error, by path; at most PARSE_ERROR_FILE_LIMIT (`filesWithErrors` is the total). */
    errorFiles: Array<{ path: string; line: number }>;
    cachedFiles: number;
  };
  severityCounts: Record<Severity, number>;
  categoryCounts: Record<HealthCategoryKey, number>;
  /** 0-100, or undefined until a testing analyzer measures it. */
  structuralCoveragePct?: number;
  actualCoveragePercent?: number | null;
  mockUsagePct?: number;
  /** Assertions per test function. */
  assertionDensity?: number;
  /** Test LOC per source LOC. */
  testCodeRatio?: number;
  duplicationIndex?: number;
  duplicatedLines?: number;
  conventionConsistency?: number;
  churn: {
    linesAdded30d: number;
    linesDeleted30d: number;
    /** (added + deleted in 30 days) per 1000 lines of code. */
    churnRate: number;
    hotFiles: string[];
  };
  graph: {
    modules: number;
    internalEdges: number;
    externalEdges: number;
    unresolvedEdges: number;
    cycles: number;
  };
  /** Extra metrics contributed by analyzers, keyed `<analyzer>.<name>`. */
  analyzerMetrics: Record<string, number>;
  durationMs: number;
}

export interface AssessmentResult {
  root: string;
  startedAt: string;
  completedAt: string;
  /** Findings after config filters (disabled rules, exclusions), sorted by severity then path. */
  findings: Finding[];
  scores: ScoreResult;
  metrics: AssessmentMetrics;
  summaries: FileSummary[];
  graph: CodeGraph;
  git: GitFacts;
  skipped: SkippedFile[];
  /** Convention patterns published by analyzers. */
  conventions: ConventionPattern[];
  /** Analyzers that ran, with their rule ids. */
  analyzers: Array<{ id: string; rules: string[] }>;
  config: CodeHealthConfig;
  /** What the result depends on: the same provenance gives the same findings and scores. */
  provenance: RunProvenance;
  /**
   * The commit whose recorded run state this run was derived from (`AnalyzeOptions.incremental`),
   * when it was: its unchanged code files all had their rules run (cached summaries, or analysed
   * on a cache miss), whatever `onlyPaths` says.
   */
  derivedFrom?: string;
}
