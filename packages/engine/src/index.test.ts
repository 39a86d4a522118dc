// Guards the public surface: adding or removing an export is a deliberate change to this list.
import { describe, expect, it } from 'vitest';
import * as engine from './index.js';
import * as testing from './testing/index.js';
import * as kit from './kit.js';

describe('@codehealth/engine exports', () => {
  it('exposes exactly the documented runtime names', () => {
    expect(Object.keys(engine).sort()).toEqual([
      'ANALYSIS_V8_FLAGS', 'CLASS_NODE_TYPES', 'CONFIG_FILE_NAMES', 'ChangeRefError', 'ConfigError', 'DEFAULT_DRIFT_THRESHOLDS', 'DEFAULT_PLUGINS', 'DEFAULT_WEIGHTS',
      'DefaultDriftDetector', 'DefaultScoringModel', 'DiskFileSummaryCache', 'FILE_ROLES', 'FUNCTION_NODE_TYPES', 'GRADE_THRESHOLDS',
      'HALF_SCORE_DENSITY', 'HEALTH_CATEGORIES', 'HEALTH_CATEGORY_KEYS', 'ISSUE_CATEGORIES', 'ISSUE_SOURCES', 'MemoryFileSummaryCache', 'NIL_UUID',
      'PARSED_LANGUAGES', 'PluginDefinitionError', 'PluginLoadError', 'SARIF_SCHEMA_URI', 'SEVERITIES', 'SEVERITY_POINTS', 'SnapshotError', 'TOKENS',
      'TOOL_NAME', 'TOOL_VERSION', 'WELL_KNOWN_METRICS', 'analyzeFileSource', 'buildCodeGraph', 'buildRepositoryGraph', 'codeRowPrefix',
      'compileSafeRegExp', 'configSchema', 'createEngine', 'createModuleResolver', 'createRepositoryResolver', 'createSnapshot',
      'createWorkspaceMatcher', 'decodeText', 'defaultCacheDir', 'defineAnalyzer', 'defineRule', 'deriveAssessmentIds', 'driftSnapshotOf',
      'enclosingFunction', 'enclosingSymbol', 'extendCodeGraph', 'extractModuleFacts', 'fromSarif', 'functionNameOf', 'healthKeyOf', 'isClassNode',
      'isFunctionNode', 'isParsedLanguage', 'issueFingerprint', 'issueIdOf', 'loadConfig', 'loadPlugin', 'localFunctionName', 'normaliseSnippet',
      'parentSkippingParentheses', 'parenthesizedExpression', 'parseJson', 'parseSource', 'qualifiedFunctionName', 'readRepositoryFile',
      'renderMarkdown', 'renderPrMarkdown', 'renderText', 'repositoryFiles', 'roleOfFile', 'runGitCommand', 'safeRegExpProblem', 'shortestCycle',
      'toJsonReport', 'toSarif', 'toWireAssessment', 'toWireIssue', 'toWireIssues', 'toWireMetrics', 'tuneV8ForAnalysis', 'unwrapParentheses',
      'uuidFromName', 'validateConfig',
    ]);
  });

  it('exposes at @codehealth/engine/kit the plugin-facing values of the index, the same objects', () => {
    expect(Object.keys(kit).sort()).toEqual([
      'CLASS_NODE_TYPES', 'FILE_ROLES', 'FUNCTION_NODE_TYPES', 'HEALTH_CATEGORIES', 'HEALTH_CATEGORY_KEYS', 'ISSUE_CATEGORIES', 'ISSUE_SOURCES',
      'PARSED_LANGUAGES', 'PluginDefinitionError', 'SARIF_SCHEMA_URI', 'SEVERITIES', 'WELL_KNOWN_METRICS', 'buildCodeGraph', 'buildRepositoryGraph',
      'codeRowPrefix', 'compileSafeRegExp', 'createModuleResolver', 'createRepositoryResolver', 'createWorkspaceMatcher', 'decodeText',
      'defineAnalyzer', 'defineRule', 'enclosingFunction', 'enclosingSymbol', 'extendCodeGraph', 'extractModuleFacts', 'fromSarif', 'functionNameOf',
      'healthKeyOf', 'isClassNode', 'isFunctionNode', 'isParsedLanguage', 'localFunctionName', 'parentSkippingParentheses', 'parenthesizedExpression',
      'parseJson', 'parseSource', 'qualifiedFunctionName', 'readRepositoryFile', 'repositoryFiles', 'roleOfFile', 'runGitCommand',
      'safeRegExpProblem', 'shortestCycle', 'toSarif', 'unwrapParentheses',
    ]);
    for (const [name, value] of Object.entries(kit)) expect(value, name).toBe((engine as Record<string, unknown>)[name]);
  });

  it('exposes the plugin harness at @codehealth/engine/testing', () => {
    expect(Object.keys(testing).sort()).toEqual(['AnalyzerTester', 'AnalyzerTesterError', 'RepositoryRuleTester', 'runRepositoryRule', 'runRule']);
  });
});
