import { AnalyzerTester, runRule } from '@codehealth/engine/testing';
import { describe, expect, it } from 'vitest';
import { security } from '../index.js';

new AnalyzerTester(security).run('no-eval', {
  valid: [
    {
      code: 'export function evaluate(exp) {\n  return new Function(`return ${exp}`)();\n}',
      filename: 'scripts/inline-enums.js',
      name: "a build script evaluating the repository's own source",
    },
    {
      code: 'export function validate(exp: string) {\n  try {\n    new Function(`return (${exp})`);\n  } catch (e) {\n    report(e);\n  }\n}',
      name: 'a Function constructed only to check syntax, never called',
    },
    'setTimeout(() => tick(), 100);',
    { code: 'setInterval(poll, 1000);', name: 'a function reference is not a string' },
    { code: 'const DELAY_HANDLER = () => 1;\nsetTimeout(DELAY_HANDLER, 10);', name: 'a constant that is not a string' },
    { code: 'redis.eval(script, 1, key);', name: 'a method named eval on another object' },
    { code: 'function run(eval2) { return evaluate(eval2); }', name: 'names that merely contain eval' },
    { code: 'function f(eval) { return eval(1); }', filename: 'src/a.js', name: 'a parameter named eval shadows the global' },
    { code: 'const fn: Function = () => 1;\nconst g = fn instanceof Function;', name: 'Function as a type and in instanceof' },
    { code: 'eval();', name: 'eval without an argument does nothing' },
    { code: 'page.evaluate(`document.title`);', name: 'a puppeteer evaluate call' },
  ],
  invalid: [
    {
      code: 'export function evaluate(exp: string) {\n  return new Function(`return (${exp})`)();\n}',
      name: 'the same Function, called',
      findings: [{ line: 2, severity: 'critical' }],
    },
    {
      code: 'function runUserScript(code: string) {\n  return eval(code);\n}',
      findings: [
        {
          line: 2,
          severity: 'critical',
          symbol: 'runUserScript',
          title: 'eval() runs code built at run time in runUserScript',
          data: { call: 'eval()', dynamic: true },
        },
      ],
    },
    {
      code: 'const v = eval("1 + 2");',
      findings: [{ line: 1, severity: 'high', title: 'eval() compiles a literal string in example.ts', data: { dynamic: false } }],
    },
    {
      code: 'const g = Function("return this")();',
      name: 'the global-object idiom is still Function()',
      findings: [{ line: 1, severity: 'high', title: 'Function() compiles a literal string in example.ts' }],
    },
    {
      code: 'export function compile(body: string) {\n  return new Function("a", "b", body);\n}',
      findings: [{ line: 2, severity: 'critical', title: 'new Function() runs code built at run time in compile' }],
    },
    {
      code: 'const PREFIX = "x = ";\nfunction later(value: string) {\n  setTimeout("update(" + value + ")", 10);\n  setInterval(`refresh()`, 1000);\n}',
      findings: [
        { line: 3, severity: 'critical', title: 'setTimeout() with a string of code runs code built at run time in later' },
        { line: 4, severity: 'high', title: 'setInterval() with a string of code compiles a literal string in later' },
      ],
    },
    {
      code: 'const source = `return ${expr}`;\nwindow.eval(source);\nglobalThis.setTimeout("go()", 0);',
      name: 'through a local variable and the global object',
      findings: [
        { line: 2, severity: 'critical', data: { dynamic: true } },
        { line: 3, severity: 'high' },
      ],
    },
    {
      code: "export function compileToFunction(code: string) {\n  return (GLOBAL ? new Function(code)() : new Function('Vue', code)(runtime));\n}",
      name: 'both arms of a ternary on one line are one finding',
      findings: [{ line: 2, severity: 'critical', title: 'new Function() runs code built at run time in compileToFunction' }],
    },
    {
      code: "export function compileToFunction(code: string) {\n  return GLOBAL\n    ? new Function(code)()\n    : new Function('Vue', code)(runtime);\n}",
      name: 'the same calls on two lines are two findings',
      findings: [
        { line: 3, severity: 'critical' },
        { line: 4, severity: 'critical' },
      ],
    },
    {
      code: 'const CODE = "go()";\nsetTimeout(CODE, 5);',
      name: 'a constant holding a string',
      findings: [{ line: 2, severity: 'high' }],
    },
  ],
});

describe('no-eval confidence and description', () => {
  it('names the spliced value and is less sure about a literal Function()', () => {
    const [dynamic] = runRule(security, 'no-eval', { code: 'function f(input) { return eval(`(${input})`); }', filename: 'src/a.js' });
    expect(dynamic.description).toContain('a template literal that splices in `input`');
    expect(dynamic.confidence).toBe(90);
    const [literal] = runRule(security, 'no-eval', { code: 'Function("return this")();' });
    expect(literal.confidence).toBe(70);
    expect(literal.autoFixable).toBe(false);
    expect(literal.category).toBe('security');
  });
});
