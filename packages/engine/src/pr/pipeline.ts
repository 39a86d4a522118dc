// The PR analysis pipeline: diff from the merge base, the baseline (a stored assessment at the
// merge base, else a fresh analysis of it), an incremental analysis of head restricted to the
// changed files and their graph neighbours, then classification (small model or rules), health
// projection, merge readiness, impact zones and scope drift, graph impact, stacking and
// conflicts with the other open PRs. It returns the payload `PrAnalysisRecorder.complete` takes.
import { parseJson } from '../config/json-syntax.js';
import { loadConfig } from '../config/load-config.js';
import type { EngineCore } from '../contracts/engine.js';
import { TOKENS } from '../di/tokens.js';
import type { ScoringModel } from '../contracts/scoring.js';
import type { Finding } from '../domain/types.js';
import { isOutside } from '../graph/file-probe.js';
import type { CodeGraph } from '../graph/types.js';
import type { JsonCompletionClient } from '../contracts/json-completion.js';
import { withLlmFindings, type DiffReviewer, type DiffReviewResult } from '../contracts/diff-review.js';
import type { AssessmentResult } from '../pipeline/types.js';
import { hasIncrementalBase, type InventoryConfig } from '../pipeline/incremental-run.js';
import type { RunStateStore } from '../cache/run-state-store.js';
import { gitHelper } from '../git-process/git-helper.js';
import { isParsedLanguage } from '../parsing/parser.js';
import { coveredCategories } from '../scoring/score-evidence.js';
import type { SourceItem } from '../pipeline/assessment-pipeline.js';
import { createClassifier, type ClassifyOptions } from '../snapshot/classify.js';
import { detectLanguage } from '../snapshot/languages.js';
import { decodeText, repositoryFiles } from '../snapshot/repository-files.js';
import { detectConflicts } from './conflicts.js';
import { git } from './diff-git.js';
import { CLASSIFY_HEAD_BYTES, readPullRequestChange, readPullRequestDiff, type ReadDiffOptions } from './diff.js';
import { startHeadRun, type EarlyHeadRun } from './early-head-run.js';
import { MAX_SYMBOL_FILE_BYTES, type SideFactsReader } from './diff-symbols.js';
import { computeGraphImpact, overlayImporters, storedImporters } from './graph-impact.js';
import type { GraphStore } from '../contracts/graph-store.js';
import { classifyPullRequest, type ClassificationOutcome } from './llm-classifier.js';
import type { CommitCheckouts } from './local-checkouts.js';
import { finalScope, graphNeighbours, isAnalysedCode, predictScope, type FinalScope } from './pipeline-scope.js';
import {
  canScope,
  CHANGED_FILES_PARTIAL,
  CHANGED_FILES_REASON,
  changedFilesCheckout,
  changedFilesConfig,
  rulesByKind,
  type ChangedFilesEvaluation,
} from './changed-files-scope.js';
import type { IssueChangeOf } from './issue-change.js';
import type { PrAnalysisResult } from './result.js';
import { baselineOfResult, compareFindings, projectHealth, scoringMetricsOf, type PrBaseline } from './projection.js';
import { explainConfidence, mergeReadiness } from './readiness.js';
import { analyzePrScope } from './scope-drift.js';
import { detectStackedPrs, listUnmergedCommits } from './stacking.js';
import { publicExports } from './public-api.js';
import { withPublicSurface } from './risk-signals.js';
import type { ChangedFile, PullRequestDiff, PullRequestInfo } from './types.js';
import { workspacePackageRoots } from './zones.js';

/** The repository's config files (config/load-config.ts), at any depth: the engine reads the top one. */
const CONFIG_FILE = /(^|\/)codehealth\.config\.[a-z]+$/;

/** Other open PRs compared for conflicts and stacking, at most. */
export const MAX_OTHER_PRS = 50;

