// The health-assessment pipeline over a directory: inventory, per-file pass (cached by content
// hash), code graph, repository rules, metrics and scores. Pure computation: it persists nothing.
import { inject, injectable } from 'tsyringe';
import { resolve } from 'node:path';
import type { Analyzer } from '../contracts/analyzer.js';
import type { ScoringModel } from '../contracts/scoring.js';
import type { Finding, HealthCategoryKey } from '../domain/types.js';
import { SEVERITIES } from '../domain/types.js';
import { healthKeyOf } from '../domain/categories.js';
import { TOKENS } from '../di/tokens.js';
import type { FileSummaryCache } from '../cache/file-summary-cache.js';
import { summaryCacheKey } from '../cache/file-summary-cache.js';
import { loadConfig } from '../config/load-config.js';
import type { CodeHealthConfig } from '../config/schema.js';
import { buildRuleSet, type RuleSet } from '../plugins/rule-set.js';
import { loadPlugin } from '../plugins/load-plugin.js';
import { createSnapshot } from '../snapshot/snapshot.js';
import type { GitFacts, RepoFile, RepoSnapshot } from '../snapshot/types.js';
import type { CodeGraph } from '../graph/types.js';
import { isParsedLanguage } from '../parsing/parser.js';
import { buildRepositoryGraph, prefetchRepositoryGraph } from '../graph/repository-graph.js';
import type { FileSummary } from './file-summary.js';
import { analyzeFileSource, contentHashOf, unparsedSummary } from './analyze-file.js';
import { computeMetrics } from './metrics.js';
import { hasCodeFiles } from './code-file-estimate.js';
import { drainFileQueue } from './file-queue.js';
import { publishOutcomes, runRepositoryRules, type Published, type RemoteRules, type RuleInputs } from './repository-rules.js';
import { FilePool, defaultWorkerCount, workerScriptUrl, type PoolItem } from './worker-pool.js';
import type { AnalyzeOptions, AssessmentResult, ProgressEvent, SkippedFile } from './types.js';
import type { RunStateStore } from '../cache/run-state-store.js';
import { incrementalSnapshot, runStateRecorder, type IncrementalSnapshot } from './incremental-run.js';

export interface PipelineOptions {
  /** Analyzers from the engine's plugins (config plugins are added per run). */
  analyzers: Analyzer[];
}

/** Files read and looked up in the cache at once. */
const READ_CONCURRENCY = 32;
/** Starting workers costs ~0.3 s (tree-sitter and plugins load in each); not worth it for few files. */
const MIN_FILES_FOR_WORKERS = 48;
/** Summaries sent to the rules worker per message. */
const SHARE_BATCH = 32;

const SEVERITY_RANK = Object.fromEntries(SEVERITIES.map((s, i) => [s, i]));

// The same order as String#localeCompare (which builds a collator per call).
const collator = new Intl.Collator();

function compareFindings(a: Finding, b: Finding): number {
  return SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || collator.compare(a.filePath, b.filePath) || a.anchor.lineStart - b.anchor.lineStart || collator.compare(a.ruleId, b.ruleId);
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw Object.assign(new Error('analysis aborted'), { name: 'AbortError', expose: true });
}

@injectable()
export class AssessmentPipeline {
  constructor(
    @inject(TOKENS.ScoringModel) private readonly scoring: ScoringModel,
    @inject(TOKENS.FileCache) private readonly cache: FileSummaryCache,
    @inject(TOKENS.Analyzers) private readonly analyzers: Analyzer[],
    @inject(TOKENS.PluginUrls) private readonly plugins: { urls: string[] | null },
    @inject(TOKENS.EngineOptions) private readonly engineOptions: { workers?: number },
    @inject(TOKENS.RunStates) private readonly runStates: RunStateStore,
  ) {}

