// `@codehealth/engine/kit`: what an analyzer plugin needs at run time — rule and analyzer
// definitions, the code graph and module resolution, line classification, git, SARIF — and every
// type of the engine's public surface, without its hosts (dependency injection, configuration
// schema and loader, reports, caches). Worker threads load the plugins they run: a plugin that
// imports from here spares each of them the rest of the engine (the configuration schema alone
// brings ~95 modules, 850 KB, of its validator). `@codehealth/engine` exports the same values.
export { defineRule, defineAnalyzer, PluginDefinitionError } from './plugins/define.js';
export { SEVERITIES, ISSUE_CATEGORIES, HEALTH_CATEGORY_KEYS, ISSUE_SOURCES } from './domain/types.js';
export { HEALTH_CATEGORIES, healthKeyOf } from './domain/categories.js';
export { WELL_KNOWN_METRICS } from './contracts/analyzer.js';
export { parseSource, isParsedLanguage, PARSED_LANGUAGES } from './parsing/parser.js';
export { FUNCTION_NODE_TYPES, isFunctionNode, functionNameOf } from './parsing/functions.js';
export { buildCodeGraph, buildRepositoryGraph, createModuleResolver, createRepositoryResolver, createWorkspaceMatcher, extractModuleFacts, shortestCycle } from './graph/index.js';
export { codeRowPrefix } from './pipeline/line-counts.js';
export { runGitCommand } from './git-process/git-helper.js';
export { toSarif, fromSarif, SARIF_SCHEMA_URI } from './report/sarif.js';
export type * from './index.js';
