// Names the function around a line from a file summary, for repository rules that cannot walk trees.
import type { FunctionSummary } from '@codehealth/engine/kit';

/**
 * The innermost named function whose lines include `line`. Anonymous callbacks are skipped so a
 * finding inside `items.map(() => …)` is attributed to the function a reader would look for.
 */
export function enclosingFunctionName(functions: readonly FunctionSummary[], line: number): string | undefined {
  let best: FunctionSummary | undefined;
  // An index loop: repository rules call this per finding or sample, often before V8 optimises it,
  // and an unoptimised for...of allocates an iterator result per function.
  for (let i = 0; i < functions.length; i++) {
    const fn = functions[i];
    if (line < fn.lineStart || line > fn.lineEnd || fn.name.startsWith('<')) continue;
    if (
      !best ||
      fn.lineEnd - fn.lineStart < best.lineEnd - best.lineStart ||
      (fn.lineEnd - fn.lineStart === best.lineEnd - best.lineStart && fn.lineStart > best.lineStart)
    ) {
      best = fn;
    }
  }
  return best?.name;
}
