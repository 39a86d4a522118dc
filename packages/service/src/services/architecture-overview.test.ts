import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ArchitectureOverviewContentSchema, type RepositoryArchitecture } from '../api/architecture.js';
import { createEngine, type AssessmentResult, type Engine } from '@codehealth/engine';
import { buildArchitectureOverview } from './architecture-overview.js';
import { writeArchitectureRepo } from './fixtures/architecture-repo.js';

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ cacheDir: false, workers: 0 });
});

describe('buildArchitectureOverview on a real run of a small repository', () => {
  let result: AssessmentResult;
  let repo: RepositoryArchitecture;
  let summary: string;
  beforeAll(async () => {
    result = await engine.analyze(writeArchitectureRepo());
    const overview = buildArchitectureOverview(result);
    expect(() => ArchitectureOverviewContentSchema.parse(overview)).not.toThrow();
    expect(overview.repositories).toHaveLength(1);
    repo = overview.repositories[0]!;
    summary = overview.summary;
  });

  it('sizes the repository and splits the dominant src/ directory into components', () => {
    expect(repo).toMatchObject({ repository_id: null, full_name: null, files: 18, source_files: 16, test_files: 2, git_available: true });
    expect(repo.head_sha).toBe(result.git.headSha);
    expect(repo.lines_of_code).toBe(result.metrics.totalLinesOfCode);
    expect(repo.test_lines_of_code).toBe(result.metrics.testLinesOfCode);
    expect(repo.languages).toEqual([{ language: 'typescript', files: 18, lines_of_code: repo.lines_of_code + repo.test_lines_of_code, percent: 100 }]);
    expect(repo.components.map((c) => c.path)).toEqual([
      'src',
      'src/api',
      'src/cycle',
      'src/db',
      'src/domain',
      'src/logging',
      'src/plugins',
      'src/shapes',
      'src/util',
      'test',
    ]);
    const byPath = new Map(repo.components.map((c) => [c.path, c]));
    expect(byPath.get('test')).toMatchObject({ files: 2, source_files: 0, test_files: 2, lines_of_code: 0, instability: null, abstractness: null });
    expect(byPath.get('src')).toMatchObject({ files: 1, source_files: 1, depends_on: ['src/api'], used_by: [] });
  });

  it("computes Martin's metrics per component, counted in modules", () => {
    const byPath = new Map(repo.components.map((c) => [c.path, c]));
    // util: imported by api/server, db/orders-repo, domain/order, domain/customer; format.ts imports plugins.
    expect(byPath.get('src/util')).toMatchObject({ afferent_coupling: 4, efferent_coupling: 1, instability: 0.2, abstractness: 0, distance: 0.8 });
    // plugins: imported by util/format; its three modules import logging.
    expect(byPath.get('src/plugins')).toMatchObject({ afferent_coupling: 1, efferent_coupling: 3, instability: 0.75 });
    // domain exports 2 interfaces and a type out of 5 own exports.
    expect(byPath.get('src/domain')).toMatchObject({ afferent_coupling: 3, efferent_coupling: 2, instability: 0.4, abstractness: 0.6, distance: 0 });
    expect(byPath.get('src/shapes')).toMatchObject({ afferent_coupling: 0, efferent_coupling: 0, instability: null, abstractness: 1, distance: null });
  });

  it('orders components in dependency levels and finds the api/db cycle', () => {
    expect(repo.layers.levels).toEqual([
      { level: 0, components: ['src/cycle', 'src/logging', 'src/shapes', 'test'] },
      { level: 1, components: ['src/plugins'] },
      { level: 2, components: ['src/util'] },
      { level: 3, components: ['src/domain'] },
      { level: 4, components: ['src/api', 'src/db'] },
      { level: 5, components: ['src'] },
    ]);
    expect(repo.layers.cycles).toEqual([['src/api', 'src/db']]);
    expect(repo.components.filter((c) => c.in_cycle).map((c) => c.path)).toEqual(['src/api', 'src/db']);
    expect(repo.layers.dependencies).toContainEqual({ from: 'src/api', to: 'src/db', imports: 2, modules: 2 });
    expect(repo.layers.dependencies).toContainEqual({ from: 'src/db', to: 'src/api', imports: 1, modules: 1 });
    expect(repo.layers.dependencies).toContainEqual({ from: 'src/plugins', to: 'src/logging', imports: 3, modules: 3 });
    expect(repo.layers.dependencies).toHaveLength(10);
    expect(repo.internal_imports).toBe(21);
  });

  it('lists entry points, import cycles and hot spots', () => {
    expect(repo.entry_points[0]).toEqual({
      path: 'src/index.ts',
      reachable_modules: 6,
      reason: 'imported by no other source module, with a conventional entry name; reaches 6 modules',
    });
    expect(repo.entry_points[1]).toMatchObject({ path: 'src/util/format.ts', reachable_modules: 2 });
    expect(repo.entry_points.map((e) => e.path)).not.toContain('src/util/money.ts');
    expect(repo.import_cycles).toEqual({
      total: 3,
      runtime: 2,
      items: [
        { modules: ['src/api/routes.ts', 'src/db/orders-repo.ts'], chain: ['src/api/routes.ts', 'src/db/orders-repo.ts'], runtime: true },
        { modules: ['src/cycle/a.ts', 'src/cycle/b.ts'], chain: ['src/cycle/a.ts', 'src/cycle/b.ts'], runtime: true },
        { modules: ['src/shapes/circle.ts', 'src/shapes/square.ts'], chain: ['src/shapes/circle.ts', 'src/shapes/square.ts'], runtime: false },
      ],
    });
    expect(repo.hot_spots.most_imported.slice(0, 2)).toEqual([
      { path: 'src/util/money.ts', imported_by: 4 },
      { path: 'src/domain/order.ts', imported_by: 3 },
    ]);
    expect(repo.hot_spots.largest_files[0]).toEqual({ path: 'src/db/orders-repo.ts', lines_of_code: 13, functions: 2 });
    expect(repo.hot_spots.highest_churn).toHaveLength(10);
    expect(repo.hot_spots.highest_churn.find((h) => h.path === 'src/api/server.ts')).toMatchObject({ commits_30d: 2, authors: 1 });
  });

  it('describes external dependencies and the test layout', () => {
    expect(repo.external_dependencies).toEqual({
      total: 3,
      items: [
        { name: 'vitest', builtin: false, importing_modules: 2, test_only: true, type_only: false },
        { name: 'node:http', builtin: true, importing_modules: 1, test_only: false, type_only: false },
        { name: 'zod', builtin: false, importing_modules: 1, test_only: false, type_only: false },
      ],
    });
    expect(repo.test_layout).toEqual({
      test_files: 2,
      test_lines_of_code: 10,
      test_to_code_ratio: Math.round((100 * 10) / repo.lines_of_code) / 100,
      placement: 'separate',
      test_directories: ['test'],
      frameworks: ['vitest'],
      tested_modules_percent: Math.round((1000 * 2) / 16) / 10,
    });
  });

  it('writes summary sentences from the numbers', () => {
    expect(summary).toContain(`16 source files with ${repo.lines_of_code} lines of code in 10 components, written in TypeScript (100%).`);
    expect(summary).toContain('The components form 6 dependency levels, from src/cycle, src/logging, src/shapes and 1 more at the base to src at the top.');
    expect(summary).toContain('1 group of components depend on one another: src/api and src/db.');
    expect(summary).toContain('There are 3 import cycles, 2 of them at run time.');
    expect(summary).toContain('The most imported module is src/util/money.ts (4 importers); the largest is src/db/orders-repo.ts (13 lines).');
    expect(summary).toContain('2 test files (separate) hold');
    expect(summary).toContain('using vitest');
    expect(summary).toContain('The most used external packages are zod.');
  });

  it('keeps repositories apart and names them in the summary when a project has several', () => {
    const ids = ['0b7c6f0e-7a51-4c43-9f53-3c1f8a4d2e10', '5d8e3f1a-2b6c-4d7e-8f9a-0b1c2d3e4f50'];
    const overview = buildArchitectureOverview([
      { facts: result, repository: { id: ids[0]!, fullName: 'acme/shop' } },
      { facts: result, repository: { id: ids[1]!, fullName: 'acme/shop-copy' } },
    ]);
    expect(overview.repositories.map((r) => [r.repository_id, r.full_name])).toEqual([
      [ids[0], 'acme/shop'],
      [ids[1], 'acme/shop-copy'],
    ]);
    expect(overview.summary.startsWith('acme/shop: 16 source files')).toBe(true);
    expect(overview.summary).toContain(' acme/shop-copy: 16 source files');
    expect(buildArchitectureOverview([])).toEqual({ summary: 'The project has no analysed repository.', repositories: [] });
  });
});

