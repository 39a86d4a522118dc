// The composition root: registers the engine's services in a tsyringe container and returns the
// Engine facade. Default plugins come from `@codehealth/analyzers`, loaded by name like any other
// plugin (the engine never imports it statically: that would be a package cycle).
import 'reflect-metadata';
import { container as rootContainer } from 'tsyringe';
import { join, resolve } from 'node:path';
import { analyzeChange, diskBaselineStore, memoryBaselineStore, type AnalyzeChangeInput, type ChangeAnalysis } from '../pr/analyze-change.js';
import type { Analyzer, Plugin } from '../contracts/analyzer.js';
import type { DriftDetector } from '../contracts/drift.js';
import type { ScoringModel } from '../contracts/scoring.js';
import type { EngineCore } from '../contracts/engine.js';
import type { AnalyzerDetection } from '../domain/types.js';
import { TOKENS } from './tokens.js';
import { DefaultScoringModel, type ScoringOptions } from '../scoring/default-scoring-model.js';
import { DefaultDriftDetector } from '../drift/default-drift-detector.js';
import { DiskFileSummaryCache, MemoryFileSummaryCache, defaultCacheDir, type FileSummaryCache } from '../cache/file-summary-cache.js';
import { DiskRunStateStore, MemoryRunStateStore } from '../cache/run-state-store.js';
import { AssessmentPipeline } from '../pipeline/assessment-pipeline.js';
import { WarmWorkers } from '../pipeline/warm-workers.js';
import { loadPlugin } from '../plugins/load-plugin.js';
import type { InstalledPlugin } from '../plugins/config-plugins.js';
import { createSnapshot } from '../snapshot/snapshot.js';
import { driftSnapshotOf } from '../drift/drift-snapshot.js';

export const DEFAULT_PLUGINS = ['@codehealth/analyzers'] as const;

export interface EngineOverrides {
  scoringModel?: ScoringModel;
  driftDetector?: DriftDetector;
  cache?: FileSummaryCache;
}

export interface CreateEngineOptions {
  /**
   * Plugin package names/paths or plugin objects. Default: `['@codehealth/analyzers']`. These are
   * the host's plugins: a repository's config may enable, disable and configure them, and may name
   * others only on a trusted run (`AnalyzeOptions.allowCodeConfig`).
   */
  plugins?: Array<string | Plugin>;
  /** Replace default services. */
  overrides?: EngineOverrides;
  /** Directory to resolve plugin names and paths from. Default: the current directory. */
  cwd?: string;
  /** Cache directory for file summaries across runs; `false` keeps the cache in memory only. */
  cacheDir?: string | false;
  scoring?: ScoringOptions;
  /** Worker threads for the per-file pass; 0 runs it in process. Default: one per core, at most 4. */
  workers?: number;
  /**
   * Keep a run's worker threads this long after it (milliseconds), for the next run: a
   * long-running host (the workflow worker, `codehealth serve`) analysing a pull request after an
   * assessment then has warm threads that already hold the repository's summaries. They never keep
   * the process alive; `Engine.close()` stops them. Default 0: a run stops its threads.
   */
  keepWorkersMs?: number;
  /**
   * Leave the repository rules (the cross-file pass: clones, dead code, conventions) to a worker
   * thread, even when every file came from the cache. A host that answers requests on its main
   * thread (`codehealth serve --embedded`, a worker heartbeating to Temporal) sets it: a fully
   * cached re-assessment otherwise runs every repository rule here (17 s for a 3,000-file
   * repository full of clones). Default false: the CLI saves the ~0.3 s a worker takes to start.
   */
  rulesOffMainThread?: boolean;
}

/** The engine facade: the analysis surface (contracts/engine.ts) and the PR analysis of a local repository. */
export interface Engine extends EngineCore {
  /** The pull-request analysis of two revisions of a local repository (pr/analyze-change.ts): no server, no code of the repository run. */
  analyzeChange(input: AnalyzeChangeInput): Promise<ChangeAnalysis>;
}

