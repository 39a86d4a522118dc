// `engine.analyzeChange`: the pull-request analysis of two revisions of a local repository, as the
// service records it (pipeline.ts) but with no server, database or code host — for `codehealth
// review` in CI and for embedders. The merge base is analysed once (in a throw-away checkout, with
// no code of the repository run) and its findings kept beside the engine's cache, so a second
// review on the same base reuses them and the run state the base's run recorded. With no findings
// of the merge base kept and `fullBase` not set, a review is *cold*: only the changed files are
// analysed on both sides and the findings of file rules compared (changed-files-scope.ts), which
// is what a full review finds for them; the repository rules are listed as not evaluated.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { EngineCore } from '../contracts/engine.js';
import type { Finding } from '../domain/types.js';
import type { ProgressEvent } from '../pipeline/types.js';
import { issueFingerprint } from '../report/issue-id.js';
import { TOOL_VERSION } from '../report/tool-info.js';
import { git, resolveCommit, tryGit } from './diff-git.js';
import { changeKeyOf, type IssueChangeOf } from './issue-change.js';
import { localCheckouts, type CommitCheckout } from './local-checkouts.js';
import { PrAnalysisPipeline, type PrPipelineOutput } from './pipeline.js';
import { baselineOfResult, type PrBaseline } from './projection.js';
import type { ChangedFile } from './types.js';
import type { ChangedFilesEvaluation } from './changed-files-scope.js';

type PipelineResult = PrPipelineOutput['result'];

export interface AnalyzeChangeInput {
  /** A directory inside the repository's work tree. */
  root: string;
  /** The revision the change is compared with (its merge base with head is); default the merge base with the default branch. */
  base?: string;
  /** The change's revision; default the work tree's HEAD. */
  head?: string;
  signal?: AbortSignal;
  /**
   * Assess the merge base in full when its findings are not kept from an earlier review (and keep
   * them for the next): every rule evaluated. Default false: a cold review analyses the changed
   * files only and says what it did not evaluate (`ChangeAnalysis.evaluation`).
   */
  fullBase?: boolean;
  /** Progress of the merge base's full analysis (the long part of a `fullBase` review). */
  onProgress?: (progress: ProgressEvent) => void;
  /** One line per stage. */
  log?: (line: string) => void;
}

/** The analysis of one change: what the service records for a pull request, as domain objects. */
export interface ChangeAnalysis {
  root: string;
  base: { ref: string; sha: string };
  head: { ref: string; sha: string; subject: string };
  mergeBaseSha: string;
  /** The change's intent (primary and secondary), its summary and risk signals. */
  intent: PipelineResult['classification'];
  readiness: PipelineResult['merge_readiness'];
  healthImpact: PipelineResult['health_impact'];
  healthProjection: PipelineResult['health_projection'];
  impactZones: PipelineResult['impact_zones'];
  scopeDrift: PipelineResult['scope_drift'];
  graphImpact: PipelineResult['graph_impact'];
  /** Findings the change introduced — new, or metric issues it made worse (see `issueChanges`) — in its changed files and their neighbours. */
  newFindings: Finding[];
  /** Base findings of the scope that head no longer has. */
  fixedFindings: Finding[];
  /** Every finding of the scope at head, new or not. */
  findings: Finding[];
  /** How each finding of `findings` changed against base, by changeKeyOf(issueFingerprint, occurrence). */
  issueChanges: Record<string, IssueChangeOf>;
  changedFiles: ChangedFile[];
  scope: PrPipelineOutput['scope'];
  classifier: PrPipelineOutput['classifier'];
  /**
   * The merge base's findings: from an earlier review (`cached`), assessed in full now (`analysed`),
   * or of the changed files only (`changed-files`, a cold review without `fullBase`).
   */
  baseline: 'cached' | 'analysed' | 'changed-files';
  /** What was compared: every rule (`full`), or the changed files' file rules, with what was not evaluated. */
  evaluation: ChangeEvaluation;
  timingsMs: Record<string, number>;
}

export type ChangeEvaluation = { mode: 'full' } | ChangedFilesEvaluation;

/** A revision that names no commit, an unrelated history, a directory outside git: the user's mistake, said in one line. */
export class ChangeRefError extends Error {
  override readonly name = 'ChangeRefError';
  readonly expose = true;
}

