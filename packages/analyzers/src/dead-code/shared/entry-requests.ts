// Collects everything that loads a module without a resolvable import in the graph: package.json
// entries, scripts, configuration files, HTML pages, framework conventions, worker URLs, and
// imports of build output (`bin/cli.js` → `../dist/main.js`). Each becomes a request that the model
// resolves through the engine's own resolver: a specifier from a synthetic module placed in the
// right directory, or a package target, resolved as a `#` import of that package mapped to it.
import { posix } from 'node:path';
import type { FileSummary, RepoSnapshot } from '@codehealth/engine/kit';
import { FILE_FACTS_COLLECTOR_ID, type DeadCodeFileFacts } from './file-facts.js';
import { frameworkEntry } from './framework-entries.js';
import { dependencyNames, filesInScript, isRecord, manifestTargets } from './manifest-entries.js';
import { configReferences, htmlScriptReferences, jsonConfigReferences } from './text-references.js';
import { globMatcher } from './glob.js';

export type RequestOrigin = { type: 'entry'; reason: string } | { type: 'load'; from: string };

export interface EntryRequest {
  /** What is imported; for a package target, a key naming the request (`fallbackFor` refers to it). */
  specifier: string;
  /** A target path of the package of the request's directory, resolved as the package resolves its own targets (build output mapped to sources). */
  packageTarget?: string;
  /** Export names the loader reads; `*` for all. */
  names: string[];
  origin: RequestOrigin;
  /**
   * For `exports` patterns: the resolved file (extension dropped) must end with this, so that the
   * build-output mapping cannot turn `./internal/*` with `*` = `ajax/index` into `src/ajax/index.ts`.
   */
  mustEndWith?: string;
  /** A guess at a package target's source (`lib/x.ts` for `dist/x.js`), used only if the target itself found nothing. */
  fallbackFor?: string;
}

export interface EntryRequests {
  /** Requests by the directory they are resolved from. */
  byDir: Map<string, EntryRequest[]>;
  manifests: Map<string, Record<string, unknown>>;
}

const PARSED = new Set(['typescript', 'tsx', 'javascript', 'jsx']);
/** `vitest.config.build.ts`, `jest.config-eslint-9.js`: a tool's configuration variant (`x.config.ts` is kind config already). */
const CONFIG_CODE_NAME = /^[^./]+\.config[.\-_][^/]*\.[mc]?[jt]s$/i;
/** Files whose text is commands: CI workflows and composite actions, shell scripts, Dockerfiles, Makefiles. */
const RUN_FILE = /^\.github\/.+\.ya?ml$|(?:^|\/)\.gitlab-ci\.ya?ml$|\.(?:sh|bash|zsh)$|(?:^|\/)(?:Dockerfile[^/]*|[^/]+\.dockerfile|Makefile|Procfile)$/i;
const COMPONENT_FILE = /\.(?:vue|svelte|astro|mdx)$/;

/**
 * With `only`, just the loads of those files (their load and glob facts; `unresolved` should then
 * hold only their imports): what a derived run recomputes for changed files.
 */
