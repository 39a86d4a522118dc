import { AnalyzerTester } from '@codehealth/engine/testing';
import { codeSmell } from '../index.js';

const methods = (n: number, indent = '  ') => Array.from({ length: n }, (_, i) => `${indent}m${i}() {}`).join('\n');
const fieldLines = (n: number) => Array.from({ length: n }, (_, i) => `  f${i} = ${i};`).join('\n');

new AnalyzerTester(codeSmell).run('large-class', {
  valid: [
    `class Small {\n${methods(20)}\n}`,
    {
      code: `class Counted {\n  constructor() {}\n  get x() { return 1; }\n  set x(v) {}\n  static get x() { return 2; }\n${methods(18)}\n}`,
      name: 'the constructor does not count, a getter and setter pair counts once (static apart)',
    },
    {
      code: `class Overloads {\n${Array.from({ length: 30 }, () => '  f(a: string): void;').join('\n')}\n  f(a: unknown) {}\n}\ndeclare class Ambient {\n${Array.from({ length: 30 }, (_, i) => `  s${i}(): void;`).join('\n')}\n}`,
      name: 'overload and ambient signatures are not methods',
    },
    { code: `class Data {\n${fieldLines(498)}\n}`, name: '500 lines of code' },
    { code: `class Commented {\n${fieldLines(10)}\n${'  // note\n'.repeat(600)}}`, options: { maxLines: 20 }, name: 'comment lines do not count' },
  ],
  invalid: [
    {
      code: `export class Service {\n${methods(21)}\n}`,
      name: 'too many methods',
      findings: [
        {
          line: 1,
          endLine: 23,
          severity: 'info',
          symbol: 'Service',
          title: 'Class Service has 21 methods (max 20)',
          data: { methods: 21, lines: 23, maxMethods: 20, maxLines: 500 },
        },
      ],
    },
    {
      code: `class Data {\n${fieldLines(499)}\n}`,
      name: 'too many lines: the class header and closing brace are lines of code',
      findings: [{ line: 1, severity: 'info', title: 'Class Data has 501 lines of code (max 500)', data: { methods: 0, lines: 501 } }],
    },
    {
      code: `const Handler = class {\n  a = () => 1;\n  b = function () {};\n  c = 3;\n  abstract d(): void;\n  e() {}\n};`,
      options: { maxMethods: 3, maxLines: 5 },
      name: 'arrow and function fields and abstract methods count; a class expression takes its binding name; both limits',
      findings: [
        { line: 1, endLine: 7, symbol: 'Handler', title: 'Class Handler has 4 methods and 7 lines of code (max 3 methods and 5 lines)', severity: 'info' },
      ],
    },
    {
      code: `export default class {\n${methods(41)}\n}`,
      name: 'info above twice the limit too; an anonymous default export is default',
      findings: [{ line: 1, severity: 'info', symbol: 'default', data: { methods: 41 } }],
    },
    {
      code: `class Outer {\n  inner() {\n    return class Inner {\n${methods(3, '      ')}\n    };\n  }\n}`,
      options: { maxMethods: 2 },
      name: 'nested classes are checked on their own',
      findings: [{ line: 3, endLine: 7, symbol: 'Inner', data: { methods: 3 } }],
    },
  ],
});