/** The host's plugins, loaded: their analyzers, the URLs worker threads load them by, and what their code is. */
async function hostPlugins(options: CreateEngineOptions, cwd: string) {
  const analyzers: Analyzer[] = [];
  // Worker threads can load plugins only by URL; one plugin object keeps the pass in process.
  let pluginUrls: string[] | null = [];
  // The host's plugins: the only ones a run on an untrusted repository may use.
  const installed: InstalledPlugin[] = [];
  // What each plugin's code is (plugin-identity.ts): summaries made by other code are not reused.
  const identities: string[] = [];
  for (const entry of options.plugins ?? DEFAULT_PLUGINS) {
    if (typeof entry === 'string') {
      // The default plugins are the engine's own: resolved next to it before the current directory.
      const loaded = await loadPlugin(entry, cwd, { engineFirst: options.plugins === undefined });
      analyzers.push(...loaded.plugin.analyzers);
      installed.push({ name: loaded.plugin.name, specifier: entry });
      identities.push(loaded.identity);
      pluginUrls = pluginUrls && loaded.url ? [...pluginUrls, loaded.url] : null;
    } else {
      analyzers.push(...entry.analyzers);
      installed.push({ name: entry.name });
      identities.push(`${entry.name}@${entry.version ?? '?'}`);
      pluginUrls = null;
    }
  }
  return { analyzers, pluginUrls, installed, identities };
}

export async function createEngine(options: CreateEngineOptions = {}): Promise<Engine> {
  const cwd = resolve(options.cwd ?? process.cwd());
  const { analyzers, pluginUrls, installed, identities } = await hostPlugins(options, cwd);
  const container = rootContainer.createChildContainer();
  container.register(TOKENS.Analyzers, { useValue: analyzers });
  // tsyringe refuses null values, so the list travels in an object.
  container.register(TOKENS.PluginUrls, { useValue: { urls: pluginUrls, installed, identities } });
  container.register(TOKENS.EngineOptions, { useValue: { workers: options.workers, rulesOffMainThread: options.rulesOffMainThread ?? false } });
  const warmWorkers = new WarmWorkers(Math.max(0, options.keepWorkersMs ?? 0));
  container.register(TOKENS.WarmWorkers, { useValue: warmWorkers });
  container.register(TOKENS.ScoringOptions, { useValue: options.scoring ?? {} });
  const cache =
    options.overrides?.cache ?? (options.cacheDir === false ? new MemoryFileSummaryCache() : new DiskFileSummaryCache(options.cacheDir ?? defaultCacheDir()));
  container.register(TOKENS.FileCache, { useValue: cache });
  // Run states go where the summaries go: on disk with a disk cache, else in memory.
  const runStates =
    options.cacheDir === false || options.overrides?.cache ? new MemoryRunStateStore() : new DiskRunStateStore(options.cacheDir ?? defaultCacheDir());
  container.register(TOKENS.RunStates, { useValue: runStates });
  if (options.overrides?.scoringModel) container.register(TOKENS.ScoringModel, { useValue: options.overrides.scoringModel });
  else container.register(TOKENS.ScoringModel, { useClass: DefaultScoringModel });
  if (options.overrides?.driftDetector) container.register(TOKENS.DriftDetector, { useValue: options.overrides.driftDetector });
  else container.register(TOKENS.DriftDetector, { useClass: DefaultDriftDetector });
  container.register(TOKENS.AssessmentPipeline, { useClass: AssessmentPipeline });

  // Merge-base findings are kept where the summaries are: on disk with a disk cache, else in memory.
  const baselines =
    options.cacheDir === false || options.overrides?.cache
      ? memoryBaselineStore()
      : diskBaselineStore(join(options.cacheDir ?? defaultCacheDir(), 'baselines'));
  const engine: Engine = {
    container,
    analyzers,
    analyzeChange: (input) => analyzeChange(engine, input, baselines),
    analyze: (dir, analyzeOptions) => container.resolve<AssessmentPipeline>(TOKENS.AssessmentPipeline).run(dir, analyzeOptions),
    summarizeSources: (root, items, summarizeOptions) =>
      container.resolve<AssessmentPipeline>(TOKENS.AssessmentPipeline).summarizeSources(root, items, summarizeOptions),
    async detect(dir) {
      const snapshot = await createSnapshot(resolve(dir), {});
      const out: Array<AnalyzerDetection & { analyzer: string }> = [];
      for (const analyzer of analyzers) {
        for (const d of (await analyzer.detect?.(snapshot)) ?? []) out.push({ ...d, analyzer: analyzer.id });
      }
      return out;
    },
    drift(previous, current, thresholds) {
      const detector = container.resolve<DriftDetector>(TOKENS.DriftDetector);
      return detector.detect(driftSnapshotOf(previous), driftSnapshotOf(current), thresholds);
    },
    resolve: (token) => container.resolve(token),
    close: () => warmWorkers.close(),
  };
  return engine;
}
