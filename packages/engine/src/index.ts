// @codehealth/engine — the public surface, listed explicitly and grouped (guarded by a snapshot test).
import 'reflect-metadata';

// Composition root
export { createEngine, DEFAULT_PLUGINS } from './di/create-engine.js';
export type { CreateEngineOptions, Engine, EngineOverrides } from './di/create-engine.js';
export type { EngineCore } from './contracts/engine.js';
export { TOKENS } from './di/tokens.js';

// Domain vocabulary
export { SEVERITIES, ISSUE_CATEGORIES, HEALTH_CATEGORY_KEYS, ISSUE_SOURCES, FILE_ROLES } from './domain/types.js';
export type {
  Severity,
  IssueCategory,
  HealthCategoryKey,
  IssueSource,
  Language,
  FileKind,
  FileRole,
  Anchor,
  Finding,
  MetricSpec,
  AnalyzerDetection,
} from './domain/types.js';
export { HEALTH_CATEGORIES, healthKeyOf } from './domain/categories.js';
export type { HealthCategoryMeta } from './domain/categories.js';

// Analyzer contract and plugin helpers
export type {
  Analyzer,
  Plugin,
  Rule,
  FileRule,
  RepositoryRule,
  RuleMeta,
  RuleDocs,
  Collector,
  CollectorContext,
  FileRuleContext,
  RepositoryRuleContext,
  PreviousRun,
  ReportDescriptor,
  RepositoryReportDescriptor,
  NodeVisitor,
  SyntaxNode,
  ConventionPattern,
  WellKnownMetric,
} from './contracts/analyzer.js';
export { WELL_KNOWN_METRICS } from './contracts/analyzer.js';
export { defineRule, defineAnalyzer, PluginDefinitionError } from './plugins/define.js';
export type { AnalyzerDefinition } from './plugins/define.js';
export { loadPlugin, PluginLoadError } from './plugins/load-plugin.js';

// Scoring and drift
export type {
  ScoringModel,
  ScoringMetrics,
  ScoringEvidence,
  ScoreResult,
  CategoryScore,
  Grade,
  ScoreEvidence,
  CategoryLedgerEntry,
  OverallLedgerEntry,
  RoleFigures,
} from './contracts/scoring.js';
export { DefaultScoringModel, DEFAULT_WEIGHTS, GRADE_THRESHOLDS, HALF_SCORE_DENSITY, SEVERITY_POINTS } from './scoring/default-scoring-model.js';
export type { DriftDetector, DriftAlert, DriftSnapshot, DriftThresholds, DriftType } from './contracts/drift.js';
export { DefaultDriftDetector, DEFAULT_DRIFT_THRESHOLDS } from './drift/default-drift-detector.js';
export { driftSnapshotOf } from './drift/drift-snapshot.js';

// Repository snapshot, parsing and code graph
export { createSnapshot, SnapshotError } from './snapshot/snapshot.js';
export { roleOfFile } from './snapshot/file-roles.js';
export type { RepoSnapshot, RepoFile, GitFacts, FileChurn } from './snapshot/types.js';
export { repositoryFiles, readRepositoryFile, decodeText } from './snapshot/repository-files.js';
export type { RepositoryFiles, RepositoryFileRead, RepositoryReadOptions, RepositoryFileRefusal } from './snapshot/repository-files.js';
export { parseSource, isParsedLanguage, PARSED_LANGUAGES } from './parsing/parser.js';
export {
  FUNCTION_NODE_TYPES,
  CLASS_NODE_TYPES,
  isFunctionNode,
  isClassNode,
  functionNameOf,
  enclosingFunction,
  enclosingSymbol,
  localFunctionName,
  qualifiedFunctionName,
  parenthesizedExpression,
  unwrapParentheses,
  parentSkippingParentheses,
} from './parsing/functions.js';
export type { CodeGraph, ModuleNode, ImportEdge, ImportRecord, ExportRecord, SymbolRecord, ModuleFacts } from './graph/types.js';
export {
  buildCodeGraph,
  buildRepositoryGraph,
  createModuleResolver,
  createRepositoryResolver,
  createWorkspaceMatcher,
  extendCodeGraph,
  extractModuleFacts,
  shortestCycle,
} from './graph/index.js';
export type { ModuleResolver, RepositoryModuleResolver, Resolution } from './graph/index.js';