export async function collectEntryRequests(
  snapshot: RepoSnapshot,
  summaries: readonly FileSummary[],
  unresolved: ReadonlyArray<{ from: string; specifier: string; names: string[] }>,
  extraEntries: readonly string[],
  manifests: Map<string, Record<string, unknown>>,
  only?: ReadonlySet<string>,
  isImported: (path: string) => boolean = () => false,
): Promise<EntryRequests> {
  const byDir = new Map<string, EntryRequest[]>();
  let counter = 0;
  const add = (dir: string, request: EntryRequest) => {
    const list = byDir.get(dir);
    if (list) list.push(request);
    else byDir.set(dir, [request]);
  };
  /** A path inside package `dir`, resolved like a package target (build output mapped to sources). */
  const addTarget = (dir: string, target: string, names: string[], origin: RequestOrigin, candidates: (anchor: string) => string[], main = false) => {
    // Names the request (`fallbackFor`); never resolved, and unlike any specifier in a file.
    const key = `#__codehealth_dead_code/${counter++}`;
    if (!target.includes('*')) {
      add(dir, { specifier: key, packageTarget: target, names, origin });
      // The engine maps build output to `src/` (or the tsconfig's rootDir); published packages and
      // older layouts keep sources elsewhere.
      for (const guess of sourceGuesses(target)) add(dir, { specifier: guess, names, origin, fallbackFor: key });
      // A main bundle named after the package (`dist/redux.mjs`) is built from the source root's index.
      if (main && BUILD_ROOT.test(target)) add(dir, { specifier: './src/index', names, origin, fallbackFor: key });
      return;
    }
    const anchor = patternAnchor(target);
    // Node's pattern substitution: every `*` of the target stands for the match.
    for (const match of candidates(anchor))
      add(dir, { specifier: `${key}/${match}`, packageTarget: target.replaceAll('*', match), names, origin, mustEndWith: anchor + match });
  };
  const packageDirs = [...manifests.keys()].sort((a, b) => b.length - a.length);
  const packageOf = (path: string) => packageDirs.find((dir) => dir === '' || path.startsWith(`${dir}/`));
  const sources = summaries.filter((s) => s.kind === 'source' && PARSED.has(s.language) && !s.skipped);

  for (const [dir, manifest] of only ? [] : manifests) {
    // A package's `exports` often repeat one pattern per extension and condition: candidates are listed once per anchor.
    let paths: string[] | undefined;
    const byAnchor = new Map<string, string[]>();
    const starCandidates = (anchor: string) => {
      paths ??= sources.map((s) => s.path).filter((p) => packageOf(p) === dir);
      let candidates = byAnchor.get(anchor);
      if (!candidates) byAnchor.set(anchor, (candidates = patternCandidates(paths, dir, anchor)));
      return candidates;
    };
    const seen = new Set<string>();
    for (const { target, reason, main, implicit } of manifestTargets(manifest)) {
      if (implicit) {
        add(dir, { specifier: target, names: ['*'], origin: { type: 'entry', reason } });
        continue;
      }
      // `node` and `require` conditions often name the same file.
      if (seen.has(target)) continue;
      seen.add(target);
      // Proxy packages (`ajax/package.json` → `../dist/cjs/ajax/index.js`) point into their parent package.
      const joined = posix.normalize(posix.join(dir || '.', target));
      const home = target.startsWith('../') ? packageOf(joined) : dir;
      if (home === undefined || joined.startsWith('../')) continue;
      const relative = home === '' ? joined : joined.slice(home.length + 1);
      addTarget(home, home === dir ? target : `./${relative}`, ['*'], { type: 'entry', reason }, starCandidates, main === true && home === dir);
    }
  }

  const depsOf = new Map<string, Set<string>>();
  const rootDeps = dependencyNames(manifests.get('') ?? {});
  for (const [dir, manifest] of manifests) depsOf.set(dir, new Set([...rootDeps, ...dependencyNames(manifest)]));
  const isExtraEntry = globMatcher(extraEntries);
  for (const summary of only ? [] : sources) {
    if (isExtraEntry(summary.path)) {
      add('', { specifier: `./${summary.path}`, names: ['*'], origin: { type: 'entry', reason: 'the rule option "entries"' } });
      continue;
    }
    const dir = packageOf(summary.path) ?? '';
    const relative = dir === '' ? summary.path : summary.path.slice(dir.length + 1);
    const convention = frameworkEntry(summary.path, relative, depsOf.get(dir) ?? new Set(rootDeps));
    if (convention) {
      const names = convention.names === '*' ? ['*'] : convention.names;
      add('', { specifier: `./${summary.path}`, names, origin: { type: 'entry', reason: convention.reason } });
    }
  }

  const codePaths = summaries.filter((s) => PARSED.has(s.language) && !s.skipped).map((s) => s.path);
  const codePathSet = new Set(codePaths);
  const codeDirs = codeFilesByDir(codePaths);
  for (const summary of summaries) {
    if (only && !only.has(summary.path)) continue;
    const facts = summary.facts[`dead-code/${FILE_FACTS_COLLECTOR_ID}`] as DeadCodeFileFacts | undefined;
    const origin: RequestOrigin = { type: 'load', from: summary.path };
    for (const specifier of facts?.loads ?? []) {
      add(dirOf(summary.path), { specifier, names: ['*'], origin });
      // A load of the package's own build output (`new URL('../../dist/x.js', import.meta.url)`, a
      // path handed to a bundler) reaches the source that output is built from.
      const target = posix.normalize(posix.join(dirOf(summary.path) || '.', specifier));
      const dir = packageOf(target);
      if (dir !== undefined && !target.startsWith('../') && !codePathSet.has(target)) {
        addTarget(dir, `./${dir === '' ? target : target.slice(dir.length + 1)}`, ['*'], origin, () => []);
      }
    }
    // A path string is a guess at a loader: it keeps alive a file nothing imports, and says nothing
    // about a file the graph already reaches (its exports stay judged by what imports them).
    for (const target of pathStringTargets(summary.path, facts?.pathStrings ?? [], packageOf(summary.path) ?? '', codePathSet, codeDirs)) {
      if (!isImported(target)) add('', { specifier: `./${target}`, names: ['*'], origin });
    }
    for (const [specifier, name] of facts?.typeImports ?? []) add(dirOf(summary.path), { specifier, names: [name], origin });
    const pathGlobs = new Set(facts?.pathGlobs ?? []);
    for (const glob of [...(facts?.globs ?? []), ...pathGlobs]) {
      // Vite resolves `/x` against its root, the package directory in practice.
      const base = glob.startsWith('/') ? (packageOf(summary.path) ?? '') : dirOf(summary.path);
      const pattern = posix.normalize(posix.join(base || '.', glob.replace(/^\/+/, '')));
      if (pattern.startsWith('../')) continue;
      const matches = globMatcher([withoutCodeExtension(pattern.includes('/') ? pattern : `./${pattern}`)]);
      // A template path, like a path string, only keeps alive files nothing imports.
      const guess = pathGlobs.has(glob) && !(facts?.globs ?? []).includes(glob);
      for (const path of codePaths) {
        if (path !== summary.path && matches(withoutCodeExtension(path)) && !(guess && isImported(path)))
          add('', { specifier: `./${path}`, names: ['*'], origin });
      }
    }
  }

  for (const file of only ? [] : snapshot.files) {
    if (file.path.split('/').includes('node_modules') || file.skipReason) continue;
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    // `vitest.config.build.ts`, `jest.config-eslint-9.js`: a tool's configuration by name, whatever its kind.
    const isConfigCode = PARSED.has(file.language) && (file.kind === 'config' || (file.kind === 'source' && CONFIG_CODE_NAME.test(name)));
    const isConfigData = file.kind === 'config' && /\.json5?c?$/.test(file.path) && !file.path.endsWith('package.json');
    const isComponent = (file.kind === 'source' || file.kind === 'documentation') && COMPONENT_FILE.test(file.path);
    const isHtml = file.language === 'html' && file.kind === 'source';
    const isRunFile = RUN_FILE.test(file.path) && file.kind !== 'test';
    if (!isConfigCode && !isConfigData && !isComponent && !isHtml && !isRunFile) continue;
    const text = await snapshot.readFile(file.path).catch(() => '');
    // A component the graph cannot parse may itself be dead; what it imports is kept alive anyway.
    const reason = `${isRunFile ? 'run by' : 'referenced by'} ${file.path}`;
    const origin: RequestOrigin = { type: 'entry', reason };
    if (isRunFile) {
      // Workflows, composite actions, shell scripts and Dockerfiles run commands from the repository
      // root (or the script's own directory): the code files their commands name.
      for (const target of filesInScript(text, true))
        for (const base of new Set(['', dirOf(file.path)])) add(base, { specifier: asSpecifier(target), names: ['*'], origin });
      continue;
    }
    const references = isHtml ? htmlScriptReferences(text) : isConfigData ? jsonConfigReferences(text) : configReferences(text);
    for (const specifier of references) add(dirOf(file.path), { specifier, names: ['*'], origin });
    // A config in a subfolder often names paths from where its tool runs: the package or the repository root.
    if (isConfigCode && dirOf(file.path) !== '') {
      const bases = new Set([packageOf(file.path) ?? '', '']);
      bases.delete(dirOf(file.path));
      for (const specifier of references) if (!specifier.startsWith('../')) for (const base of bases) add(base, { specifier, names: ['*'], origin });
    }
  }

  // Imports of build output that is not in the repository: map them to the sources it is built from.
  for (const edge of unresolved) {
    const target = posix.normalize(posix.join(dirOf(edge.from) || '.', edge.specifier));
    const dir = packageOf(target);
    if (dir === undefined || target.startsWith('../')) continue;
    const relative = dir === '' ? target : target.slice(dir.length + 1);
    addTarget(dir, `./${relative}`, edge.names, { type: 'load', from: edge.from }, () => []);
  }
  return { byDir, manifests };
}

