// Worker-thread side of the per-file pass: loads the plugins by URL, builds the same rule set as
// the main thread, and turns batches of (file, source) into summaries. Trees never leave here.
import 'reflect-metadata';
import { parentPort, workerData } from 'node:worker_threads';
import type { Analyzer } from '../contracts/analyzer.js';
import type { CodeHealthConfig } from '../config/schema.js';
import type { RepoFile } from '../snapshot/types.js';
import { assertPlugin } from '../plugins/load-plugin.js';
import { buildRuleSet, type RuleSet } from '../plugins/rule-set.js';
import { analyzeFileSource, unparsedSummary } from './analyze-file.js';

export interface FileWorkerData {
  pluginUrls: string[];
  config: CodeHealthConfig;
}

export interface FileBatchRequest {
  id: number;
  items: Array<{ file: RepoFile; source: string; rules: boolean }>;
}

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

parentPort!.on('message', async (request: FileBatchRequest) => {
  try {
    const ruleSet = await ready;
    const bare: RuleSet = { ...ruleSet, fileRules: [], collectors: [] };
    const summaries = request.items.map(({ file, source, rules }) => {
      try {
        return analyzeFileSource(file, source, rules ? ruleSet : bare);
      } catch (error) {
        return unparsedSummary(file, source, `analysis failed: ${(error as Error).message}`);
      }
    });
    parentPort!.postMessage({ id: request.id, summaries });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: (error as Error).message });
  }
});
