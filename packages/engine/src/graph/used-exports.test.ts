import { describe, expect, it } from 'vitest';
import type { ImportEdge, ModuleNode } from './types.js';
import { UsedExports } from './used-exports.js';

/**
 * Modules with local exports, named re-exports (some of a namespace), `export *` and imports of
 * names and namespaces. Export names are unique per module and `export *` points forward (no
 * cycle), where the definition is plain; import cycles are allowed.
 */
function randomModules(next: () => number): Map<string, ModuleNode> {
  const count = 2 + Math.floor(next() * 8);
  const paths = Array.from({ length: count }, (_, i) => `m${i}.ts`);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const name = () => pick(['a', 'b', 'c', 'd', 'default']);
  const modules = new Map<string, ModuleNode>();
  paths.forEach((path, index) => {
    const taken = new Set<string>();
    const fresh = () => {
      const n = name();
      if (taken.has(n)) return undefined;
      taken.add(n);
      return n;
    };
    const imports: ImportEdge[] = [];
    const exports: ModuleNode['exports'] = [];
    const edge = (kind: ImportEdge['kind'], names: string[], specifier: string): ImportEdge => ({
      from: path,
      to: pick(paths),
      specifier,
      kind,
      names,
      line: 1,
      resolution: 'internal',
    });
    for (let i = Math.floor(next() * 3); i > 0; i--) {
      const n = fresh();
      if (n) exports.push({ name: n, kind: 'function', line: 1 } as ModuleNode['exports'][number]);
    }
    for (let i = Math.floor(next() * 3); i > 0; i--) {
      const n = fresh();
      if (!n) continue;
      const specifier = `./r${i}`;
      imports.push(edge('re-export', [], specifier));
      exports.push({ name: n, kind: 're-export', line: 1, from: specifier, importedName: next() < 0.2 ? '*' : name() } as ModuleNode['exports'][number]);
    }
    if (next() < 0.4 && index + 1 < paths.length) imports.push({ ...edge('re-export-all', [], './star'), to: pick(paths.slice(index + 1)) });
    for (let i = Math.floor(next() * 3); i > 0; i--) imports.push(edge('static', next() < 0.2 ? ['*'] : [name(), name()], `./i${i}`));
    modules.set(path, { path, imports, exports, symbols: [], importedBy: [] });
  });
  return modules;
}

/** The definition as a worklist: what each use marks, until nothing new is marked. */
function reference(modules: Map<string, ModuleNode>, entries: string[]): Map<string, Set<string>> {
  const targetOf = (m: ModuleNode, specifier: string) => m.imports.find((e) => e.specifier === specifier && e.to !== undefined)?.to;
  const names = (path: string): Set<string> => {
    const out = new Set<string>();
    const m = modules.get(path);
    for (const r of m?.exports ?? []) out.add(r.name);
    for (const e of m?.imports ?? []) if (e.kind === 're-export-all' && e.to) for (const n of names(e.to)) if (n !== 'default') out.add(n);
    return out;
  };
  const used = new Map<string, Set<string>>();
  const done = new Set<string>();
  const work: Array<[string, string]> = [];
  for (const m of modules.values())
    for (const e of m.imports) if (e.to && e.kind !== 're-export' && e.kind !== 're-export-all') for (const n of e.names) work.push([e.to, n]);
  for (const entry of entries) work.push([entry, '*']);
  while (work.length > 0) {
    const [path, name] = work.pop()!;
    if (done.has(`${path} ${name}`)) continue;
    done.add(`${path} ${name}`);
    if (name === '*') {
      for (const n of names(path)) work.push([path, n]);
      continue;
    }
    if (!used.has(path)) used.set(path, new Set());
    used.get(path)!.add(name);
    const m = modules.get(path);
    if (!m) continue;
    const record = m.exports.find((r) => r.name === name && r.from !== undefined && targetOf(m, r.from) !== undefined && r.importedName !== undefined);
    if (record) {
      work.push([targetOf(m, record.from!)!, record.importedName!]);
      continue;
    }
    if (m.exports.some((r) => r.name === name)) continue;
    for (const e of m.imports) if (e.kind === 're-export-all' && e.to && names(e.to).has(name)) work.push([e.to, name]);
  }
  return used;
}

describe('UsedExports', () => {
  it('marks what the worklist definition marks, on 2000 random graphs (re-export chains, namespaces, export * cycles, entries)', () => {
    let seed = 11;
    const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x80000000;
    for (let i = 0; i < 2000; i++) {
      const modules = randomModules(next);
      const entries = [...modules.keys()].filter(() => next() < 0.15);
      const usage = new UsedExports(modules, entries);
      const expected = reference(modules, entries);
      for (const path of modules.keys()) expect([...usage.of(path)].sort(), `graph ${i}, ${path}`).toEqual([...(expected.get(path) ?? [])].sort());
    }
  });

  it('passes a name through `export *` to a module whose exports could not all be read (parse errors)', () => {
    const edge = (from: string, to: string, kind: ImportEdge['kind'], names: string[]): ImportEdge => ({
      from,
      to,
      specifier: `./${to}`,
      kind,
      names,
      line: 1,
      resolution: 'internal',
    });
    const declared = (name: string) => ({ name, kind: 'function', line: 1, typeOnly: false }) as const;
    const modules = new Map<string, ModuleNode>([
      ['app.ts', { path: 'app.ts', imports: [edge('app.ts', 'index.ts', 'static', ['lost', 'read'])], exports: [], symbols: [], importedBy: [] }],
      [
        'index.ts',
        {
          path: 'index.ts',
          imports: [edge('index.ts', 'broken.ts', 're-export-all', ['*']), edge('index.ts', 'clean.ts', 're-export-all', ['*'])],
          exports: [],
          symbols: [],
          importedBy: [],
        },
      ],
      // `lost` sits in an ERROR node of broken.ts: its facts only have `read`.
      ['broken.ts', { path: 'broken.ts', imports: [], exports: [declared('read')], symbols: [], importedBy: [], partial: true }],
      ['clean.ts', { path: 'clean.ts', imports: [], exports: [declared('other')], symbols: [], importedBy: [] }],
    ]);
    const usage = new UsedExports(modules, []);
    expect([...usage.of('broken.ts')].sort()).toEqual(['lost', 'read']);
    expect([...usage.of('clean.ts')]).toEqual([]);
    delete modules.get('broken.ts')!.partial;
    expect([...new UsedExports(modules, []).of('broken.ts')]).toEqual(['read']);
  });
});
