import { describe, expect, it } from 'vitest';
import { commandTargets, scriptRole, workflowRunCommands } from './run-commands.js';

describe('scriptRole', () => {
  it.each([
    ['bench', 'benchmark'],
    ['bench:ci', 'benchmark'],
    ['perf', 'benchmark'],
    ['test', 'test'],
    ['test:unit', 'test'],
    ['pretest', 'test'],
    ['example', 'example'],
    ['run-demo', 'example'],
    ['docs', 'docs'],
    ['docs:build', 'docs'],
    ['storybook', 'docs'],
    ['release', 'tooling'],
    ['build', 'tooling'],
    ['lint', 'tooling'],
    ['attest', 'tooling'],
    ['latest', 'tooling'],
    ['start', undefined],
    ['dev', undefined],
    ['serve:prod', undefined],
    ['postinstall', undefined],
  ])('%s runs %s files', (name, role) => {
    expect(scriptRole(name)).toBe(role);
  });
});

describe('commandTargets', () => {
  const files = new Set(['scripts/a.mjs', 'pkg/tools/b.ts', 'pkg/x.js', 'c.sh', 'README.md']);
  const dirs = new Set(['scripts', 'pkg', 'pkg/tools', 'perf']);
  const targets = (command: string, dir = '') =>
    commandTargets(
      command,
      dir,
      (p) => files.has(p),
      (p) => dirs.has(p),
    );

  it('finds the files a command names, whatever runs them, relative to the package', () => {
    expect(targets('node scripts/a.mjs && bash ./c.sh').files).toEqual(['scripts/a.mjs', 'c.sh']);
    expect(targets('tsx tools/b.ts --out=x.js', 'pkg').files).toEqual(['pkg/tools/b.ts', 'pkg/x.js']);
    expect(targets('"node" "scripts/a.mjs"').files).toEqual(['scripts/a.mjs']);
    expect(targets('vitest bench --dir perf').dirs).toEqual(['perf']);
  });

  it('ignores words outside the repository, variables, globs and URLs', () => {
    expect(targets('node ../scripts/a.mjs', 'pkg').files).toEqual(['scripts/a.mjs']);
    expect(targets('node ../../scripts/a.mjs', 'pkg').files).toEqual([]);
    expect(targets('node $DIR/scripts/a.mjs scripts/*.mjs https://x/scripts/a.mjs /scripts/a.mjs')).toEqual({ files: [], dirs: [] });
  });
});

describe('workflowRunCommands', () => {
  it('reads one-line, quoted and block commands, and stops a block at its indentation', () => {
    const workflow = [
      'jobs:',
      '  test:',
      '    steps:',
      '      - run: npm ci',
      "      - run: 'node scripts/a.mjs'",
      '      - name: many',
      '        run: |',
      '          node one.mjs',
      '',
      '          node two.mjs',
      '        env:',
      '          RUN: no',
      '      - run: >-',
      '          node three.mjs',
      '          --flag',
      '      - uses: actions/checkout@v4',
      '        with:',
      '          run: not-a-step # inside `with`, still read: harmless',
    ].join('\n');
    expect(workflowRunCommands(workflow)).toEqual([
      'npm ci',
      'node scripts/a.mjs',
      '          node one.mjs\n\n          node two.mjs',
      '          node three.mjs\n          --flag',
      'not-a-step # inside `with`, still read: harmless',
    ]);
  });
});
