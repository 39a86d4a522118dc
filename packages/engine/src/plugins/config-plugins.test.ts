import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../di/create-engine.js';
import type { Plugin } from '../contracts/analyzer.js';
import { PLUGIN_NOT_INSTALLED_RULE } from './config-plugins.js';
import { defineAnalyzer, defineRule } from './define.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'codehealth-config-plugins-'));
  dirs.push(dir);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** A plugin module that leaves a trace file beside itself when it is imported (what an attacker's code would do). */
const EVIL = [
  "import { writeFileSync } from 'node:fs';",
  "writeFileSync(new URL('./TRACE', import.meta.url), String(process.pid));",
  "export default { name: 'evil', analyzers: [{ id: 'evil', description: 'x', categories: ['security'], languages: ['typescript'], rules: [] }] };",
  '',
].join('\n');

/** A host plugin with one per-file rule that reports every source file, so its runs can be counted. */
const eachFile = defineRule({
  kind: 'file',
  meta: {
    id: 'each-file',
    description: 'each file',
    category: 'code_smell',
    severity: 'low',
    docs: { whyItMatters: 'A probe.', suggestedAction: 'None.' },
  },
  create: (context) => ({
    program: (node) => context.report({ node, title: 'seen', description: 'The rule saw this file.' }),
  }),
});
const hostPlugin: Plugin = {
  name: 'host-plugin',
  analyzers: [defineAnalyzer({ id: 'host', description: 'reports each file once', categories: ['code_smell'], languages: ['typescript'], rules: [eachFile] })],
};

describe('plugins named by a repository config', () => {
  it('are never imported on an untrusted run: each becomes an info finding on the config line that names it', async () => {
    const outside = dirWith({ 'abs/evil.mjs': EVIL });
    const repo = dirWith({
      'codehealth.config.json': JSON.stringify({ plugins: ['./tools/evil.mjs', 'evil-package', join(outside, 'abs/evil.mjs')] }, null, 2),
      'tools/evil.mjs': EVIL,
      'node_modules/evil-package/package.json': JSON.stringify({ name: 'evil-package', type: 'module', main: 'index.js' }),
      'node_modules/evil-package/index.js': EVIL,
      'src/a.ts': 'export const a = 1;\n',
    });
    const engine = await createEngine({ plugins: [hostPlugin], cacheDir: false, workers: 0 });
    const result = await engine.analyze(repo, { allowCodeConfig: false });
    for (const trace of ['tools/TRACE', 'node_modules/evil-package/TRACE']) expect(existsSync(join(repo, trace))).toBe(false);
    expect(existsSync(join(outside, 'abs/TRACE'))).toBe(false);
    const notices = result.findings.filter((f) => f.ruleId === PLUGIN_NOT_INSTALLED_RULE);
    expect(notices.map((f) => [f.data?.plugin, f.anchor.lineStart, f.severity, f.filePath])).toEqual([
      ['./tools/evil.mjs', 3, 'info', 'codehealth.config.json'],
      ['evil-package', 4, 'info', 'codehealth.config.json'],
      [join(outside, 'abs/evil.mjs'), 5, 'info', 'codehealth.config.json'],
    ]);
    expect(notices[0].anchor.codeSnippet).toContain('./tools/evil.mjs');
    // The host's own plugin still ran; an info notice costs no points.
    expect(result.findings.some((f) => f.ruleId === 'host/each-file')).toBe(true);
    expect(result.analyzers.map((a) => a.id)).toEqual(['host']);
  });

  it("ignore the settings of a refused plugin's analyzers instead of failing the run; a typo of a host rule still fails", async () => {
    const repo = dirWith({
      'codehealth.config.json': JSON.stringify({
        plugins: ['./evil.mjs'],
        analyzers: { evil: true },
        rules: { 'evil/x': 'off', 'host/each-file': { severity: 'high' } },
      }),
      'evil.mjs': EVIL,
      'src/a.ts': 'export const a = 1;\n',
    });
    const engine = await createEngine({ plugins: [hostPlugin], cacheDir: false, workers: 0 });
    const result = await engine.analyze(repo);
    const [notice] = result.findings.filter((f) => f.ruleId === PLUGIN_NOT_INSTALLED_RULE);
    expect(notice.description).toContain('were ignored: analyzers.evil, rules.evil/x');
    expect(result.findings.find((f) => f.ruleId === 'host/each-file')?.severity).toBe('high');
    writeFileSync(join(repo, 'codehealth.config.json'), JSON.stringify({ plugins: ['./evil.mjs'], rules: { 'host/each-fle': 'off' } }));
    await expect(engine.analyze(repo)).rejects.toMatchObject({ name: 'ConfigError', message: expect.stringContaining('host/each-fle: no such rule') });
  });

  it('is the default: a run without allowCodeConfig imports nothing the repository names', async () => {
    const repo = dirWith({ 'codehealth.config.json': '{ "plugins": ["./evil.mjs"] }', 'evil.mjs': EVIL, 'src/a.ts': 'export const a = 1;\n' });
    const engine = await createEngine({ plugins: [hostPlugin], cacheDir: false, workers: 0 });
    const result = await engine.analyze(repo);
    expect(existsSync(join(repo, 'TRACE'))).toBe(false);
    expect(result.findings.filter((f) => f.ruleId === PLUGIN_NOT_INSTALLED_RULE)).toHaveLength(1);
  });

  it('may name a plugin the host installed (by name): it runs once, with no notice', async () => {
    const repo = dirWith({
      'codehealth.config.json': JSON.stringify({ plugins: ['host-plugin'], rules: { 'host/each-file': { severity: 'high' } } }),
      'src/a.ts': 'export const a = 1;\n',
    });
    const engine = await createEngine({ plugins: [hostPlugin], cacheDir: false, workers: 0 });
    const result = await engine.analyze(repo, { allowCodeConfig: false });
    expect(result.findings.filter((f) => f.ruleId === PLUGIN_NOT_INSTALLED_RULE)).toEqual([]);
    const seen = result.findings.filter((f) => f.ruleId === 'host/each-file');
    expect(seen).toHaveLength(1);
    expect(seen[0].severity).toBe('high');
  });

  it('are loaded on a trusted run (the CLI on a directory its user chose)', async () => {
    const repo = dirWith({ 'codehealth.config.json': '{ "plugins": ["./tools/evil.mjs"] }', 'tools/evil.mjs': EVIL, 'src/a.ts': 'export const a = 1;\n' });
    const engine = await createEngine({ plugins: [hostPlugin], cacheDir: false, workers: 0 });
    const result = await engine.analyze(repo, { allowCodeConfig: true });
    expect(existsSync(join(repo, 'tools/TRACE'))).toBe(true);
    expect(result.analyzers.map((a) => a.id)).toEqual(['host', 'evil']);
    expect(result.findings.filter((f) => f.ruleId === PLUGIN_NOT_INSTALLED_RULE)).toEqual([]);
  });
});
