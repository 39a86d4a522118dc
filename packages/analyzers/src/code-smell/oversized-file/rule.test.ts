import { AnalyzerTester } from '@codehealth/engine/testing';
import { codeSmell } from '../index.js';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `export const v${i} = ${i};`).join('\n');

new AnalyzerTester(codeSmell).run('oversized-file', {
  valid: [lines(800), { code: `${lines(10)}\n\n// comment\n/* block\n comment */\n\n`, options: { max: 10 }, name: 'blank and comment lines are not counted' }],
  invalid: [
    {
      code: lines(801),
      findings: [{ line: 1, endLine: 1, severity: 'info', title: 'File has 801 lines of code (max 800)', data: { lines: 801, max: 800 } }],
    },
    {
      code: `/** header */\n${lines(11)}`,
      options: { max: 10 },
      name: 'reported at line 1 even when the file starts with a comment',
      findings: [{ line: 1, data: { lines: 11, max: 10 } }],
    },
    { code: lines(21), options: { max: 10 }, name: 'info above twice the limit too', findings: [{ line: 1, severity: 'info' }] },
  ],
});