export interface PrPipelineInput {
  /** A work tree at the PR's head commit whose repository also holds base and the other PRs' commits. */
  headDir: string;
  /** Checks out the merge base when no stored baseline matches it. */
  checkouts: CommitCheckouts;
  pr: PullRequestInfo;
  otherOpenPrs?: readonly PullRequestInfo[];
  /** The project's latest completed assessment of this repository; used only when its commit is the merge base. */
  baseAssessment?: PrBaseline;
  /**
   * When `baseAssessment` is not the merge base's: `full` (default) assesses the merge base in a
   * checkout of it; `changed-files` analyses only the changed code files on both sides and compares
   * the findings of file rules, listing the repository rules as not evaluated (changed-files-scope.ts).
   * A change to the config (`codehealth.config.*`) or a path no pattern can name literally falls back to `full`.
   */
  baseScope?: 'full' | 'changed-files';
  /**
   * The repository's graph in the graph store (Neo4j or the embedded tables): graph impact is then
   * queried from it, with the PR's files overlaid from the head's graph. Without it, or while the
   * store holds no graph of the repository, the walk runs on the head's and base's graphs in memory.
   */
  graphStore?: { store: GraphStore; repositoryId: string };
  signal?: AbortSignal;
}

export interface PrPipelineOutput {
  result: PrAnalysisResult;
  /** Issues of the run: head findings of the changed files plus neighbours' new ones. */
  findings: Finding[];
  /** issueFingerprint of the findings the PR introduced. */
  newFingerprints: Set<string>;
  /** Base findings of the scope that head no longer has: the issues the PR fixed. */
  fixedFindings: Finding[];
  /** How each of the run's findings changed against base (new, worsened, improved, unchanged) and its former value, by changeKeyOf(issueFingerprint, occurrence). */
  issueChanges: Record<string, IssueChangeOf>;
  mergeBaseSha: string;
  /** The stored assessment the run was compared with, when one matched the merge base. */
  baselineAssessmentId?: string;
  diff: PullRequestDiff;
  classifier: Pick<ClassificationOutcome, 'method' | 'model' | 'fallbackReason'>;
  readinessReasons: string[];
  scope: { changed: string[]; neighbours: string[]; unverified: string[]; analysed: string[] };
  /** Head's per-file pass: summaries reused from the cache, files analysed by every rule, files parsed for the graph only. */
  headFiles: { fromCache: number; analysed: number; graphOnly: number };
  timingsMs: Record<string, number>;
  /** The large model's review of the changed hunks, when that slot is configured (its findings are in `findings`). */
  llmReview?: Omit<DiffReviewResult, 'findings'> & { findings: number };
  /** Set when only the changed files were analysed (`baseScope: 'changed-files'`): what was not evaluated. */
  evaluation?: ChangedFilesEvaluation;
}

export interface PrPipelineDeps {
  engine: EngineCore;
  /** The small model slot; without it the rules classify. */
  llm?: JsonCompletionClient;
  /**
   * The large model's review of the changed hunks (the application layer builds it over its model
   * adapter); with it its findings are recorded as `llm_agent` issues.
   */
  reviewer?: DiffReviewer;
  log?: (line: string) => void;
  /**
   * Derive head's inventory, unchanged files' summaries and git facts from the state the merge
   * base's full run recorded (default true; false reads everything again — same result, slower).
   */
  incremental?: boolean;
}

export class PrAnalysisPipeline {
  constructor(private readonly deps: PrPipelineDeps) {}

