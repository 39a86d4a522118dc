import { describe, expect, it } from 'vitest';
import type { AssessmentResult } from '@codehealth/engine';
import { analyzeFiles } from '../fixtures/analyze-files.js';

const RULE = 'runtime/floating-imported-promise';
const found = (result: AssessmentResult) =>
  result.findings.filter((f) => f.ruleId === RULE).map((f) => `${f.filePath}:${f.anchor.lineStart} ${f.title} [${f.symbol ?? ''}]`);

describe('runtime/floating-imported-promise on mini-repositories', () => {
  it('reports dropped calls of imported async functions, through re-exports, export * and namespaces', async () => {
    const result = await analyzeFiles({
      'package.json': '{ "name": "app", "type": "module" }',
      'src/mailer.ts': 'export async function sendMail(to: string) {\n  await transport.send(to);\n}\nexport function format(to: string) {\n  return to;\n}\n',
      'src/store.ts':
        'const save = async (x: unknown) => {\n  await db.put(x);\n};\nexport { save as persist };\nexport default async function flush() {\n  await db.flush();\n}\n',
      'src/index.ts': "export { sendMail } from './mailer.js';\nexport * from './store.js';\n",
      'src/app.ts': [
        "import { sendMail, persist } from './index.js';",
        "import flush from './store.js';",
        "import * as mailer from './mailer.js';",
        'export function onSignup(user: { email: string }) {',
        '  sendMail(user.email);',
        '  persist(user);',
        '  flush();',
        '  mailer.sendMail(user.email);',
        '  mailer.format(user.email);',
        '}',
        '',
      ].join('\n'),
    });
    expect(found(result)).toEqual([
      'src/app.ts:5 Unhandled promise from sendMail() in onSignup [onSignup]',
      'src/app.ts:6 Unhandled promise from persist() in onSignup [onSignup]',
      'src/app.ts:7 Unhandled promise from flush() in onSignup [onSignup]',
      'src/app.ts:8 Unhandled promise from mailer.sendMail() in onSignup [onSignup]',
    ]);
    const first = result.findings.find((f) => f.ruleId === RULE)!;
    expect(first).toMatchObject({
      severity: 'info',
      confidence: 90,
      category: 'runtime',
      anchor: { lineStart: 5, lineEnd: 5, codeSnippet: '  sendMail(user.email);', validated: true },
      data: { promise: 'sendMail()', declaredIn: 'src/mailer.ts' },
    });
    expect(first.description).toContain('`sendMail` is declared `async` in src/mailer.ts (line 1)');
    expect(result.metrics.analyzerMetrics).toMatchObject({ 'runtime.asyncFunctions': 3, 'runtime.floatingPromises': 4 });
  });

  it('leaves handled, awaited, shadowed, external and non-async calls alone; counts same-file floating promises in the metric', async () => {
    const result = await analyzeFiles({
      'package.json': '{ "name": "app", "type": "module" }',
      'src/jobs.ts':
        'export async function run() {\n  await work();\n}\nexport async function safe() {\n  try {\n    await work();\n  } catch (error) {\n    report(error);\n  }\n}\nexport function sync() {}\n',
      'src/main.ts': [
        "import { run, safe, sync } from './jobs.js';",
        "import { readFile } from 'node:fs/promises';",
        "import { external } from 'some-package';",
        'async function local() {}',
        'export async function main() {',
        '  await run();',
        '  run().catch(console.error);',
        '  void run();',
        '  safe();',
        '  sync();',
        '  external();',
        '  local();',
        '  const run2 = run;',
        '}',
        'export function shadow(run: () => void) {',
        '  run();',
        '}',
        '',
      ].join('\n'),
    });
    expect(found(result)).toEqual([]);
    // `local()` is the file rule's finding; readFile is imported but never called as a statement.
    expect(result.findings.map((f) => `${f.ruleId} ${f.anchor.lineStart}`)).toEqual(['runtime/floating-promise 12']);
    expect(result.metrics.analyzerMetrics).toMatchObject({ 'runtime.asyncFunctions': 4, 'runtime.floatingPromises': 1 });
  });
});