/** Where merge-base findings are kept between reviews; undefined keeps them in memory only. */
export interface BaselineStore {
  get(key: string): Promise<PrBaseline | undefined>;
  set(key: string, baseline: PrBaseline): Promise<void>;
}

export function memoryBaselineStore(max = 8): BaselineStore {
  const entries = new Map<string, PrBaseline>();
  return {
    get: async (key) => entries.get(key),
    async set(key, baseline) {
      entries.delete(key);
      if (entries.size >= max) entries.delete(entries.keys().next().value!);
      entries.set(key, baseline);
    },
  };
}

export function diskBaselineStore(dir: string): BaselineStore {
  const file = (key: string) => join(dir, `${key}.json`);
  return {
    async get(key) {
      const text = await readFile(file(key), 'utf8').catch(() => undefined);
      if (text === undefined) return undefined;
      try {
        const parsed = JSON.parse(text) as PrBaseline;
        return Array.isArray(parsed.findings) && typeof parsed.commitSha === 'string' ? parsed : undefined;
      } catch {
        return undefined;
      }
    },
    async set(key, baseline) {
      await mkdir(dir, { recursive: true });
      const temp = `${file(key)}.${process.pid}.tmp`;
      await writeFile(temp, JSON.stringify(baseline));
      await rename(temp, file(key));
    },
  };
}

/**
 * The top of the work tree holding `dir`: the nearest directory at or above it with a `.git` (a
 * directory, or the file of a linked work tree), as git asserts it there. Git itself runs with no
 * discovery above the directory it is given (diff-git.ts), so the search up is done here.
 */
async function workTreeTop(dir: string): Promise<string | undefined> {
  const hasGit = (path: string) => stat(join(path, '.git')).then(Boolean, () => false);
  for (let current = dir; ; current = dirname(current)) {
    if (await hasGit(current)) return (await tryGit(current, ['rev-parse', '--show-toplevel']))?.trim() || undefined;
    if (dirname(current) === current) return undefined;
  }
}

/** The default branch: origin's HEAD, else the first of origin/main, origin/master, main, master that exists. */
async function defaultBranch(root: string): Promise<string> {
  const remoteHead = (await tryGit(root, ['symbolic-ref', '--quiet', '--short', 'refs/remotes/origin/HEAD']))?.trim();
  if (remoteHead) return remoteHead;
  for (const candidate of ['origin/main', 'origin/master', 'main', 'master']) {
    if (await tryGit(root, ['rev-parse', '--verify', '--quiet', `${candidate}^{commit}`])) return candidate;
  }
  throw new ChangeRefError('no default branch found (origin/HEAD, origin/main, origin/master, main or master): give the base with --base <ref>');
}

async function commitOf(root: string, rev: string): Promise<string> {
  return resolveCommit(root, rev).catch(() => {
    throw new ChangeRefError(`'${rev}' is not a commit of the repository (a shallow clone may need fetch-depth: 0)`);
  });
}

/** Merge-base findings depend on its commit (and the config in it), the engine's version and its rules. */
function baselineKey(engine: EngineCore, mergeBaseSha: string): string {
  const rules = engine.analyzers.map((analyzer) => `${analyzer.id}:${analyzer.rules.map((rule) => rule.meta.id).join(',')}`).join(';');
  return `${mergeBaseSha}-${createHash('sha256').update(`${TOOL_VERSION}\0${rules}`).digest('hex').slice(0, 16)}`;
}