/** package.json files by directory (`''` for the root), outside node_modules. */
export async function readManifests(snapshot: RepoSnapshot): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const file of snapshot.files) {
    if (!(file.path === 'package.json' || file.path.endsWith('/package.json'))) continue;
    if (file.path.split('/').includes('node_modules')) continue;
    try {
      const json: unknown = JSON.parse(await snapshot.readFile(file.path));
      if (isRecord(json)) out.set(dirOf(file.path), json);
    } catch {
      // An unreadable manifest declares nothing.
    }
  }
  return out;
}

/**
 * Values a `*` may take for the files of a package, extension dropped: with an anchor (`internal/`),
 * the part of each path after it; without one, every trailing run of path segments.
 */
function patternCandidates(paths: string[], dir: string, anchor: string): string[] {
  const out = new Set<string>();
  for (const path of paths) {
    const relative = (dir === '' ? path : path.slice(dir.length + 1)).replace(/\.[^./]+$/, '');
    if (anchor !== '') {
      const at = `/${relative}`.lastIndexOf(`/${anchor}`);
      if (at >= 0) out.add(relative.slice(at + anchor.length));
      continue;
    }
    const segments = relative.split('/');
    for (let i = 0; i < segments.length; i++) out.add(segments.slice(i).join('/'));
  }
  return [...out];
}

