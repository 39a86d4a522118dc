// What the repository itself says about its files' roles, beyond folder names: its package.json
// files (which packages are private and only demonstrate, document, measure or build; which files
// are a package's entry points; what its scripts run) and its GitHub Actions workflows (what CI
// runs). Manifests and workflows are read through the checked repository read (no link, regular
// files, bounded size); one that cannot be read or parsed says nothing.
import { posix } from 'node:path';
import type { RepoFile } from './types.js';
import { decodeText, repositoryFiles, type RepositoryFiles } from './repository-files.js';
import { docsSitesOf, isFixturePath, type PackagePlace, type PlaceContext, type PlaceRole } from './role-places.js';
import { commandTargets, scriptRole, workflowRunCommands, type ScriptRole } from './run-commands.js';
import { followRunImports } from './run-imports.js';

/** A manifest or workflow larger than this is not read: none comes near it. */
const MAX_READ_BYTES = 1024 * 1024;
const WORKFLOW = /^\.github\/workflows\/[^/]+\.ya?ml$/;

export interface RoleEvidence extends PlaceContext {
  /** Files that scripts or CI workflows run, with the role the script gives them (first found). */
  runs: Map<string, ScriptRole>;
  /** Directories that benchmark, example, docs or test scripts run (`vitest bench perf-measures`). */
  runDirs: Map<string, ScriptRole>;
  /** Files a manifest names as the package's own (main, module, bin, exports, files): the product, whatever else runs them. */
  entries: Set<string>;
}

/** Words of a private package's name or folder that say it is not the product. */
const PACKAGE_WORDS = new Map<string, PlaceRole>([
  ['example', 'example'],
  ['examples', 'example'],
  ['demo', 'example'],
  ['demos', 'example'],
  ['playground', 'example'],
  ['playgrounds', 'example'],
  ['sandbox', 'example'],
  ['sandboxes', 'example'],
  ['docs', 'docs'],
  ['doc', 'docs'],
  ['documentation', 'docs'],
  ['website', 'docs'],
  ['storybook', 'docs'],
  ['bench', 'benchmark'],
  ['benchmark', 'benchmark'],
  ['benchmarks', 'benchmark'],
  ['perf', 'benchmark'],
  ['perfs', 'benchmark'],
  ['perftest', 'benchmark'],
  ['perftests', 'benchmark'],
  ['performance', 'benchmark'],
  ['tools', 'tooling'],
  ['tooling', 'tooling'],
  ['scripts', 'tooling'],
  // Apps that exercise the product with each framework or bundler (TanStack Query's `integrations/react-next-15`).
  ['integrations', 'example'],
]);
/** Private shared configurations of tools (`@acme/eslint-config`, `tsconfig`). */
const TOOL_CONFIG_PACKAGE = /^(?:eslint-config|eslint-plugin|prettier-config|tsconfig|stylelint-config)(?:[-_.]|$)/;
/** A private package depending on one of these is a documentation site. */
const DOCS_FRAMEWORKS = ['@docusaurus/core', 'docusaurus', 'vitepress', 'vuepress', 'nextra', '@astrojs/starlight'];

type Manifest = Record<string, unknown>;

const isRecord = (value: unknown): value is Manifest => typeof value === 'object' && value !== null && !Array.isArray(value);

function readText(reader: RepositoryFiles, path: string): string | undefined {
  const read = reader.readSync(path, { links: 'never', maxBytes: MAX_READ_BYTES });
  return read.ok ? decodeText(read.bytes) : undefined;
}

