// The scaffold's output, registered the way its closing message says, must run: its own generated
// tests pass (they are imported below and run as part of this file), and an engine run under test
// finds the new rule through a plugin package loaded by name, without a build.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '@codehealth/engine';

const here = dirname(fileURLToPath(import.meta.url));
const script = join(here, '..', 'scripts', 'new-rule.mjs');
// A plugin package inside this package (so the generated code resolves @codehealth/engine like a real
// rule), shaped like @codehealth/analyzers: `source` export for TypeScript runners, `default` a dist
// that is never built here.
const pkg = mkdtempSync(join(here, '..', '.scaffold-probe-'));
const base = join(pkg, 'src');
afterAll(() => rmSync(pkg, { recursive: true, force: true }));

function scaffold(...args: string[]): { status: number; out: string } {
  try {
    const out = execFileSync(process.execPath, [script, ...args], { encoding: 'utf8', stdio: 'pipe', env: { ...process.env, CODEHEALTH_SCAFFOLD_ROOT: base } });
    return { status: 0, out };
  } catch (error) {
    return { status: (error as { status: number }).status, out: String((error as { stderr: string }).stderr) };
  }
}

// Scaffold one rule of each kind and register them as the closing message says.
const fileRun = scaffold('probe/sample-rule');
const repositoryRun = scaffold('probe/big-files', '--repository');
writeFileSync(
  join(pkg, 'package.json'),
  JSON.stringify({ name: 'probe-plugin', type: 'module', exports: { '.': { source: './src/index.ts', default: './dist/index.js' } } }),
);
mkdirSync(join(base, 'probe'), { recursive: true });
writeFileSync(
  join(base, 'probe', 'index.ts'),
  "import { defineAnalyzer } from '@codehealth/engine/kit';\n" +
    "import { sampleRule } from './sample-rule/rule.js';\nimport { bigFiles } from './big-files/rule.js';\n\n" +
    "export const probe = defineAnalyzer({ id: 'probe', description: 'd', categories: ['code_smell'], languages: ['typescript'], rules: [sampleRule, bigFiles] });\n",
);
writeFileSync(join(base, 'index.ts'), "import { probe } from './probe/index.js';\n\nexport default { name: 'probe-plugin', analyzers: [probe] };\n");

// The generated tests, as an author gets them: they register their cases here.
await import(join(base, 'probe', 'sample-rule', 'rule.test.ts'));
await import(join(base, 'probe', 'big-files', 'rule.test.ts'));

describe('npm run new-rule', () => {
  it('creates a file rule and a repository rule with READMEs of the fixed headings', () => {
    expect(fileRun).toMatchObject({ status: 0, out: expect.stringContaining("add sampleRule (from './sample-rule/rule.js')") });
    expect(repositoryRun.status).toBe(0);
    const readme = readFileSync(join(base, 'probe', 'sample-rule', 'README.md'), 'utf8');
    expect(readme.split('\n').filter((l) => l.startsWith('#'))).toEqual([
      '## What it finds',
      '## Why it matters',
      '## How to fix',
      '## Options',
      '## When not to use it',
    ]);
    expect(readFileSync(join(base, 'probe', 'big-files', 'rule.ts'), 'utf8')).toContain("kind: 'repository'");
  });

  it('tests a repository rule with @codehealth/engine/testing alone, no helper of this repository', () => {
    const test = readFileSync(join(base, 'probe', 'big-files', 'rule.test.ts'), 'utf8');
    expect(test).toContain("import { RepositoryRuleTester } from '@codehealth/engine/testing';");
    expect(test).not.toMatch(/test\/helpers|\.\.\/\.\.\/\.\.\//);
  });

  it('makes a rule that an engine run under test finds without a build', async () => {
    expect(existsSync(join(pkg, 'dist'))).toBe(false);
    const repo = mkdtempSync(join(tmpdir(), 'codehealth-scaffold-run-'));
    try {
      mkdirSync(join(repo, 'src'));
      writeFileSync(join(repo, 'src', 'a.ts'), 'export function f() {\n  debugger;\n}\n');
      writeFileSync(join(repo, 'src', 'big.ts'), Array.from({ length: 401 }, (_, i) => `export const v${i} = ${i};`).join('\n'));
      // Loaded by path like any installed plugin package, with the engine's default worker threads.
      const engine = await createEngine({ plugins: [pkg], cacheDir: false });
      const { findings } = await engine.analyze(repo);
      expect(findings.map((f) => [f.ruleId, f.filePath, f.anchor.lineStart]).sort()).toEqual([
        ['probe/big-files', 'src/big.ts', 1],
        ['probe/sample-rule', 'src/a.ts', 2],
      ]);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });

  it('refuses bad ids, unknown flags and existing folders', () => {
    expect(scaffold('NotKebab/x')).toMatchObject({ status: 2, out: expect.stringContaining('usage') });
    expect(scaffold('onlyone').status).toBe(2);
    expect(scaffold('probe/x', '--verbose').status).toBe(2);
    expect(scaffold('probe/sample-rule')).toMatchObject({ status: 2, out: expect.stringContaining('already exists') });
    expect(existsSync(join(here, 'probe'))).toBe(false);
  });
});
