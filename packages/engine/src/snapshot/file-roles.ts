// Decides each file's role (`FileRole`): what the file is for, as a person reading the repository
// would say. The first rule that gives a role wins, in this order:
//
//  1. generated, vendored   the file's kind (classify.ts): the configuration's `roles` do not change them.
//  2. configuration         the config's `roles` globs (`{ "benchmark": ["perf-measures/**"] }`),
//                           the first role listed whose globs match.
//  3. test data and tests   a fixtures, __fixtures__, __snapshots__ or testdata folder, or a .snap
//                           file: `fixture`. A test file in a benchmark folder (`test/bench/`): `benchmark`.
//                           Another test file, or any file in a test folder (test/, __tests__/, e2e/...): `test`.
//  4. place                 a private package that only demonstrates, documents, measures or builds
//                           (role-evidence.ts), a documentation site's directory (docusaurus.config.*,
//                           .vitepress/, .vuepress/, mkdocs.yml), then conventional folders (role-places.ts).
//  5. name                  *.bench.* and *.benchmark.*, *.stories.* and *.story.*, docusaurus.config.*,
//                           gulpfile, gruntfile, jakefile, dangerfile.
//  6. what runs it          a package.json script or a CI workflow that runs the code file (or, for
//                           benchmark, example, docs and test scripts, its directory): the script's
//                           role (run-commands.ts). Never for a file under a source root or a file the
//                           package's manifest names as its own (main, bin, exports, files).
//  7. tool configuration    tsconfig, eslint, bundler configs, dotfiles, dot directories: `tooling`.
//  8. production            everything else: the product's code, its manifest, README and assets.
import type { FileKind, FileRole } from '../domain/types.js';
import type { RepoFile } from './types.js';
import { configGlobMatcher, isToolConfig, TEST_DIRS } from './classify.js';
import { isBenchmarkPath, isFixturePath, nameRole, placeOf } from './role-places.js';
import { readRoleEvidence, type RoleEvidence } from './role-evidence.js';

/** Roles the configuration may give (generated and vendored have their own config keys and folders). */
export const CONFIGURABLE_ROLES = ['production', 'test', 'fixture', 'benchmark', 'example', 'docs', 'tooling'] as const;
export type ConfigurableRole = (typeof CONFIGURABLE_ROLES)[number];

/** The config's `roles`: globs per role, matched like `tests` and `generated`. */
export type RoleOverrides = Partial<Record<ConfigurableRole, readonly string[]>>;

export interface RoleOptions {
  roles?: RoleOverrides;
}

export type RoleClassifier = (file: Pick<RepoFile, 'path' | 'kind'>) => FileRole;

const EMPTY_EVIDENCE: RoleEvidence = { packages: new Map(), docsSites: new Set(), runs: new Map(), runDirs: new Map(), entries: new Set() };

/**
 * A file's role when it carries none (described outside a snapshot): its kind's role — tests are
 * tests, generated and vendored files are what they are — and production otherwise.
 */
export function roleOfFile(file: { kind: FileKind; role?: FileRole }): FileRole {
  if (file.role) return file.role;
  if (file.kind === 'test' || file.kind === 'generated' || file.kind === 'vendored') return file.kind;
  return 'production';
}

function overrideMatcher(overrides: RoleOverrides | undefined): (path: string) => ConfigurableRole | undefined {
  // Object keys keep the order they were written in: the first role listed whose globs match wins.
  const matchers = Object.entries(overrides ?? {})
    .filter(([role, globs]) => (CONFIGURABLE_ROLES as readonly string[]).includes(role) && globs && globs.length > 0)
    .map(([role, globs]) => ({ role: role as ConfigurableRole, match: configGlobMatcher(globs) }));
  return (path) => matchers.find(({ match }) => match(path))?.role;
}

function testRole(path: string, kind: FileKind): FileRole | undefined {
  if (isFixturePath(path)) return 'fixture';
  if (kind === 'test') return isBenchmarkPath(path) ? 'benchmark' : 'test';
  return path
    .split('/')
    .slice(0, -1)
    .some((d) => TEST_DIRS.has(d))
    ? 'test'
    : undefined;
}

/** The run evidence of a file: its own, or its nearest directory's that a script runs. */
function runRole(path: string, evidence: RoleEvidence): FileRole | undefined {
  const own = evidence.runs.get(path);
  if (own) return own;
  if (evidence.runDirs.size === 0) return undefined;
  for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
    const role = evidence.runDirs.get(path.slice(0, slash));
    if (role) return role;
  }
  return undefined;
}

export function createRoleClassifier(evidence: RoleEvidence = EMPTY_EVIDENCE, overrides?: RoleOverrides): RoleClassifier {
  const override = overrideMatcher(overrides);
  return ({ path, kind }) => {
    if (kind === 'generated' || kind === 'vendored') return kind;
    const configured = override(path);
    if (configured) return configured;
    const tested = testRole(path, kind);
    if (tested) return tested;
    const place = placeOf(path, evidence);
    if (place.role) return place.role;
    const named = nameRole(path);
    if (named) return named;
    // Scripts name files they copy or read too (`cp README.md dist`): only code is what they run.
    if (kind === 'source' && !place.inSource && !evidence.entries.has(path)) {
      const run = runRole(path, evidence);
      if (run) return run;
    }
    if (kind === 'config' && isToolConfig(path)) return 'tooling';
    return 'production';
  };
}

/** The inventory with each file's role, from the repository's manifests and workflows at `root`. */
export function assignRoles(root: string, files: readonly RepoFile[], options: RoleOptions = {}): RepoFile[] {
  const classify = createRoleClassifier(readRoleEvidence(root, files), options.roles);
  return files.map((file) => ({ ...file, role: classify(file) }));
}
