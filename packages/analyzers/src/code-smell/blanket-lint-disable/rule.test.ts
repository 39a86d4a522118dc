import { AnalyzerTester } from '@codehealth/engine/testing';
import { codeSmell } from '../index.js';

new AnalyzerTester(codeSmell).run('blanket-lint-disable', {
  valid: [
    '/* eslint-disable no-console */\nconsole.log(1);',
    '// eslint-disable-next-line no-console, no-alert\nconsole.log(1);',
    'console.log(1); // eslint-disable-line no-console -- CLI output',
    { code: '// eslint-disable\nconsole.log(1);', name: 'ESLint ignores eslint-disable in a line comment: it disables nothing' },
    { code: '// eslint-disable-next-line\n// const old = 1;\nfoo();', name: 'a next-line disable above a comment disables nothing' },
    { code: '// an eslint-disable comment would hide this\nfoo();', name: 'prose mentioning eslint-disable' },
    {
      code: '/* eslint-disable */\n/* tslint:disable */\nself.addEventListener("fetch", onFetch);',
      name: 'a whole-file opt-out before any code (a copied worker script)',
    },
    { code: '#!/usr/bin/env node\n/* eslint-disable */\nrun();', name: 'after a hashbang, still before any code' },
    { code: 'foo();\n// eslint-disable-next-line\nbar();', filename: 'src/a.test.ts', name: 'quiet in tests' },
    { code: 'foo();\n/* eslint-disable */\nbar();', filename: 'scripts/build.js', role: 'tooling', name: 'quiet in tooling' },
  ],
  invalid: [
    {
      name: 'a blanket eslint-disable after code starts turns off every rule for the rest of the file',
      code: 'export const a = 1;\n/* eslint-disable */\nexport const b = eval(s);',
      findings: [{ line: 2, severity: 'low', title: '`eslint-disable` without rule names', data: { directive: 'eslint-disable', blanket: true } }],
    },
    {
      code: 'export function f() {\n  // eslint-disable-next-line\n  var x = eval(s);\n}',
      findings: [{ line: 2, severity: 'low', title: '`eslint-disable-next-line` without rule names' }],
    },
    {
      name: 'a reason does not name the rules',
      code: 'foo(); // eslint-disable-line -- legacy',
      findings: [{ line: 1, title: '`eslint-disable-line` without rule names' }],
    },
    {
      name: 'requireReason: named rules without a reason at info',
      code: '// eslint-disable-next-line no-console\nconsole.log(1);\n// eslint-disable-next-line no-console -- CLI output\nconsole.log(2);',
      options: { requireReason: true },
      findings: [{ line: 1, severity: 'info', title: '`eslint-disable-next-line` without a reason' }],
    },
  ],
});
