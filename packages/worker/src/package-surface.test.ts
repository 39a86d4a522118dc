// @codehealth/worker's public surface and what it may import (issue 19): a host over the service
// and the engine — workflows over activities, activities calling services. Adding or removing an
// export, or an import that points the wrong way, is a deliberate change to the lists below.
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { packageImports, packageOf, reachesIntoOtherPackages } from '../../../test/helpers/package-imports.js';
import * as worker from './index.js';

const src = fileURLToPath(new URL('.', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
const edges = packageImports(src);

describe('@codehealth/worker', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(worker).sort()).toEqual([
      'ACTIVITY_RETRY',
      'ACTIVITY_TIMEOUT_MS',
      'CancelledError',
      'DEFAULT_NAMESPACE',
      'DEFAULT_TASK_QUEUE',
      'EmbeddedRunner',
      'NonRetryableError',
      'RepositoryCheckouts',
      'TEMPORAL_WORKFLOW_TYPES',
      'TemporalWorkflowStarter',
      'WORKFLOWS',
      'WORKFLOWS_PATH',
      'architectureReviewWorkflow',
      'conventionDetectionWorkflow',
      'createActivities',
      'createTemporalWorker',
      'failureMessage',
      'healthAssessmentWorkflow',
      'onboardingWorkflow',
      'prAnalysisWorkflow',
      'rebuildGraphs',
      'retryDelayMs',
    ]);
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
