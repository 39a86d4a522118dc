// Export snapshots of the public surface, '.', './kit' and './testing' (and of the unstable './internal' the
// service builds on, kept to what it uses): adding or removing an export, or
// changing its kind (a class becoming a function, a constant a getter), is a deliberate change to
// these snapshots (`npx vitest run packages/engine/src/index.test.ts -u`, the file first since `-u` takes an optional value;
// the diff reviewed like code).
import { describe, expect, it } from 'vitest';
import { exportSurface } from '../../../test/helpers/export-surface.js';
import * as engine from './index.js';
import * as testing from './testing/index.js';
import * as kit from './kit.js';
import * as internal from './internal.js';

describe('@codehealth/engine exports', () => {
  it('exposes exactly the documented runtime names, each of its kind', () => {
    expect(exportSurface(engine)).toMatchInlineSnapshot(`
      "ANALYSIS_V8_FLAGS: object
      CLASS_NODE_TYPES: object
      CONFIG_FILE_NAMES: object
      ChangeRefError: class
      ConfigError: class
      DEFAULT_DRIFT_THRESHOLDS: object
      DEFAULT_PLUGINS: object
      DEFAULT_WEIGHTS: object
      DefaultDriftDetector: class
      DefaultScoringModel: class
      DiskFileSummaryCache: class
      FILE_ROLES: object
      FUNCTION_NODE_TYPES: object
      GRADE_THRESHOLDS: object
      HALF_SCORE_DENSITY: object
      HEALTH_CATEGORIES: object
      HEALTH_CATEGORY_KEYS: object
      ISSUE_CATEGORIES: object
      ISSUE_SOURCES: object
      MemoryFileSummaryCache: class
      NIL_UUID: string
      PARSED_LANGUAGES: object
      PluginDefinitionError: class
      PluginLoadError: class
      SARIF_SCHEMA_URI: string
      SEVERITIES: object
      SEVERITY_POINTS: object
      SnapshotError: class
      TOKENS: object
      TOOL_NAME: string
      TOOL_VERSION: string
      WELL_KNOWN_METRICS: object
      analyzeFileSource: function
      buildCodeGraph: function
      buildRepositoryGraph: function
      changeGateFailures: function
      changeToSarif: function
      codeRowPrefix: function
      compileSafeRegExp: function
      configSchema: object
      createEngine: function
      createModuleResolver: function
      createRepositoryResolver: function
      createSnapshot: function
      createWorkspaceMatcher: function
      decodeText: function
      defaultCacheDir: function
      defineAnalyzer: function
      defineRule: function
      deriveAssessmentIds: function
      driftSnapshotOf: function
      enclosingFunction: function
      enclosingSymbol: function
      extendCodeGraph: function
      extractModuleFacts: function
      fromSarif: function
      functionNameOf: function
      healthKeyOf: function
      isClassNode: function
      isFunctionNode: function
      isParsedLanguage: function
      issueFingerprint: function
      issueIdOf: function
      loadConfig: function
      loadPlugin: function
      localFunctionName: function
      normaliseSnippet: function
      parentSkippingParentheses: function
      parenthesizedExpression: function
      parseJson: function
      parseSource: function
      qualifiedFunctionName: function
      readRepositoryFile: function
      renderChangeMarkdown: function
      renderChangeText: function
      renderMarkdown: function
      renderPrMarkdown: function
      renderText: function
      repositoryFiles: function
      roleOfFile: function
      runGitCommand: function
      safeRegExpProblem: function
      sarifLogOf: function
      shortestCycle: function
      toJsonReport: function
      toSarif: function
      toWireAssessment: function
      toWireIssue: function
      toWireIssues: function
      toWireMetrics: function
      tuneV8ForAnalysis: function
      unwrapParentheses: function
      uuidFromName: function
      validateConfig: function"
    `);
  });

  it('exposes at @codehealth/engine/kit the plugin-facing values of the index, the same objects', () => {
    expect(exportSurface(kit)).toMatchInlineSnapshot(`
      "CLASS_NODE_TYPES: object
      FILE_ROLES: object
      FUNCTION_NODE_TYPES: object
      HEALTH_CATEGORIES: object
      HEALTH_CATEGORY_KEYS: object
      ISSUE_CATEGORIES: object
      ISSUE_SOURCES: object
      PARSED_LANGUAGES: object
      PluginDefinitionError: class
      SARIF_SCHEMA_URI: string
      SEVERITIES: object
      WELL_KNOWN_METRICS: object
      buildCodeGraph: function
      buildRepositoryGraph: function
      codeRowPrefix: function
      compileSafeRegExp: function
      createModuleResolver: function
      createRepositoryResolver: function
      createWorkspaceMatcher: function
      decodeText: function
      defineAnalyzer: function
      defineRule: function
      enclosingFunction: function
      enclosingSymbol: function
      extendCodeGraph: function
      extractModuleFacts: function
      fromSarif: function
      functionNameOf: function
      healthKeyOf: function
      isClassNode: function
      isFunctionNode: function
      isParsedLanguage: function
      localFunctionName: function
      parentSkippingParentheses: function
      parenthesizedExpression: function
      parseJson: function
      parseSource: function
      qualifiedFunctionName: function
      readRepositoryFile: function
      repositoryFiles: function
      roleOfFile: function
      runGitCommand: function
      safeRegExpProblem: function
      shortestCycle: function
      toSarif: function
      unwrapParentheses: function"
    `);
    for (const [name, value] of Object.entries(kit)) expect(value, name).toBe((engine as Record<string, unknown>)[name]);
  });

  it('exposes the plugin harness at @codehealth/engine/testing', () => {
    expect(exportSurface(testing)).toMatchInlineSnapshot(`
      "AnalyzerTester: class
      AnalyzerTesterError: class
      RepositoryRuleTester: class
      runRepositoryRule: function
      runRule: function"
    `);
  });

  it('exposes at @codehealth/engine/internal only what the service uses (unstable, not public)', () => {
    expect(exportSurface(internal)).toMatchInlineSnapshot(`
      "IMPACT_RATINGS: object
      ISSUE_CHANGES: object
      LlmError: class
      MAX_DEPENDENT_DEPTH: number
      MAX_OTHER_PRS: number
      MERGE_READINESS: object
      PR_INTENTS: object
      PrAnalysisPipeline: class
      SCOPE_CLASSIFICATIONS: object
      ZONE_RISKS: object
      analyzePrScope: function
      anchorsOf: function
      baselineOfResult: function
      changeKeyOf: function
      classifyDeterministic: function
      classifyPullRequest: function
      compileGlob: function
      computeGraphImpact: function
      detectConflicts: function
      detectLanguage: function
      detectScopeDrift: function
      detectStackedPrs: function
      failureDetail: function
      fileGroupOf: function
      findCycles: function
      globSyntaxProblem: function
      graphImporters: function
      groupZones: function
      isOutside: function
      issueWeight: function
      layerOf: function
      legacyIssueFingerprint: function
      listUnmergedCommits: function
      localCheckouts: function
      mergeBaseOf: function
      orderCycle: function
      reExportAliases: function
      readPullRequestChange: function
      readPullRequestDiff: function
      round1: function
      scoringMetricsOf: function
      settleLedger: function
      shortestCycleThrough: function
      storedGraphOf: function
      storedImporters: function
      succeeded: function
      toImpactZones: function
      toWireScoreLedger: function
      withLlmFindings: function
      workspacePackageRoots: function"
    `);
  });
});
