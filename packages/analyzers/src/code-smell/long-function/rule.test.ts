import { AnalyzerTester } from '@codehealth/engine/testing';
import { codeSmell } from '../index.js';

/** A function whose body spans `n` code lines: the `{` line, n - 2 statements and the `}` line. */
function functionWithBodyLines(n: number, extra = ''): string {
  const statements = Array.from({ length: n - 2 }, (_, i) => `  step(${i});`);
  return [`function work() {`, ...statements, extra, `}`].filter((line) => line !== '').join('\n');
}

const blankAndComments = ['', '  // a comment line', '  /*', '     a block comment', '  */', '', '  /** doc */'].join('\n');

new AnalyzerTester(codeSmell).run('long-function', {
  valid: [
    functionWithBodyLines(80),
    { code: functionWithBodyLines(80, blankAndComments), name: 'blank and comment lines are not counted' },
    { code: functionWithBodyLines(10), options: { max: 10 } },
    { code: 'const f = () =>\n  a +\n  b;', options: { max: 2 }, name: 'an expression body counts its own lines only' },
    { code: 'const s = `\n\n\n`;\nconst t = 1;', options: { max: 1 }, name: 'module-level code is not a function' },
    {
      code: 'function enablePlugin() {\n  function a() {\n    x();\n    y();\n  }\n  function b() {\n    x();\n    y();\n  }\n  return { a, b };\n}',
      options: { max: 4 },
      name: 'a function holding short helpers is not long: each nested function is measured on its own',
    },
    {
      code: functionWithBodyLines(81),
      filename: 'docs/assets/javascripts/react-with-addons.js',
      role: 'docs',
      name: 'a documentation site asset (often a vendored bundle) is not judged',
    },
    { code: functionWithBodyLines(81), filename: 'src/parser.generated.ts', role: 'generated', name: 'nor is generated code' },
  ],
  invalid: [
    {
      code: functionWithBodyLines(81),
      findings: [{ line: 1, endLine: 81, symbol: 'work', severity: 'medium', title: 'work has 81 lines of code (max 80)', data: { lines: 81, max: 80 } }],
    },
    {
      code: functionWithBodyLines(11, blankAndComments),
      options: { max: 10 },
      name: 'comments inside the body do not count, code does',
      findings: [{ line: 1, data: { lines: 11, max: 10 } }],
    },
    {
      code: 'class Job {\n  run() {\n    a(); /* trailing */\n    const s = `x\n\n    y`;\n  }\n}',
      options: { max: 4 },
      name: 'a line with code and a comment counts; a blank line inside a template does not',
      findings: [{ line: 2, symbol: 'Job.run', data: { lines: 5 } }],
    },

    {
      code: 'function load() {\n  return new Promise((resolve) => {\n    a();\n    b();\n    c();\n    resolve();\n  });\n}',
      options: { max: 4 },
      name: 'a nested function reported on its own is not counted again in its parent: the callback is reported, its wrapper not',
      findings: [{ line: 2, data: { lines: 6, max: 4 } }],
    },
    {
      code: 'function setup() {\n  a();\n  b();\n  c();\n  on("x", () => {\n    d();\n    e();\n    f();\n    g();\n  });\n}',
      options: { max: 4 },
      name: 'a parent long by its own lines is still reported, with the nested function left out of its count',
      findings: [
        { line: 1, symbol: 'setup', data: { lines: 7, max: 4 } },
        { line: 5, data: { lines: 6, max: 4 } },
      ],
    },
    {
      code: 'function List() {\n  a();\n  return items.map((item) => {\n    b(item);\n    c(item);\n  });\n}',
      options: { max: 5 },
      name: 'an inline callback that is not reported stays part of its parent (a long component with its map callbacks is long)',
      findings: [{ line: 1, symbol: 'List', data: { lines: 7, max: 5 } }],
    },
    {
      code: functionWithBodyLines(21),
      options: { max: 10 },
      name: 'high above twice the limit',
      findings: [{ line: 1, severity: 'high', data: { lines: 21, max: 10 } }],
    },
  ],
});