  async run(input: PrPipelineInput): Promise<PrPipelineOutput> {
    const { engine, log } = this.deps;
    const { headDir, pr } = input;
    // git runs from the helper process (git-process/git-helper.ts): started now, it is ready for the diff.
    gitHelper().warm();
    const timings: Record<string, number> = {};
    const time = async <T>(stage: string, work: () => Promise<T>): Promise<T> => {
      const started = performance.now();
      try {
        return await work();
      } finally {
        timings[stage] = Math.round(performance.now() - started);
      }
    };
    const others = (input.otherOpenPrs ?? []).filter((o) => o.number !== pr.number).slice(0, MAX_OTHER_PRS);
    // The PRs' own commits (stacking) depend on nothing computed here: git lists them while the
    // diff and head's run are worked out. A failure surfaces where the structure awaits them.
    const unmerged = listUnmergedCommits(headDir, [pr, ...others]);
    unmerged.catch(() => {
      // Awaited (and reported) in the structure stage.
    });
    // A PR stacked on another open PR is compared with its parent's head: the parent's changes are the parent's.
    const stackBases = others.length > 0 ? await stackParentHeads(unmerged) : new Map<number, { number: number; headSha: string }>();
    const parent = stackBases.get(pr.number);
    input = parent ? { ...input, pr: { ...pr, baseSha: parent.headSha } } : input;
    const config = await loadConfig(headDir, { allowCode: false }).then(
      (c) => c.config,
      () => ({}) as { tests?: string[]; generated?: string[] },
    );
    const classify = { tests: config.tests, generated: config.generated };
    // Head's changed code files are summarised from the checkout while git diffs and reads blobs —
    // by head's run itself when it can start then (early-head-run.ts), else here — and the diff's
    // symbol reader waits for that and finds them cached.
    let prefetched: Promise<void> | undefined;
    let early: Promise<EarlyHeadRun | undefined> = Promise.resolve(undefined);
    // Head's file list (scope prediction) is asked of git as soon as head's commit is known.
    let headTree: Promise<string> | undefined;
    const onListed: ReadDiffOptions['onListed'] = (files, commits) => {
      headTree = git(headDir, ['ls-tree', '-r', '-z', '--name-only', commits.headSha]);
      headTree.catch(() => {
        // Awaited after the diff, where a failure is reported.
      });
      const starting = this.startEarly(input, config, files, commits);
      early = starting;
      prefetched = (async () => {
        const run = await starting;
        await (run ? run.summarised : prefetchHeadSummaries(engine, headDir, files, classify));
      })();
    };
    const sideFacts = engineSideFacts(engine, headDir, () => prefetched);
    const { change, classifying, baseline, baseGraph, head, scope, onlyPaths, headFiles, evaluation } = await this.analyseHead(
      input,
      { time, config, sideFacts, classify, onListed, headTree: () => headTree },
      () => early,
    ).catch(async (error: unknown) => {
      // A head run started early waits for its findings scope: end it.
      (await early.catch(() => undefined))?.provideScope(error instanceof Error ? error : new Error(String(error)));
      throw error;
    });
    const diff = change.diff;
    log?.(
      `pr #${pr.number}: ${diff.files.length} changed files, ${scope.neighbours.size} neighbours, ${onlyPaths.size} analysed paths, ` +
        `${head.metrics.parse.cachedFiles} files from cache, baseline ${baseline.assessmentId ? `assessment ${baseline.assessmentId}` : 'analysed at the merge base'}` +
        (parent ? `, stacked on #${parent.number}: compared with its head ${parent.headSha.slice(0, 12)}` : ''),
    );
    const outcome = await classifying;
    const { comparison, projection, trusted } = this.project(change, scope, baseline, head, outcome);
    const confidence = explainConfidence({ files: diff.files, parseHealth: parseHealthOf(diff.files, change), unverified: scope.unverified });
    const readiness = mergeReadiness(
      comparison.added,
      confidence.confidence,
      comparison.worsened.map((finding) => ({ finding, previousValue: comparison.changeOf.get(finding)?.previousValue })),
    );
    if (diff.files.length === 0) readiness.reasons = [nothingChanged(diff)];
    // The model reviews the hunks while the structure is computed (it waits on the network, the structure on git).
    const { reviewer } = this.deps;
    const reviewing = reviewer ? time('llmReview', () => reviewer({ diff, headDir, summaries: head.summaries, ...(log ? { log } : {}) })) : undefined;

    const structure = await time('structure', () => this.structure(input, diff.files, others, head, baseGraph, outcome, headFiles, unmerged, stackBases));
    const llmReview = await reviewing;
    const recorded = withLlmFindings(comparison.prFindings, comparison.newFingerprints, llmReview);
    return {
      result: {
        classification: outcome.classification,
        merge_readiness: { ...readiness.readiness, reasons: readiness.reasons, confidence_reasons: confidence.reasons },
        health_impact: projection.healthImpact,
        health_projection: projection.healthProjection,
        graph_impact: structure.graphImpact,
        scope_drift: structure.scopeDrift,
        impact_zones: structure.impactZones,
        conflicts: structure.conflicts,
        stacked_prs: structure.stacked,
      },
      findings: recorded.findings,
      newFingerprints: recorded.newFingerprints,
      fixedFindings: comparison.fixed,
      issueChanges: Object.fromEntries(comparison.changes),
      mergeBaseSha: diff.mergeBaseSha,
      ...(baseline.assessmentId ? { baselineAssessmentId: baseline.assessmentId } : {}),
      diff,
      classifier: { method: outcome.method, model: outcome.model, fallbackReason: outcome.fallbackReason },
      readinessReasons: readiness.reasons,
      scope: {
        changed: [...scope.changed].sort(),
        neighbours: [...scope.neighbours].sort(),
        unverified: [...scope.unverified].sort(),
        analysed: [...trusted].sort(),
      },
      headFiles: {
        fromCache: head.summaries.filter((f) => f.cached).length,
        analysed: head.summaries.filter((f) => !f.cached && !f.skipped && (onlyPaths.has(f.path) || head.derivedFrom !== undefined)).length,
        graphOnly: head.summaries.filter((f) => !f.cached && !f.skipped && !onlyPaths.has(f.path) && head.derivedFrom === undefined).length,
      },
      timingsMs: timings,
      ...(llmReview ? { llmReview: { ...llmReview, findings: llmReview.findings.length } } : {}),
      ...(evaluation ? { evaluation } : {}),
    };
  }

