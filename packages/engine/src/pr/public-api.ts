// A package's public API: what its users can import — the entry points its package.json names
// (`exports` subpaths, else `main`/`module`/`types`..., mapped back to sources the way the
// resolver does) and what those entries export, following `export … from` and `export * from`
// into the modules they forward. Every other `export` is internal: an internal state type changed
// is not a public API change.
import { FileProbe, isObject, type ReadJson } from '../graph/file-probe.js';
import type { CodeGraph } from '../graph/types.js';
import { findWorkspacePackages, WorkspaceResolver } from '../graph/workspace-packages.js';

/** `file\0name` of every export users of the repository's packages can import; undefined when no package names an entry (an application). */
export function publicExports(files: readonly string[], readJson: ReadJson, graph: CodeGraph): Set<string> | undefined {
  const packages = findWorkspacePackages(files, readJson);
  const resolver = new WorkspaceResolver(new FileProbe(new Set(files), readJson), readJson);
  const entries = new Set<string>();
  for (const pkg of packages.values()) {
    if (pkg.manifest.private === true && pkg.dir === '' && packages.size > 1) continue; // a workspace root is not published
    const exportsField = pkg.manifest.exports;
    const subpaths =
      isObject(exportsField) && Object.keys(exportsField).some((key) => key.startsWith('.'))
        ? Object.keys(exportsField).filter((key) => key.startsWith('.') && !key.includes('*'))
        : ['.'];
    for (const subpath of subpaths) {
      const file = resolver.resolve(pkg, subpath);
      if (file && graph.modules.has(file)) entries.add(file);
    }
  }
  if (entries.size === 0) return undefined;
  const out = new Set<string>();
  // `file\0name` pairs to visit; `file\0*` takes every export of the file.
  const queue: Array<[string, string]> = [...entries].map((file) => [file, '*']);
  const seen = new Set<string>();
  while (queue.length > 0) {
    const [file, wanted] = queue.shift()!;
    const key = `${file}\0${wanted}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const module = graph.modules.get(file);
    if (!module) continue;
    const target = (specifier: string) => module.imports.find((edge) => edge.specifier === specifier && edge.to)?.to;
    for (const record of module.exports) {
      if (wanted !== '*' && record.name !== wanted) continue;
      out.add(`${file}\0${record.name}`);
      if (record.from !== undefined) {
        const to = target(record.from);
        if (to) queue.push([to, record.importedName ?? record.name]);
      }
    }
    for (const edge of module.imports) {
      if (edge.kind === 're-export-all' && edge.to) queue.push([edge.to, wanted]);
    }
  }
  return out;
}
