// The places and names that say what a file is for, read from its path: conventional folders
// (`benchmarks/`, `examples/`, `docs/`, `scripts/`, `fixtures/`), file names (`*.bench.ts`,
// `*.stories.tsx`, `gulpfile.js`) and documentation-site roots. Folder names are matched as whole
// path segments, never as substrings: `src/bench.ts` and `src/benchmarking/` are production code.
//
// Some folders mean the same thing at any depth (`benchmarks/`, `examples/`, `__stories__/`). Others
// are ordinary words inside a program's own code (a docs generator's `src/docs/`, a web app's
// `app/docs/` route, an agent's `src/tools/`): they count only above a source root — a `src`,
// `lib`, `source`, `sources`, `app` or `pages` segment — of the repository or of the package they
// are in, and there a folder's first word is enough (`docs-v3/`, `benchmarks-old/`). A folder that is the root of a published package (a name and not `private`) is that
// package, the product, whatever its name; private packages are judged in role-evidence.ts.
import type { FileRole } from '../domain/types.js';

/** The roles a place or a name can give; test, fixture, generated and vendored come from the kind. */
export type PlaceRole = Extract<FileRole, 'benchmark' | 'example' | 'docs' | 'tooling'>;

/** At any depth, inside a source root too. */
const ANYWHERE = new Map<string, PlaceRole>([
  ['bench', 'benchmark'],
  ['benchmark', 'benchmark'],
  ['benchmarks', 'benchmark'],
  ['__bench__', 'benchmark'],
  ['__benchmarks__', 'benchmark'],
  ['__performance_tests__', 'benchmark'],
  ['example', 'example'],
  ['examples', 'example'],
  ['__examples__', 'example'],
  ['demo', 'example'],
  ['demos', 'example'],
  ['playground', 'example'],
  ['playgrounds', 'example'],
  ['__stories__', 'docs'],
  ['.storybook', 'docs'],
  ['.vitepress', 'docs'],
  ['.vuepress', 'docs'],
]);

/** Only above a source root: inside one these are words of the program's own domain. */
const OUTSIDE_SOURCE = new Map<string, PlaceRole>([
  ['docs', 'docs'],
  ['doc', 'docs'],
  ['documentation', 'docs'],
  ['website', 'docs'],
  ['storybook', 'docs'],
  // Storybook's own `src/stories/` is found by its `*.stories.*` names; inside a source root the
  // word is an app's feature (a feed's stories) too often to hide that code from the grade.
  ['stories', 'docs'],
  ['sandbox', 'example'],
  ['sandboxes', 'example'],
  ['scripts', 'tooling'],
  ['codemods', 'tooling'],
  ['script', 'tooling'],
  ['tools', 'tooling'],
  ['tooling', 'tooling'],
  ['ci', 'tooling'],
  ['.github', 'tooling'],
  ['.gitlab', 'tooling'],
  ['.circleci', 'tooling'],
  ['.husky', 'tooling'],
  ['.changeset', 'tooling'],
  ['.devcontainer', 'tooling'],
  ['.vscode', 'tooling'],
]);

/** `perf`, `perf-tests`, `perf_measures`, `performance`, `performance-tests` (above a source root). */
const PERF_FOLDER = /^perf(?:ormance)?(?:[-_.].*)?$/;

export const SOURCE_ROOTS: ReadonlySet<string> = new Set(['src', 'lib', 'source', 'sources', 'app', 'pages']);

/** Test data: fixtures and snapshots that tests read (kind `test` or not), and Go-style `testdata/`. */
const FIXTURE_DIRS: ReadonlySet<string> = new Set([
  'fixtures',
  'fixture',
  '__fixtures__',
  '__testfixtures__',
  '__snapshots__',
  'testdata',
  'test-data',
  '__testdata__',
]);
const SNAPSHOT_NAME = /\.snap$/i;

/** Vitest's default bench files (`*.bench.ts`, `*.benchmark.mjs`). */
const BENCH_NAME = /\.(?:bench|benchmark)\.[^./]+$/i;
/** Storybook stories (`Button.stories.tsx`, `Button.story.js`). */
const STORY_NAME = /\.(?:stories|story)\.[^./]+$/i;
const DOCS_CONFIG_NAME = /^docusaurus\.config\.[mc]?[jt]s$/i;
/** Task runners' files and CI helpers, and tools' configs with a variant (`vite.config.prod.ts`), at any place. */
const TOOLING_NAME = /^(?:gulpfile|gruntfile|jakefile|dangerfile)(?:\.[^./]+)+$|^[^.]+\.config(?:\.[^./]+)+$/i;

