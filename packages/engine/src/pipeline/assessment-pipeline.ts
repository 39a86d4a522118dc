// The health-assessment pipeline over a directory: inventory, per-file pass (cached by content
// hash), code graph, repository rules, metrics and scores. Pure computation: it persists nothing.
import { inject, injectable } from 'tsyringe';
import { resolve } from 'node:path';
import type { Analyzer, RepositoryReportDescriptor } from '../contracts/analyzer.js';
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
import type { RepoFile, RepoSnapshot } from '../snapshot/types.js';
import { isParsedLanguage } from '../parsing/parser.js';
import { buildRepositoryGraph } from '../graph/repository-graph.js';
import type { FileSummary } from './file-summary.js';
import { analyzeFileSource, contentHashOf, unparsedSummary } from './analyze-file.js';
import { buildFinding, splitLines } from './findings.js';
import { computeMetrics } from './metrics.js';
import type { AnalyzeOptions, AssessmentResult, ProgressEvent, SkippedFile } from './types.js';

export interface PipelineOptions {
  /** Analyzers from the engine's plugins (config plugins are added per run). */
  analyzers: Analyzer[];
}

const SEVERITY_RANK = Object.fromEntries(SEVERITIES.map((s, i) => [s, i]));

function compareFindings(a: Finding, b: Finding): number {
  return SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.filePath.localeCompare(b.filePath) || a.anchor.lineStart - b.anchor.lineStart || a.ruleId.localeCompare(b.ruleId);
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
  ) {}

  async run(dir: string, options: AnalyzeOptions = {}): Promise<AssessmentResult> {
    const started = Date.now();
    const root = resolve(dir);
    const progress = (event: ProgressEvent) => options.onProgress?.(event);
    const signal = options.signal;

    progress({ stage: 'inventory', message: `Listing files in ${root}` });
    // A missing root has no config either; createSnapshot below reports it.
    const config = options.config ?? (await loadConfig(root, { allowCode: options.allowCodeConfig ?? false })).config;
    const analyzers = [...this.analyzers];
    for (const specifier of config.plugins ?? []) {
      analyzers.push(...(await loadPlugin(specifier, root)).plugin.analyzers);
    }
    const ruleSet = buildRuleSet(analyzers, config);
    const scoped = await createSnapshot(root, {
      exclude: config.exclude,
      tests: config.tests,
      generated: config.generated,
      maxFileBytes: config.maxFileBytes,
    });
    throwIfAborted(signal);

    const { summaries, skipped } = await this.summarise(scoped, ruleSet, options, progress);
    throwIfAborted(signal);

    progress({ stage: 'graph', message: 'Building the code graph' });
    const graph = await buildRepositoryGraph(scoped, summaries);
    const git = await scoped.git();

    const findings: Finding[] = summaries.flatMap((s) => s.findings);
    const analyzerMetrics: Record<string, number> = {};
    for (const active of ruleSet.repositoryRules) {
      throwIfAborted(signal);
      progress({ stage: 'repository-rules', message: `Running ${active.qualifiedId}` });
      const origin = { analyzerId: active.analyzerId, meta: active.rule.meta, severityOverride: active.severityOverride };
      const reports: RepositoryReportDescriptor[] = [];
      await active.rule.analyze({
        snapshot: scoped,
        summaries,
        graph,
        git: () => scoped.git(),
        options: active.options,
        signal: signal ?? new AbortController().signal,
        progress: (message) => progress({ stage: 'repository-rules', message }),
        report: (descriptor) => reports.push(descriptor),
      });
      for (const r of reports) {
        const lines = splitLines(await scoped.readFile(r.filePath).catch(() => ''));
        findings.push(buildFinding(origin, r.filePath, lines, r));
      }
    }
    findings.sort(compareFindings);

    progress({ stage: 'scoring', message: 'Scoring' });
    const metrics = computeMetrics({ files: scoped.files, summaries, findings, skipped, graph, git, analyzerMetrics, durationMs: 0 });
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
      analyzers: ruleSet.analyzers.map((a) => ({ id: a.id, rules: a.rules.map((r) => `${a.id}/${r.meta.id}`) })),
      config,
    };
  }

  /** The per-file pass over source and test files; every file ends as a summary or a recorded skip. */
  private async summarise(
    snapshot: RepoSnapshot,
    ruleSet: RuleSet,
    options: AnalyzeOptions,
    progress: (e: ProgressEvent) => void,
  ): Promise<{ summaries: FileSummary[]; skipped: SkippedFile[] }> {
    const summaries: FileSummary[] = [];
    const skipped: SkippedFile[] = [];
    const code = snapshot.files.filter((f) => (f.kind === 'source' || f.kind === 'test') && isParsedLanguage(f.language));
    const only = options.onlyPaths ? new Set(options.onlyPaths) : undefined;
    let done = 0;
    let lastPercent = -1;
    for (const file of code) {
      throwIfAborted(options.signal);
      const summary = await this.summariseFile(snapshot, file, ruleSet, only);
      summaries.push(summary);
      if (summary.skipped) skipped.push({ path: file.path, reason: summary.skipped });
      done++;
      const percent = Math.floor((done / code.length) * 100);
      if (percent !== lastPercent && (percent % 5 === 0 || done === code.length)) {
        lastPercent = percent;
        progress({ stage: 'parse', message: `Analysed ${done}/${code.length} files`, percent, done, total: code.length });
      }
    }
    const analysed = new Set(code);
    for (const file of snapshot.files) {
      if (file.skipReason && !analysed.has(file)) skipped.push({ path: file.path, reason: file.skipReason });
    }
    return { summaries, skipped };
  }

  private async summariseFile(snapshot: RepoSnapshot, file: RepoFile, ruleSet: RuleSet, only?: Set<string>): Promise<FileSummary> {
    if (file.skipReason) return unparsedSummary(file, undefined, file.skipReason);
    let source: string;
    try {
      source = await snapshot.readFile(file.path);
    } catch (error) {
      return unparsedSummary(file, undefined, `unreadable: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
    const key = summaryCacheKey({ path: file.path, kind: file.kind, contentHash: contentHashOf(source), ruleSetFingerprint: ruleSet.fingerprint });
    const hit = await this.cache.get(key);
    if (hit) return { ...hit, cached: true };
    if (only && !only.has(file.path)) {
      // Outside the requested paths and not cached: summarised for the graph, no rules run.
      return analyzeFileSource(file, source, { ...ruleSet, fileRules: [], collectors: [] });
    }
    let summary: FileSummary;
    try {
      summary = analyzeFileSource(file, source, ruleSet);
    } catch (error) {
      return unparsedSummary(file, source, `analysis failed: ${(error as Error).message}`);
    }
    await this.cache.set(key, summary);
    return summary;
  }
}

export type { CodeHealthConfig };
