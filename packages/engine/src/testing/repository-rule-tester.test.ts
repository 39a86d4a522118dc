import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAnalyzer, defineRule } from '../plugins/define.js';
import { RepositoryRuleTester, runRepositoryRule } from './repository-rule-tester.js';

// A repository rule that reads the code graph's files, git history and options, and publishes a metric.
const hotFile = defineRule({
  kind: 'repository',
  meta: {
    id: 'hot-file',
    description: 'Files changed in many commits',
    category: 'code_smell',
    severity: 'low',
    docs: { whyItMatters: 'Churn concentrates risk.', suggestedAction: 'Split the file.' },
    options: z
      .object({ minCommits: z.number().int().min(1).default(3) })
      .strict()
      .default({ minCommits: 3 }),
  },
  async analyze(context) {
    const git = await context.git();
    let hot = 0;
    for (const summary of context.summaries) {
      const commits = git.files.get(summary.path)?.commitsTotal ?? 0;
      if (commits < context.options.minCommits) continue;
      hot++;
      context.report({
        filePath: summary.path,
        lineStart: 1,
        title: `${summary.path} changed in ${commits} commits`,
        description: 'A hot file.',
        data: { commits },
      });
    }
    context.metric('hotFiles', hot);
  },
});
const analyzer = defineAnalyzer({ id: 'churn', description: 'd', categories: ['code_smell'], languages: ['typescript'], rules: [hotFile] });
const tester = new RepositoryRuleTester(analyzer);

const edits = (path: string, n: number) => Array.from({ length: n }, (_, i) => ({ files: { [path]: `export const v = ${i};\n` } }));

// The harness on itself: these cases register real tests over real git repositories.
tester.run('hot-file', {
  valid: [
    { name: 'no git repository: no history, no finding', files: { 'src/a.ts': 'export const a = 1;\n' }, metrics: { hotFiles: 0 } },
    { name: 'two commits are not enough', files: { 'src/a.ts': 'export const a = 2;\n' }, history: edits('src/a.ts', 1), metrics: { hotFiles: 0 } },
  ],
  invalid: [
    {
      files: { 'src/a.ts': 'export const a = 9;\n', 'src/b.ts': 'export const b = 1;\n' },
      history: edits('src/a.ts', 4),
      findings: [{ path: 'src/a.ts', line: 1, title: 'src/a.ts changed in 5 commits', severity: 'low', data: { commits: 5 } }],
      metrics: { hotFiles: 1 },
    },
    {
      name: 'options reach the rule; a file deleted before the analysed tree is not reported',
      files: { 'src/a.ts': 'export const a = 9;\n', 'src/b.ts': 'export const b = 9;\n' },
      history: [...edits('src/b.ts', 1), { files: { 'src/gone.ts': 'export const g = 1;\n' } }, { files: { 'src/gone.ts': 'export const g = 2;\n' } }],
      options: { minCommits: 2 },
      findings: [{ path: 'src/b.ts', line: 1, data: { commits: 2 } }],
    },
  ],
});

describe('RepositoryRuleTester', () => {
  it('runs the rule through the real engine and returns its findings and metrics', async () => {
    const run = await runRepositoryRule(analyzer, 'hot-file', {
      files: { 'src/a.ts': 'export const a = 1;\n', 'src/z.ts': 'export const z = 1;\n' },
      history: [
        { files: { 'src/z.ts': 'x;\n', 'src/a.ts': 'x;\n' }, date: '2025-06-01T00:00:00Z', author: 'Ada <ada@example.com>' },
        { files: { 'src/z.ts': 'y;\n', 'src/a.ts': 'y;\n' } },
      ],
      options: { minCommits: 3 },
    });
    expect(run.findings.map((f) => [f.filePath, f.ruleId, f.anchor.lineStart])).toEqual([
      ['src/a.ts', 'churn/hot-file', 1],
      ['src/z.ts', 'churn/hot-file', 1],
    ]);
    expect(run.metrics).toEqual({ hotFiles: 2 });
    expect(run.result.provenance.commit).toMatch(/^[0-9a-f]{40}$/);
  });

  it('is strict about the test declarations', () => {
    const ok = { files: { 'src/a.ts': 'a;\n' }, findings: [{ path: 'src/a.ts', line: 1 }] };
    expect(() => tester.run('nope', { valid: [], invalid: [ok] })).toThrow(/has no rule "nope"/);
    expect(() => tester.run('hot-file', { valid: [{ files: {} }], invalid: [] })).toThrow(/at least one invalid case/);
    expect(() => tester.run('hot-file', { valid: [], invalid: [{ files: { 'a.ts': 'a;' }, findings: [] }] })).toThrow(/must expect at least one finding/);
    expect(() => tester.run('hot-file', { valid: [{ files: {} }, { files: {} }], invalid: [ok] })).toThrow(/duplicate case/);
    expect(() => tester.run('hot-file', { valid: [{ files: {}, code: 'a' } as never], invalid: [ok] })).toThrow(/unknown key "code"/);
    expect(() => tester.run('hot-file', { valid: [], invalid: [{ ...ok, findings: [{ path: 'src/a.ts', line: 1, colour: 'red' } as never] }] })).toThrow(
      /unknown key "colour"/,
    );
    expect(() => tester.run('hot-file', { valid: [], invalid: [{ ...ok, findings: [{ path: 'src/b.ts', line: 1 }] }] })).toThrow(/not one of the case's files/);
    expect(() => tester.run('hot-file', { valid: [], invalid: [{ ...ok, history: [{ files: {}, when: 'now' } as never] }] })).toThrow(/unknown key "when"/);
    expect(() => tester.run('hot-file', { valid: [], invalid: [{ ...ok, history: [{ files: {}, date: 'yesterday' }] }] })).toThrow(/not an ISO 8601 date/);
    expect(() => tester.run('hot-file', { valid: [{ files: { '../escape.ts': 'a;' } }], invalid: [ok] })).toThrow(/not a relative path/);
    expect(() => tester.run('hot-file', { valid: [{ files: {}, options: { minCommits: 0 } }], invalid: [ok] })).toThrow(
      /rules.churn\/hot-file.options: minCommits/,
    );
  });

  it("refuses a file rule: that is AnalyzerTester's", () => {
    const fileRule = defineRule({
      kind: 'file',
      meta: { id: 'f', description: 'd', category: 'runtime', severity: 'low', docs: { whyItMatters: 'w', suggestedAction: 's' } },
      create: () => ({}),
    });
    const both = defineAnalyzer({ id: 'both', description: 'd', categories: ['runtime'], languages: ['typescript'], rules: [fileRule] });
    expect(() => new RepositoryRuleTester(both).run('f', { valid: [], invalid: [] })).toThrow(/is a file rule; test it with AnalyzerTester/);
  });
});