  async run(dir: string, options: AnalyzeOptions = {}): Promise<AssessmentResult> {
    const started = Date.now();
    const root = resolve(dir);
    const progress = (event: ProgressEvent) => options.onProgress?.(event);
    const signal = options.signal;

    progress({ stage: 'inventory', message: `Listing files in ${root}` });
    const { config, ruleSet, pluginUrls } = await this.ruleSetFor(root, options);
    // Workers take a few hundred milliseconds to load: a full run of a large repository starts
    // them now, on the cores that would idle while the files are listed. A run over a few paths
    // (a pull request) mostly hits the cache and starts them only if enough files miss it.
    const early = !options.onlyPaths && (await hasCodeFiles(root, MIN_FILES_FOR_WORKERS));
    const pool = early ? this.poolFor(Number.POSITIVE_INFINITY, { config, pluginUrls }) : undefined;
    let scoped: RepoSnapshot;
    // A head run reuses the base's recorded state when there is one; a full run records its own.
    let incremental: IncrementalSnapshot | undefined;
    let recorder: ReturnType<typeof runStateRecorder> | undefined;
    try {
      incremental = options.incremental && (await incrementalSnapshot(this.runStates, root, options.incremental, config));
      if (!options.incremental && !options.onlyPaths) recorder = runStateRecorder(this.runStates, root, config);
      scoped =
        incremental?.snapshot ??
        (await createSnapshot(root, {
          exclude: config.exclude,
          tests: config.tests,
          generated: config.generated,
          maxFileBytes: config.maxFileBytes,
          onGitHistory: recorder?.onGitHistory,
        }));
      throwIfAborted(signal);
    } catch (error) {
      closeQuietly(pool);
      throw error;
    }

    // Git history (churn, authors) and the graph's configuration files are read while the files
    // are analysed; a failure surfaces where they are awaited below.
    scoped.git().catch(() => {
      // Awaited again after the per-file pass, where a failure is reported.
    });
    prefetchRepositoryGraph(scoped);
    const { summaries, skipped, pool: rulesPool } = await this.summarise(scoped, ruleSet, { options, config, pluginUrls, pool, known: incremental?.contentHashes }, progress);
    let phase: RepositoryPhase;
    try {
      throwIfAborted(signal);
      const previous = incremental && this.previousRun(incremental, ruleSet);
      phase = await this.repositoryPhase(scoped, summaries, ruleSet, { options, pool: rulesPool, record: recorder !== undefined, ...(previous ? { previous } : {}) }, progress);
    } finally {
      closeQuietly(rulesPool);
    }
    const { graph, git, findings, analyzerMetrics, wellKnown, conventions, ruleStates } = phase;
    findings.sort(compareFindings);
    await recorder?.finish(scoped.files, summaries, Object.keys(ruleStates).length > 0 ? { ruleSet: ruleSet.fingerprint, states: ruleStates } : undefined);

    progress({ stage: 'scoring', message: 'Scoring' });
    const metrics = computeMetrics({ files: scoped.files, summaries, findings, skipped, graph, git, analyzerMetrics, durationMs: 0 });
    for (const [name, value] of Object.entries(wellKnown)) {
      if (name === 'actualCoveragePercent') metrics.actualCoveragePercent = value;
      else if (value !== null) (metrics as unknown as Record<string, number>)[name] = value;
    }
    const assessed = new Set<HealthCategoryKey>();
    for (const a of ruleSet.analyzers) for (const c of a.categories) assessed.add(healthKeyOf(c));
    const scores = this.scoring.score(
      findings,
      {
        sourceLoc: metrics.totalLinesOfCode,
        testLoc: metrics.testLinesOfCode,
        structuralCoveragePct: metrics.structuralCoveragePct,
        actualCoveragePercent: metrics.actualCoveragePercent ?? undefined,
        duplicationIndex: metrics.duplicationIndex,
        conventionConsistency: metrics.conventionConsistency,
      },
      assessed,
    );
    metrics.durationMs = Date.now() - started;
    progress({ stage: 'done', message: `Done in ${(metrics.durationMs / 1000).toFixed(1)} s`, percent: 100 });
    return {
      root,
      startedAt: new Date(started).toISOString(),
      completedAt: new Date().toISOString(),
      findings,
      scores,
      metrics,
      summaries,
      graph,
      git,
      skipped,
      conventions,
      analyzers: ruleSet.analyzers.map((a) => ({ id: a.id, rules: a.rules.map((r) => `${a.id}/${r.meta.id}`) })),
      config,
      ...(incremental && options.incremental ? { derivedFrom: options.incremental.baseCommit } : {}),
    };
  }

