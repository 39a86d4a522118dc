// Entry points a package.json declares: `main`/`module`/`types`/..., every condition and subpath of
// `exports` (patterns included), `bin`, code files `files` names, and the files its `scripts` run. Targets are returned as
// written (`./dist/cli.js`); the model maps them back to sources through the engine's resolver.

/** A path the manifest names, relative to the package directory. */
export interface ManifestTarget {
  /** `./dist/x.js`; may contain one `*` (an `exports` pattern). */
  target: string;
  /** Why it is an entry, for reports: `"bin" of @org/cli`. */
  reason: string;
  /** The package's main entry (`main`, `module`, `types`..., `exports` "."): a bundle named after the package falls back to `src/index`. */
  main?: boolean;
  /** Node's default `index.js`, not written in the manifest: no build output to map back to sources. */
  implicit?: boolean;
}

const ENTRY_FIELDS = ['main', 'module', 'browser', 'types', 'typings', 'source', 'es2015', 'jsnext:main'];
const CODE_FILE = /\.(?:[mc]?[jt]sx?)$/;
// Node loads `index.js` of a package without `main` or `exports`.
const DEFAULT_MAIN = './index.js';

export function manifestTargets(manifest: Record<string, unknown>): ManifestTarget[] {
  const name = typeof manifest.name === 'string' ? manifest.name : 'the package';
  const out: ManifestTarget[] = [];
  const add = (target: unknown, reason: string, main = false) => {
    if (typeof target !== 'string' || target === '') return;
    out.push({ target: asRelative(target), reason: `${reason} of ${name}`, ...(main ? { main } : {}) });
  };
  for (const field of ENTRY_FIELDS) add(manifest[field], `package.json "${field}"`, true);
  if (manifest.exports !== undefined) {
    for (const [subpath, target] of exportTargets(manifest.exports)) add(target, `package.json "exports" ${JSON.stringify(subpath)}`, subpath === '.');
  } else if (manifest.main === undefined && manifest.module === undefined) {
    out.push({ target: DEFAULT_MAIN, reason: `the default entry (index.js) of ${name}`, implicit: true });
  }
  // A code file listed by name in `files` is shipped for its users to load (knex's `knex.mjs`).
  if (Array.isArray(manifest.files)) {
    for (const file of manifest.files) if (typeof file === 'string' && CODE_FILE.test(file) && !/[*?{}!]/.test(file)) add(file, 'package.json "files"');
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

// The engine's order of preference for export conditions (sources and declarations first).
const CONDITION_RANK = ['source', 'types', 'import', 'module', 'node', 'require', 'default'];

/**
 * `[subpath, target]` pairs of an `exports` field: every condition of an exact subpath; for a
 * pattern subpath (`./internal/*`), whose targets are parallel build trees of the same sources,
 * only the preferred condition's target, since each pattern is expanded over every source file.
 */
export function exportTargets(field: unknown): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const subpaths = isRecord(field) && Object.keys(field).some((key) => key.startsWith('.')) ? Object.entries(field) : [['.', field] as const];
  for (const [subpath, value] of subpaths) {
    if (!subpath.startsWith('.')) continue;
    const leaves = exportLeaves(value).filter(({ target }) => target.startsWith('./') && !target.endsWith('.json'));
    if (!subpath.includes('*')) out.push(...leaves.map(({ target }): [string, string] => [subpath, target]));
    else if (leaves.length > 0) out.push([subpath, leaves.sort((a, b) => a.rank - b.rank)[0].target]);
  }
  return out;
}

/** Targets under every condition, ranked by their best-ranked condition on the way down. */
function exportLeaves(value: unknown, rank = CONDITION_RANK.length): Array<{ target: string; rank: number }> {
  if (typeof value === 'string') return [{ target: value, rank }];
  if (Array.isArray(value)) return value.flatMap((v) => exportLeaves(v, rank));
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([condition, v]) => {
    const own = CONDITION_RANK.indexOf(condition);
    return exportLeaves(v, own < 0 ? rank : Math.min(rank, own));
  });
}

/**
 * Files a script command runs: `node scripts/x.js`, `tsx ./src/cli.ts --flag`, `--require=./y.cjs`,
 * `cd bench && node run.mjs` (`bench/run.mjs`: a `cd` changes where the next commands' paths start).
 * Only tokens that name a code file or an explicit relative path count; globs never do.
 */
export function filesInScript(command: string, codeFilesOnly = false): string[] {
  const out: string[] = [];
  let cwd = '';
  for (const segment of command.split(/&&|\|\||;|\||\n/)) {
    const tokens = segment
      .trim()
      .split(/\s+/)
      .map((raw) => raw.replace(/^['"]|['"]$/g, ''));
    if (tokens[0] === 'cd') {
      const to = tokens[1] ?? '';
      // `cd -`, `cd $DIR`, `cd /abs` and `cd ~`: where the next command runs is unknown.
      cwd = to === '' || /^[-$~/]/.test(to) ? '\0' : joinRelative(cwd, to);
      continue;
    }
    if (cwd === '\0') continue;
    for (let token of tokens) {
      if (token.startsWith('-')) {
        const eq = token.indexOf('=');
        if (eq < 0) continue;
        token = token.slice(eq + 1);
      }
      if (token === '' || /[*?{}$<>]/.test(token) || token.includes('://')) continue;
      if (CODE_FILE.test(token) || (!codeFilesOnly && (token.startsWith('./') || token.startsWith('../')))) out.push(joinRelative(cwd, token));
    }
  }
  return out;
}

function joinRelative(dir: string, path: string): string {
  if (dir === '') return path;
  const parts = dir.split('/');
  for (const part of path.replace(/^\.\//, '').split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return `./${parts.join('/')}`;
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