  /**
   * Head's run started as soon as git has listed the changed files (early-head-run.ts): when the
   * baseline is the merge base's assessment and the merge base's full run recorded its state.
   */
  private async startEarly(
    input: PrPipelineInput,
    config: InventoryConfig,
    files: ReadonlyArray<{ path: string; status: ChangedFile['status']; oldPath?: string }>,
    commits: { mergeBaseSha: string; headSha: string },
  ): Promise<EarlyHeadRun | undefined> {
    const { engine } = this.deps;
    if (this.deps.incremental === false || input.baseAssessment?.commitSha !== commits.mergeBaseSha) return undefined;
    const recorded = await hasIncrementalBase(engine.resolve<RunStateStore>(TOKENS.RunStates), input.headDir, commits.mergeBaseSha, config).catch(() => false);
    if (!recorded) return undefined;
    const incremental = { baseCommit: commits.mergeBaseSha, headCommit: commits.headSha, changedPaths: changedPathsOf(files) };
    return startHeadRun(engine, input.headDir, incremental, input.signal);
  }

  /** The diff, the baseline and head's run (started early when it can be, see early-head-run.ts), and the exact scope. */
  private async analyseHead(
    input: PrPipelineInput,
    ctx: {
      time: <T>(stage: string, work: () => Promise<T>) => Promise<T>;
      config: InventoryConfig;
      sideFacts: SideFactsReader;
      classify: ClassifyOptions;
      onListed: ReadDiffOptions['onListed'];
      headTree: () => Promise<string> | undefined;
    },
    early: () => Promise<EarlyHeadRun | undefined>,
  ) {
    const { engine } = this.deps;
    const { headDir, pr } = input;
    const { time, config, sideFacts, classify, onListed } = ctx;
    const change = await time('diff', () => readPullRequestChange(headDir, pr.baseSha, pr.headSha, { classify, sideFacts, onListed }));
    const diff = change.diff;
    // The classification needs only the diff: it runs (or waits for the small model) while head is analysed.
    const classifying = time('classification', () => classifyPullRequest(pr, change, this.deps.llm, this.deps.log));
    classifying.catch(() => {
      // Awaited after head's run; a failure of that run comes first.
    });

    let baseline = input.baseAssessment?.commitSha === diff.mergeBaseSha ? input.baseAssessment : undefined;
    let baseGraph: CodeGraph | undefined;
    const scoped = !baseline && input.baseScope === 'changed-files' && this.canAnalyseChangedFiles(diff);
    if (!baseline && !scoped) {
      const base = await input.checkouts.checkout(diff.mergeBaseSha);
      try {
        const result = await time('baseAnalysis', () => engine.analyze(base.path, { allowCodeConfig: false, signal: input.signal }));
        baseline = baselineOfResult(result, diff.mergeBaseSha);
        baseGraph = result.graph;
      } finally {
        await base.dispose();
      }
    }

    const headFiles = new Set((await (ctx.headTree() ?? git(headDir, ['ls-tree', '-r', '-z', '--name-only', diff.headSha]))).split('\0').filter(Boolean));
    if (scoped) {
      const { head, baseline, baseGraph, predicted, onlyPaths, evaluation } = await this.analyseChangedFiles(input, diff, time);
      const scope = finalScope(change, predicted, head, onlyPaths, baseGraph);
      return { change, classifying, baseline, baseGraph, head, scope, onlyPaths, headFiles, evaluation };
    }
    // A head run derived from the base's state gives every unchanged file its findings (cached or
    // analysed): importers of the changed files need not be predicted (git grep) for rules to run on them.
    const started = await early();
    const derived =
      started !== undefined ||
      (this.deps.incremental !== false && (await hasIncrementalBase(engine.resolve<RunStateStore>(TOKENS.RunStates), headDir, diff.mergeBaseSha, config)));
    const predicted = await time('scope', () => predictScope(headDir, change, headFiles, baseGraph, { importers: !derived }));
    const onlyPaths = new Set([...predicted.changedCode, ...predicted.neighbours]);
    // Findings are compared in the changed files and their neighbours only: the rest is not needed.
    // The neighbours the prediction missed (all importers, in a derived run) are head graph's.
    const findingsScope = (graph: CodeGraph) => [
      ...onlyPaths,
      ...diff.files.map((f) => f.path),
      ...graphNeighbours(change, predicted.changedCode, graph, baseGraph),
    ];
    const incremental =
      this.deps.incremental === false ? undefined : { baseCommit: diff.mergeBaseSha, headCommit: diff.headSha, changedPaths: changedPathsOf(diff.files) };
    const analyseHere = () =>
      engine.analyze(headDir, {
        allowCodeConfig: false,
        onlyPaths: [...onlyPaths],
        findingsScope,
        signal: input.signal,
        ...(incremental ? { incremental } : {}),
      });
    // Started early, the run has its summaries and graph by now: it waits only for this scope. Its
    // analysed paths are the changed ones, right only for a derived run: should the recorded state
    // have gone meanwhile, head is analysed again here.
    const head = await time('headAnalysis', async () => {
      if (!started) return analyseHere();
      started.provideScope(findingsScope);
      const result = await started.result;
      return result.derivedFrom !== undefined ? result : analyseHere();
    });
    const scope = finalScope(change, predicted, head, onlyPaths, baseGraph);
    const evaluation: ChangedFilesEvaluation | undefined = undefined;
    return { change, classifying, baseline: baseline!, baseGraph, head, scope, onlyPaths, headFiles, evaluation };
  }