function readManifest(reader: RepositoryFiles, path: string): Manifest | undefined {
  const text = readText(reader, path);
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The role a private package's name, folder or dependencies give it. */
function packageRole(dir: string, manifest: Manifest): PlaceRole | undefined {
  const name = typeof manifest.name === 'string' ? manifest.name.toLowerCase().replace(/^@[^/]+\//, '') : '';
  if (TOOL_CONFIG_PACKAGE.test(name)) return 'tooling';
  // The folder that holds it counts too (`integrations/react-next-15`).
  const parent = posix.dirname(dir) === '.' ? '' : posix.basename(posix.dirname(dir)).toLowerCase();
  for (const text of [name, posix.basename(dir).toLowerCase(), parent]) {
    for (const word of text.split(/[^a-z0-9]+/)) {
      const role = PACKAGE_WORDS.get(word);
      if (role) return role;
    }
  }
  const deps = [manifest.dependencies, manifest.devDependencies].filter(isRecord);
  if (DOCS_FRAMEWORKS.some((framework) => deps.some((d) => Object.hasOwn(d, framework)))) return 'docs';
  return undefined;
}

/** Every string target of main, module, browser, types, bin, exports and files. */
function entryTargets(manifest: Manifest): string[] {
  const out: string[] = [];
  const collect = (value: unknown, depth: number): void => {
    if (typeof value === 'string') out.push(value);
    else if (depth < 8 && Array.isArray(value)) for (const item of value) collect(item, depth + 1);
    else if (depth < 8 && isRecord(value)) for (const item of Object.values(value)) collect(item, depth + 1);
  };
  for (const field of ['main', 'module', 'browser', 'types', 'typings', 'bin', 'exports', 'files']) collect(manifest[field], 0);
  return out;
}

function directoriesOf(paths: readonly string[]): Set<string> {
  const dirs = new Set<string>();
  for (const path of paths) {
    for (let slash = path.indexOf('/'); slash !== -1; slash = path.indexOf('/', slash + 1)) dirs.add(path.slice(0, slash));
  }
  return dirs;
}

/** Reads the manifests and workflows of an inventory (`root` is the repository it lists). */
export function readRoleEvidence(root: string, files: readonly RepoFile[]): RoleEvidence {
  const reader = repositoryFiles(root);
  const paths = files.map((f) => f.path);
  const fileSet = new Set(paths);
  const dirSet = directoriesOf(paths);
  const packages = new Map<string, PackagePlace>();
  const runs = new Map<string, ScriptRole>();
  const runDirs = new Map<string, ScriptRole>();
  const entries = new Set<string>();
  const record = (command: string, dir: string, role: ScriptRole) => {
    const targets = commandTargets(
      command,
      dir,
      (p) => fileSet.has(p),
      (p) => dirSet.has(p),
    );
    for (const file of targets.files) if (!runs.has(file)) runs.set(file, role);
    // A tooling script's directory is usually what it works on (`eslint src`), not what it is.
    if (role !== 'tooling') for (const dir of targets.dirs) if (!runDirs.has(dir)) runDirs.set(dir, role);
  };

  for (const file of files) {
    // A manifest among test data describes a test's input, not this repository.
    if (file.kind !== 'config' || posix.basename(file.path) !== 'package.json' || file.skipReason || isFixturePath(file.path)) continue;
    const manifest = readManifest(reader, file.path);
    if (!manifest) continue;
    const dir = posix.dirname(file.path) === '.' ? '' : posix.dirname(file.path);
    // npm publishes nothing without a version: redux's `docs/package.json` ({ "name": "docs" }) is a site, not a product.
    const published = typeof manifest.name === 'string' && typeof manifest.version === 'string' && manifest.private !== true;
    const role = !published && dir !== '' ? packageRole(dir, manifest) : undefined;
    packages.set(dir, { published, ...(role ? { role } : {}) });
    for (const target of entryTargets(manifest)) {
      const path = posix.normalize(posix.join(dir === '' ? '.' : dir, target));
      if (fileSet.has(path)) entries.add(path);
    }
    if (!isRecord(manifest.scripts)) continue;
    for (const [name, command] of Object.entries(manifest.scripts)) {
      const role = scriptRole(name);
      if (role && typeof command === 'string') record(command, dir, role);
    }
  }
  for (const file of files) {
    if (!WORKFLOW.test(file.path) || file.skipReason) continue;
    const text = readText(reader, file.path);
    if (text !== undefined) for (const command of workflowRunCommands(text)) record(command, '', 'tooling');
  }
  const docsSites = docsSitesOf(paths);
  followRunImports(runs, files, reader, { packages, docsSites }, entries);
  return { packages, docsSites, runs, runDirs, entries };
}
