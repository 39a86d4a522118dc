// The architecture overview: what a newcomer needs to find their way in a code base, computed
// from an assessment's file summaries, code graph and git facts (never from prose): components
// and their sizes, languages, entry points, dependency levels, import cycles, hot spots,
// external dependencies and the test layout, plus a few generated summary sentences.
import type { ArchitectureOverviewContent, RepositoryArchitecture } from '../api/architecture-overview.js';
import { shortestCycle } from '@codehealth/engine';
import {
  analyseStructure,
  round,
  toSources,
  type ArchitectureFacts,
  type ArchitectureInput,
  type ArchitectureSource,
  type RepositoryStructure,
} from './architecture-structure.js';

export const OVERVIEW_LIMITS = { entryPoints: 15, hotSpots: 10, cycles: 20, externalDependencies: 100, testDirectories: 10 } as const;

/** Conventional names of entry modules (`src/index.ts`, `main.ts`, `cli.ts`, ...). */
const ENTRY_NAME = /(^|\/)(index|main|cli|server|app|bin)\.[cm]?[jt]sx?$/;
/** Directory names that hold tests apart from the code. */
const TEST_DIRECTORIES = new Set(['test', 'tests', '__tests__', '__test__', 'spec', 'specs', 'e2e', 'testing', 'integration']);
const TEST_FRAMEWORKS = [
  'vitest',
  'jest',
  '@jest/globals',
  'mocha',
  'chai',
  'node:test',
  'ava',
  'tap',
  'jasmine',
  '@playwright/test',
  'cypress',
  'sinon',
  'supertest',
  'uvu',
];
const LANGUAGE_NAMES: Record<string, string> = { typescript: 'TypeScript', tsx: 'TSX', javascript: 'JavaScript', jsx: 'JSX' };

const top = <T>(items: T[], n: number, by: (item: T) => number, name: (item: T) => string): T[] =>
  items.sort((a, b) => by(b) - by(a) || name(a).localeCompare(name(b))).slice(0, n);

function entryPoints(facts: ArchitectureFacts, structure: RepositoryStructure): RepositoryArchitecture['entry_points'] {
  const found: RepositoryArchitecture['entry_points'] = [];
  for (const info of structure.modules.values()) {
    if (info.kind !== 'source' || info.fanIn > 0) continue;
    const reachable = [...facts.graph.reachableFrom([info.path])].filter((path) => path !== info.path && structure.modules.get(path)?.kind === 'source').length;
    const conventional = ENTRY_NAME.test(info.path);
    if (reachable === 0 && !conventional) continue;
    const reason = `imported by no other source module${conventional ? ', with a conventional entry name' : ''}; reaches ${reachable} module${reachable === 1 ? '' : 's'}`;
    found.push({ path: info.path, reachable_modules: reachable, reason });
  }
  return top(
    found,
    OVERVIEW_LIMITS.entryPoints,
    (e) => e.reachable_modules,
    (e) => e.path,
  );
}

function importCycles(facts: ArchitectureFacts): RepositoryArchitecture['import_cycles'] {
  const items = facts.graph.cycles.map((modules) => {
    const set = new Set(modules);
    const runtime = facts.graph.runtimeCycles.some((members) => members.every((member) => set.has(member)));
    return { modules: [...modules], chain: shortestCycle(facts.graph, modules), runtime };
  });
  items.sort((a, b) => Number(b.runtime) - Number(a.runtime) || b.modules.length - a.modules.length || a.modules[0]!.localeCompare(b.modules[0]!));
  return { total: facts.graph.cycles.length, runtime: facts.graph.runtimeCycles.length, items: items.slice(0, OVERVIEW_LIMITS.cycles) };
}

function hotSpots(facts: ArchitectureFacts, structure: RepositoryStructure): RepositoryArchitecture['hot_spots'] {
  const sources = [...structure.modules.values()].filter((info) => info.kind === 'source');
  const n = OVERVIEW_LIMITS.hotSpots;
  const churned = [...structure.modules.values()].flatMap((info) => {
    const churn = facts.git.files.get(info.path);
    const lines = churn ? churn.linesAdded30d + churn.linesDeleted30d : 0;
    return churn && lines > 0 ? [{ path: info.path, lines_changed_30d: lines, commits_30d: churn.commits30d, authors: churn.authors.length }] : [];
  });
  return {
    most_imported: top(
      sources.filter((info) => info.fanIn > 0).map((info) => ({ path: info.path, imported_by: info.fanIn })),
      n,
      (m) => m.imported_by,
      (m) => m.path,
    ),
    largest_files: top(
      sources.map((info) => ({ path: info.path, lines_of_code: info.summary.lines.code, functions: info.summary.functions.length })),
      n,
      (m) => m.lines_of_code,
      (m) => m.path,
    ),
    highest_churn: top(
      churned,
      n,
      (m) => m.lines_changed_30d,
      (m) => m.path,
    ),
  };
}