  /** Code graph, git facts and the repository rules' findings (after the summaries' own), metrics and conventions. */
  private async repositoryPhase(
    scoped: RepoSnapshot,
    summaries: FileSummary[],
    ruleSet: RuleSet,
    run: { options: AnalyzeOptions; pool?: FilePool; record: boolean; previous?: RuleInputs['previous'] },
    progress: (e: ProgressEvent) => void,
  ): Promise<RepositoryPhase> {
    const { options, pool, record, previous } = run;
    const signal = options.signal;
    progress({ stage: 'graph', message: 'Building the code graph' });
    const git = await scoped.git();
    // The worker builds its own graph, and only if a rule it runs reads it: it is sent its rules
    // first and this thread builds the run's graph meanwhile — unless the findings' scope is
    // worked out from the graph (a pull request's head run).
    let graphBuilt: Promise<CodeGraph> | undefined;
    const graphOf = () => (graphBuilt ??= buildRepositoryGraph(scoped, summaries));
    const scopePaths = typeof options.findingsScope === 'function' ? [...new Set(options.findingsScope(await graphOf()))] : options.findingsScope;
    const scope = scopePaths ? new Set(scopePaths) : undefined;
    const inScope = (path: string) => !scope || scope.has(path);
    const rules = ruleSet.repositoryRules;
    const remote: RemoteRules | undefined = pool && {
      run: (groups, claim, order, onGroup) =>
        pool.runRules({ total: summaries.length, root: scoped.root, files: scoped.files, git, scope: scopePaths, record, groups, claim, order }, onGroup),
    };
    const inputsOf = async (): Promise<RuleInputs> => ({ snapshot: scoped, summaries, graph: await graphOf(), ...(scope ? { scope } : {}), record, ...(previous ? { previous } : {}), signal: signal ?? new AbortController().signal });
    const outcomes = await runRepositoryRules(rules, inputsOf, {
      remote,
      progress: (message) => progress({ stage: 'repository-rules', message }),
      checkpoint: () => throwIfAborted(signal),
    });
    const graph = await graphOf();
    const published = await publishOutcomes(rules, outcomes, (path) => scoped.readFile(path), inScope);
    const findings = [...summaries.flatMap((s) => (inScope(s.path) ? s.findings : [])), ...published.findings];
    return { ...published, findings, graph, git };
  }

  /**
   * Summaries of given texts as a run over `root` would make them (same config, rules and cache
   * keys): cached ones are reused, the others analysed in process and cached. The PR pipeline
   * reads symbols of both sides of a change this way, and head's run then finds them cached.
   */
  async summarizeSources(root: string, items: readonly SourceItem[], options: Pick<AnalyzeOptions, 'config' | 'allowCodeConfig'> = {}): Promise<FileSummary[]> {
    const { ruleSet } = await this.ruleSetFor(resolve(root), options);
    return Promise.all(items.map((item) => summarizeSource(item, ruleSet, this.cache)));
  }

  private async ruleSetFor(root: string, options: Pick<AnalyzeOptions, 'config' | 'allowCodeConfig'>) {
    // A missing root has no config either; createSnapshot reports it.
    const config = options.config ?? (await loadConfig(root, { allowCode: options.allowCodeConfig ?? false })).config;
    const analyzers = [...this.analyzers];
    let pluginUrls = this.plugins.urls ? [...this.plugins.urls] : null;
    for (const specifier of config.plugins ?? []) {
      const loaded = await loadPlugin(specifier, root);
      analyzers.push(...loaded.plugin.analyzers);
      pluginUrls = pluginUrls && loaded.url ? [...pluginUrls, loaded.url] : null;
    }
    return { config, ruleSet: buildRuleSet(analyzers, config), pluginUrls };
  }