  /**
   * A changed-files review is possible when the config is the same on both sides (it decides which
   * files are analysed and how; a change to it may move findings in unchanged files) and every
   * changed path can be written in a gitignore pattern literally.
   */
  private canAnalyseChangedFiles(diff: PullRequestDiff): boolean {
    const configChanged = diff.files.some((f) => [f.path, f.oldPath ?? f.path].some((path) => CONFIG_FILE.test(path)));
    const paths = diff.files.flatMap((f) => (f.oldPath ? [f.path, f.oldPath] : [f.path]));
    const ok = !configChanged && canScope(paths);
    if (!ok) {
      this.deps.log?.(
        `pr: the merge base is assessed in full: ${configChanged ? 'the change edits codehealth.config' : 'a changed path holds a wildcard character'}, so a changed-files review would not compare like with like`,
      );
    }
    return ok;
  }

  /**
   * Both sides with only the changed code files in the inventory (changed-files-scope.ts): the
   * merge base from a sparse checkout of those files (and every non-code file), head where it is.
   * Findings of file rules only: a repository rule on a partial inventory would report nonsense.
   */
  private async analyseChangedFiles(input: PrPipelineInput, diff: PullRequestDiff, time: <T>(stage: string, work: () => Promise<T>) => Promise<T>) {
    const { engine } = this.deps;
    const code = diff.files.filter(isAnalysedCode);
    const headPaths = code.filter((f) => f.status !== 'deleted').map((f) => f.path);
    const basePaths = code.filter((f) => f.status !== 'added' && f.status !== 'copied').map((f) => (f.status === 'renamed' && f.oldPath ? f.oldPath : f.path));
    const rules = rulesByKind(engine);
    const fileRulesOnly = <T extends { ruleId: string }>(findings: readonly T[]) => findings.filter((finding) => rules.file.has(finding.ruleId));
    // The two sides at once: one waits on git (the sparse checkout) or the file system while the other computes.
    const analyseBase = async () => {
      const base = await input.checkouts.checkout(diff.mergeBaseSha, { sparse: changedFilesCheckout(basePaths) });
      try {
        const baseConfig = (await loadConfig(base.path, { allowCode: false })).config;
        return await time('baseAnalysis', () =>
          engine.analyze(base.path, { allowCodeConfig: false, config: changedFilesConfig(baseConfig, basePaths), signal: input.signal }),
        );
      } finally {
        await base.dispose();
      }
    };
    const analyseHead = async () => {
      const headConfig = (await loadConfig(input.headDir, { allowCode: false })).config;
      return time('headAnalysis', () =>
        engine.analyze(input.headDir, { allowCodeConfig: false, config: changedFilesConfig(headConfig, headPaths), signal: input.signal }),
      );
    };
    const [baseResult, analysed] = await Promise.all([analyseBase(), analyseHead()]);
    const baseline: PrBaseline = { ...baselineOfResult(baseResult, diff.mergeBaseSha), findings: fileRulesOnly(baseResult.findings) };
    const baseGraph = baseResult.graph;
    const head: AssessmentResult = { ...analysed, findings: fileRulesOnly(analysed.findings) };
    const evaluation: ChangedFilesEvaluation = {
      mode: 'changed-files',
      reason: CHANGED_FILES_REASON,
      notEvaluatedRules: rules.repository,
      partial: [...CHANGED_FILES_PARTIAL],
    };
    this.deps.log?.(
      `pr: changed-files review: ${headPaths.length} head and ${basePaths.length} base code files, ${rules.repository.length} repository rules not evaluated`,
    );
    return { head, baseline, baseGraph, predicted: { changedCode: headPaths, neighbours: new Set<string>() }, onlyPaths: new Set(headPaths), evaluation };
  }

