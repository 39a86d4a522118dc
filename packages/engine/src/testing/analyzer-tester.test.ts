import { describe, expect, it } from 'vitest';
import { defineAnalyzer, defineRule } from '../plugins/define.js';
import { AnalyzerTester, runRule } from './analyzer-tester.js';
import { z } from 'zod';

const noDebugger = defineRule({
  kind: 'file',
  meta: {
    id: 'no-debugger',
    description: 'debugger statements',
    category: 'runtime',
    severity: 'medium',
    docs: { whyItMatters: 'It stops execution.', suggestedAction: 'Remove it.' },
    options: z
      .object({ severity: z.enum(['medium', 'high']).default('medium') })
      .strict()
      .default({ severity: 'medium' }),
  },
  create: (context) => ({
    debugger_statement: (node) =>
      context.report({ node, title: 'debugger statement', description: 'A debugger statement is left in.', severity: context.options.severity }),
  }),
});
const analyzer = defineAnalyzer({
  id: 'demo',
  description: 'd',
  categories: ['runtime'],
  languages: ['typescript', 'tsx', 'javascript', 'jsx'],
  rules: [noDebugger],
});
const tester = new AnalyzerTester(analyzer);

// The harness on itself: these cases register real tests.
tester.run('no-debugger', {
  valid: ['const debuggerOff = true;', { code: '// debugger\nlet x = 1;', filename: 'src/a.js' }],
  invalid: [
    { code: 'function f() {\n  debugger;\n}', findings: [{ line: 2, title: 'debugger statement', severity: 'medium' }] },
    { code: 'debugger;', options: { severity: 'high' }, findings: [{ line: 1, severity: 'high' }] },
  ],
});

describe('AnalyzerTester', () => {
  it('fills complete findings through runRule', () => {
    const [finding] = runRule(analyzer, 'no-debugger', { code: 'let a = 1;\ndebugger;\n' });
    expect(finding).toMatchObject({
      ruleId: 'demo/no-debugger',
      analyzerName: 'demo',
      category: 'runtime',
      filePath: 'src/example.ts',
      anchor: { lineStart: 2, lineEnd: 2, codeSnippet: 'debugger;', validated: true },
      whyItMatters: 'It stops execution.',
      suggestedAction: 'Remove it.',
    });
  });

  it('is strict about the test declarations', () => {
    expect(() => tester.run('nope', { valid: [], invalid: [] })).toThrow(/has no rule "nope"/);
    expect(() => tester.run('no-debugger', { valid: ['a;'], invalid: [] })).toThrow(/at least one invalid case/);
    expect(() => tester.run('no-debugger', { valid: [], invalid: [{ code: 'debugger;', findings: [] }] })).toThrow(/must expect at least one finding/);
    expect(() => tester.run('no-debugger', { valid: ['a;', 'a;'], invalid: [{ code: 'debugger;', findings: [{ line: 1 }] }] })).toThrow(/duplicate valid case/);
    expect(() => tester.run('no-debugger', { valid: [], invalid: [{ code: 'debugger;', findings: [{ line: 1, colour: 'red' } as never] }] })).toThrow(
      /unknown key "colour"/,
    );
    expect(() => tester.run('no-debugger', { valid: [{ code: 'a;', opts: {} } as never], invalid: [{ code: 'debugger;', findings: [{ line: 1 }] }] })).toThrow(
      /unknown key "opts"/,
    );
  });

  it('gives the file the role its path says, or the one a case names', () => {
    const roleSeen = defineRule({
      kind: 'file',
      meta: { id: 'role-seen', description: 'd', category: 'runtime', severity: 'low', docs: { whyItMatters: 'w', suggestedAction: 's' } },
      create: (context) => ({ program: (node) => context.report({ node, title: `role ${context.file.role}`, description: 'd' }) }),
    });
    const roles = defineAnalyzer({ id: 'roles', description: 'd', categories: ['runtime'], languages: ['typescript'], rules: [roleSeen] });
    const titleOf = (c: Parameters<typeof runRule>[2]) => runRule(roles, 'role-seen', c)[0].title;
    expect(titleOf({ code: 'a;' })).toBe('role production');
    expect(titleOf({ code: 'a;', filename: 'bench/parse.ts' })).toBe('role benchmark');
    expect(titleOf({ code: 'a;', filename: 'src/a.ts', role: 'example' })).toBe('role example');
  });

  it('refuses options the rule schema refuses', () => {
    expect(() => runRule(analyzer, 'no-debugger', { code: 'debugger;', options: { severity: 'low' } })).toThrow(/rules.demo\/no-debugger.options: severity/);
  });
});
