// Turns a cycle of the graph (a strongly connected component) into one readable import chain
// for a report: `a.ts → b.ts → c.ts → a.ts`.
import { shortestCycleThrough } from './strongly-connected.js';
import type { CodeGraph } from './types.js';

/**
 * A shortest chain of imports among `members` that starts at the first member and leads back to
 * it (the closing import is implied); `[]` when there is none. `runtimeOnly` follows only the
 * edges `runtimeCycles` counts.
 */
export function shortestCycle(graph: CodeGraph, members: readonly string[], options: { runtimeOnly?: boolean } = {}): string[] {
  if (members.length === 0) return [];
  const successors = (path: string): string[] => {
    const edges = graph.modules.get(path)?.imports ?? [];
    return edges.filter((e) => e.to !== undefined && !(options.runtimeOnly && (e.typeOnly || e.elidable || e.kind === 'type'))).map((e) => e.to!);
  };
  return shortestCycleThrough(members[0], new Set(members), successors);
}
