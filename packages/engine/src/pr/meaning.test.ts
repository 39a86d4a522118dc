// Issue 18 §3 on real git repositories through the whole pipeline: what a change means, not only
// which lines it touches. Each case shows the former wrong verdict's input beside a neighbouring
// change that must still be reported.
import { describe, expect, it } from 'vitest';
import { pipelineHarness, topicPullRequest } from '../../../../test/helpers/pipeline-harness.js';
import { createGitRepo, type TestRepo } from '../../../../test/helpers/git-repo.js';
import { markCosmeticHunks } from './cosmetic-hunks.js';
import { localCheckouts } from './local-checkouts.js';
import { PrAnalysisPipeline, type PrPipelineOutput } from './pipeline.js';
import type { PullRequestInfo } from './types.js';

const STORE = [
  "import { clamp } from './math.js';",
  '',
  '/**',
  ' * Creates a store.',
  ' * @param initial the first state',
  ' */',
  'export function createStore(initial: number): { get(): number } {',
  '  // the state lives in a closure',
  '  let state = clamp(initial);',
  "  const separator = '//';",
  '  return { get: () => state };',
  '}',
  '',
].join('\n');
const BASE = {
  'package.json': JSON.stringify({ name: 'store', version: '1.0.0', type: 'module' }, null, 2),
  'src/math.ts': 'export function clamp(x: number): number {\n  return Math.max(0, x);\n}\n',
  'src/store.ts': STORE,
};

const harness = pipelineHarness();

async function analyse(repo: TestRepo, pr: PullRequestInfo): Promise<PrPipelineOutput> {
  const checkouts = localCheckouts(repo.root);
  const head = await checkouts.checkout(pr.headSha);
  harness.track(head);
  return new PrAnalysisPipeline({ engine: harness.engine }).run({ headDir: head.path, checkouts, pr });
}

const riskReasons = (out: PrPipelineOutput) => out.result.impact_zones.map((z) => z.summary).join('\n');

describe('comment-only and whitespace-only hunks', () => {
  it('a JSDoc edit, a comment and a re-indent touch no exported API, add no risk and need no test', async () => {
    const repo = createGitRepo(BASE);
    const edited = STORE.replace(' * Creates a store.', ' * Creates a store holding one number.\n * Values below zero are clamped.')
      .replace('// the state lives in a closure', '// the state lives in a closure (never shared)')
      .replace('  return { get: () => state };', '    return { get: () => state };');
    const out = await analyse(repo, topicPullRequest(repo, 'Document createStore', { 'src/store.ts': edited }));
    const file = out.diff.files.find((f) => f.path === 'src/store.ts')!;
    expect(file.hunks.every((h) => h.cosmetic)).toBe(true);
    expect(file.symbols).toEqual([]);
    expect(out.result.graph_impact.changed_symbols).toEqual([]);
    expect(out.result.classification.risk_signals.filter((s) => /public API|no tests/.test(s))).toEqual([]);
    expect(riskReasons(out)).not.toMatch(/exported API touched|no test changes cover it/);
    expect(out.result.impact_zones.every((z) => z.risk === 'low')).toBe(true);
  });

  it('the same JSDoc edit beside a real change to the body is still an exported API change without tests', async () => {
    const repo = createGitRepo(BASE);
    const edited = STORE.replace(' * Creates a store.', ' * Creates a store holding one number.').replace(
      'let state = clamp(initial);',
      'let state = clamp(initial + 1);',
    );
    const out = await analyse(repo, topicPullRequest(repo, 'Start one higher', { 'src/store.ts': edited }));
    const file = out.diff.files.find((f) => f.path === 'src/store.ts')!;
    expect(file.hunks.map((h) => h.cosmetic === true)).toEqual([true, false]);
    expect(out.result.graph_impact.changed_symbols).toEqual([{ name: 'createStore', file: 'src/store.ts', kind: 'function' }]);
    expect(out.result.classification.risk_signals).toContain('no tests for changed source: src/store.ts');
    expect(riskReasons(out)).toMatch(/exported API touched \(createStore\)/);
  });
});

