import { AnalyzerTester } from '@codehealth/engine/testing';
import { noConsoleAnalyzer } from '../index.js';

new AnalyzerTester(noConsoleAnalyzer).run('no-console', {
  valid: [
    'logger.info("started");',
    { code: 'console.error("boom");', options: { allow: ['error'] } },
    // Tests may log: the rule only looks at source files.
    { code: 'console.log("debug");', filename: 'src/app.test.ts' },
  ],
  invalid: [
    { code: 'console.log("x");', findings: [{ line: 1, title: 'console.log call', severity: 'low' }] },
    {
      code: 'function f() {\n  if (a) {\n    console.warn(a);\n  }\n}\nconsole.error(b);',
      options: { allow: ['debug'] },
      findings: [
        { line: 3, title: 'console.warn call' },
        { line: 6, title: 'console.error call' },
      ],
    },
  ],
});
