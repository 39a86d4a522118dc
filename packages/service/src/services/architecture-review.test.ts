import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ArchitectureReviewMetricsSchema, ArchitectureFindingSchema } from '../api/architecture.js';
import { createEngine, type AssessmentResult, type Engine, issueFingerprint } from '@codehealth/engine';
import { buildArchitectureOverview } from './architecture-overview.js';
import { architectureIssueOf } from './architecture-findings.js';
import { reviewArchitecture } from './architecture-review.js';
import { stronglyConnected } from './architecture-structure.js';
import { writeArchitectureRepo } from './fixtures/architecture-repo.js';

let engine: Engine;
beforeAll(async () => {
  engine = await createEngine({ cacheDir: false, workers: 0 });
});

function writeFiles(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'codehealth-layers-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

describe('reviewArchitecture on a real run of a small repository', () => {
  let result: AssessmentResult;
  beforeAll(async () => {
    result = await engine.analyze(writeArchitectureRepo());
  });

  it('finds the cycles, the layering violation and the unstable dependency, nothing else', () => {
    const review = reviewArchitecture(result);
    for (const finding of review.findings) expect(() => ArchitectureFindingSchema.parse(finding)).not.toThrow();
    expect(review.findings.map((f) => [f.severity, f.rule_id, f.file_path, f.line_start])).toEqual([
      ['medium', 'architecture/import-cycle', 'src/api/routes.ts', 2],
      ['medium', 'architecture/import-cycle', 'src/cycle/a.ts', 1],
      ['medium', 'architecture/layering-violation', 'src/db/orders-repo.ts', 3],
      ['low', 'architecture/import-cycle', 'src/shapes/circle.ts', 1],
      ['low', 'architecture/unstable-dependency', 'src/util/format.ts', 1],
    ]);
    const [routesCycle, , layering, typeCycle, unstable] = review.findings;
    expect(routesCycle).toMatchObject({
      title: 'Import cycle of 2 modules at run time: src/api/routes.ts → src/db/orders-repo.ts → src/api/routes.ts',
      components: ['src/api', 'src/db'],
      modules: ['src/api/routes.ts', 'src/db/orders-repo.ts'],
      code_snippet: 'src/api/routes.ts → src/db/orders-repo.ts → src/api/routes.ts',
      confidence: 95,
      repository_id: null,
    });
    expect(typeCycle!.title).toBe('Import cycle of 2 modules through type-only imports: src/shapes/circle.ts → src/shapes/square.ts → src/shapes/circle.ts');
    expect(layering).toMatchObject({
      title: 'Layering violation: src/db imports src/api, against the dominant direction',
      description:
        'src/api imports src/db 2 times from 2 modules, while src/db imports src/api only 1 time (from src/db/orders-repo.ts). ' +
        'This is the weakest dependency closing the cycle between src/api and src/db.',
      code_snippet: "import '../api/routes.js'",
      components: ['src/db', 'src/api'],
      modules: ['src/db/orders-repo.ts'],
    });
    expect(unstable).toMatchObject({
      title: 'Unstable dependency: src/util (I=0.20) depends on src/plugins (I=0.75)',
      components: ['src/util', 'src/plugins'],
      code_snippet: "import '../plugins/registry.js'",
    });
  });

  it('counts what it found in the metrics and the summary', () => {
    const review = reviewArchitecture(result);
    expect(() => ArchitectureReviewMetricsSchema.parse(review.metrics)).not.toThrow();
    const { component_metrics: components, ...counts } = review.metrics;
    expect(counts).toEqual({
      repositories: 1,
      modules: 16,
      components: 10,
      internal_imports: 21,
      component_dependencies: 10,
      layers: 6,
      import_cycles: 3,
      runtime_import_cycles: 2,
      component_cycles: 1,
      layering_violations: 1,
      unstable_dependencies: 1,
      hub_modules: 0,
      average_instability: counts.average_instability,
      average_distance: counts.average_distance,
    });
    const defined = components.flatMap((c) => (c.instability === null ? [] : [c.instability]));
    expect(counts.average_instability).toBe(Math.round((100 * defined.reduce((a, b) => a + b, 0)) / defined.length) / 100);
    expect(components.find((c) => c.path === 'src/plugins')).toEqual({
      repository_id: null,
      path: 'src/plugins',
      modules: 3,
      afferent_coupling: 1,
      efferent_coupling: 3,
      instability: 0.75,
      abstractness: 0,
      distance: 0.25,
    });
    expect(review.summary).toBe(
      'Reviewed 16 source modules in 10 components: 3 import cycles (2 at run time), 1 layering violation, 1 unstable dependency, 0 hub modules. ' +
        `Average component instability ${counts.average_instability!.toFixed(2)}, average distance from the main sequence ${counts.average_distance!.toFixed(2)}.`,
    );
  });

  it('reports hub modules at the configured fan-in and fan-out', () => {
    const review = reviewArchitecture(result, { hubMinFanIn: 3, hubMinFanOut: 2 });
    const hubs = review.findings.filter((f) => f.rule_id === 'architecture/hub-module');
    expect(hubs.map((f) => [f.file_path, f.title])).toEqual([
      ['src/domain/order.ts', 'Hub module: src/domain/order.ts is imported by 3 modules and imports 2'],
    ]);
    expect(review.metrics.hub_modules).toBe(1);
    expect(reviewArchitecture(result, { instabilityMargin: 0.6 }).metrics.unstable_dependencies).toBe(0);
  });

  it('turns findings into architecture issues with stable fingerprints', () => {
    const [first] = reviewArchitecture(result).findings;
    const issue = architectureIssueOf(first!);
    expect(issue).toMatchObject({
      source: 'architecture',
      category: 'code_smell',
      ruleId: 'architecture/import-cycle',
      analyzerName: 'architecture-review',
      filePath: 'src/api/routes.ts',
      fileGroup: 'src/api',
      anchor: { lineStart: 2, lineEnd: 2, validated: false },
    });
    const again = architectureIssueOf(reviewArchitecture(result).findings[0]!);
    expect(issueFingerprint(again)).toBe(issueFingerprint(issue));
  });
});

describe('layering violations in a cycle of three components', () => {
  it('removes the weakest dependency of the cycle, even without a direct counter-dependency', async () => {
    // x → y (2 imports), y → z (2 imports), z → x (1 import): z → x is against the flow.
    const root = writeFiles({
      'x/one.ts': "import { y1 } from '../y/one.js';\nexport const x1 = () => y1();\n",
      'x/two.ts': "import { y2 } from '../y/two.js';\nexport const x2 = () => y2();\n",
      'y/one.ts': "import { z1 } from '../z/one.js';\nexport const y1 = () => z1();\n",
      'y/two.ts': "import { z1 } from '../z/one.js';\nexport const y2 = () => z1() + 1;\n",
      'z/one.ts': "import { X_NAME } from '../x/name.js';\nexport const z1 = () => X_NAME.length;\n",
      'x/name.ts': "export const X_NAME = 'x';\n",
    });
    const result = await engine.analyze(root);
    const review = reviewArchitecture(result);
    const violations = review.findings.filter((f) => f.rule_id === 'architecture/layering-violation');
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({ file_path: 'z/one.ts', line_start: 1, components: ['z', 'x'] });
    expect(violations[0]!.description).toBe(
      'x reaches z through the other components of the cycle (x, y, z), while z imports x only 1 time (from z/one.ts). This is the weakest dependency closing the cycle between x, y and z.',
    );
    expect(buildArchitectureOverview(result).repositories[0]!.layers.cycles).toEqual([['x', 'y', 'z']]);
  });
});

describe("reviewArchitecture on this repository's engine sources", () => {
  it('reports every graph cycle, and its layering violations leave no cycle between components', async () => {
    const result = await engine.analyze(fileURLToPath(new URL('..', import.meta.url)));
    const review = reviewArchitecture(result);
    expect(review.metrics.import_cycles).toBe(result.metrics.graph.cycles);
    const cycleFindings = review.findings.filter((f) => f.rule_id === 'architecture/import-cycle');
    expect(cycleFindings.length).toBeGreaterThanOrEqual(result.graph.runtimeCycles.length);
    const overview = buildArchitectureOverview(result).repositories[0]!;
    const violations = new Set(
      review.findings.filter((f) => f.rule_id === 'architecture/layering-violation').map((f) => `${f.components[0]}→${f.components[1]}`),
    );
    expect(violations.size).toBe(review.metrics.layering_violations);
    expect(violations.size > 0).toBe(overview.layers.cycles.length > 0);
    const remaining = overview.layers.dependencies.filter((d) => !violations.has(`${d.from}→${d.to}`));
    const groups = stronglyConnected(
      overview.components.map((c) => c.path),
      (name) => remaining.filter((d) => d.from === name).map((d) => d.to),
    );
    expect(groups.filter((group) => group.length > 1)).toEqual([]);
  });
});