describe('markCosmeticHunks', () => {
  const hunk = (oldStart: number, oldLines: number, newStart: number, newLines: number) => ({ oldStart, oldLines, newStart, newLines });
  it('reads comments as the parser does: text in a string or a regular expression is code', () => {
    const base = "const url = 'http://a';\nconst re = /\\/*x/;\nconst y = 1; // one\n";
    // The string's `//...` changed: code, though it looks like a comment.
    expect(markCosmeticHunks([hunk(1, 1, 1, 1)], base, base.replace('http://a', 'http://b'), 'typescript')[0]!.cosmetic).toBeUndefined();
    expect(markCosmeticHunks([hunk(2, 1, 2, 1)], base, base.replace('/\\/*x/', '/\\/*y/'), 'typescript')[0]!.cosmetic).toBeUndefined();
    // The trailing comment changed: cosmetic.
    expect(markCosmeticHunks([hunk(3, 1, 3, 1)], base, base.replace('// one', '// the first'), 'typescript')[0]!.cosmetic).toBe(true);
  });
  it('a hunk inside a top-level declaration is read from that declaration alone, with the same answers', () => {
    const base = [
      'export function parse(text: string): string[] {',
      '  const parts = text.split(/\\/\\/|\\/\\*/); // split on comment openers',
      '  const note = `a ${parts.length} // b`;',
      '  return [...parts, note];',
      '}',
      "const tail = '`'; /* no template here */",
      '',
    ].join('\n');
    const declarations = { base: [{ lineStart: 1, lineEnd: 5 }], head: [{ lineStart: 1, lineEnd: 5 }] };
    const check = (line: number, from: string, to: string) => {
      const head = base.replace(from, to);
      expect(head).not.toBe(base);
      const whole = markCosmeticHunks([hunk(line, 1, line, 1)], base, head, 'typescript')[0]!.cosmetic;
      const sliced = markCosmeticHunks([hunk(line, 1, line, 1)], base, head, 'typescript', declarations)[0]!.cosmetic;
      expect(sliced).toBe(whole);
      return sliced;
    };
    // The trailing comment after a regular expression that holds `//` and `/*`: cosmetic.
    expect(check(2, 'split on comment openers', 'split on both comment openers')).toBe(true);
    // The regular expression itself: code.
    expect(check(2, '|\\/\\*/)', '|\\/\\*\\s/)')).toBeUndefined();
    // `//` inside a template literal: code.
    expect(check(3, '// b', '// c')).toBeUndefined();
    // A hunk outside every declaration is read from the whole text: the comment after a string holding a backtick.
    expect(check(6, 'no template here', 'no template')).toBe(true);
  });
  it('whitespace is layout between tokens, not inside a string or between two words', () => {
    const base = "const a = f(x,y);\nconst s = 'a b';\nreturn x;\n";
    // A doc comment without leading asterisks (the style of many libraries): its prose line is comment.
    const doc = '/**\n\tWaits until the date, timeout, or timestamp.\n*/\nexport type Options = { retry?: number };\n';
    expect(markCosmeticHunks([hunk(2, 1, 2, 1)], doc, doc.replace('timeout,', 'delay,'), 'typescript')[0]!.cosmetic).toBe(true);
    expect(markCosmeticHunks([hunk(4, 1, 4, 1)], doc, doc.replace('retry?: number', 'retry?: string'), 'typescript')[0]!.cosmetic).toBeUndefined();
    expect(markCosmeticHunks([hunk(1, 1, 1, 2)], base, base.replace('f(x,y)', 'f(\n  x, y)'), 'typescript')[0]!.cosmetic).toBe(true);
    expect(markCosmeticHunks([hunk(2, 1, 2, 1)], base, base.replace("'a b'", "'a  b'"), 'typescript')[0]!.cosmetic).toBeUndefined();
    expect(markCosmeticHunks([hunk(3, 1, 3, 1)], base, base.replace('return x', 'returnx'), 'typescript')[0]!.cosmetic).toBeUndefined();
  });
});