  /** The per-file pass over source and test files; every file ends as a summary or a recorded skip. */
  private async summarise(
    snapshot: RepoSnapshot,
    ruleSet: RuleSet,
    run: { options: AnalyzeOptions; config: CodeHealthConfig; pluginUrls: string[] | null; pool?: FilePool; known?: ReadonlyMap<string, string> },
    progress: (e: ProgressEvent) => void,
  ): Promise<{ summaries: FileSummary[]; skipped: SkippedFile[]; pool?: FilePool }> {
    const { options } = run;
    const code = snapshot.files.filter((f) => (f.kind === 'source' || f.kind === 'test') && isParsedLanguage(f.language));
    const only = options.onlyPaths ? new Set(options.onlyPaths) : undefined;
    const slots: FileSummary[] = new Array(code.length);
    const misses: Array<{ index: number; key: string; item: PoolItem }> = [];
    let done = 0;
    let lastPercent = -1;
    const advance = (n: number) => {
      done += n;
      const percent = Math.floor((done / code.length) * 100);
      if (percent !== lastPercent && (percent % 5 === 0 || done === code.length)) {
        lastPercent = percent;
        progress({ stage: 'parse', message: `Analysed ${done}/${code.length} files`, percent, done, total: code.length });
      }
    };

    // Read, hash and look up in the cache, a few files at a time. Without a pool yet, one is
    // started as soon as enough files miss the cache, so its threads load while the rest is read.
    let pool = run.pool;
    try {
      for (let i = 0; i < code.length; i += READ_CONCURRENCY) {
        throwIfAborted(options.signal);
        // Reads are synchronous (snapshot.ts): let timers and I/O in now and then.
        if (i > 0 && i % (READ_CONCURRENCY * 8) === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        await Promise.all(
          code.slice(i, i + READ_CONCURRENCY).map(async (file, j) => {
            const index = i + j;
            if (file.skipReason) return void (slots[index] = unparsedSummary(file, undefined, file.skipReason));
            // An unchanged file of an incremental run: its summary is looked up without reading it.
            const knownHash = run.known?.get(file.path);
            const known = knownHash && (await this.cache.get(summaryCacheKey({ path: file.path, kind: file.kind, contentHash: knownHash, ruleSetFingerprint: ruleSet.fingerprint })));
            if (known) return void (slots[index] = { ...known, cached: true });
            let source: string;
            try {
              source = await snapshot.readFile(file.path);
            } catch (error) {
              const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
              return void (slots[index] = unparsedSummary(file, undefined, `unreadable: ${code}`));
            }
            const contentHash = contentHashOf(source);
            const key = summaryCacheKey({ path: file.path, kind: file.kind, contentHash, ruleSetFingerprint: ruleSet.fingerprint });
            const hit = await this.cache.get(key);
            if (hit) slots[index] = { ...hit, cached: true };
            // Outside the requested paths and not cached: summarised for the graph, no rules run.
            // An unchanged file of an incremental run is the exception: the base's run had its
            // findings, so a cache miss (an evicted entry) costs its rules rather than its trust.
            else misses.push({ index, key, item: { file, source, rules: !only || only.has(file.path) || knownHash !== undefined, slot: index, contentHash } });
          }),
        );
        // A started pool is given up when the first files mostly hit the cache (a re-assessment).
        if (i === 0 && pool && misses.length * 2 < Math.min(READ_CONCURRENCY, code.length)) {
          closeQuietly(pool);
          pool = undefined;
        }
        pool ??= this.poolFor(misses.length, run);
      }
      advance(code.length - misses.length);
      if (pool && misses.length < MIN_FILES_FOR_WORKERS) {
        // Few files to analyse: not worth waiting for (or talking to) workers.
        closeQuietly(pool);
        pool = undefined;
      }

      // The rules worker keeps what it analyses; everything else is sent to it as it is made.
      const held = new Uint8Array(code.length);
      let sharing: Array<[number, FileSummary]> = [];
      const share = (index: number) => {
        held[index] = 1;
        sharing.push([index, slots[index]]);
        if (sharing.length < SHARE_BATCH) return;
        pool?.share(sharing);
        sharing = [];
      };
      await drainFileQueue(misses, {
        pool,
        inProcess: ({ item }) => analyzeInProcess(item, ruleSet),
        done: async (miss, summary, by) => {
          slots[miss.index] = summary;
          if (by === pool?.rulesWorker) held[miss.index] = 1;
          else if (pool) share(miss.index);
          if (!summary.skipped && miss.item.rules) await this.cache.set(miss.key, summary);
          advance(1);
        },
        checkpoint: () => throwIfAborted(options.signal),
      });
      if (pool) for (let index = 0; index < code.length; index++) if (!held[index]) share(index);
      pool?.share(sharing);
    } catch (error) {
      closeQuietly(pool);
      throw error;
    }

    const skipped: SkippedFile[] = slots.filter((s) => s.skipped).map((s) => ({ path: s.path, reason: s.skipped! }));
    const analysed = new Set(code);
    for (const file of snapshot.files) {
      if (file.skipReason && !analysed.has(file)) skipped.push({ path: file.path, reason: file.skipReason });
    }
    return { summaries: slots, skipped, pool };
  }

  /**
   * What a derived run's rules know of the base's run: the states they saved, when the rule set is
   * the same, and the base's summaries of changed files from the cache (by the recorded hashes).
   */
  private previousRun(incremental: IncrementalSnapshot, ruleSet: RuleSet): RuleInputs['previous'] | undefined {
    const saved = incremental.base.rules;
    if (!saved || saved.ruleSet !== ruleSet.fingerprint) return undefined;
    const { files, contentHashes } = incremental.base;
    const summaryBefore = async (path: string): Promise<FileSummary | undefined> => {
      const file = files.get(path);
      const contentHash = contentHashes[path];
      if (!file || !contentHash) return undefined;
      return this.cache.get(summaryCacheKey({ path, kind: file.kind, contentHash, ruleSetFingerprint: ruleSet.fingerprint }));
    };
    const changedPaths = incremental.changedPaths;
    return (qualifiedId) => (Object.hasOwn(saved.states, qualifiedId) ? { state: saved.states[qualifiedId], changedPaths, summaryBefore } : undefined);
  }

  private poolFor(misses: number, run: { config: CodeHealthConfig; pluginUrls: string[] | null }): FilePool | undefined {
    const size = this.engineOptions.workers ?? defaultWorkerCount();
    if (size < 1 || misses < MIN_FILES_FOR_WORKERS || !run.pluginUrls) return undefined;
    const script = workerScriptUrl();
    if (!script) return undefined;
    // The first worker runs repository rules next to the main thread once the files are done.
    return new FilePool(script, size, { pluginUrls: run.pluginUrls, config: run.config }, 0);
  }
}

type RepositoryPhase = Published & { graph: CodeGraph; git: GitFacts };

/** Stops a pool's threads without waiting: tearing down a worker's heap takes a while. */
function closeQuietly(pool: FilePool | undefined): void {
  pool?.close().catch(() => {
    // Terminating idle workers has no failure the run could act on.
  });
}

/** A text to summarise as the file at `file.path` (see `summarizeSources`). */
export interface SourceItem {
  file: RepoFile;
  source: string;
}

async function summarizeSource({ file, source }: SourceItem, ruleSet: RuleSet, cache: FileSummaryCache): Promise<FileSummary> {
  const contentHash = contentHashOf(source);
  const key = summaryCacheKey({ path: file.path, kind: file.kind, contentHash, ruleSetFingerprint: ruleSet.fingerprint });
  const hit = await cache.get(key);
  if (hit) return { ...hit, cached: true };
  const summary = analyzeInProcess({ file, source, rules: true, contentHash }, ruleSet);
  if (!summary.skipped) await cache.set(key, summary);
  return summary;
}

function analyzeInProcess(item: PoolItem, ruleSet: RuleSet): FileSummary {
  try {
    return analyzeFileSource(item.file, item.source, item.rules ? ruleSet : { ...ruleSet, fileRules: [], collectors: [] }, item.contentHash);
  } catch (error) {
    return unparsedSummary(item.file, item.source, `analysis failed: ${(error as Error).message}`);
  }
}

export type { CodeHealthConfig };
