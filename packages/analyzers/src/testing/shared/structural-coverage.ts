// Structural coverage: which source modules the tests load, and which exported functions the
// loaded code imports, following the code graph's run-time import edges from every test file.
import type { CodeGraph, FileSummary, ImportEdge } from '@codehealth/engine/kit';
import { moduleLookup } from './module-lookup.js';
import { exportedFunctionNames, hasRuntimeCode, isSourceCode, isTestCode } from './test-code.js';

export interface StructuralCoverage {
  testFiles: string[];
  /** Source modules with code to run (not type-only modules or pure barrels). */
  sourceModules: FileSummary[];
  /** Every module the tests load at run time, test files included. */
  reached: ReadonlySet<string>;
  reachedSourceModules: number;
  /** 100 × reached source modules ÷ source modules; undefined without source modules. */
  modulePct: number | undefined;
  exportedFunctions: number;
  exercisedFunctions: number;
  /** 100 × exercised ÷ exported functions of source modules; undefined without any. */
  functionPct: number | undefined;
}

const memo = new WeakMap<readonly FileSummary[], StructuralCoverage>();

/** Edges that load the target when the importer runs: not `import type`, not imports the compiler elides. */
export function isRuntimeEdge(edge: ImportEdge): boolean {
  return edge.to !== undefined && !edge.typeOnly && !edge.elidable && edge.kind !== 'type';
}

function reachableAtRunTime(graph: CodeGraph, roots: readonly string[]): Set<string> {
  const seen = new Set(roots);
  const queue = [...roots];
  while (queue.length > 0) {
    const module = graph.modules.get(queue.pop()!);
    for (const edge of module?.imports ?? []) {
      if (isRuntimeEdge(edge) && !seen.has(edge.to!)) {
        seen.add(edge.to!);
        queue.push(edge.to!);
      }
    }
  }
  return seen;
}

/**
 * Exports that the given modules import, resolved through re-exports and `export *` to the
 * module that declares them (the engine's `usedExports`, restricted to importers the tests load).
 */
function exercisedExports(graph: CodeGraph, importers: Iterable<string>): Map<string, Set<string>> {
  // Names by module rather than `path\0name` keys: no string built per name followed.
  const used = new Map<string, Set<string>>();
  const lookup = moduleLookup(graph);
  const namesMemo = new Map<string, Set<string>>();
  const exportNames = (path: string): Set<string> => {
    const memoised = namesMemo.get(path);
    if (memoised) return memoised;
    const names = new Set<string>();
    // Set before recursing so that `export *` cycles end.
    namesMemo.set(path, names);
    const module = graph.modules.get(path);
    for (const record of module?.exports ?? []) names.add(record.name);
    for (const edge of module?.imports ?? []) {
      if (edge.kind === 're-export-all' && edge.to !== undefined) for (const name of exportNames(edge.to)) if (name !== 'default') names.add(name);
    }
    return names;
  };
  const use = (path: string, name: string): void => {
    let names = used.get(path);
    if (!names) used.set(path, (names = new Set()));
    else if (names.has(name)) return;
    names.add(name);
    const module = graph.modules.get(path);
    if (!module) return;
    if (name === '*') {
      for (const each of exportNames(path)) use(path, each);
      return;
    }
    const record = lookup.exportRecord(path, name);
    if (record?.from !== undefined) {
      const target = lookup.importTarget(path, record.from);
      if (target !== undefined && record.importedName !== undefined) use(target, record.importedName);
      return;
    }
    if (record) return;
    for (const edge of module.imports) if (edge.kind === 're-export-all' && edge.to !== undefined && exportNames(edge.to).has(name)) use(edge.to, name);
  };
  for (const path of importers) {
    for (const edge of graph.modules.get(path)?.imports ?? []) {
      if (!isRuntimeEdge(edge) || edge.kind === 're-export' || edge.kind === 're-export-all') continue;
      for (const name of edge.names) use(edge.to!, name);
    }
  }
  return used;
}

const percent = (part: number, whole: number): number | undefined => (whole === 0 ? undefined : Math.round((part / whole) * 1000) / 10);

export function structuralCoverage(summaries: readonly FileSummary[], graph: CodeGraph): StructuralCoverage {
  const cached = memo.get(summaries);
  if (cached) return cached;
  const testFiles = summaries.filter(isTestCode).map((s) => s.path);
  const sourceModules = summaries.filter((s) => isSourceCode(s) && hasRuntimeCode(s));
  const reached = reachableAtRunTime(graph, testFiles);
  const reachedSourceModules = sourceModules.filter((s) => reached.has(s.path)).length;
  const used = exercisedExports(graph, reached);
  let exportedFunctions = 0;
  let exercisedFunctions = 0;
  for (const summary of sourceModules) {
    const names = used.get(summary.path);
    for (const name of exportedFunctionNames(summary)) {
      exportedFunctions++;
      if (names?.has(name)) exercisedFunctions++;
    }
  }
  const result: StructuralCoverage = {
    testFiles,
    sourceModules,
    reached,
    reachedSourceModules,
    modulePct: percent(reachedSourceModules, sourceModules.length),
    exportedFunctions,
    exercisedFunctions,
    functionPct: percent(exercisedFunctions, exportedFunctions),
  };
  memo.set(summaries, result);
  return result;
}