  private project(
    change: Awaited<ReturnType<typeof readPullRequestChange>>,
    scope: FinalScope,
    recorded: PrBaseline,
    head: AssessmentResult,
    outcome: ClassificationOutcome,
  ) {
    const diff = change.diff;
    const baseline = comparableBaseline(recorded, head);
    const trusted = new Set([...scope.changed, ...scope.neighbours].filter((p) => !scope.unverified.has(p)));
    const findingScope = {
      changed: new Set([...scope.changed].filter((p) => trusted.has(p))),
      neighbours: new Set([...scope.neighbours].filter((p) => trusted.has(p))),
      renamedFrom: new Map(diff.files.filter((f) => f.oldPath && f.status === 'renamed').map((f) => [f.path, f.oldPath!])),
      deleted: new Set(diff.files.filter((f) => f.status === 'deleted').map((f) => f.path)),
      symbolRenames: outcome.facts.renames.filter((r) => !r.move).map((r) => ({ file: r.to.file, from: r.from.name, to: r.to.name })),
    };
    const comparison = compareFindings(baseline.findings, head.findings, findingScope);
    const scoring = this.deps.engine.resolve<ScoringModel>(TOKENS.ScoringModel);
    const assessed = coveredCategories(head.scores);
    const projection = projectHealth({
      scoring,
      baseline,
      head: { findings: head.findings, metrics: scoringMetricsOf(head.metrics) },
      comparison,
      headScope: trusted,
      assessed,
    });
    return { comparison, projection, trusted };
  }

  /** Graph-impact sources from the graph store, when it holds a graph of the repository. */
  private async storedImpactSources(input: PrPipelineInput, files: readonly ChangedFile[], headGraph: CodeGraph) {
    if (!input.graphStore) return undefined;
    const { store, repositoryId } = input.graphStore;
    const commit = await store.commitOf(repositoryId).catch((error: Error) => {
      this.deps.log?.(`pr #${input.pr.number}: graph store not read (${error.message}); graph impact from the head's graph`);
      return undefined;
    });
    if (commit === undefined) return undefined;
    this.deps.log?.(`pr #${input.pr.number}: graph impact from the graph store (commit ${commit.slice(0, 12)}) with ${files.length} changed files overlaid`);
    const stored = storedImporters(store, repositoryId);
    const changed = new Set(files.flatMap((f) => (f.oldPath ? [f.path, f.oldPath] : [f.path])));
    return { head: overlayImporters(stored, headGraph, changed), base: stored };
  }

