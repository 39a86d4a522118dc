// The deterministic classifier on real git changes: each intent rule, the risk signals and the
// summary, read from diffs of repositories built in the test.
import { describe, expect, it } from 'vitest';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { classifyDeterministic, pickIntents, prefixIntent, INTENTS } from './classify.js';
import { readPullRequestChange } from './diff.js';
import { isMajorBump } from './risk-signals.js';

const BASE = {
  'package.json': JSON.stringify({ name: 'app', version: '1.0.0', dependencies: { lodash: '4.17.20' } }, null, 2),
  'src/math.ts': 'export function add(a: number, b: number) {\n  return a + b;\n}\n',
  'src/util.ts':
    "import { add } from './math.js';\n\nexport function twice(x: number) {\n  return add(x, x);\n}\n\nexport function calc(x: number) {\n  const y = x * 3;\n  return twice(y);\n}\n",
  'src/index.ts': "import { calc } from './util.js';\n\nexport function run() {\n  return calc(2);\n}\n",
  'src/math.test.ts': "import { add } from './math.js';\nif (add(1, 1) !== 2) throw new Error('add');\n",
  'README.md': '# App\n',
};

async function classify(edit: (repo: TestRepo) => void, pr: { title: string; headBranch?: string }) {
  const repo = createGitRepo(BASE);
  const base = repo.git('rev-parse', 'HEAD');
  repo.git('checkout', '-q', '-b', pr.headBranch ?? 'work');
  edit(repo);
  const head = repo.commit(pr.title);
  const change = await readPullRequestChange(repo.root, base, head);
  return classifyDeterministic({ title: pr.title, headBranch: pr.headBranch ?? 'work' }, change);
}

describe('prefixIntent', () => {
  it('reads conventional-commit types, scopes and breaking marks', () => {
    expect(prefixIntent('fix(parser)!: handle EOF')).toEqual({ intent: 'bugfix', prefix: 'fix(parser)!:' });
    expect(prefixIntent('chore(deps): bump lodash')?.intent).toBe('dependency');
    expect(prefixIntent('perf: faster walk')?.intent).toBe('performance');
    expect(prefixIntent('Add multiply')).toBeUndefined();
    expect(prefixIntent('unknowntype: something')).toBeUndefined();
  });
});

describe('pickIntents', () => {
  it('takes the highest score, breaks ties by priority and keeps strong runners-up as secondary', () => {
    const scores = new Map(INTENTS.map((i) => [i, 0]));
    expect(pickIntents(scores)).toEqual({ primary: 'chore', secondary: [] });
    scores.set('feature', 6).set('bugfix', 6).set('docs', 2.5).set('test', 1);
    expect(pickIntents(scores)).toEqual({ primary: 'bugfix', secondary: ['feature', 'docs'] });
  });
});