// Patterns from users and repositories, matched in linear time (no catastrophic backtracking)
export { compileSafeRegExp, safeRegExpProblem } from './patterns/safe-regexp.js';
export type { SafeRegExp } from './patterns/safe-regexp.js';

// Git, run from a small helper process (spawning from a large process is slow)
export { runGitCommand } from './git-process/git-helper.js';
export { tuneV8ForAnalysis, ANALYSIS_V8_FLAGS } from './runtime/v8-tuning.js';
export type { GitRequest, GitResult } from './git-process/spawn-git.js';

// Assessment pipeline and results
export type { AssessmentResult, AssessmentMetrics, AnalyzeOptions, ProgressEvent, SkippedFile } from './pipeline/types.js';
export type { FileSummary, FunctionSummary, LineCounts, ParseStats } from './pipeline/file-summary.js';
export { analyzeFileSource } from './pipeline/analyze-file.js';
export { codeRowPrefix } from './pipeline/line-counts.js';

// Configuration
export { configSchema } from './config/schema.js';
export type { CodeHealthConfig } from './config/schema.js';
export { loadConfig, validateConfig, CONFIG_FILE_NAMES } from './config/load-config.js';
export { ConfigError } from './config/errors.js';
export { parseJson } from './config/json-syntax.js';
export type { JsonParse } from './config/json-syntax.js';

// Cache
export { MemoryFileSummaryCache, DiskFileSummaryCache, defaultCacheDir } from './cache/file-summary-cache.js';
export type { FileSummaryCache } from './cache/file-summary-cache.js';

// Report formats: the spec's wire objects (the one snake_case conversion), JSON, SARIF, text, Markdown
export { toWireIssue, toWireIssues, toWireAssessment, NIL_UUID } from './report/wire.js';
export type { WireIssue, WireIssueExtra, WireAssessment, WireAssessmentExtra, WireContextType, WireTriggerType, WireAssessmentStatus } from './report/wire.js';
export { toWireMetrics } from './report/wire-metrics.js';
export type { WireMetrics, WireCategoryDetail } from './report/wire-metrics.js';
export { issueFingerprint, normaliseSnippet, uuidFromName, issueIdOf, deriveAssessmentIds } from './report/issue-id.js';
export type { AssessmentIds } from './report/issue-id.js';
export { toJsonReport } from './report/json.js';
export type { JsonReport } from './report/json.js';
export { toSarif, fromSarif, SARIF_SCHEMA_URI } from './report/sarif.js';
export type { SarifLog } from './report/sarif.js';
export { renderText } from './report/text.js';
export type { TextReportOptions } from './report/text.js';
export { renderMarkdown } from './report/markdown.js';
export type { MarkdownReportOptions } from './report/markdown.js';
export { renderPrMarkdown } from './report/pr-markdown.js';
export { changeGateFailures, changeToSarif, renderChangeMarkdown, renderChangeText } from './report/change-report.js';
export type { ChangeGate, ChangeReportOptions } from './report/change-report.js';
export { sarifLogOf } from './report/sarif.js';
export type { SarifRunFacts } from './report/sarif.js';
export { ChangeRefError } from './pr/analyze-change.js';
export type { AnalyzeChangeInput, ChangeAnalysis } from './pr/analyze-change.js';
export type { PrMarkdownOptions, PrSummaryInput } from './report/pr-markdown.js';
export { TOOL_NAME, TOOL_VERSION } from './report/tool-info.js';