  private async structure(
    input: PrPipelineInput,
    files: readonly ChangedFile[],
    others: readonly PullRequestInfo[],
    head: AssessmentResult,
    baseGraph: CodeGraph | undefined,
    outcome: ClassificationOutcome,
    headFiles: ReadonlySet<string>,
    unmerged: ReturnType<typeof listUnmergedCommits>,
    stackBases: ReadonlyMap<number, { number: number; headSha: string }>,
  ) {
    const { headDir, pr } = input;
    // headDir is a clean checkout of head: its tracked files are head's tree, listed before (path order, as ls-files).
    const repoFiles = [...headFiles];
    // Manifests are read like every file of the checkout: never through a link out of it.
    const checkout = repositoryFiles(headDir);
    const readJson = (path: string): unknown => {
      const read = checkout.readSync(path, { maxBytes: MAX_MANIFEST_BYTES });
      const parsed = read.ok ? parseJson(decodeText(read.bytes)) : undefined;
      return parsed?.ok ? parsed.value : undefined;
    };
    // Risk signals were read from the diff alone: the public API is what the packages' entry points export.
    const publicSurface = publicExports(repoFiles, readJson, head.graph);
    outcome.classification.risk_signals = withPublicSurface(outcome.classification.risk_signals, outcome.facts, publicSurface);
    const { impactZones, scopeDrift } = analyzePrScope({
      files,
      graph: head.graph,
      packages: workspacePackageRoots(repoFiles, readJson),
      churn: head.git.files,
      primaryIntent: outcome.classification.primary_intent,
      title: pr.title,
      body: pr.body,
    });
    const sources = await this.storedImpactSources(input, files, head.graph);
    const graphImpact = await computeGraphImpact({ files, graph: head.graph, baseGraph, sources });
    const stacked = detectStackedPrs({ prNumber: pr.number, openPrs: await unmerged });
    const candidates = [];
    for (const other of others) {
      // A PR whose commits are missing from the clone (not fetched yet) cannot be compared: it is left out of checked_prs.
      // Each PR's own change: a stacked one from its parent's head, so a conflict belongs to the PR that made the change.
      const otherBase = stackBases.get(other.number)?.headSha ?? (other.baseSha || pr.baseSha);
      const otherDiff = await readPullRequestDiff(headDir, otherBase, other.headSha, { sideFacts: engineSideFacts(this.deps.engine, headDir) }).catch(
        (error: Error) => {
          this.deps.log?.(`pr #${pr.number}: PR #${other.number} not compared: ${error.message}`);
          return undefined;
        },
      );
      if (otherDiff) candidates.push({ pr: other, files: otherDiff.files });
    }
    const conflicts = detectConflicts({ pr, files, others: candidates, graph: head.graph, stack: stacked.stacked_prs });
    return { impactZones, scopeDrift, graphImpact, stacked, conflicts };
  }
}

/** Why an empty diff is ready: head is base, head is already merged into base, or its commits cancel out. */
export function nothingChanged(diff: Pick<PullRequestDiff, 'baseSha' | 'headSha' | 'mergeBaseSha'>): string {
  const short = (sha: string) => sha.slice(0, 12);
  if (diff.headSha === diff.baseSha) return `no changes: head ${short(diff.headSha)} is the base commit`;
  if (diff.headSha === diff.mergeBaseSha) return `no changes: head ${short(diff.headSha)} is already merged into base ${short(diff.baseSha)}`;
  return `no changes: head ${short(diff.headSha)} has the same files as the merge base ${short(diff.mergeBaseSha)}`;
}

/**
 * The baseline restricted to the kinds of issue head's run produces: issues recorded with the
 * assessment after its scoring (the architecture review's import cycles, a model's review) or by
 * rules head does not run would otherwise read as fixed by every PR touching their files, and
 * would move the current score away from the assessment's own.
 */
export function comparableBaseline(baseline: PrBaseline, head: Pick<AssessmentResult, 'analyzers'>): PrBaseline {
  const produced = new Set(head.analyzers.flatMap((analyzer) => analyzer.rules));
  if (produced.size === 0) return baseline;
  const findings = baseline.findings.filter((finding) => produced.has(finding.ruleId));
  return findings.length === baseline.findings.length ? baseline : { ...baseline, findings };
}

