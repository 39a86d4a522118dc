// Scope prediction without a base graph (a stored baseline): importees from the changed files'
// relative imports on both sides, importers found with git grep; and TypeScript-style resolution.
import { describe, expect, it } from 'vitest';
import { createGitRepo } from '../../../../test/helpers/git-repo.js';
import { readPullRequestChange } from './diff.js';
import { predictScope, resolveRelative } from './pipeline-scope.js';

describe('resolveRelative', () => {
  const files = new Set(['src/a.ts', 'src/lib/index.ts', 'src/view.tsx', 'main.js']);
  it('resolves .js specifiers to TypeScript sources, directories to their index, and refuses to leave the repository', () => {
    expect(resolveRelative('src/b.ts', './a.js', files)).toBe('src/a.ts');
    expect(resolveRelative('src/b.ts', './a', files)).toBe('src/a.ts');
    expect(resolveRelative('src/b.ts', './lib', files)).toBe('src/lib/index.ts');
    expect(resolveRelative('src/lib/x.ts', '../view.jsx', files)).toBe('src/view.tsx');
    expect(resolveRelative('src/b.ts', '../main.js', files)).toBe('main.js');
    expect(resolveRelative('src/b.ts', '../../etc/passwd', files)).toBeUndefined();
    expect(resolveRelative('src/b.ts', 'lodash', files)).toBeUndefined();
  });
});

describe('predictScope', () => {
  it('finds importers with git grep and importees from both sides of each changed file', async () => {
    const repo = createGitRepo({
      'src/math.ts': "import { log } from './log.js';\nexport const add = (a: number, b: number) => (log('add'), a + b);\n",
      'src/log.ts': 'export const log = (s: string) => s;\n',
      'src/trace.ts': 'export const trace = (s: string) => s;\n',
      'src/util.ts': "import { add } from './math.js';\nexport const twice = (x: number) => add(x, x);\n",
      'src/index.ts': "import { twice } from './util.js';\nexport const run = () => twice(2);\n",
      'lib/req.cjs': "const { add } = require('../src/math');\nmodule.exports = add;\n",
      'README.md': 'Import math from "./src/math.js" in your code.\n',
    });
    const base = repo.git('rev-parse', 'HEAD');
    repo.write({ 'src/math.ts': "import { trace } from './trace.js';\nexport const add = (a: number, b: number) => (trace('add'), a + b);\n" });
    const head = repo.commit('trace instead of log');
    const change = await readPullRequestChange(repo.root, base, head);
    const files = new Set(repo.git('ls-files').split('\n'));
    const scope = await predictScope(repo.root, change, files);
    expect(scope.changedCode).toEqual(['src/math.ts']);
    // log.ts was imported at base, trace.ts at head; util.ts and req.cjs import math; index.ts and the README do not.
    expect([...scope.neighbours].sort()).toEqual(['lib/req.cjs', 'src/log.ts', 'src/trace.ts', 'src/util.ts']);
  });
});
