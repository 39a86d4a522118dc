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
      name: 'at the statement that opens the too-deep region',
      findings: [
        { line: 6, endLine: 8, symbol: 'walk', severity: 'medium', title: 'Control flow nested 6 levels deep in walk (max 4)', data: { depth: 6, max: 4 } },
      ],
    },
    {
      code: fourLevels,
      options: { max: 3 },
      findings: [{ line: 5, data: { depth: 4, max: 3 } }],
    },
    {
      code: 'if (a) {\n  if (b) {\n    if (c) {}\n  }\n  if (d) {\n    if (e) {}\n  }\n}',
      options: { max: 2 },
      name: 'module-level code has a depth too; sibling regions make one finding, at the first',
      findings: [{ line: 3, titleIncludes: 'at module level', data: { depth: 3, regions: 2 } }],
    },
    {
      code: 'function f() {\n  if (a) {\n    if (b) { if (c) {} }\n  }\n  for (;;) {\n    if (d) { if (e) { if (g) {} } }\n  }\n}',
      options: { max: 2 },
      name: 'one finding per function, at its deepest region',
      findings: [{ line: 6, symbol: 'f', data: { depth: 4, regions: 2 } }],
    },
    {
      code: 'function outer() {\n  if (a) {\n    if (b) {\n      if (c) {\n        items.forEach((item) => {\n          if (item) { if (d) { if (e) {} } }\n        });\n      }\n    }\n  }\n}',
      options: { max: 2 },
      name: 'a callback is measured on its own: the parent counts only its own levels, the callback has its own finding',
      findings: [
        { line: 4, symbol: 'outer', data: { depth: 3, regions: 1 } },
        { line: 6, titleIncludes: 'in outer > ', data: { depth: 3, regions: 1 } },
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
