// `npm run self-check`: bounds on this repository's own code ("our own code has no X": parse errors,
// import cycles, unresolved imports, layering, findings of our own rules), apart from the test suite,
// which asserts behaviour. One analysis of the repository is shared by the checks (own-code.ts).
// .ci/run runs it after the tests; the suite's vitest.config.ts leaves test/self-check/** out.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: ['test/self-check/**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    setupFiles: ['reflect-metadata'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
    pool: 'forks',
    // One process for all files, modules shared: the analysis of the repository (own-code.ts) runs once.
    isolate: false,
    fileParallelism: false,
  },
});