describe('a private helper reaches the exports that use it', () => {
  const FILES = {
    'package.json': JSON.stringify({ name: 'persisting', version: '1.0.0', type: 'module' }, null, 2),
    'src/persist.ts': [
      'function encode(value: unknown): string {',
      '  return JSON.stringify(value);',
      '}',
      '',
      'function persistImpl(key: string, value: unknown): void {',
      '  localStorage.setItem(key, encode(value));',
      '}',
      '',
      'function unusedHelper(): number {',
      '  return 1;',
      '}',
      '',
      '/** persistImpl under its public name */',
      'export const persist = persistImpl;',
      '',
    ].join('\n'),
    'src/app.ts': "import { persist } from './persist.js';\n\nexport function save(): void {\n  persist('k', 1);\n}\n",
  };

  it('a change inside persistImpl (two hops: encode -> persistImpl -> persist) changes persist and reaches its importers', async () => {
    const repo = createGitRepo(FILES);
    const out = await analyse(
      repo,
      topicPullRequest(repo, 'Encode with a version', {
        'src/persist.ts': FILES['src/persist.ts'].replace('JSON.stringify(value)', 'JSON.stringify({ v: 1, value })'),
      }),
    );
    expect(out.result.graph_impact.changed_symbols).toEqual([{ name: 'persist', file: 'src/persist.ts', kind: 'variable' }]);
    expect(out.result.graph_impact.dependent_files).toEqual(['src/app.ts']);
    expect(out.diff.files[0]!.symbols.find((s) => s.name === 'persist')).toMatchObject({ change: 'modified', reachedThrough: 'encode' });
  });

  it('a change inside a helper no export uses reaches nothing', async () => {
    const repo = createGitRepo(FILES);
    const out = await analyse(repo, topicPullRequest(repo, 'Two', { 'src/persist.ts': FILES['src/persist.ts'].replace('return 1;', 'return 2;') }));
    expect(out.result.graph_impact.changed_symbols).toEqual([]);
    expect(out.result.graph_impact.dependents_count).toBe(0);
  });
});

describe('the public API is what the package’s entry points export', () => {
  const FILES = {
    'package.json': JSON.stringify({ name: 'tiny-store', version: '1.0.0', type: 'module', exports: { '.': './dist/index.js' } }, null, 2),
    'src/index.ts': "export { create } from './store.js';\n",
    'src/store.ts': [
      'export interface StoreState {',
      '  value: number;',
      '}',
      '',
      'export function create(initial: number): StoreState {',
      '  return { value: initial };',
      '}',
      '',
    ].join('\n'),
  };

  it('an internal exported type changed is no public API change', async () => {
    const repo = createGitRepo(FILES);
    const out = await analyse(
      repo,
      topicPullRequest(repo, 'Track updates', {
        'src/store.ts': FILES['src/store.ts']
          .replace('  value: number;', '  value: number;\n  updates: number;')
          .replace('{ value: initial }', '{ value: initial, updates: 0 }'),
      }),
    );
    // Before: 'public API change: changes StoreState (src/store.ts)', though no entry point exports StoreState.
    expect(out.result.classification.risk_signals.filter((s) => s.startsWith('public API change'))).toEqual([]);
  });

  it('a change to the declaration of an export the entry forwards is one', async () => {
    const repo = createGitRepo(FILES);
    const out = await analyse(
      repo,
      topicPullRequest(repo, 'Default value', { 'src/store.ts': FILES['src/store.ts'].replace('create(initial: number)', 'create(initial = 0)') }),
    );
    expect(out.result.classification.risk_signals).toContain('public API change: changes create (src/store.ts)');
  });
});
