// Real assessment results for persistence tests: a small git repository assessed by the real
// engine, then changed (a critical `eval`, a duplicated complex function, one issue fixed) and
// assessed again.
import { createEngine, type AssessmentResult } from '@codehealth/engine';
import { createGitRepo, type TestRepo } from './git-repo.js';

export interface AssessedVersion {
  sha: string;
  result: AssessmentResult;
}

export interface AssessedRepo {
  repo: TestRepo;
  first: AssessedVersion;
  second: AssessedVersion;
}

export const complexFunction = (name: string): string => `export function ${name}(a: number, b: number, c: number) {
  let total = 0;
  for (let i = 0; i < a; i++) {
    if (i % 2 === 0) {
      for (let j = 0; j < b; j++) {
        if (j > c && i > c) {
          total += i;
        } else if (j === c || i === b) {
          total -= j;
        } else {
          while (total > 100) {
            total = total / 2;
          }
        }
      }
    }
  }
  return total;
}
`;

const FIRST = {
  'package.json': JSON.stringify({ name: 'fixture', type: 'module' }),
  'src/index.ts': "import { tangled } from './math.js';\nexport const run = () => tangled(1, 2, 3);\n",
  'src/math.ts': complexFunction('tangled'),
  'src/debug.ts': "export function hello(): void {\n  console.log('hi');\n}\n",
  'src/math.test.ts':
    "import { tangled } from './math.js';\nimport { expect, it } from 'vitest';\nit('works', () => {\n  expect(tangled(0, 0, 0)).toBe(0);\n});\n",
};

/** The second version adds `src/extra.ts` (eval, a copy of the complex function) and deletes `src/index.ts`. */
const SECOND = {
  'src/extra.ts': `${complexFunction('knotted')}\nexport function evaluate(x: string) {\n  return eval(x);\n}\n`,
};

export async function assessTwoVersions(): Promise<AssessedRepo> {
  const engine = await createEngine({ cacheDir: false, workers: 0 });
  const repo = createGitRepo(FIRST, 'codehealth-health-');
  const first = { sha: repo.git('rev-parse', 'HEAD'), result: await engine.analyze(repo.root) };
  repo.write(SECOND);
  repo.git('rm', '-q', 'src/index.ts');
  const sha = repo.commit('add extra, remove index');
  const second = { sha, result: await engine.analyze(repo.root) };
  return { repo, first, second };
}

/** A second, differently sized repository (for combining several repositories' results). */
export async function assessSmallRepo(): Promise<AssessedVersion> {
  const engine = await createEngine({ cacheDir: false, workers: 0 });
  const repo = createGitRepo(
    {
      'package.json': JSON.stringify({ name: 'small', type: 'module' }),
      'lib/util.js': 'export function double(x) {\n  return x * 2;\n}\n',
      'lib/main.js': "import { double } from './util.js';\nexport const four = double(2);\n",
    },
    'codehealth-health-small-',
  );
  return { sha: repo.git('rev-parse', 'HEAD'), result: await engine.analyze(repo.root) };
}

/** Python files only, with the `eval` and `os.system` a reader would flag: nothing the analyzers read. */
export async function assessPythonRepo(): Promise<AssessedVersion> {
  const engine = await createEngine({ cacheDir: false, workers: 0 });
  const repo = createGitRepo(
    {
      'README.md': '# tools\n',
      'app/main.py': 'import os\n\ndef run(cmd):\n    os.system(cmd)\n    return eval(cmd)\n',
      'app/util.py': 'def double(x):\n    return x * 2\n',
      'scripts/deploy.py': 'import os\nos.system("make deploy")\n',
    },
    'codehealth-health-python-',
  );
  return { sha: repo.git('rev-parse', 'HEAD'), result: await engine.analyze(repo.root) };
}
