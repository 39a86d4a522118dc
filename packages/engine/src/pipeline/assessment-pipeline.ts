// The health-assessment pipeline over a directory: inventory, per-file pass (cached by content
// hash), code graph, repository rules, metrics and scores. Pure computation: it persists nothing.
import { inject, injectable } from 'tsyringe';
import { resolve } from 'node:path';
import type { Analyzer } from '../contracts/analyzer.js';
import type { ScoringModel } from '../contracts/scoring.js';
import type { Finding } from '../domain/types.js';
import { SEVERITIES } from '../domain/types.js';
import { TOKENS } from '../di/tokens.js';
import type { FileSummaryCache } from '../cache/file-summary-cache.js';
import { summaryCacheKey } from '../cache/file-summary-cache.js';
import { CONFIG_FILE_NAMES, loadConfig } from '../config/load-config.js';
import type { CodeHealthConfig } from '../config/schema.js';
import { buildRuleSet, type RuleSet } from '../plugins/rule-set.js';
import {
  analyzersOf,
  configPlugins,
  refusedPluginFindings,
  withoutRefusedSettings,
  type InstalledPlugin,
  type RefusedPlugin,
} from '../plugins/config-plugins.js';
import { createSnapshot } from '../snapshot/snapshot.js';
import type { GitFacts, RepoFile, RepoSnapshot } from '../snapshot/types.js';
import type { CodeGraph } from '../graph/types.js';
import { isParsedLanguage } from '../parsing/parser.js';
import { buildRepositoryGraph, prefetchRepositoryGraph } from '../graph/repository-graph.js';
import type { FileSummary } from './file-summary.js';
import { analyzeFileSource, contentHashOf, unparsedSummary } from './analyze-file.js';
import { computeMetrics } from './metrics.js';
import { assignFindingRoles } from './findings.js';
import { createRoleClassifier, roleOfFile } from '../snapshot/file-roles.js';
import { hasCodeFiles } from './code-file-estimate.js';
import { drainFileQueue } from './file-queue.js';
import { publishOutcomes, runRepositoryRules, type Published, type RemoteRules, type RuleInputs } from './repository-rules.js';
import { FilePool, defaultWorkerCount, workerScriptUrl, type PoolItem, type SummaryBefore } from './worker-pool.js';
import { stopQuietly, type WarmPool, type WarmWorkers } from './warm-workers.js';
import type { AnalyzeOptions, AssessmentResult, ProgressEvent, SkippedFile } from './types.js';
import type { RunStateStore } from '../cache/run-state-store.js';
import { incrementalSnapshot, runStateRecorder, type IncrementalSnapshot } from './incremental-run.js';
import { runProvenance } from './provenance.js';
import { scoringInputsOf, scoringMetricsOf } from '../scoring/scoring-inputs.js';

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
  return (
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    collator.compare(a.filePath, b.filePath) ||
    a.anchor.lineStart - b.anchor.lineStart ||
    collator.compare(a.ruleId, b.ruleId)
  );
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
    @inject(TOKENS.PluginUrls) private readonly plugins: { urls: string[] | null; installed: InstalledPlugin[]; identities: string[] },
    @inject(TOKENS.EngineOptions) private readonly engineOptions: { workers?: number; rulesOffMainThread?: boolean },
    @inject(TOKENS.RunStates) private readonly runStates: RunStateStore,
    @inject(TOKENS.WarmWorkers) private readonly warmWorkers: WarmWorkers,
  ) {}

  async run(dir: string, options: AnalyzeOptions = {}): Promise<AssessmentResult> {
    const started = Date.now();
    const root = resolve(dir);
    const progress = (event: ProgressEvent) => options.onProgress?.(event);
    const signal = options.signal;

    progress({ stage: 'inventory', message: `Listing files in ${root}` });
    const { config, ruleSet, pluginUrls, refused } = await this.ruleSetFor(root, options);
    // Threads kept from the last run (a long-running host) serve this one if they load the same
    // plugins and configuration.
    const signature = pluginUrls && JSON.stringify([pluginUrls, config]);
    const warm = signature ? this.warmWorkers.take(signature) : undefined;
    // Workers take a few hundred milliseconds to load: a full run of a large repository starts
    // them now, on the cores that would idle while the files are listed. A run over a few paths
    // (a pull request) mostly hits the cache and starts them only if enough files miss it.
    const early = !warm && !options.onlyPaths && (await hasCodeFiles(root, MIN_FILES_FOR_WORKERS));
    const pool = warm?.pool ?? (early ? this.poolFor(Number.POSITIVE_INFINITY, { config, pluginUrls }) : undefined);
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
          roles: config.roles,
          maxFileBytes: config.maxFileBytes,
          onGitHistory: recorder?.onGitHistory,
        }));
      throwIfAborted(signal);
    } catch (error) {
      stopQuietly(pool);
      throw error;
    }

    // Git history (churn, authors) and the graph's configuration files are read while the files
    // are analysed; a failure surfaces where they are awaited below.
    scoped.git().catch(() => {
      // Awaited again after the per-file pass, where a failure is reported.
    });
    prefetchRepositoryGraph(scoped);
    const keep = signature !== null && this.warmWorkers.keepMs > 0;
    const {
      summaries,
      skipped,
      pool: rulesPool,
      keys,
    } = await this.summarise(scoped, ruleSet, { options, config, pluginUrls, pool, warm, known: incremental?.contentHashes }, progress);
    let phase: RepositoryPhase;
    let parked = false;
    try {
      throwIfAborted(signal);
      const previous = incremental && this.previousRun(incremental, ruleSet);
      phase = await this.repositoryPhase(
        scoped,
        summaries,
        ruleSet,
        { options, pool: rulesPool, record: recorder !== undefined, previous, keep: keep ? keys : undefined },
        progress,
      );
      // The rules worker kept this run's summaries: the next run may adopt them.
      if (keep && rulesPool && phase.remoteKept)
        parked = this.warmWorkers.park(rulesPool, signature, new Set(keys.filter((key): key is string => key !== null)));
    } finally {
      if (!parked) stopQuietly(rulesPool);
    }
    const { graph, git, findings, analyzerMetrics, wellKnown, conventions, ruleStates } = phase;
    if (refused.plugins.length > 0) findings.push(...(await this.refusedPluginNotices(scoped, refused)));
    assignFindingRoles(findings, scoped.files);
    findings.sort(compareFindings);
    await recorder?.finish(scoped.files, summaries, Object.keys(ruleStates).length > 0 ? { ruleSet: ruleSet.fingerprint, states: ruleStates } : undefined);

    progress({ stage: 'scoring', message: 'Scoring' });
    const metrics = computeMetrics({ files: scoped.files, summaries, findings, skipped, graph, git, analyzerMetrics, durationMs: 0 });
    for (const [name, value] of Object.entries(wellKnown)) {
      if (name === 'actualCoveragePercent') metrics.actualCoveragePercent = value;
      else if (value !== null) (metrics as unknown as Record<string, number>)[name] = value;
    }
    // Production code only: the lines other roles hold and what no analyzer reads are evidence, not size.
    const inputs = scoringInputsOf(scoped.files, summaries, ruleSet);
    metrics.productionLinesOfCode = inputs.productionLoc;
    const scores = this.scoring.score(findings, scoringMetricsOf(metrics), inputs.assessed, inputs.evidence);
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
      provenance: runProvenance({ git, config, ruleSet: ruleSet.fingerprint, scoringModel: this.scoring.id }),
      ...(incremental && options.incremental ? { derivedFrom: options.incremental.baseCommit } : {}),
    };
  }

  /** Findings that say which plugins named by the repository's config were not loaded, on its config file. */
  private async refusedPluginNotices(snapshot: RepoSnapshot, refused: { plugins: readonly RefusedPlugin[]; ignored: readonly string[] }): Promise<Finding[]> {
    const configFile = snapshot.files.find((f) => (CONFIG_FILE_NAMES as readonly string[]).includes(f.path));
    const path = configFile?.path ?? CONFIG_FILE_NAMES[0];
    const text = configFile ? await snapshot.readFile(configFile.path).catch(() => undefined) : undefined;
    return refusedPluginFindings(refused.plugins, path, text, refused.ignored);
  }

  /** Code graph, git facts and the repository rules' findings (after the summaries' own), metrics and conventions. */
  private async repositoryPhase(
    scoped: RepoSnapshot,
    summaries: FileSummary[],
    ruleSet: RuleSet,
    run: { options: AnalyzeOptions; pool?: FilePool; record: boolean; previous?: PreviousRunView; keep?: Array<string | null> },
    progress: (e: ProgressEvent) => void,
  ): Promise<RepositoryPhase> {
    const { options, pool, record, keep } = run;
    const previous = run.previous?.view;
    const signal = options.signal;
    progress({ stage: 'graph', message: 'Building the code graph' });
    const git = await scoped.git();
    // The worker builds its own graph, and only if a rule it runs reads it: it is sent its rules
    // first and this thread builds the run's graph meanwhile — unless the findings' scope is
    // worked out from the graph (a pull request's head run).
    let graphBuilt: Promise<CodeGraph> | undefined;
    const graphOf = () => (graphBuilt ??= buildRepositoryGraph(scoped, summaries));
    const scopePaths = typeof options.findingsScope === 'function' ? [...new Set(await options.findingsScope(await graphOf()))] : options.findingsScope;
    const scope = scopePaths ? new Set(scopePaths) : undefined;
    const inScope = (path: string) => !scope || scope.has(path);
    const rules = ruleSet.repositoryRules;
    let remoteKept = false;
    const remote: RemoteRules | undefined = pool && {
      run: async (groups, claim, order, onGroup) => {
        const request = {
          total: summaries.length,
          root: scoped.root,
          files: scoped.files,
          git,
          scope: scopePaths,
          record,
          groups,
          claim,
          order,
          keep,
          previous: run.previous?.forWorker,
        };
        await pool.runRules(request, onGroup, run.previous?.summaryBefore);
        remoteKept = keep !== undefined;
      },
    };
    const inputsOf = async (): Promise<RuleInputs> => ({
      snapshot: scoped,
      summaries,
      graph: await graphOf(),
      ...(scope ? { scope } : {}),
      record,
      ...(previous ? { previous } : {}),
      signal: signal ?? new AbortController().signal,
    });
    const outcomes = await runRepositoryRules(rules, inputsOf, {
      remote,
      offThread: this.engineOptions.rulesOffMainThread,
      progress: (message) => progress({ stage: 'repository-rules', message }),
      checkpoint: () => throwIfAborted(signal),
    });
    const graph = await graphOf();
    const published = await publishOutcomes(rules, outcomes, (path) => scoped.readFile(path), inScope);
    const findings = [...summaries.flatMap((s) => (inScope(s.path) ? s.findings : [])), ...published.findings];
    return { ...published, findings, graph, git, remoteKept };
  }

  /**
   * Summaries of given texts as a run over `root` would make them (same config, rules and cache
   * keys): cached ones are reused, the others analysed in process and cached. The PR pipeline
   * reads symbols of both sides of a change this way, and head's run then finds them cached.
   */
  async summarizeSources(root: string, items: readonly SourceItem[], options: Pick<AnalyzeOptions, 'config' | 'allowCodeConfig'> = {}): Promise<FileSummary[]> {
    const { config, ruleSet, pluginUrls } = await this.ruleSetFor(resolve(root), options);
    const out: FileSummary[] = new Array(items.length);
    const misses: Array<{ index: number; key: string; item: PoolItem }> = [];
    // A file given without a role gets the one its path and the config's `roles` give it: the
    // run over `root` finds the summary under the same key for all but files that scripts,
    // workflows or manifests place (there it is only a miss).
    const roleOfPath = createRoleClassifier(undefined, config.roles);
    await Promise.all(
      items.map(async ({ file: given, source }, index) => {
        const file = given.role ? given : { ...given, role: roleOfPath(given) };
        const contentHash = contentHashOf(source);
        const key = keyOf(file, contentHash, ruleSet);
        const hit = await this.cache.get(key);
        if (hit) out[index] = { ...hit, cached: true };
        else misses.push({ index, key, item: { file, source, rules: true, contentHash } });
      }),
    );
    // A warm pool (a long-running host) takes the larger share, and its rules worker keeps what it
    // makes for the run that follows (a pull request's head run).
    const signature = pluginUrls && misses.length > 1 ? JSON.stringify([pluginUrls, config]) : null;
    const warm = signature ? this.warmWorkers.take(signature) : undefined;
    let parked = false;
    try {
      const remote = warm ? largerShare(misses) : [];
      const sent = new Set(remote);
      const done = warm && this.summariseOnWorker(warm, remote);
      for (const miss of misses) if (!sent.has(miss)) out[miss.index] = analyzeInProcess(miss.item, ruleSet);
      const made = done ? await done : [];
      made.forEach((summary, k) => (out[remote[k].index] = summary ?? analyzeInProcess(remote[k].item, ruleSet)));
      if (warm) {
        const keys = new Set(warm.keys);
        made.forEach((summary, k) => summary && !summary.skipped && keys.add(remote[k].key));
        parked = this.warmWorkers.park(warm.pool, signature!, keys);
      }
    } finally {
      if (warm && !parked) stopQuietly(warm.pool);
    }
    // One write per entry (a text may be asked for twice), all at once.
    const entries = new Map(misses.filter((miss) => !out[miss.index].skipped).map((miss) => [miss.key, out[miss.index]]));
    await Promise.all([...entries].map(([key, summary]) => this.cache.set(key, summary)));
    return out;
  }

  /** Summaries made by a warm pool's rules worker, which keeps them by cache key; undefined for each if it failed. */
  private async summariseOnWorker(warm: WarmPool, misses: ReadonlyArray<{ key: string; item: PoolItem }>): Promise<Array<FileSummary | undefined>> {
    if (misses.length === 0) return [];
    try {
      return await warm.pool.run(
        misses.map(({ key, item }) => ({ ...item, keepAs: key })),
        warm.pool.rulesWorker,
      );
    } catch {
      return misses.map(() => undefined);
    }
  }

  private async ruleSetFor(root: string, options: Pick<AnalyzeOptions, 'config' | 'allowCodeConfig'>) {
    // A missing root has no config either; createSnapshot reports it.
    const trusted = options.allowCodeConfig ?? false;
    const named = options.config ?? (await loadConfig(root, { allowCode: trusted })).config;
    // Never an import of what an untrusted repository names: only the host's plugins run.
    const { loaded, refused } = await configPlugins(named.plugins ?? [], { installed: this.plugins.installed, root, trusted });
    const analyzers = [...this.analyzers, ...analyzersOf(loaded)];
    const { config, ignored } = withoutRefusedSettings(named, analyzers, refused);
    let pluginUrls = this.plugins.urls ? [...this.plugins.urls] : null;
    for (const { url } of loaded) pluginUrls = pluginUrls && url ? [...pluginUrls, url] : null;
    const ruleSet = buildRuleSet(analyzers, config, [...this.plugins.identities, ...loaded.map((plugin) => plugin.identity)]);
    return { config, ruleSet, pluginUrls, refused: { plugins: refused, ignored } };
  }

  /** The per-file pass over source and test files; every file ends as a summary or a recorded skip. */
  private async summarise(
    snapshot: RepoSnapshot,
    ruleSet: RuleSet,
    run: {
      options: AnalyzeOptions;
      config: CodeHealthConfig;
      pluginUrls: string[] | null;
      pool?: FilePool;
      warm?: WarmPool;
      known?: ReadonlyMap<string, string>;
    },
    progress: (e: ProgressEvent) => void,
  ): Promise<{ summaries: FileSummary[]; skipped: SkippedFile[]; pool?: FilePool; keys: Array<string | null> }> {
    const { options, warm } = run;
    const offThread = this.engineOptions.rulesOffMainThread === true;
    const code = snapshot.files.filter((f) => (f.kind === 'source' || f.kind === 'test') && isParsedLanguage(f.language));
    const only = options.onlyPaths ? new Set(options.onlyPaths) : undefined;
    const slots: FileSummary[] = new Array(code.length);
    // The cache key of each slot's summary when it has every rule's findings (null: a skipped
    // file, or one summarised for the graph only): a warm rules worker keeps summaries by it.
    const keys: Array<string | null> = new Array(code.length).fill(null);
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

    // Reads, hashes and looks up one file: a cache hit fills its slot, a miss is queued.
    const lookUp = async (index: number): Promise<void> => {
      const file = code[index];
      if (file.skipReason) return void (slots[index] = unparsedSummary(file, undefined, file.skipReason));
      // An unchanged file of an incremental run: its summary is looked up without reading it.
      const knownHash = run.known?.get(file.path);
      const knownKey = knownHash && keyOf(file, knownHash, ruleSet);
      const known = knownKey && (await this.cache.get(knownKey));
      if (known) {
        keys[index] = knownKey;
        return void (slots[index] = { ...known, cached: true });
      }
      let source: string;
      try {
        source = await snapshot.readFile(file.path);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
        return void (slots[index] = unparsedSummary(file, undefined, `unreadable: ${code}`));
      }
      const contentHash = contentHashOf(source);
      const key = keyOf(file, contentHash, ruleSet);
      const hit = await this.cache.get(key);
      if (hit) {
        keys[index] = key;
        slots[index] = { ...hit, cached: true };
      }
      // Outside the requested paths and not cached: summarised for the graph, no rules run.
      // An unchanged file of an incremental run is the exception: the base's run had its
      // findings, so a cache miss (an evicted entry) costs its rules rather than its trust.
      else misses.push({ index, key, item: { file, source, rules: !only || only.has(file.path) || knownHash !== undefined, slot: index, contentHash } });
    };

    // Read, hash and look up in the cache, a few files at a time. Without a pool yet, one is
    // started as soon as enough files miss the cache, so its threads load while the rest is read.
    let pool = run.pool;
    const lookUpAll = async (indices: readonly number[]): Promise<void> => {
      for (let i = 0; i < indices.length; i += READ_CONCURRENCY) {
        throwIfAborted(options.signal);
        // Reads are synchronous (snapshot.ts): let timers and I/O in now and then.
        if (i > 0 && i % (READ_CONCURRENCY * 8) === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        await Promise.all(indices.slice(i, i + READ_CONCURRENCY).map(lookUp));
        // A started pool is given up when the first files mostly hit the cache (a re-assessment).
        if (i === 0 && pool && !warm && !offThread && misses.length * 2 < Math.min(READ_CONCURRENCY, indices.length)) {
          stopQuietly(pool);
          pool = undefined;
        }
        pool ??= this.poolFor(misses.length, run);
      }
    };

    // The rules worker keeps what it analyses; everything else is sent to it as it is made,
    // except what a warm one kept from its last run.
    const held = new Uint8Array(code.length);
    let sharing: Array<[number, FileSummary]> = [];
    const share = (index: number) => {
      held[index] = 1;
      sharing.push([index, slots[index]]);
      if (sharing.length < SHARE_BATCH) return;
      pool?.share(sharing);
      sharing = [];
    };
    let missed = 0;
    const analyse = (entries: typeof misses) => {
      missed += entries.length;
      return drainFileQueue(entries, {
        pool,
        inProcess: ({ item }) => analyzeInProcess(item, ruleSet),
        done: async (miss, summary, by) => {
          slots[miss.index] = summary;
          if (by === pool?.rulesWorker) held[miss.index] = 1;
          else if (pool) share(miss.index);
          if (!summary.skipped && miss.item.rules) {
            keys[miss.index] = miss.key;
            await this.cache.set(miss.key, summary);
          }
          advance(1);
        },
        checkpoint: () => throwIfAborted(options.signal),
      });
    };

    let first: Promise<void> | undefined;
    try {
      const all = code.map((_, index) => index);
      if (warm && run.known) {
        // A derived run on a warm pool: the changed files (no recorded hash) are read first and
        // analysed at once, the worker taking the largest, while the unchanged ones are looked up.
        await lookUpAll(all.filter((index) => !run.known!.has(code[index].path)));
        first = analyse(misses.splice(0));
        first.catch(() => {
          // Awaited below, after the look-ups.
        });
        await lookUpAll(all.filter((index) => run.known!.has(code[index].path)));
      } else await lookUpAll(all);
      // Every file came from the cache: a host that keeps its main thread free still wants a
      // worker for the repository rules (one thread is enough for them).
      if (!pool && offThread && code.length >= MIN_FILES_FOR_WORKERS) pool = this.poolFor(MIN_FILES_FOR_WORKERS, run, 1);
      advance(code.length - missed - misses.length);
      // Few files to analyse: not worth waiting for (or talking to) workers that are still loading.
      // A warm pool is ready: it takes its share of even a few (a pull request's changed files),
      // and stays for the rules phase, its rules worker holding most summaries already.
      if (pool && !warm && !offThread && misses.length < MIN_FILES_FOR_WORKERS) {
        stopQuietly(pool);
        pool = undefined;
      }
      if (pool && warm) {
        const adopted: Array<[number, string]> = [];
        for (let index = 0; index < code.length; index++) {
          const key = keys[index];
          if (key !== null && warm.keys.has(key)) {
            adopted.push([index, key]);
            held[index] = 1;
          }
        }
        pool.adopt(adopted);
      }
      await first;
      await analyse(misses);
      if (pool) for (let index = 0; index < code.length; index++) if (!held[index]) share(index);
      pool?.share(sharing);
    } catch (error) {
      stopQuietly(pool);
      throw error;
    }

    const skipped: SkippedFile[] = slots.filter((s) => s.skipped).map((s) => ({ path: s.path, reason: s.skipped! }));
    const analysed = new Set(code);
    for (const file of snapshot.files) {
      if (file.skipReason && !analysed.has(file)) skipped.push({ path: file.path, reason: file.skipReason });
    }
    return { summaries: slots, skipped, pool, keys };
  }

  /**
   * What a derived run's rules know of the base's run: the states they saved, when the rule set is
   * the same, and the base's summaries of changed files from the cache (by the recorded hashes).
   */
  private previousRun(incremental: IncrementalSnapshot, ruleSet: RuleSet): PreviousRunView | undefined {
    const saved = incremental.base.rules;
    if (!saved || saved.ruleSet !== ruleSet.fingerprint) return undefined;
    const { files, contentHashes } = incremental.base;
    const summaryBefore = async (path: string): Promise<FileSummary | undefined> => {
      const file = files.get(path);
      const contentHash = contentHashes[path];
      if (!file || !contentHash) return undefined;
      return this.cache.get(keyOf(file, contentHash, ruleSet));
    };
    const changedPaths = incremental.changedPaths;
    return {
      view: (qualifiedId) => (Object.hasOwn(saved.states, qualifiedId) ? { state: saved.states[qualifiedId], changedPaths, summaryBefore } : undefined),
      forWorker: { states: saved.states, changedPaths: [...changedPaths] },
      summaryBefore,
    };
  }

  private poolFor(misses: number, run: { config: CodeHealthConfig; pluginUrls: string[] | null }, threads?: number): FilePool | undefined {
    const size = Math.min(threads ?? Infinity, this.engineOptions.workers ?? defaultWorkerCount());
    if (size < 1 || misses < MIN_FILES_FOR_WORKERS || !run.pluginUrls) return undefined;
    const script = workerScriptUrl();
    if (!script) return undefined;
    // The first worker runs repository rules next to the main thread once the files are done.
    return new FilePool(script, size, { pluginUrls: run.pluginUrls, config: run.config }, 0);
  }
}

