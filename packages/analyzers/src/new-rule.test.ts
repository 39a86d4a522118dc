// The scaffold's output must pass what the meta-test demands of a real rule: the README headings,
// and a rule that loads, validates and reports what its template test expects.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { defineAnalyzer, type Rule } from '@codehealth/engine';
import { runRule } from '@codehealth/engine/testing';

const here = dirname(fileURLToPath(import.meta.url));
const script = join(here, '..', 'scripts', 'new-rule.mjs');
// Inside the package, so the generated code resolves @codehealth/engine like a real rule.
const base = mkdtempSync(join(here, '..', '.scaffold-probe-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

function scaffold(...args: string[]): { status: number; out: string } {
  try {
    const out = execFileSync(process.execPath, [script, ...args], { encoding: 'utf8', stdio: 'pipe', env: { ...process.env, CODEHEALTH_SCAFFOLD_ROOT: base } });
    return { status: 0, out };
  } catch (error) {
    return { status: (error as { status: number }).status, out: String((error as { stderr: string }).stderr) };
  }
}

describe('npm run new-rule', () => {
  it('creates a documented file rule that reports what its template test expects', async () => {
    expect(scaffold('probe/sample-rule').status).toBe(0);
    const folder = join(base, 'probe', 'sample-rule');
    const readme = readFileSync(join(folder, 'README.md'), 'utf8');
    expect(readme.split('\n').filter((l) => l.startsWith('#'))).toEqual(['## What it finds', '## Why it matters', '## How to fix', '## Options', '## When not to use it']);
    expect(readFileSync(join(folder, 'rule.test.ts'), 'utf8')).toContain("run('sample-rule'");
    const { sampleRule } = (await import(join(folder, 'rule.ts'))) as { sampleRule: Rule };
    const analyzer = defineAnalyzer({ id: 'probe', description: 'd', categories: ['code_smell'], languages: ['typescript'], rules: [sampleRule] });
    expect(runRule(analyzer, 'sample-rule', { code: 'const fine = 1;' })).toEqual([]);
    const findings = runRule(analyzer, 'sample-rule', { code: 'function f() {\n  debugger;\n}' });
    expect(findings.map((f) => [f.anchor.lineStart, f.title, f.ruleId])).toEqual([[2, 'Describe this occurrence', 'probe/sample-rule']]);
  });

  it('creates a repository rule with --repository', async () => {
    expect(scaffold('probe/big-files', '--repository').status).toBe(0);
    const source = readFileSync(join(base, 'probe', 'big-files', 'rule.ts'), 'utf8');
    expect(source).toContain("kind: 'repository'");
    const { bigFiles } = (await import(join(base, 'probe', 'big-files', 'rule.ts'))) as { bigFiles: Rule };
    expect(bigFiles.kind).toBe('repository');
  });

  it('refuses bad ids, unknown flags and existing folders', () => {
    expect(scaffold('NotKebab/x')).toMatchObject({ status: 2, out: expect.stringContaining('usage') });
    expect(scaffold('onlyone').status).toBe(2);
    expect(scaffold('probe/x', '--verbose').status).toBe(2);
    expect(scaffold('probe/sample-rule')).toMatchObject({ status: 2, out: expect.stringContaining('already exists') });
    expect(existsSync(join(here, 'probe'))).toBe(false);
  });
});
