import { AnalyzerTester } from '@codehealth/engine/testing';
import { codeSmell } from '../index.js';

new AnalyzerTester(codeSmell).run('duplicated-branches', {
  valid: [
    { code: 'if (a) {\n  f(1);\n  g();\n} else if (b) {\n  f(2);\n  g();\n}', name: 'branches that differ in one token' },
    { code: 'if (a) { f(); } else if (b) { f(); } else { g(); }', name: 'one-line duplicates are left alone when another branch differs' },
    { code: 'if (a) {\n  f();\n} else {\n  f();\n}', name: 'an if/else with the same code both ways is another rule (all branches equal)' },
    { code: 'if (x === 1) {} else if (x === 2) {} else {}', name: 'different conditions' },
    { code: 'if (a && b) {} else if (a) {} else { g(); }', name: 'a narrower condition first covers nothing' },
    { code: 'switch (v) {\n  case 1:\n  case 2:\n    f();\n    g();\n    break;\n  default:\n    h();\n}', name: 'fall-through labels share one body' },
    { code: 'switch (v) {\n  case 1: f(); break;\n  case 2: f(); break;\n  default: g();\n}', name: 'one-line cases with a different default' },
    { code: 'if (a) {\n  f("x");\n  g();\n} else if (b) {\n  f(\'x\');\n  g();\n}', name: 'quotes are part of the token' },
  ],
  invalid: [
    {
      code: 'function pick(a, b) {\n  if (a) {\n    f();\n    g();\n  } else if (b) {\n    f();   // same\n    g();\n  } else {\n    h();\n  }\n}',
      name: 'a multi-line branch repeating an earlier one, whitespace and comments aside',
      findings: [
        { line: 5, endLine: 8, severity: 'info', symbol: 'pick', title: 'Duplicated branch: same code as the branch on line 2', data: { originalLine: 2 } },
      ],
    },
    {
      code: 'if (a) f();\nelse if (b) f();',
      name: 'every branch the same without a final else, even on one line',
      findings: [{ line: 2, title: 'Duplicated branch: same code as the branch on line 1' }],
    },
    {
      code: 'if (x === 1) {\n  a();\n} else if (x === 2) {\n  b();\n} else if (x === 1) {\n  c();\n}',
      name: 'the same condition twice: its branch never runs',
      findings: [{ line: 5, severity: 'medium', title: 'Condition `x === 1` is the same as the condition on line 1', data: { originalLine: 1 } }],
    },
    {
      code: 'if (a || b) {\n  x();\n} else if (c) {\n  y();\n} else if (b && d) {\n  z();\n}',
      name: 'a condition covered by one alternative of an earlier condition',
      findings: [{ line: 5, title: 'Condition `b && d` is covered by the condition on line 1' }],
    },
    {
      code: 'if (read()) {\n  x();\n} else if (read()) {\n  y();\n}',
      name: 'a repeated condition with a call is reported with lower confidence',
      findings: [{ line: 3, title: 'Condition `read()` is the same as the condition on line 1' }],
    },
    {
      code: 'switch (kind) {\n  case "a":\n    f();\n    g();\n    break;\n  case "b":\n    h();\n    break;\n  case "c": {\n    f();\n    g();\n    break;\n  }\n  default:\n    i();\n}',
      name: 'a case repeating an earlier one, braces and break aside',
      findings: [{ line: 9, endLine: 13, severity: 'info', title: 'Duplicated case: same code as the case on line 2' }],
    },
    {
      code: 'switch (v) {\n  case 1: f(); break;\n  case 2: f(); break;\n}',
      name: 'every case the same without a default',
      findings: [{ line: 3, title: 'Duplicated case: same code as the case on line 2' }],
    },
    {
      code: 'switch (v) {\n  case A: f(); break;\n  case B: g(); break;\n  case A: h(); break;\n  default: i();\n}',
      name: 'a repeated case value',
      findings: [{ line: 4, severity: 'medium', title: 'Case `A` repeats the case on line 2', data: { originalLine: 2 } }],
    },
  ],
});