function externalDependencies(facts: ArchitectureFacts, structure: RepositoryStructure): RepositoryArchitecture['external_dependencies'] {
  const byName = new Map<string, { importers: Set<string>; sourceImport: boolean; typeOnly: boolean }>();
  for (const edge of facts.graph.edges) {
    const from = structure.modules.get(edge.from);
    if (edge.resolution !== 'external' || !from) continue;
    const name = edge.packageName ?? edge.specifier;
    let entry = byName.get(name);
    if (!entry) byName.set(name, (entry = { importers: new Set(), sourceImport: false, typeOnly: true }));
    entry.importers.add(edge.from);
    entry.sourceImport ||= from.kind === 'source';
    entry.typeOnly &&= Boolean(edge.typeOnly || edge.elidable || edge.kind === 'type');
  }
  const items = [...byName].map(([name, entry]) => ({
    name,
    builtin: name.startsWith('node:'),
    importing_modules: entry.importers.size,
    test_only: !entry.sourceImport,
    type_only: entry.typeOnly,
  }));
  return {
    total: items.length,
    items: top(
      items,
      OVERVIEW_LIMITS.externalDependencies,
      (d) => d.importing_modules,
      (d) => d.name,
    ),
  };
}

function testLayout(facts: ArchitectureFacts, structure: RepositoryStructure): RepositoryArchitecture['test_layout'] {
  const all = [...structure.modules.values()];
  const tests = all.filter((info) => info.kind === 'test');
  const sources = all.filter((info) => info.kind === 'source');
  const testLoc = tests.reduce((sum, info) => sum + info.summary.lines.code, 0);
  const sourceLoc = sources.reduce((sum, info) => sum + info.summary.lines.code, 0);
  const directories = new Map<string, number>();
  for (const info of tests) {
    const segments = info.path.split('/').slice(0, -1);
    const at = segments.findIndex((segment) => TEST_DIRECTORIES.has(segment));
    if (at >= 0) {
      const dir = segments.slice(0, at + 1).join('/');
      directories.set(dir, (directories.get(dir) ?? 0) + 1);
    }
  }
  const separate = [...directories.values()].reduce((sum, count) => sum + count, 0);
  const placement =
    tests.length === 0 ? 'none' : separate >= 0.8 * tests.length ? 'separate' : tests.length - separate >= 0.8 * tests.length ? 'colocated' : 'mixed';
  const frameworkUse = new Map<string, Set<string>>();
  const tested = new Set<string>();
  for (const edge of facts.graph.edges) {
    if (structure.modules.get(edge.from)?.kind !== 'test') continue;
    if (edge.resolution === 'internal' && edge.to && structure.modules.get(edge.to)?.kind === 'source') tested.add(edge.to);
    const name = edge.packageName;
    if (edge.resolution === 'external' && name && (TEST_FRAMEWORKS.includes(name) || name.startsWith('@testing-library/'))) {
      (frameworkUse.get(name) ?? frameworkUse.set(name, new Set()).get(name)!).add(edge.from);
    }
  }
  return {
    test_files: tests.length,
    test_lines_of_code: testLoc,
    test_to_code_ratio: sourceLoc === 0 ? 0 : round(testLoc / sourceLoc),
    placement,
    test_directories: top(
      [...directories],
      OVERVIEW_LIMITS.testDirectories,
      ([, count]) => count,
      ([dir]) => dir,
    ).map(([dir]) => dir),
    frameworks: top(
      [...frameworkUse],
      frameworkUse.size,
      ([, users]) => users.size,
      ([name]) => name,
    ).map(([name]) => name),
    tested_modules_percent: sources.length === 0 ? null : round((100 * tested.size) / sources.length, 1),
  };
}

