// The engine's analysis surface, as the PR analysis sees it: assessing a directory and summarising
// sources. `Engine` (di/create-engine.ts) extends it with `analyzeChange`, which runs the PR
// analysis on this surface — kept apart so the PR code never names the composition root (no cycle).
import type { DependencyContainer, InjectionToken } from 'tsyringe';
import type { Analyzer } from './analyzer.js';
import type { DriftAlert, DriftSnapshot, DriftThresholds } from './drift.js';
import type { AnalyzerDetection } from '../domain/types.js';
import type { SourceItem } from '../pipeline/assessment-pipeline.js';
import type { FileSummary } from '../pipeline/file-summary.js';
import type { AnalyzeOptions, AssessmentResult } from '../pipeline/types.js';

export interface EngineCore {
  readonly container: DependencyContainer;
  /** Analyzers of the engine's plugins (config plugins of a repository are added per run). */
  readonly analyzers: readonly Analyzer[];
  /** Runs a full health assessment of a directory. */
  analyze(dir: string, options?: AnalyzeOptions): Promise<AssessmentResult>;
  /** Summaries of texts as a run over `root` would make them (cached, or analysed and cached): the PR pipeline's symbol reader. */
  summarizeSources(root: string, items: readonly SourceItem[], options?: Pick<AnalyzeOptions, 'config' | 'allowCodeConfig'>): Promise<FileSummary[]>;
  /** Onboarding's analyzer detection: which analyzers apply where. */
  detect(dir: string): Promise<Array<AnalyzerDetection & { analyzer: string }>>;
  /** Drift alerts between two assessments (results or stored snapshots). */
  drift(previous: AssessmentResult | DriftSnapshot, current: AssessmentResult | DriftSnapshot, thresholds?: Partial<DriftThresholds>): DriftAlert[];
  resolve<T>(token: InjectionToken<T>): T;
  /** Stops worker threads kept between runs (`keepWorkersMs`); the engine stays usable. */
  close(): Promise<void>;
}