export async function analyzeChange(engine: EngineCore, input: AnalyzeChangeInput, baselines: BaselineStore): Promise<ChangeAnalysis> {
  const log = input.log;
  const dir = resolve(input.root);
  const top = await workTreeTop(dir);
  if (!top) throw new ChangeRefError(`${input.root} is not inside a git work tree`);
  const headRef = input.head ?? 'HEAD';
  const headSha = await commitOf(top, headRef);
  const baseRef = input.base ?? (await defaultBranch(top));
  const baseSha = await commitOf(top, baseRef);
  const mergeBaseSha = (await tryGit(top, ['merge-base', baseSha, headSha]))?.trim();
  if (!mergeBaseSha) throw new ChangeRefError(`${baseRef} and ${headRef} have no common ancestor (a shallow clone may need fetch-depth: 0)`);
  const [subject = '', ...bodyLines] = (await git(top, ['log', '-1', '--format=%B', headSha])).trimEnd().split('\n');

  const checkouts = localCheckouts(top);
  const opened: CommitCheckout[] = [];
  try {
    // The merge base's findings: kept from an earlier review, else analysed in a checkout of it,
    // whose run state (a clean work tree) the engine records for head's incremental run.
    const key = baselineKey(engine, mergeBaseSha);
    let baseAssessment = await baselines.get(key);
    const timings: Record<string, number> = {};
    if (!baseAssessment && input.fullBase) {
      log?.(`analysing the merge base ${mergeBaseSha.slice(0, 12)}`);
      const started = performance.now();
      const base = await checkouts.checkout(mergeBaseSha);
      opened.push(base);
      const result = await engine.analyze(base.path, {
        allowCodeConfig: false,
        signal: input.signal,
        ...(input.onProgress ? { onProgress: input.onProgress } : {}),
      });
      baseAssessment = baselineOfResult(result, mergeBaseSha);
      await baselines.set(key, baseAssessment).catch((error: Error) => log?.(`merge-base findings not kept: ${error.message}`));
      timings.baseAnalysis = Math.round(performance.now() - started);
    } else if (baseAssessment) {
      log?.(`merge base ${mergeBaseSha.slice(0, 12)}: findings from an earlier review`);
    } else {
      log?.(`merge base ${mergeBaseSha.slice(0, 12)}: no findings kept, the changed files are analysed on both sides`);
    }
    const baseline = baseAssessment ? (timings.baseAnalysis !== undefined ? 'analysed' : 'cached') : undefined;
    // Head is analysed in the work tree when it is head, clean, else in a checkout of head.
    const current = (await tryGit(top, ['rev-parse', 'HEAD']))?.trim();
    const clean = current === headSha && (await tryGit(top, ['-c', 'core.fsmonitor=false', 'status', '--porcelain', '-z', '--untracked-files=all'])) === '';
    let headDir = top;
    if (!clean) {
      log?.(`checking out ${headRef} (${headSha.slice(0, 12)})${current === headSha ? ': the work tree has uncommitted changes' : ''}`);
      const checkout = await checkouts.checkout(headSha);
      opened.push(checkout);
      headDir = checkout.path;
    }
    log?.(`analysing the change ${mergeBaseSha.slice(0, 12)}..${headSha.slice(0, 12)}`);
    const pipeline = new PrAnalysisPipeline({ engine, ...(log ? { log } : {}) });
    const out = await pipeline.run({
      headDir,
      checkouts,
      pr: { number: 0, title: subject, body: bodyLines.join('\n').trim(), baseBranch: baseRef, headBranch: headRef, baseSha, headSha, author: '' },
      ...(baseAssessment ? { baseAssessment } : { baseScope: 'changed-files' as const }),
      ...(input.signal ? { signal: input.signal } : {}),
    });
    // What the change introduced: new issues, and metric issues it made worse (issue-change.ts), by
    // the same keys the records use (a fingerprint's later occurrences numbered in run order).
    const seen = new Map<string, number>();
    const newFindings = out.findings.filter((finding) => {
      const fingerprint = issueFingerprint(finding);
      const occurrence = seen.get(fingerprint) ?? 0;
      seen.set(fingerprint, occurrence + 1);
      const change = out.issueChanges[changeKeyOf(fingerprint, occurrence)]?.change;
      return change === 'new' || change === 'worsened' || (change === undefined && out.newFingerprints.has(fingerprint));
    });
    return {
      root: top,
      base: { ref: baseRef, sha: baseSha },
      head: { ref: headRef, sha: headSha, subject },
      mergeBaseSha: out.mergeBaseSha,
      intent: out.result.classification,
      readiness: out.result.merge_readiness,
      healthImpact: out.result.health_impact,
      healthProjection: out.result.health_projection,
      impactZones: out.result.impact_zones,
      scopeDrift: out.result.scope_drift,
      graphImpact: out.result.graph_impact,
      newFindings,
      fixedFindings: out.fixedFindings,
      findings: out.findings,
      issueChanges: out.issueChanges,
      changedFiles: out.diff.files,
      scope: out.scope,
      classifier: out.classifier,
      // Without kept findings the pipeline analysed the changed files, or the base in full when it could not (a config change).
      baseline: baseline ?? (out.evaluation ? 'changed-files' : 'analysed'),
      evaluation: out.evaluation ?? { mode: 'full' },
      timingsMs: { ...timings, ...out.timingsMs },
    };
  } finally {
    await Promise.all(opened.map((checkout) => checkout.dispose().catch(() => undefined)));
  }
}
