// Per-graph lookups the testing rules make over and over: a module's export record by name and the
// module an import specifier resolved to. `Array#find` over a module's exports per lookup made
// following every name of a large module (a namespace import, `export *`) quadratic in its exports.
import type { CodeGraph, ExportRecord } from '@codehealth/engine/kit';

export interface ModuleLookup {
  /** The module's first export record named `name` (what `exports.find` returns). */
  exportRecord(path: string, name: string): ExportRecord | undefined;
  /** Where the module's first resolved import of `specifier` leads (what `imports.find(...).to` returns). */
  importTarget(path: string, specifier: string): string | undefined;
}

const lookups = new WeakMap<CodeGraph, ModuleLookup>();

export function moduleLookup(graph: CodeGraph): ModuleLookup {
  let lookup = lookups.get(graph);
  if (lookup) return lookup;
  const exportsByModule = new Map<string, Map<string, ExportRecord>>();
  const targetsByModule = new Map<string, Map<string, string>>();
  lookup = {
    exportRecord(path, name) {
      let byName = exportsByModule.get(path);
      if (!byName) {
        byName = new Map();
        for (const record of graph.modules.get(path)?.exports ?? []) if (!byName.has(record.name)) byName.set(record.name, record);
        exportsByModule.set(path, byName);
      }
      return byName.get(name);
    },
    importTarget(path, specifier) {
      let bySpecifier = targetsByModule.get(path);
      if (!bySpecifier) {
        bySpecifier = new Map();
        for (const edge of graph.modules.get(path)?.imports ?? [])
          if (edge.to !== undefined && !bySpecifier.has(edge.specifier)) bySpecifier.set(edge.specifier, edge.to);
        targetsByModule.set(path, bySpecifier);
      }
      return bySpecifier.get(specifier);
    },
  };
  lookups.set(graph, lookup);
  return lookup;
}
