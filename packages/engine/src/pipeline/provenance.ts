// A run's provenance: the commit, the configuration and the engine it was computed with. Two runs
// with the same provenance give the same findings and scores; a score that moved names which of the
// three moved.
import { createHash } from 'node:crypto';
import type { CodeHealthConfig } from '../config/schema.js';
import { TOOL_VERSION } from '../report/tool-info.js';
import type { GitFacts } from '../snapshot/types.js';
import type { RunProvenance } from './types.js';

/** JSON with object keys sorted at every level, so that equal configurations digest equally. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export function configDigest(config: CodeHealthConfig): string {
  return createHash('sha256').update(canonicalJson(config)).digest('hex').slice(0, 16);
}

export function runProvenance(run: { git: GitFacts; config: CodeHealthConfig; ruleSet: string; scoringModel: string }): RunProvenance {
  const { git } = run;
  return {
    ...(git.headSha ? { commit: git.headSha } : {}),
    ...(git.headTime !== undefined ? { commitDate: new Date(git.headTime).toISOString() } : {}),
    configDigest: configDigest(run.config),
    engineVersion: TOOL_VERSION,
    ruleSet: run.ruleSet,
    scoringModel: run.scoringModel,
  };
}
