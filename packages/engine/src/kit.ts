// `@codehealth/engine/kit`: what an analyzer plugin needs at run time — rule and analyzer
// definitions, the code graph and module resolution, line classification, git, SARIF — and the
// types of the analyzer contract, without the engine's hosts (dependency injection, configuration
// schema and loader, reports, caches). Worker threads load the plugins they run: a plugin that
// imports from here spares each of them the rest of the engine (~130 ms of start-up per thread for
// the built-in analyzers). `@codehealth/engine` exports the same values.
export { defineRule, defineAnalyzer, PluginDefinitionError } from './plugins/define.js';
export { SEVERITIES, ISSUE_CATEGORIES, HEALTH_CATEGORY_KEYS, ISSUE_SOURCES, FILE_ROLES } from './domain/types.js';
export { roleOfFile } from './snapshot/file-roles.js';
export { HEALTH_CATEGORIES, healthKeyOf } from './domain/categories.js';
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
export { codeRowPrefix } from './pipeline/line-counts.js';
export { compileSafeRegExp, safeRegExpProblem } from './patterns/safe-regexp.js';
export { runGitCommand } from './git-process/git-helper.js';
export { toSarif, fromSarif, SARIF_SCHEMA_URI } from './report/sarif.js';
// Files a rule reads beside the snapshot's (coverage reports, SARIF logs, installed packages) come
// through the same checked read: never through a link out of the repository.
export { repositoryFiles, readRepositoryFile, decodeText } from './snapshot/repository-files.js';
export { parseJson } from './config/json-syntax.js';
// Types from their modules, not `export type * from './index.js'`: the root would then look
// imported (by the code graph, the architecture overview's entry points) though nothing loads it.
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
export type { HealthCategoryMeta } from './domain/categories.js';
// The whole analyzer contract (its one value, WELL_KNOWN_METRICS, included). Not `export type *`:
// tree-sitter's TypeScript grammar cannot parse it, and the engine analyses its own sources.
export * from './contracts/analyzer.js';
export type { AnalyzerDefinition } from './plugins/define.js';
export type { RepoSnapshot, RepoFile, GitFacts, FileChurn } from './snapshot/types.js';
export type { RepositoryFiles, RepositoryFileRead, RepositoryReadOptions, RepositoryFileRefusal } from './snapshot/repository-files.js';
export type { JsonParse } from './config/json-syntax.js';
export type { CodeGraph, ModuleNode, ImportEdge, ImportRecord, ExportRecord, SymbolRecord, ModuleFacts } from './graph/types.js';
export type { ModuleResolver, RepositoryModuleResolver, Resolution } from './graph/index.js';
export type { GitRequest, GitResult } from './git-process/spawn-git.js';
export type { FileSummary, FunctionSummary, LineCounts, ParseStats } from './pipeline/file-summary.js';
export type { SarifLog } from './report/sarif.js';
export type { SafeRegExp } from './patterns/safe-regexp.js';
