// Tests run against the TypeScript sources (the `source` export condition), not the built dist.
//
// Three projects, classified by path (a new test file lands in one by where it lives):
// - unit: rules and pure engine code. Files share their worker (isolate: false; no test mutates
//   globals, env or cwd without restoring them) and run on all cores.
// - integration: databases, servers, git processes, the HTTP API, the worker, the CLI. Files share
//   their worker too (isolate: false): each still opens fresh databases of its own, copied from the
//   templates the globalSetup migrates once, and servers listen on port 0; none mocks modules, fakes
//   timers or leaves env/cwd changed. Loading the service, h3 and Temporal once per worker instead of
//   once per file took the project from 346 s to 228–271 s (docs/development.md).
// - corpus: whole-corpus checks of pure code, a minute or so each — the agreements with the peer tools
//   (sonarjs, knip, jscpd) and FlatTree against the binding on effect and rxjs. Both cores.
// - e2e: process-level crash/load reliability, the self-hosted deployment, the API fuzz, browsers.
// `npm test` runs unit + integration; `npm run test:e2e` runs corpus + e2e; .ci/run runs all four.
// test/self-check/** (bounds on our own code) runs through `npm run self-check`, not here.
import { defineConfig } from 'vitest/config';

/** Application layer (databases, caches, servers, code hosts) by folder name; it lives in packages/service (issue 19). */
const APPLICATION_LAYER = ['api', 'services', 'server', 'store', 'cache-adapters', 'graph-store', 'code-hosts', 'llm'];

const E2E = ['test/workflows/reliability-*.test.ts', 'test/self-hosted/**/*.test.ts', 'test/fuzz/**/*.test.ts', 'test/web/**/*.test.ts', '**/*.e2e.test.ts'];

const CORPUS = ['packages/*/src/**/*-agreement.test.ts', 'packages/engine/src/parsing/flat-tree-real-code.test.ts'];

const INTEGRATION = [
  `packages/*/src/{${APPLICATION_LAYER.join(',')}}/**/*.test.ts`,
  'packages/service/src/**/*.test.ts',
  'packages/{http,worker,cli}/src/**/*.test.ts',
  'test/**/*.test.ts',
  '**/*.integration.test.ts',
];

const UNIT = ['packages/*/src/**/*.test.ts', 'examples/*/src/**/*.test.ts', 'examples/*/test/**/*.test.ts'];

const ALWAYS_EXCLUDED = ['**/node_modules/**', '**/dist/**', '**/fixtures/**', 'test/self-check/**'];

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    exclude: ALWAYS_EXCLUDED,
    setupFiles: ['reflect-metadata'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Both cores (vitest's default leaves one idle: cores − 1 = 1 worker on a 2-core machine).
    maxWorkers: '100%',
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          exclude: [...ALWAYS_EXCLUDED, ...INTEGRATION, ...E2E, ...CORPUS],
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION,
          isolate: false,
          exclude: [...ALWAYS_EXCLUDED, ...E2E],
          globalSetup: ['test/helpers/global-setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'corpus',
          include: CORPUS,
          exclude: ALWAYS_EXCLUDED,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: E2E,
          exclude: ALWAYS_EXCLUDED,
          globalSetup: ['test/helpers/global-setup.ts'],
          // Crash and load suites start servers and workers of their own: one file at a time.
          maxWorkers: 1,
        },
      },
    ],
  },
});