/** The nearest open parent of each stacked PR (stacking.ts), by PR number; empty when the PRs' commits cannot be listed. */
async function stackParentHeads(unmerged: ReturnType<typeof listUnmergedCommits>): Promise<Map<number, { number: number; headSha: string }>> {
  const openPrs = await unmerged.catch(() => undefined);
  const out = new Map<number, { number: number; headSha: string }>();
  if (!openPrs) return out;
  for (const { pr } of openPrs) {
    const nearest = detectStackedPrs({ prNumber: pr.number, openPrs }).parent_prs[0];
    const parent = openPrs.find((candidate) => candidate.pr.number === nearest)?.pr;
    if (parent) out.set(pr.number, { number: parent.number, headSha: parent.headSha });
  }
  return out;
}

/** Paths that differ between merge base and head: both sides of renames. */
function changedPathsOf(files: ReadonlyArray<Pick<ChangedFile, 'path' | 'status' | 'oldPath'>>): string[] {
  const paths = new Set<string>();
  for (const file of files) {
    paths.add(file.path);
    if (file.oldPath && file.status === 'renamed') paths.add(file.oldPath);
  }
  return [...paths];
}

/** Parse health (0-1) of each changed code file: head side, base side for deletions. */
function parseHealthOf(files: readonly ChangedFile[], change: Awaited<ReturnType<typeof readPullRequestChange>>): Map<string, number> {
  const health = new Map<string, number>();
  for (const file of files) {
    if (!isAnalysedCode(file)) continue;
    const sides = change.sides.get(file.path);
    const side = file.status === 'deleted' ? sides?.base : sides?.head;
    if (side) health.set(file.path, side.cleanRatio);
  }
  return health;
}

/**
 * Symbols of a change's sides from the engine's file summaries: the base side is usually cached by
 * the base assessment, and the head side analysed here is what head's run then finds cached.
 */
function engineSideFacts(engine: EngineCore, root: string, prefetched?: () => Promise<void> | undefined): SideFactsReader {
  return async (sides) => {
    await prefetched?.();
    const wanted = sides.map((side) => Buffer.byteLength(side.source) <= MAX_SYMBOL_FILE_BYTES);
    const items = sides
      .filter((_, n) => wanted[n])
      .map(({ path, kind, language, source }) => ({ file: { path, kind, language, sizeBytes: Buffer.byteLength(source) }, source }));
    const summaries = await engine.summarizeSources(root, items, { allowCodeConfig: false });
    let next = 0;
    return wanted.map((ok) => {
      if (!ok) return undefined;
      const summary = summaries[next++]!;
      return summary.skipped ? undefined : { facts: summary.module, cleanRatio: summary.parse.cleanRatio };
    });
  };
}

/** A workspace manifest larger than this is not read: none comes near it. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/**
 * Summarises head's changed code files from the checkout (`root` is head's clean work tree), as the
 * diff's symbol reader will ask for them: same kind, language and text as git's blobs decode to,
 * so the same cache keys. A file that differs from its blob (line-ending filters) is only a miss.
 */
async function prefetchHeadSummaries(
  engine: EngineCore,
  root: string,
  files: ReadonlyArray<{ path: string; status: ChangedFile['status'] }>,
  classifyOptions: ClassifyOptions,
): Promise<void> {
  try {
    const classify = createClassifier(classifyOptions);
    const checkout = repositoryFiles(root);
    const items: SourceItem[] = [];
    for (const { path, status } of files) {
      const language = detectLanguage(path);
      if (status === 'deleted' || isOutside(path) || !isParsedLanguage(language)) continue;
      // As the inventory reads a file: a regular file reached through no link (a link's blob is not
      // code). Larger files are not summarised (3 more bytes: a byte-order mark is not counted).
      const read = checkout.readSync(path, { links: 'never', maxBytes: MAX_SYMBOL_FILE_BYTES + 3 });
      if (!read.ok) continue;
      const source = decodeText(read.bytes);
      const sizeBytes = Buffer.byteLength(source);
      const kind = classify(path, source.slice(0, CLASSIFY_HEAD_BYTES));
      if (sizeBytes > MAX_SYMBOL_FILE_BYTES || (kind !== 'source' && kind !== 'test')) continue;
      items.push({ file: { path, kind, language, sizeBytes }, source });
    }
    if (items.length > 0) await engine.summarizeSources(root, items, { allowCodeConfig: false });
  } catch {
    // Only a head start: the diff's reader summarises whatever is missing.
  }
}
