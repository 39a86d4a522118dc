// Worker-thread side of the per-file pass: loads the plugins by URL, builds the same rule set as
// the main thread, and turns batches of (file, source) into summaries. Trees never leave here.
// One worker may also run repository rules afterwards (rules-worker.ts).
import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import type { Analyzer } from '../contracts/analyzer.js';
import type { CodeHealthConfig } from '../config/schema.js';
import type { RepoFile } from '../snapshot/types.js';
import { assertPlugin } from '../plugins/load-plugin.js';
import { buildRuleSet, type RuleSet } from '../plugins/rule-set.js';
import { analyzeFileSource, unparsedSummary } from './analyze-file.js';
import type { FileSummary } from './file-summary.js';
import { adoptKept, answerBefore, keepSummary, retained, runClaimedRules, type RulesRequest } from './rules-worker.js';

export interface FileWorkerData {
  pluginUrls: string[];
  config: CodeHealthConfig;
  /** This worker runs repository rules after the pass: it keeps its summaries by slot. */
  retain?: boolean;
}

/**
 * A file to analyse. `contentHash`: contentHashOf(source), when the sender hashed it already (then
 * it is not hashed again). `keepAs`: the rules worker keeps the summary under this cache key for
 * the next run (see rules-worker.ts).
 */
export type PoolItem = { file: RepoFile; source: string; rules: boolean; slot?: number; contentHash?: string; keepAs?: string };

export interface FileBatchRequest {
  id: number;
  /** `slot`: the summary's index in the run, for a worker that retains summaries. */
  items: PoolItem[];
}

/**
 * Messages besides batches: summaries to keep (no answer), summaries to take from the previous
 * run by cache key (no answer), the rules phase (answered per group), and the answer to a rule's
 * question for an earlier summary (`PreviousRun.summaryBefore`, asked with `{id, before, ask}`).
 */
export type FileWorkerMessage =
  | FileBatchRequest
  | { share: Array<[number, FileSummary]> }
  | { adopt: Array<[number, string]> }
  | { id: number; rules: RulesRequest }
  | { answer: number; summary: FileSummary | undefined };

async function loadRuleSet(data: FileWorkerData): Promise<RuleSet> {
  const analyzers: Analyzer[] = [];
  for (const url of data.pluginUrls) analyzers.push(...assertPlugin(await import(url), url).analyzers);
  return buildRuleSet(analyzers, data.config);
}

const ready = loadRuleSet(workerData as FileWorkerData);
// The pool stops a worker only after this (see FilePool.close); a failed load is reported per batch.
async function announceReady(): Promise<void> {
  await Promise.allSettled([ready]);
  parentPort!.postMessage({ ready: true });
}
void announceReady();

const retain = (workerData as FileWorkerData).retain === true;

parentPort!.on('message', async (message: FileWorkerMessage) => {
  if ('share' in message) {
    for (const [slot, summary] of message.share) retained.set(slot, summary);
    return;
  }
  if ('adopt' in message) return adoptKept(message.adopt);
  if ('answer' in message) return answerBefore(message.answer, message.summary);
  try {
    const ruleSet = await ready;
    if ('rules' in message) {
      await runClaimedRules(
        message.rules,
        ruleSet,
        (group, outcomes) => parentPort!.postMessage({ id: message.id, group, outcomes }),
        (path, ask) => parentPort!.postMessage({ id: message.id, before: path, ask }),
      );
      return parentPort!.postMessage({ id: message.id, summaries: [] });
    }
    const bare: RuleSet = { ...ruleSet, fileRules: [], collectors: [] };
    const summaries = message.items.map(({ file, source, rules, slot, contentHash, keepAs }) => {
      let summary: FileSummary;
      try {
        summary = analyzeFileSource(file, source, rules ? ruleSet : bare, contentHash);
      } catch (error) {
        summary = unparsedSummary(file, source, `analysis failed: ${(error as Error).message}`);
      }
      if (retain && slot !== undefined) retained.set(slot, summary);
      if (retain && keepAs !== undefined && !summary.skipped) keepSummary(keepAs, summary);
      return summary;
    });
    parentPort!.postMessage({ id: message.id, summaries });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: (error as Error).message });
  }
});
