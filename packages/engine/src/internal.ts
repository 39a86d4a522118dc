// @codehealth/engine/internal — UNSTABLE: the engine's internal modules the service package (@codehealth/service)
// builds on (the PR analysis' parts, wire mappings of reports, graph and git helpers). Not a public
// API: it changes with the engine without notice; embedders and plugins use the root, /kit and /testing.
// Only what the service uses, by name: whatever the root also exports, the service takes from the root.

// -- PR analysis: the pipeline and its parts
export { PrAnalysisPipeline, MAX_OTHER_PRS } from './pr/pipeline.js';
export type { PrPipelineInput, PrPipelineOutput, PrPipelineDeps } from './pr/pipeline.js';
export { PR_INTENTS, MERGE_READINESS, ZONE_RISKS, SCOPE_CLASSIFICATIONS, IMPACT_RATINGS } from './pr/result.js';
export type {
  PrAnalysisResult,
  PrClassification,
  MergeReadiness,
  HealthImpact,
  HealthProjection,
  GraphImpact,
  ScopeDriftItem,
  ImpactZone,
  PrConflicts,
  StackedPrs,
} from './pr/result.js';
export type { ChangeStatus, DiffHunk, ChangedSymbol, ChangedFile, PullRequestDiff, PullRequestInfo } from './pr/types.js';
export { readPullRequestDiff, readPullRequestChange, mergeBaseOf } from './pr/diff.js';
export type { ReadDiffOptions, PullRequestChange } from './pr/diff.js';
export { localCheckouts } from './pr/local-checkouts.js';
export type { CommitCheckout, CommitCheckouts } from './pr/local-checkouts.js';
export { classifyDeterministic } from './pr/classify.js';
export { classifyPullRequest } from './pr/llm-classifier.js';
export { computeGraphImpact, graphImporters, storedImporters } from './pr/graph-impact.js';
export { baselineOfResult } from './pr/projection.js';
export type { PrBaseline } from './pr/projection.js';
export { scoringMetricsOf } from './scoring/scoring-inputs.js';
export { issueWeight } from './pr/readiness.js';
export { workspacePackageRoots, groupZones, toImpactZones } from './pr/zones.js';
export { anchorsOf, analyzePrScope, detectScopeDrift } from './pr/scope-drift.js';
export { detectConflicts } from './pr/conflicts.js';
export { detectStackedPrs, listUnmergedCommits } from './pr/stacking.js';
export type { StackCandidate } from './pr/stacking.js';
export { ISSUE_CHANGES, changeKeyOf } from './pr/issue-change.js';
export type { IssueChangeOf } from './pr/issue-change.js';

// -- Ports of the PR analysis that the service's adapters fill: graph store, model, the model's diff review
export { storedGraphOf, reExportAliases, layerOf, MAX_DEPENDENT_DEPTH } from './contracts/graph-store.js';
export type {
  GraphStore,
  StoredGraph,
  StoredSymbol,
  StoredImport,
  StoredCall,
  ImpactEdge,
  ImpactCall,
  ImportPair,
  Dependent,
  LayerEdge,
} from './contracts/graph-store.js';
export { LlmError } from './contracts/json-completion.js';
export type { JsonCompletionClient, JsonCompletionRequest } from './contracts/json-completion.js';
export { withLlmFindings } from './contracts/diff-review.js';
export type { DiffReviewer, DiffReviewResult } from './contracts/diff-review.js';

// -- Reports: wire mappings, the score ledger, the fingerprint of issues recorded before issue 18
export { round1 } from './report/wire.js';
export { toWireScoreLedger } from './report/wire-score-ledger.js';
export type { WireScoreLedger, WireScoreEvidence, WireCategoryLedger, WireCategoryLedgerEntry, WireOverallLedgerEntry } from './report/wire-score-ledger.js';
export { settleLedger } from './scoring/score-ledger.js';
export { legacyIssueFingerprint } from './report/issue-id.js';

// -- Graph, git, pattern and file helpers
export type { ImportKind } from './graph/types.js';
export { findCycles, orderCycle, shortestCycleThrough } from './graph/strongly-connected.js';
export { isOutside } from './graph/file-probe.js';
export { failureDetail, succeeded } from './git-process/spawn-git.js';
export { compileGlob, globSyntaxProblem } from './patterns/glob.js';
export type { GlobOptions } from './patterns/glob.js';
export { fileGroupOf } from './pipeline/findings.js';
export { detectLanguage } from './snapshot/languages.js';