/** `remoteKept`: the rules worker ran and kept the run's summaries by cache key. */
type RepositoryPhase = Published & { graph: CodeGraph; git: GitFacts; remoteKept: boolean };

/** A derived run's view of the earlier one: per rule here, as data for the rules worker, and the earlier summaries. */
interface PreviousRunView {
  view: NonNullable<RuleInputs['previous']>;
  forWorker: { states: Record<string, unknown>; changedPaths: string[] };
  summaryBefore: SummaryBefore;
}

/** A text to summarise as the file at `file.path` (see `summarizeSources`). */
export interface SourceItem {
  file: RepoFile;
  source: string;
}

/** The summary cache's key of a file's text under a rule set. */
function keyOf(file: Pick<RepoFile, 'path' | 'kind' | 'role'>, contentHash: string, ruleSet: RuleSet): string {
  return summaryCacheKey({ path: file.path, kind: file.kind, role: roleOfFile(file), contentHash, ruleSetFingerprint: ruleSet.fingerprint });
}

/**
 * The files a second thread should analyse while this one does the rest: the largest first, each
 * to the thread with fewer bytes so far (two threads, longest processing time first).
 */
function largerShare<T extends { item: PoolItem }>(misses: readonly T[]): T[] {
  const bySize = [...misses].sort((a, b) => b.item.source.length - a.item.source.length);
  const there: T[] = [];
  let hereBytes = 0;
  let thereBytes = 0;
  for (const miss of bySize) {
    if (thereBytes <= hereBytes) {
      there.push(miss);
      thereBytes += miss.item.source.length;
    } else hereBytes += miss.item.source.length;
  }
  return there;
}

function analyzeInProcess(item: PoolItem, ruleSet: RuleSet): FileSummary {
  try {
    return analyzeFileSource(item.file, item.source, item.rules ? ruleSet : { ...ruleSet, fileRules: [], collectors: [] }, item.contentHash);
  } catch (error) {
    return unparsedSummary(item.file, item.source, `analysis failed: ${(error as Error).message}`);
  }
}

export type { CodeHealthConfig };
