// Entry points a package.json declares: `main`/`module`/`types`/..., every condition and subpath of
// `exports` (patterns included), `bin`, and the files its `scripts` run. Targets are returned as
// written (`./dist/cli.js`); the model maps them back to sources through the engine's resolver.

/** A path the manifest names, relative to the package directory. */
export interface ManifestTarget {
  /** `./dist/x.js`; may contain one `*` (an `exports` pattern). */
  target: string;
  /** Why it is an entry, for reports: `"bin" of @org/cli`. */
  reason: string;
}

const ENTRY_FIELDS = ['main', 'module', 'browser', 'types', 'typings', 'source', 'es2015', 'jsnext:main'];
const CODE_FILE = /\.(?:[mc]?[jt]sx?)$/;
// Node loads `index.js` of a package without `main` or `exports`.
const DEFAULT_MAIN = './index.js';

export function manifestTargets(manifest: Record<string, unknown>): ManifestTarget[] {
  const name = typeof manifest.name === 'string' ? manifest.name : 'the package';
  const out: ManifestTarget[] = [];
  const add = (target: unknown, reason: string) => {
    if (typeof target !== 'string' || target === '') return;
    out.push({ target: asRelative(target), reason: `${reason} of ${name}` });
  };
  for (const field of ENTRY_FIELDS) add(manifest[field], `package.json "${field}"`);
  if (manifest.exports !== undefined) {
    for (const [subpath, target] of exportLeaves(manifest.exports)) add(target, `package.json "exports" ${JSON.stringify(subpath)}`);
  } else if (manifest.main === undefined && manifest.module === undefined) {
    add(DEFAULT_MAIN, 'the default entry (index.js)');
  }
  const bin = manifest.bin;
  if (typeof bin === 'string') add(bin, 'package.json "bin"');
  else if (isRecord(bin)) for (const [command, target] of Object.entries(bin)) add(target, `package.json "bin" ${JSON.stringify(command)}`);
  if (isRecord(manifest.scripts)) {
    for (const [script, command] of Object.entries(manifest.scripts)) {
      if (typeof command !== 'string') continue;
      for (const file of filesInScript(command)) add(file, `package.json script "${script}"`);
    }
  }
  return out;
}

/** Every `[subpath, target]` of an `exports` field, under every condition; `null` targets excluded. */
export function exportLeaves(field: unknown): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const collect = (subpath: string, value: unknown): void => {
    if (typeof value === 'string') out.push([subpath, value]);
    else if (Array.isArray(value)) for (const v of value) collect(subpath, v);
    else if (isRecord(value)) for (const v of Object.values(value)) collect(subpath, v);
  };
  if (isRecord(field) && Object.keys(field).some((key) => key.startsWith('.'))) {
    for (const [subpath, value] of Object.entries(field)) if (subpath.startsWith('.')) collect(subpath, value);
  } else {
    collect('.', field);
  }
  return out.filter(([, target]) => target.startsWith('./') && !target.endsWith('.json'));
}

/**
 * Files a script command runs: `node scripts/x.js`, `tsx ./src/cli.ts --flag`, `--require=./y.cjs`.
 * Only tokens that name a code file or an explicit relative path count; globs never do.
 */
export function filesInScript(command: string): string[] {
  const out: string[] = [];
  for (const raw of command.split(/\s+|&&|\|\||;|\|/)) {
    let token = raw.replace(/^['"]|['"]$/g, '');
    if (token.startsWith('-')) {
      const eq = token.indexOf('=');
      if (eq < 0) continue;
      token = token.slice(eq + 1);
    }
    if (token === '' || /[*?{}$<>]/.test(token) || token.includes('://')) continue;
    if (CODE_FILE.test(token) || token.startsWith('./') || token.startsWith('../')) out.push(token);
  }
  return out;
}

function asRelative(target: string): string {
  return target.startsWith('./') || target.startsWith('../') ? target : `./${target.replace(/^\/+/, '')}`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every dependency name a manifest lists, of any kind. */
export function dependencyNames(manifest: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
    const deps = manifest[field];
    if (isRecord(deps)) out.push(...Object.keys(deps));
  }
  return out;
}
