// Which exports of each module are imported somewhere, following re-export chains: a name
// imported from a barrel counts as used in the barrel and in the module that declares it.
// A namespace import that escapes (`* as ns` passed on, spread, indexed: namespace-uses.ts),
// `require()` kept whole and `import()` use every export; `ns.a` alone uses `a`.
import type { ImportEdge, ModuleNode } from './types.js';

interface ForwardedName {
  target: string;
  importedName: string;
}

export class UsedExports {
  private readonly used = new Map<string, Set<string>>();
  private readonly named = new Map<string, Map<string, ForwardedName>>();
  private readonly stars = new Map<string, string[]>();
  /** Modules with parse errors: their export lists are incomplete. */
  private readonly partial = new Set<string>();
  private readonly local = new Map<string, Set<string>>();
  private readonly namesMemo = new Map<string, Set<string>>();
  /** Modules used as a namespace (`*`); a name is visited once it is in `used`. */
  private readonly namespaces = new Set<string>();

  constructor(
    private readonly modules: ReadonlyMap<string, ModuleNode>,
    entries: Iterable<string>,
  ) {
    for (const module of modules.values()) this.index(module);
    for (const module of modules.values()) {
      for (const edge of module.imports) if (edge.to !== undefined && isUse(edge)) for (const name of edge.names) this.use(edge.to, name);
    }
    for (const entry of entries) this.use(entry, '*');
  }

  of(path: string): Set<string> {
    return new Set(this.used.get(path));
  }

  private index(module: ModuleNode): void {
    // Only re-exports name a specifier: most modules need no map of where their imports lead.
    let targetOf: Map<string, string> | undefined;
    const named = new Map<string, ForwardedName>();
    const local = new Set<string>();
    for (const record of module.exports) {
      const target = record.from === undefined ? undefined : (targetOf ??= targetsOf(module)).get(record.from);
      if (target !== undefined && record.importedName !== undefined) named.set(record.name, { target, importedName: record.importedName });
      else local.add(record.name);
    }
    const stars = module.imports.filter((e) => e.kind === 're-export-all' && e.to !== undefined).map((e) => e.to!);
    this.named.set(module.path, named);
    this.local.set(module.path, local);
    this.stars.set(module.path, stars);
    if (module.partial) this.partial.add(module.path);
  }

  /** Marks `name` of `path` used, and whatever it forwards to. `*` (a namespace) marks every export. */
  private use(path: string, name: string): void {
    if (name === '*') {
      if (this.namespaces.has(path)) return;
      this.namespaces.add(path);
      for (const each of this.exportNames(path)) this.use(path, each);
      return;
    }
    // The used names are the visited ones: no `path\0name` key per call.
    let set = this.used.get(path);
    if (!set) this.used.set(path, (set = new Set()));
    else if (set.has(name)) return;
    set.add(name);
    const forwarded = this.named.get(path)?.get(name);
    if (forwarded) {
      // For `export * as ns from`, the imported name is `*`: every name of the target.
      this.use(forwarded.target, forwarded.importedName);
      return;
    }
    if (this.local.get(path)?.has(name)) return;
    // A module whose exports could not all be read may export the name: it is passed on there too.
    for (const star of this.stars.get(path) ?? []) if (this.exportNames(star).has(name) || this.partial.has(star)) this.use(star, name);
  }

  /** Every name a module exports, its `export *` sources included (their `default` excepted). */
  private exportNames(path: string): Set<string> {
    const memo = this.namesMemo.get(path);
    if (memo) return memo;
    const names = new Set<string>();
    // Set before recursing so that `export *` cycles terminate.
    this.namesMemo.set(path, names);
    for (const name of this.local.get(path) ?? []) names.add(name);
    for (const name of this.named.get(path)?.keys() ?? []) names.add(name);
    for (const star of this.stars.get(path) ?? []) for (const name of this.exportNames(star)) if (name !== 'default') names.add(name);
    return names;
  }
}

/** Where each specifier of the module's imports leads (the last import of a specifier wins). */
function targetsOf(module: ModuleNode): Map<string, string> {
  const targetOf = new Map<string, string>();
  for (const edge of module.imports) if (edge.to !== undefined) targetOf.set(edge.specifier, edge.to);
  return targetOf;
}

/** Re-exports forward names rather than use them; everything else that names exports uses them. */
function isUse(edge: ImportEdge): boolean {
  return edge.kind !== 're-export' && edge.kind !== 're-export-all';
}