/** Files whose directory is a documentation site (the root excepted: a repository that is a site is its product). */
const SITE_MARKERS: ReadonlyArray<{ test: RegExp; depth: number }> = [
  { test: /(?:^|\/)docusaurus\.config\.[mc]?[jt]s$/i, depth: 1 },
  { test: /(?:^|\/)mkdocs\.ya?ml$/i, depth: 1 },
  { test: /(?:^|\/)\.vitepress\/[^/]+$/, depth: 2 },
  { test: /(?:^|\/)\.vuepress\/[^/]+$/, depth: 2 },
];

/** What the place of a file says, when anything. */
export interface Place {
  role?: PlaceRole;
  /** The file is under a source root of its repository or package (scripts and CI do not change its role). */
  inSource: boolean;
}

/** How role-evidence.ts sees a package directory. */
export interface PackagePlace {
  /** Named and not private: its folder's name is not a role. */
  published: boolean;
  /** A private package that only demonstrates, documents, measures or builds. */
  role?: PlaceRole;
}

export interface PlaceContext {
  /** Package directories ('' for the root). */
  packages: ReadonlyMap<string, PackagePlace>;
  /** Directories holding a documentation site. */
  docsSites: ReadonlySet<string>;
}

const NO_CONTEXT: PlaceContext = { packages: new Map(), docsSites: new Set() };

/** The role the folders of `path` give it: the outermost that says one wins. */
export function placeOf(path: string, context: PlaceContext = NO_CONTEXT): Place {
  const dirs = path.split('/').slice(0, -1);
  let inSource = false;
  let prefix = '';
  for (const dir of dirs) {
    prefix = prefix === '' ? dir : `${prefix}/${dir}`;
    const pkg = context.packages.get(prefix);
    if (pkg?.role) return { role: pkg.role, inSource: false };
    if (context.docsSites.has(prefix)) return { role: 'docs', inSource: false };
    if (pkg) {
      // A package starts its own layout: its `scripts/` is above its `src/`.
      inSource = false;
      if (pkg.published) continue;
    }
    const name = dir.toLowerCase();
    const anywhere = ANYWHERE.get(name);
    if (anywhere) return { role: anywhere, inSource };
    if (!inSource) {
      const outside = outsideSourceRole(name);
      if (outside) return { role: outside, inSource };
    }
    if (SOURCE_ROOTS.has(name)) inSource = true;
  }
  return { inSource };
}

/**
 * Above a source root a folder's first word is enough: `docs-v3/`, `examples_legacy/`,
 * `benchmarks-old/`, `scripts-dev/` (not `doctor/` or `toolsmith/`: words, not prefixes).
 */
function outsideSourceRole(name: string): PlaceRole | undefined {
  if (PERF_FOLDER.test(name)) return 'benchmark';
  const exact = OUTSIDE_SOURCE.get(name);
  if (exact || name.startsWith('.')) return exact;
  const first = name.split(/[-_.]/)[0];
  return first === name ? undefined : (OUTSIDE_SOURCE.get(first) ?? ANYWHERE.get(first));
}

/** The role a file's name gives it (a bench file, a story, a docs-site or task-runner config). */
export function nameRole(path: string): PlaceRole | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (BENCH_NAME.test(name)) return 'benchmark';
  if (STORY_NAME.test(name) || DOCS_CONFIG_NAME.test(name)) return 'docs';
  if (TOOLING_NAME.test(name)) return 'tooling';
  return undefined;
}

/** Test data: a fixture, snapshot or testdata folder anywhere in the path, or a `.snap` file. */
export function isFixturePath(path: string): boolean {
  const segments = path.split('/');
  return SNAPSHOT_NAME.test(segments[segments.length - 1]) || segments.slice(0, -1).some((d) => FIXTURE_DIRS.has(d.toLowerCase()));
}

/** A benchmark folder in the path (for test files: `test/bench/` is a benchmark, not a test). */
export function isBenchmarkPath(path: string): boolean {
  if (BENCH_NAME.test(path.slice(path.lastIndexOf('/') + 1))) return true;
  let inSource = false;
  for (const dir of path.split('/').slice(0, -1)) {
    const name = dir.toLowerCase();
    if (ANYWHERE.get(name) === 'benchmark' || (!inSource && PERF_FOLDER.test(name))) return true;
    if (SOURCE_ROOTS.has(name)) inSource = true;
  }
  return false;
}

/** Directories that hold a documentation site, from the paths of the inventory. */
export function docsSitesOf(paths: Iterable<string>): Set<string> {
  const sites = new Set<string>();
  for (const path of paths) {
    for (const { test, depth } of SITE_MARKERS) {
      if (!test.test(path)) continue;
      const segments = path.split('/');
      if (segments.length > depth) sites.add(segments.slice(0, segments.length - depth).join('/'));
    }
  }
  sites.delete('');
  return sites;
}