function repositoryOverview(source: ArchitectureSource): RepositoryArchitecture {
  const { facts } = source;
  const structure = analyseStructure(facts);
  const all = [...structure.modules.values()];
  const sources = all.filter((info) => info.kind === 'source');
  const tests = all.filter((info) => info.kind === 'test');
  const loc = sources.reduce((sum, info) => sum + info.summary.lines.code, 0);
  const testLoc = tests.reduce((sum, info) => sum + info.summary.lines.code, 0);
  const languages = new Map<string, { files: number; loc: number }>();
  for (const info of all) {
    const entry = languages.get(info.summary.language) ?? { files: 0, loc: 0 };
    entry.files++;
    entry.loc += info.summary.lines.code;
    languages.set(info.summary.language, entry);
  }
  const codeLines = loc + testLoc;
  return {
    repository_id: source.repository?.id ?? null,
    full_name: source.repository?.fullName ?? null,
    head_sha: facts.git.headSha ?? null,
    files: all.length,
    source_files: sources.length,
    test_files: tests.length,
    lines_of_code: loc,
    test_lines_of_code: testLoc,
    internal_imports: structure.sourceEdges.length,
    languages: top(
      [...languages].map(([language, entry]) => ({
        language,
        files: entry.files,
        lines_of_code: entry.loc,
        percent: codeLines === 0 ? 0 : round((100 * entry.loc) / codeLines, 1),
      })),
      languages.size,
      (l) => l.lines_of_code,
      (l) => l.language,
    ),
    components: [...structure.components.values()]
      .sort((a, b) => a.path.localeCompare(b.path))
      .map((c) => ({
        path: c.path,
        files: c.modules.length,
        source_files: c.sourceFiles,
        test_files: c.testFiles,
        lines_of_code: c.loc,
        test_lines_of_code: c.testLoc,
        main_language: [...c.languages].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? null,
        afferent_coupling: c.ca,
        efferent_coupling: c.ce,
        instability: c.instability,
        abstractness: c.abstractness,
        distance: c.distance,
        layer: c.level,
        in_cycle: c.inCycle,
        depends_on: [...c.dependsOn].sort(),
        used_by: [...c.usedBy].sort(),
      })),
    entry_points: entryPoints(facts, structure),
    layers: {
      levels: structure.levels.map((components, level) => ({ level, components })),
      dependencies: structure.edges.map((edge) => ({ from: edge.from, to: edge.to, imports: edge.imports.length, modules: edge.modules })),
      cycles: structure.cycles,
    },
    import_cycles: importCycles(facts),
    hot_spots: hotSpots(facts, structure),
    external_dependencies: externalDependencies(facts, structure),
    test_layout: testLayout(facts, structure),
    git_available: facts.git.available,
  };
}

const list = (items: readonly string[], max = 3): string => {
  const shown = items.slice(0, max);
  const more = items.length > max ? ` and ${items.length - max} more` : '';
  return shown.length <= 1 || more ? shown.join(', ') + more : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
};
const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The generated sentences about one repository. */
export function describeRepository(repo: RepositoryArchitecture): string[] {
  if (repo.files === 0) return ['No source code was found.'];
  const languages = repo.languages.filter((l) => l.percent >= 1).map((l) => `${LANGUAGE_NAMES[l.language] ?? l.language} (${l.percent}%)`);
  const sentences = [
    `${plural(repo.source_files, 'source file')} with ${repo.lines_of_code} lines of code in ${plural(repo.components.length, 'component')}, written in ${list(languages)}.`,
  ];
  const levels = repo.layers.levels;
  if (levels.length > 1) {
    sentences.push(
      `The components form ${levels.length} dependency levels, from ${list(levels[0]!.components)} at the base to ${list(levels.at(-1)!.components)} at the top.`,
    );
  }
  if (repo.layers.cycles.length > 0) {
    sentences.push(
      `${plural(repo.layers.cycles.length, 'group')} of components depend on one another: ${repo.layers.cycles.map((group) => list(group)).join('; ')}.`,
    );
  }
  sentences.push(
    repo.import_cycles.total === 0
      ? 'There are no import cycles.'
      : `There ${repo.import_cycles.total === 1 ? 'is' : 'are'} ${plural(repo.import_cycles.total, 'import cycle')}, ${repo.import_cycles.runtime} of them at run time.`,
  );
  const imported = repo.hot_spots.most_imported[0];
  const largest = repo.hot_spots.largest_files[0];
  if (imported && largest) {
    sentences.push(
      `The most imported module is ${imported.path} (${plural(imported.imported_by, 'importer')}); the largest is ${largest.path} (${largest.lines_of_code} lines).`,
    );
  }
  const tests = repo.test_layout;
  sentences.push(
    tests.test_files === 0
      ? 'There are no test files.'
      : `${plural(tests.test_files, 'test file')} (${tests.placement}) hold ${tests.test_to_code_ratio} test lines per line of code${tests.frameworks.length > 0 ? `, using ${list(tests.frameworks)}` : ''}.`,
  );
  const packages = repo.external_dependencies.items.filter((d) => !d.builtin && !d.test_only).map((d) => d.name);
  if (packages.length > 0) sentences.push(`The most used external packages are ${list(packages)}.`);
  return sentences;
}

/** Builds the overview of one repository's assessment, or of a project's repositories. */
export function buildArchitectureOverview(input: ArchitectureInput): ArchitectureOverviewContent {
  const repositories = toSources(input).map(repositoryOverview);
  const prefix = repositories.length > 1;
  const summary = repositories.map((repo) => (prefix ? `${repo.full_name ?? 'Repository'}: ` : '') + describeRepository(repo).join(' ')).join(' ');
  return { summary: summary || 'The project has no analysed repository.', repositories };
}