describe('classifyDeterministic', () => {
  it('a new exported function without tests is a feature with the no-tests risk', async () => {
    const { classification } = await classify(
      (repo) => repo.write({ 'src/math.ts': `${BASE['src/math.ts']}\nexport function mul(a: number, b: number) {\n  return a * b;\n}\n` }),
      { title: 'Multiplication', headBranch: 'topic' },
    );
    expect(classification.primary_intent).toBe('feature');
    expect(classification.change_categories).toEqual(['source']);
    expect(classification.risk_signals).toEqual(['no tests for changed source: src/math.ts']);
    expect(classification.summary).toMatch(
      /^Feature change to 1 file \(\+4\/-0: 1 source\)\. It adds export mul\. Classified by rules from 1 new exported symbol\(s\)\.$/,
    );
  });

  it('a conventional title prefix outweighs content; the branch adds evidence', async () => {
    const { classification, evidence } = await classify(
      (repo) => repo.write({ 'src/math.ts': BASE['src/math.ts'].replace('a + b', 'b + a'), 'src/math.test.ts': `${BASE['src/math.test.ts']}// edge\n` }),
      { title: 'fix: commutative add', headBranch: 'fix/add-order' },
    );
    expect(classification.primary_intent).toBe('bugfix');
    expect(evidence.get('bugfix')).toEqual([
      "title prefix 'fix:'",
      "branch 'fix/add-order'",
      "1 of 1 commit(s) typed 'bugfix'",
      'a small source change with tests',
    ]);
    // A body edit is not an API change; tests were touched, so no risk at all.
    expect(classification.risk_signals).toEqual([]);
  });

  it('a changed signature of an exported function is a public API change, its body alone is not', async () => {
    const { classification } = await classify(
      (repo) =>
        repo.write({
          'src/math.ts': 'export function add(a: number, b: number, c = 0) {\n  return a + b + c;\n}\n',
          'src/util.ts': BASE['src/util.ts'].replace('const y = x * 3;', 'const y = x * 4;'),
        }),
      { title: 'Three-way add' },
    );
    expect(classification.risk_signals).toContain('public API change: changes add (src/math.ts)');
    expect(classification.risk_signals.join()).not.toContain('calc');
  });

  it('documentation only is docs with no risk', async () => {
    const { classification } = await classify((repo) => repo.write({ 'README.md': '# App\n\nUsage notes.\n', 'docs/guide.md': '# Guide\n' }), {
      title: 'Write a guide',
    });
    expect(classification).toMatchObject({ primary_intent: 'docs', change_categories: ['docs'], risk_signals: [] });
  });

  it('a release (version bumped, changelog written, changeset consumed) is a chore, not docs', async () => {
    const repo = createGitRepo({
      ...BASE,
      '.changeset/fresh-flow.md': '---\n"app": patch\n---\n\nflow() works as a decorator\n',
      'CHANGELOG.md': '# app\n',
    });
    const base = repo.git('rev-parse', 'HEAD');
    repo.git('checkout', '-q', '-b', 'changeset-release/main');
    repo.git('rm', '-q', '.changeset/fresh-flow.md');
    repo.write({
      'CHANGELOG.md': '# app\n\n## 1.0.1\n\n### Patch Changes\n\n- flow() works as a decorator\n',
      'package.json': BASE['package.json'].replace('"version": "1.0.0"', '"version": "1.0.1"'),
    });
    const change = await readPullRequestChange(repo.root, base, repo.commit('Version Packages'));
    expect(change.diff.files.map((f) => `${f.status} ${f.path}`).sort()).toEqual([
      'deleted .changeset/fresh-flow.md',
      'modified CHANGELOG.md',
      'modified package.json',
    ]);
    const { classification, facts } = classifyDeterministic({ title: 'Version Packages', headBranch: 'changeset-release/main' }, change);
    expect(facts.release).toBe(true);
    expect(classification.primary_intent).toBe('chore');
    expect(classification.summary).toContain('a release: package versions bumped with changelogs only');
  });

  it('a version bump beside a source or docs change is not a release', async () => {
    const withSource = await classify(
      (repo) =>
        repo.write({
          'package.json': BASE['package.json'].replace('"version": "1.0.0"', '"version": "1.1.0"'),
          'src/math.ts': `${BASE['src/math.ts']}export function sub(a: number, b: number) {\n  return a - b;\n}\n`,
        }),
      { title: 'Add sub' },
    );
    expect(withSource.facts.release).toBe(false);
    expect(withSource.classification.primary_intent).toBe('feature');
    const withGuide = await classify(
      (repo) => repo.write({ 'package.json': BASE['package.json'].replace('"version": "1.0.0"', '"version": "1.0.1"'), 'docs/guide.md': '# Guide\n' }),
      { title: 'Write a guide' },
    );
    expect(withGuide.facts.release).toBe(false);
    // A changed script is no release either, even with the version bumped.
    const withScript = await classify(
      (repo) =>
        repo.write({
          'package.json': JSON.stringify({ ...JSON.parse(BASE['package.json']), version: '1.0.1', scripts: { test: 'node test.js' } }, null, 2),
          'CHANGELOG.md': '# 1.0.1\n',
        }),
      { title: 'Version Packages' },
    );
    expect(withScript.facts.release).toBe(false);
  });

  it('a dependency bump from a bot branch is a dependency change', async () => {
    const { classification } = await classify(
      (repo) => repo.write({ 'package.json': BASE['package.json'].replace('4.17.20', '4.17.21'), 'package-lock.json': '{"lockfileVersion":3}\n' }),
      { title: 'Bump lodash from 4.17.20 to 4.17.21', headBranch: 'dependabot/npm_and_yarn/lodash-4.17.21' },
    );
    expect(classification.primary_intent).toBe('dependency');
    expect(classification.change_categories).toEqual(['dependencies']);
    expect(classification.risk_signals).toEqual(['dependency change: lodash 4.17.20 -> 4.17.21']);
  });

  it('a major version bump of a dependency is named as a risk; a patch bump beside it is not', async () => {
    const { classification } = await classify(
      (repo) => repo.write({ 'package.json': BASE['package.json'].replace('4.17.20', '5.0.0'), 'package-lock.json': '{"lockfileVersion":3}\n' }),
      { title: 'Bump lodash from 4.17.20 to 5.0.0', headBranch: 'dependabot/npm_and_yarn/lodash-5.0.0' },
    );
    expect(classification.risk_signals).toEqual(['dependency change: lodash 4.17.20 -> 5.0.0', 'major version bump: lodash 4.17.20 -> 5.0.0']);
    expect(isMajorBump('^0.4.1', '^0.5.0')).toBe(true);
    expect(isMajorBump('^1.4.1', '^1.5.0')).toBe(false);
    expect(isMajorBump('~2.0.0', 'workspace:*')).toBe(false);
  });

  it('renaming a file and a function, callers updated, is a structural refactor', async () => {
    const { classification, facts } = await classify(
      (repo) => {
        repo.git('mv', 'src/util.ts', 'src/helpers.ts');
        repo.write({
          'src/helpers.ts': BASE['src/util.ts'].replace('function calc', 'function compute'),
          'src/index.ts': BASE['src/index.ts']
            .replace("import { calc } from './util.js'", "import { compute } from './helpers.js'")
            .replace('calc(2)', 'compute(2)'),
        });
      },
      { title: 'Tidy up the helpers' },
    );
    expect(facts.renames).toEqual([
      { from: { file: 'src/util.ts', name: 'calc', kind: 'function' }, to: { file: 'src/helpers.ts', name: 'compute', kind: 'function' }, move: false },
    ]);
    expect(facts.structuralOnly).toBe(true);
    expect(classification.primary_intent).toBe('refactor');
    expect(classification.summary).toContain('calc renamed to compute');
    // The renamed export is still a public API change; no tests are demanded of a pure refactor.
    expect(classification.risk_signals).toEqual(['public API change: removes calc (src/util.ts)']);
  });

  it('reads a copied file as new code, not as a rename that removes the symbols of its source', async () => {
    const tangled =
      'export function route(kind: string, n: number) {\n' +
      Array.from({ length: 12 }, (_, i) => `  if (kind === 'k${i}') return n + ${i};`).join('\n') +
      '\n  return n;\n}\n';
    const repo = createGitRepo({ ...BASE, 'src/route.ts': tangled });
    const base = repo.git('rev-parse', 'HEAD');
    repo.git('checkout', '-q', '-b', 'work');
    // The source keeps its function and gains a line; the copy (git detects it with -C) renames it.
    repo.write({ 'src/route.ts': `${tangled}export const VERSION = '2';\n`, 'src/route-copy.ts': tangled.replace('function route(', 'function routeAgain(') });
    const head = repo.commit('Add routeAgain');
    const change = await readPullRequestChange(repo.root, base, head);
    const copy = change.diff.files.find((f) => f.path === 'src/route-copy.ts')!;
    expect(copy.status).toBe('copied');
    expect(copy.symbols.filter((s) => s.change === 'removed')).toEqual([]);
    const { classification, facts } = classifyDeterministic({ title: 'Add routeAgain', headBranch: 'work' }, change);
    expect(facts.renames).toEqual([]);
    expect(facts.exports.removed).toEqual([]);
    expect(classification.risk_signals.join('\n')).not.toContain('removes route');
    // A real rename of the same kind keeps its pair (the test above): only the copy's view changed.
    expect(classification.summary).not.toContain('renamed to');
  });

  it('moving a function out of a block (re-indented) is not a structural refactor; reordering at the same depth is', async () => {
    const handler = (indent: string) =>
      ['function trim(path) {', '  var c = path[0];', "  if (c && '/' != c) return next(path);", '  return path.slice(1);', '}']
        .map((line) => indent + line)
        .join('\n');
    const inTry = `export function handle(path) {\n  try {\n    return trim(path);\n\n${handler('    ')}\n  } catch (err) {\n    return next(err);\n  }\n}\n`;
    const outOfTry = `export function handle(path) {\n  try {\n    return trim(path);\n  } catch (err) {\n    return next(err);\n  }\n\n${handler('  ')}\n}\n`;
    const moved = createGitRepo({ ...BASE, 'src/router.js': inTry });
    const base = moved.git('rev-parse', 'HEAD');
    moved.write({ 'src/router.js': outOfTry });
    const title = 'trim causing --use-strict flag to fail';
    const fixed = classifyDeterministic({ title, headBranch: 'work' }, await readPullRequestChange(moved.root, base, moved.commit(title)));
    expect(fixed.facts.structuralOnly).toBe(false);
    expect(fixed.classification.primary_intent).toBe('bugfix');

    // The neighbour: two top-level functions swapped, nothing re-indented — a reorder, still structural.
    const util = BASE['src/util.ts'];
    const [imports, twice, calc] = util.split('\n\n');
    const reordered = await classify((repo) => repo.write({ 'src/util.ts': [imports, calc!.trimEnd(), `${twice}\n`].join('\n\n') }), {
      title: 'Order the helpers',
    });
    expect(reordered.facts.structuralOnly).toBe(true);
    expect(reordered.classification.primary_intent).toBe('refactor');
    expect(reordered.classification.summary).toContain('It only reorders lines.');
  });

  it('a whitespace edit inside a comment is formatting: no API change, no missing tests, said as such', async () => {
    const documented = `/**\n * Adds.\n * \n * add(1, 2) === 3\n */\n${BASE['src/math.ts']}`;
    const repo = createGitRepo({ ...BASE, 'src/math.ts': documented });
    const base = repo.git('rev-parse', 'HEAD');
    repo.write({ 'src/math.ts': documented.replace(' * \n', ' *\n') });
    const title = 'chore(lint): remove trailing whitespace';
    const { classification } = classifyDeterministic({ title, headBranch: 'work' }, await readPullRequestChange(repo.root, base, repo.commit(title)));
    expect(classification.primary_intent).toBe('chore');
    expect(classification.risk_signals).toEqual([]);
    expect(classification.summary).toContain('It only changes formatting or comments.');
  });

  it('raises security, migration, CI, generated-file and large-deletion signals', async () => {
    const big = Array.from({ length: 320 }, (_, i) => `export const v${i} = ${i};`).join('\n');
    const repo = createGitRepo({ ...BASE, 'src/legacy.ts': `${big}\n` });
    const base = repo.git('rev-parse', 'HEAD');
    repo.git('rm', '-q', 'src/legacy.ts');
    repo.write({
      'src/auth/session.ts': "import { createHash } from 'node:crypto';\nexport const digest = (s: string) => createHash('sha256').update(s).digest('hex');\n",
      'migrations/0002_users.sql': 'ALTER TABLE users ADD COLUMN email text;\n',
      '.github/workflows/ci.yml': 'on: push\n',
      'dist/app.js': 'var x=1;\n',
    });
    const head = repo.commit('wip');
    const { classification } = classifyDeterministic({ title: 'wip', headBranch: 'wip' }, await readPullRequestChange(repo.root, base, head));
    expect(classification.change_categories).toEqual(['source', 'ci', 'migrations', 'generated']);
    expect(classification.risk_signals).toEqual([
      'touches security-sensitive code: src/auth/session.ts',
      'database migration: migrations/0002_users.sql',
      'public API change: removes v0 (src/legacy.ts), removes v1 (src/legacy.ts), removes v2 (src/legacy.ts), removes v3 (src/legacy.ts), removes v4 (src/legacy.ts) and 315 more',
      'large deletion: 320 lines removed, 5 added; deletes src/legacy.ts (320 lines)',
      'no tests for changed source: src/auth/session.ts',
      'config/CI change: .github/workflows/ci.yml',
      'generated files edited: dist/app.js',
    ]);
  });

  it('falls back to chore when nothing points anywhere', async () => {
    const { classification } = await classify((repo) => repo.write({ 'assets/data.csv': 'a,b\n' }), { title: 'Update' });
    expect(classification.primary_intent).toBe('chore');
    expect(classification.summary).toContain('no rule matched');
  });
});