/** `internal/` for `./dist/cjs/internal/*.js`: the directory before the `*`, unless it is the build root. */
function patternAnchor(target: string): string {
  const segments = target.replace(/^\.\//, '').split('/');
  const star = segments.findIndex((s) => s.includes('*'));
  return star >= 2 ? `${segments[star - 1]}/` : '';
}

const SOURCE_ROOTS = ['lib', 'source', 'sources', 'ts', '.'];
const BUILD_ROOT = /^\.\/(?:dist|build|out|output|es|esm|cjs|lib|types|typings|bundle)\//;

/** `./lib/x.js`, `./x.js`, ... for `./dist/esm/x.js`: the rest of the path under other source roots. */
function sourceGuesses(target: string): string[] {
  if (!BUILD_ROOT.test(target)) return [];
  const segments = target
    .slice(2)
    .replace(/\.d\.([mc]?ts)$/, '.$1')
    .split('/');
  const out = new Set<string>();
  for (let drop = 1; drop < segments.length; drop++) {
    for (const root of SOURCE_ROOTS)
      if (root !== segments[0]) out.add(root === '.' ? `./${segments.slice(drop).join('/')}` : `./${[root, ...segments.slice(drop)].join('/')}`);
  }
  return [...out];
}

function asSpecifier(path: string): string {
  return path.startsWith('./') || path.startsWith('../') ? path : `./${path}`;
}

/** Code files by their directory ('' for the root). */
function codeFilesByDir(paths: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const path of paths) {
    const dir = dirOf(path);
    const list = out.get(dir);
    if (list) list.push(path);
    else out.set(dir, [path]);
  }
  return out;
}

const TS_TWINS: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'], '.jsx': ['.tsx'] };

/**
 * The code files a file's path strings name: a file (`fixtures/x.js`, its `.ts` source) or the code
 * files directly in a directory (`./db/migrations`: a runner lists it). A string is read from the
 * file's directory, its parent (jscodeshift's `defineTest(__dirname, 'x.cjs')` in `__tests__/`),
 * its package's root and the repository root (paths given to a tool run from there); only what
 * exists counts.
 */
export function pathStringTargets(
  from: string,
  strings: readonly string[],
  packageDir: string,
  files: ReadonlySet<string>,
  dirs: ReadonlyMap<string, readonly string[]>,
): string[] {
  if (strings.length === 0) return [];
  const out = new Set<string>();
  const dir = dirOf(from);
  const bases = [...new Set([dir, dirOf(dir), packageDir, ''])];
  for (const value of strings) {
    const isCode = /\.[mc]?[jt]sx?$/.test(value);
    for (const base of value.startsWith('../') ? [dir] : bases) {
      const path = posix.normalize(posix.join(base || '.', value)).replace(/\/+$/, '');
      if (path.startsWith('../') || path === '.' || path === '..') continue;
      if (isCode) {
        const ext = /\.[mc]?[jt]sx?$/.exec(path)![0];
        const found = [path, ...(TS_TWINS[ext] ?? []).map((e) => path.slice(0, -ext.length) + e)].find((p) => files.has(p));
        if (found && found !== from) out.add(found);
      } else {
        for (const file of dirs.get(path) ?? []) if (file !== from) out.add(file);
      }
    }
  }
  return [...out];
}

/** `x.js` in a glob stands for the `x.ts` source too. */
function withoutCodeExtension(path: string): string {
  return path.replace(/\.(?:[mc]?[jt]sx?)$/, '');
}

export function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}
