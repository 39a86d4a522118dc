// A repository rule tested with @codehealth/engine/testing alone: in-memory files, a git history,
// exact findings and the metric the rule publishes.
import { RepositoryRuleTester } from '@codehealth/engine/testing';
import { noConsoleAnalyzer } from '../index.js';

const writer = (name: string) => `export function ${name}() {\n  console.log('${name}');\n}\n`;

new RepositoryRuleTester(noConsoleAnalyzer).run('scattered-console', {
  valid: [
    {
      name: 'one logger module',
      files: { 'src/log.ts': writer('log'), 'src/app.ts': "import { log } from './log.js';\nlog();\n" },
      metrics: { filesWithConsole: 1 },
    },
    // Tests may log: only source modules count.
    {
      files: {
        'src/a.ts': writer('a'),
        'test/a.test.ts': writer('t1'),
        'test/b.test.ts': writer('t2'),
        'test/c.test.ts': writer('t3'),
        'test/d.test.ts': writer('t4'),
      },
      metrics: { filesWithConsole: 1 },
    },
  ],
  invalid: [
    {
      name: 'three modules write to the console, one allowed',
      files: { 'src/a.ts': writer('a'), 'src/b.ts': `// b\n${writer('b')}`, 'src/c.ts': writer('c') },
      options: { maxFiles: 1 },
      findings: [
        { path: 'src/a.ts', line: 2, title: 'console output from one of 3 modules', data: { calls: 1, modules: 3 } },
        { path: 'src/b.ts', line: 3 },
        { path: 'src/c.ts', line: 2 },
      ],
      metrics: { filesWithConsole: 3 },
    },
    {
      name: 'only the analysed commit counts, not a module that history deleted',
      history: [{ files: { 'src/old.ts': writer('old'), 'src/a.ts': writer('a') } }, { files: { 'src/old.ts': null } }],
      files: { 'src/a.ts': writer('a'), 'src/b.ts': writer('b') },
      options: { maxFiles: 1 },
      findings: [
        { path: 'src/a.ts', line: 2 },
        { path: 'src/b.ts', line: 2 },
      ],
      metrics: { filesWithConsole: 2 },
    },
  ],
});
