// One analysis of this repository with the default plugin, shared by the self-check files of a run.
import { resolve } from 'node:path';
import { createEngine, type AssessmentResult } from '@codehealth/engine';

export const repositoryRoot = resolve(import.meta.dirname, '../..');

let analysis: Promise<AssessmentResult> | undefined;

/** The assessment of this repository (worker threads as the CLI uses them, no cache). */
export function ownAnalysis(): Promise<AssessmentResult> {
  analysis ??= createEngine({ cacheDir: false }).then((engine) => engine.analyze(repositoryRoot));
  return analysis;
}
