// A head run derived from the base's recorded state reuses the dead-code model's entries and the
// loads of unchanged files when no file was added, deleted or renamed and no manifest or config
// changed; otherwise it builds the model anew. Either way its findings are a full run's.
import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import { createEngine, type AssessmentResult } from '@codehealth/engine';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { manifest } from './fixtures/mini-repo.js';
import { deadCode } from './index.js';

const BASE = {
  'package.json': manifest({
    main: './dist/index.js',
    bin: { mini: './bin/cli.js' },
    exports: { '.': './dist/index.js', './features/*': './dist/features/*.js' },
  }),
  'src/index.ts': [
    "import { helper } from './lib/helper.js';",
    'export const main = () => helper();',
    "const worker = new Worker(new URL('./worker.js', import.meta.url));",
    'export { worker };',
  ].join('\n'),
  'src/worker.ts': "import { inWorker } from './lib/shared.js';\nself.onmessage = () => inWorker;\n",
  'src/lib/helper.ts': 'export const helper = () => 1;\nexport const spare = 2;\n',
  'src/lib/shared.ts': 'export const inWorker = 1;\nexport const alsoShared = 2;\n',
  'src/features/search.ts': "export const search = 1;\nexport { spare as spareAgain } from '../lib/helper.js';\n",
  'src/pages/loader.ts': 'export const load = (page: string) => import(`./views/${page}.js`);\n',
  'src/pages/views/home.ts': 'export default 1;\nexport const title = "home";\n',
  'src/orphan.ts': 'export const orphan = 1;\n',
  'bin/cli.js': "import { main } from '../dist/index.js';\nmain();\n",
  'test/index.test.ts': "import { main } from '../src/index.js';\nif (main() !== 1) throw new Error('main');\n",
};

/** Changes from the base commit, each a pull request of its own. */
const CHANGES: Record<string, { write: Record<string, string>; reused: boolean }> = {
  // The worker is no longer loaded, `spare` is now imported, the CLI loads the search feature's build output.
  'edits code only': {
    write: {
      'src/index.ts': "import { helper, spare } from './lib/helper.js';\nexport const main = () => helper() + spare;\n",
      'bin/cli.js': "import { main } from '../dist/index.js';\nimport { search } from '../dist/features/search.js';\nmain(search);\n",
      'src/pages/loader.ts': 'export const load = (page: string) => import(`./views/${page}.js`);\nexport const extra = 1;\n',
    },
    reused: true,
  },
  'adds a file': {
    write: {
      'src/lib/extra.ts': "export const extra = 1;\nexport { alsoShared } from './shared.js';\n",
      'src/index.ts': `${BASE['src/index.ts']}\nexport { extra } from './lib/extra.js';\n`,
    },
    reused: false,
  },
  'edits package.json': {
    write: {
      'package.json': manifest({ main: './dist/index.js', bin: { mini: './bin/cli.js' }, exports: { '.': './dist/index.js', './lib/*': './dist/lib/*.js' } }),
    },
    reused: false,
  },
};

const deadCodeOf = (result: AssessmentResult) => ({
  findings: result.findings
    .filter((f) => f.ruleId.startsWith('dead-code/'))
    .map((f) => `${f.filePath}:${f.anchor.lineStart} ${f.ruleId} ${f.severity} ${f.confidence} ${f.title} | ${f.description}`)
    .sort(),
  metrics: Object.fromEntries(Object.entries(result.metrics.analyzerMetrics).filter(([name]) => name.startsWith('dead-code.'))),
});

const repos: TestRepo[] = [];
afterAll(() => {
  for (const repo of repos) rmSync(repo.root, { recursive: true, force: true });
});

const newEngine = () => createEngine({ plugins: [{ name: 'test', analyzers: [deadCode] }], cacheDir: false, workers: 0 });

describe('dead-code on a derived run', () => {
  for (const [name, change] of Object.entries(CHANGES)) {
    it(`gives a full run's findings when the pull request ${name} (model ${change.reused ? 'reused' : 'built anew'})`, async () => {
      const engine = await newEngine();
      const repo = createGitRepo(BASE, 'codehealth-dead-code-incremental-');
      repos.push(repo);
      const baseCommit = repo.git('rev-parse', 'HEAD');
      const base = await engine.analyze(repo.root);
      repo.write(change.write);
      const headCommit = repo.commit(name);
      const changedPaths = repo.git('diff', '--name-only', '--no-renames', baseCommit, headCommit).split('\n').filter(Boolean);
      const messages: string[] = [];
      const derived = await engine.analyze(repo.root, { incremental: { baseCommit, headCommit, changedPaths }, onProgress: (e) => messages.push(e.message) });
      const full = await (await newEngine()).analyze(repo.root);

      expect(messages.some((m) => m.includes("Dead code: the base run's entries reused"))).toBe(change.reused);
      expect(deadCodeOf(derived)).toEqual(deadCodeOf(full));
      // The change changed the dead code: the derived run had something to get right.
      expect(deadCodeOf(derived)).not.toEqual(deadCodeOf(base));
    });
  }
});
