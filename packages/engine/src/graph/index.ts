// The code graph's public surface: per-file extraction, module resolution and the graph itself.

// Contract
export type { CodeGraph, ExportKind, ExportRecord, ImportEdge, ImportKind, ImportRecord, ModuleFacts, ModuleNode, SymbolRecord } from './types.js';

// Extraction during the single walk
export { createModuleFactsVisitor, extractModuleFacts, type ModuleFactsOptions } from './extract-module-facts.js';

// Resolution
export { createModuleResolver, type ModuleResolver, type ModuleResolverOptions, type RepositoryModuleResolver, type Resolution } from './resolve-module.js';
export { DEFAULT_CONDITIONS } from './package-exports.js';
export { parseJsonc } from './parse-jsonc.js';

// Graph
export { buildCodeGraph, extendCodeGraph, type CodeGraphInput, type CodeGraphOptions } from './build-graph.js';
export { buildRepositoryGraph, createRepositoryResolver } from './repository-graph.js';
export { createWorkspaceMatcher } from './workspace-packages.js';
export { shortestCycle } from './cycle-path.js';
