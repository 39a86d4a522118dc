import { AnalyzerTester } from '@codehealth/engine/testing';
import { codeSmell } from '../index.js';

const fourLevels = `function f() {
  if (a) {
    for (const x of xs) {
      while (b) {
        switch (x) {
          case 1: break;
        }
      }
    }
  }
}`;

const sixLevels = `function walk() {
  if (a) {
    for (;;) {
      while (b) {
        try {
          if (c) {
            do { step(); } while (d);
          }
        } catch {}
      }
    }
  }
}`;

new AnalyzerTester(codeSmell).run('deep-nesting', {
  valid: [
    fourLevels,
    {
      code: 'function f() {\n  if (a) {} else if (b) {} else if (c) {} else if (d) {} else if (e) {\n    if (f) {}\n  }\n}',
      options: { max: 2 },
      name: 'else if continues its if',
    },
    {
      code: 'function f() {\n  if (a) {\n    if (b) {\n      list.forEach(() => {\n        if (c) { if (d) {} }\n      });\n    }\n  }\n}',
      options: { max: 2 },
      name: 'a nested function starts again at depth zero',
    },
  ],
  invalid: [
    {
      code: sixLevels,
      name: 'one finding per too-deep region, at the statement that opens it',
      findings: [{ line: 6, endLine: 8, symbol: 'walk', severity: 'medium', title: 'Control flow nested 6 levels deep in walk (max 4)', data: { depth: 6, max: 4 } }],
    },
    {
      code: fourLevels,
      options: { max: 3 },
      findings: [{ line: 5, data: { depth: 4, max: 3 } }],
    },
    {
      code: 'if (a) {\n  if (b) {\n    if (c) {}\n  }\n  if (d) {\n    if (e) {}\n  }\n}',
      options: { max: 2 },
      name: 'module-level code has a depth too, and sibling regions are reported apart',
      findings: [
        { line: 3, titleIncludes: 'at module level', data: { depth: 3 } },
        { line: 6, data: { depth: 3 } },
      ],
    },
    {
      code: sixLevels,
      options: { max: 2 },
      name: 'high above twice the limit',
      findings: [{ line: 4, severity: 'high', data: { depth: 6, max: 2 } }],
    },
  ],
});
