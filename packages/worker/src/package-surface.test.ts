// @codehealth/worker's public surface and what it may import (issue 19): a host over the service
// and the engine — workflows over activities, activities calling services. Adding or removing an
// export or changing its kind, or an import that points the wrong way, is a deliberate change to the
// snapshot and the lists below.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageImports, packageOf, reachesIntoOtherPackages } from '../../../test/helpers/package-imports.js';
import { exportSurface } from '../../../test/helpers/export-surface.js';
import * as worker from './index.js';

const src = fileURLToPath(new URL('.', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
const edges = packageImports(src);

describe('@codehealth/worker', () => {
  it('exports exactly these runtime names, each of its kind (a snapshot: vitest -u rewrites it)', () => {
    expect(exportSurface(worker)).toMatchInlineSnapshot(`
      "ACTIVITY_RETRY: object
      ACTIVITY_TIMEOUT_MS: number
      CancelledError: class
      DEFAULT_NAMESPACE: string
      DEFAULT_TASK_QUEUE: string
      EmbeddedRunner: class
      NonRetryableError: class
      RepositoryCheckouts: class
      TEMPORAL_WORKFLOW_TYPES: object
      TemporalWorkflowStarter: class
      WORKFLOWS: object
      WORKFLOWS_PATH: string
      architectureReviewWorkflow: function
      conventionDetectionWorkflow: function
      createActivities: function
      createTemporalWorker: function
      failureMessage: function
      healthAssessmentWorkflow: function
      onboardingWorkflow: function
      prAnalysisWorkflow: function
      rebuildGraphs: function
      retryDelayMs: function"
    `);
  });

  it('imports in production only node builtins and its declared dependencies; of CodeHealth, only the engine (never a host)', () => {
    const bare = edges.filter((edge) => !edge.test && !edge.specifier.startsWith('.'));
    expect(bare.length).toBeGreaterThan(10);
    const undeclared = bare.filter((edge) => !edge.specifier.startsWith('node:') && !(packageOf(edge.specifier) in manifest.dependencies));
    expect(undeclared.map((edge) => `${edge.file} -> ${edge.specifier}`)).toEqual([]);
    const hosts = edges.filter((edge) => /^@codehealth\/(http|cli|web)(\/|$)/.test(edge.specifier));
    expect(hosts.map((edge) => `${edge.file} -> ${edge.specifier}`)).toEqual([]);
  });

  it('reaches into no other package’s files (the test API is a repository test helper, test/helpers/test-api.ts)', () => {
    expect(reachesIntoOtherPackages(edges, 'worker')).toEqual([]);
  });

  it('runs no SQL: activities call services', () => {
    const withSql = (readdirSync(src, { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.split('/').includes('fixtures'))
      .sort()
      .filter((file) => /\b(SELECT|UPDATE|INSERT INTO|DELETE FROM)\s/.test(readFileSync(`${src}/${file}`, 'utf8')));
    expect(withSql).toEqual([]);
  });
});
