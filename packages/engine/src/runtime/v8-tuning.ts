// V8 settings for a process whose main work is analysing code: many short-lived, branchy functions
// (a visitor per rule and node type, a lexer, a recorder) that V8 optimises once per thread. With
// inlining, TurboFan spends a fifth of a cold assessment's CPU compiling them (`perf` on the large
// corpus), and recompiles after every deopt re-inline the same callees; without it the compiled code
// is a little slower per call but far cheaper to produce. Measured on the large corpus (1,400 files,
// 480k lines, 2 cores; docs/performance.md): about 9 % less CPU and wall time for a cold assessment.
// A 4x interrupt budget (V8 counts bytecode executed before it considers optimising a function) leaves
// the many warm-but-not-hot functions to the baseline tiers: about 0.8 s (8 %) less CPU again.
//
// V8 flags are process-wide, so the engine never sets them by itself: the hosts (the `codehealth`
// command, hence `serve`, `worker` and `analyze`) call this at start-up; an application that embeds
// the engine decides for itself. `CODEHEALTH_V8_TUNING=0` leaves V8's defaults.
import { setFlagsFromString } from 'node:v8';

/** The flags applied, in order; each is also accepted on the `node` command line. */
export const ANALYSIS_V8_FLAGS = ['--no-turbo-inlining', '--interrupt-budget=270336'] as const;

let applied: readonly string[] | undefined;

/**
 * Applies {@link ANALYSIS_V8_FLAGS} to this process (and the worker threads it starts later), once.
 * Returns the flags applied, or an empty list when `CODEHEALTH_V8_TUNING=0`.
 */
export function tuneV8ForAnalysis(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  if (applied) return applied;
  if (env.CODEHEALTH_V8_TUNING === '0') return (applied = []);
  for (const flag of ANALYSIS_V8_FLAGS) setFlagsFromString(flag);
  return (applied = ANALYSIS_V8_FLAGS);
}