describe("buildArchitectureOverview on this repository's engine sources", () => {
  it('agrees with the assessment metrics and the code graph', async () => {
    const result = await engine.analyze(fileURLToPath(new URL('..', import.meta.url)));
    const repo = buildArchitectureOverview(result).repositories[0]!;
    const sum = (pick: (c: RepositoryArchitecture['components'][number]) => number) => repo.components.reduce((total, c) => total + pick(c), 0);
    expect(sum((c) => c.lines_of_code)).toBe(result.metrics.totalLinesOfCode);
    expect(sum((c) => c.test_lines_of_code)).toBe(result.metrics.testLinesOfCode);
    expect(sum((c) => c.files)).toBe(repo.source_files + repo.test_files);
    expect(repo.import_cycles.total).toBe(result.metrics.graph.cycles);
    expect(repo.components.map((c) => c.path)).toEqual(expect.arrayContaining(['.', 'api', 'services', 'store', 'ports']));
    const byPath = new Map(repo.components.map((c) => [c.path, c]));
    // The ports and the store import no other component of the service; the package's entry sits on top.
    expect(byPath.get('ports')).toMatchObject({ layer: 0, efferent_coupling: 0, instability: 0 });
    expect(byPath.get('store')).toMatchObject({ layer: 0, efferent_coupling: 0 });
    expect(byPath.get('.')!.layer).toBe(Math.max(...repo.components.map((c) => c.layer)));
    expect(repo.entry_points.map((e) => e.path)).toEqual(expect.arrayContaining(['index.ts']));
    // Every dependency points down a level, or stays within a group of components in a cycle.
    const cycleOf = new Map(repo.layers.cycles.flatMap((group, i) => group.map((path) => [path, i] as const)));
    for (const dep of repo.layers.dependencies) {
      const from = byPath.get(dep.from)!;
      const to = byPath.get(dep.to)!;
      if (cycleOf.has(dep.from) && cycleOf.get(dep.from) === cycleOf.get(dep.to)) expect(from.layer).toBe(to.layer);
      else expect(from.layer).toBeGreaterThan(to.layer);
    }
    // Ca of the store recomputed from the graph: source modules outside store/ importing it.
    const sources = new Set(result.summaries.filter((s) => s.kind === 'source').map((s) => s.path));
    const importers = new Set(
      result.graph.edges
        .filter((e) => e.resolution === 'internal' && e.to?.startsWith('store/') && !e.from.startsWith('store/') && sources.has(e.from) && sources.has(e.to))
        .map((e) => e.from),
    );
    expect(byPath.get('store')!.afferent_coupling).toBe(importers.size);
    for (const c of repo.components) {
      const coupling = c.afferent_coupling + c.efferent_coupling;
      expect(c.instability).toBe(coupling === 0 ? null : Math.round((100 * c.efferent_coupling) / coupling) / 100);
    }
    expect(repo.languages[0]).toMatchObject({ language: 'typescript' });
    expect(repo.languages[0]!.percent).toBeGreaterThan(95);
  });
});
