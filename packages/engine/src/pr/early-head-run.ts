// Head's run started while git still diffs. When head's run can be derived from the merge base's
// recorded state and the baseline is the merge base's assessment, everything the run needs before
// its findings scope is known once git has listed the changed files: the changed paths, the merge
// base and head. So it starts then: it summarises the changed files (on a warm worker too), which
// the diff's symbol reader then finds cached, and builds head's graph while the diff ends; only
// its findings scope waits for the diff (the neighbours of the changed code).
import type { EngineCore } from '../contracts/engine.js';
import type { CodeGraph } from '../graph/types.js';
import type { AssessmentResult, IncrementalBase } from '../pipeline/types.js';

export type FindingsScope = (graph: CodeGraph) => Iterable<string>;

export interface EarlyHeadRun {
  /** Settles once the run has summarised every file (the changed ones cached), or has ended. */
  summarised: Promise<void>;
  /** Head's result; it waits for `provideScope`. */
  result: Promise<AssessmentResult>;
  /** Gives the run its findings scope, or an error that ends it (the pipeline failed meanwhile). */
  provideScope(scope: FindingsScope | Error): void;
}

/**
 * Starts head's derived run. `changedPaths` stand in for the analysed paths: in a derived run every
 * unchanged file gets its rules' findings anyway, so only the changed ones need naming.
 */
export function startHeadRun(engine: EngineCore, headDir: string, incremental: IncrementalBase, signal?: AbortSignal): EarlyHeadRun {
  let provide!: (scope: FindingsScope) => void;
  let fail!: (error: Error) => void;
  const scope = new Promise<FindingsScope>((resolve, reject) => {
    provide = resolve;
    fail = reject;
  });
  scope.catch(() => {
    // The run sees the failure through its findings scope; the pipeline reports its own.
  });
  let done!: () => void;
  const summarised = new Promise<void>((resolve) => (done = resolve));
  const analysed = async (): Promise<AssessmentResult> => {
    try {
      return await engine.analyze(headDir, {
        allowCodeConfig: false,
        onlyPaths: incremental.changedPaths,
        incremental,
        findingsScope: async (graph) => (await scope)(graph),
        // The repository phase begins with the graph: every summary is made (and cached) by then.
        onProgress: (event) => event.stage === 'graph' && done(),
        ...(signal ? { signal } : {}),
      });
    } finally {
      done();
    }
  };
  const result = analysed();
  result.catch(() => {
    // Awaited by the pipeline when it gets that far; a run it gave up on fails unobserved.
  });
  return {
    summarised,
    result,
    provideScope: (given) => (given instanceof Error ? fail(given) : provide(given)),
  };
}
