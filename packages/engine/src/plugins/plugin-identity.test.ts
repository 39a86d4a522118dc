// A plugin's code is part of the summary cache's key: after an upgrade (a new version, or the same
// version rebuilt with other code) an engine on the same cache directory runs the new code instead
// of serving the findings the old code made; with the code unchanged it still reads the cache.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../di/create-engine.js';
import { pluginCodeIdentity } from './plugin-identity.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'codehealth-plugin-identity-'));
  dirs.push(dir);
  return dir;
}

/** A plugin package whose one file rule reports every file with `marker` in its title. */
function writePlugin(dir: string, version: string, marker: string): void {
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'marker-plugin', version, type: 'module', main: './dist/index.js' }));
  const rule = `{
    kind: 'file',
    meta: { id: 'marker', description: 'marks every file', category: 'code_smell', severity: 'low', docs: { whyItMatters: 'a test', suggestedAction: 'none' } },
    create(context) {
      return { program(node) { context.report({ node, title: ${JSON.stringify(marker)}, description: 'marked' }); } };
    },
  }`;
  writeFileSync(
    join(dir, 'dist', 'index.js'),
    `export default { name: 'marker-plugin', analyzers: [{ id: 'marker', description: 'marks', categories: ['code_smell'], languages: ['typescript'], rules: [${rule}] }] };\n`,
  );
}

async function markers(plugin: string, cacheDir: string, repo: string): Promise<string[]> {
  const engine = await createEngine({ plugins: [plugin], cacheDir, workers: 0 });
  const result = await engine.analyze(repo, { allowCodeConfig: false });
  return result.findings.filter((f) => f.ruleId === 'marker/marker').map((f) => f.title);
}

describe('the summary cache and the plugin code', () => {
  it('runs the new code after an upgrade, and reads the cache while the code is unchanged', async () => {
    const cacheDir = tempDir();
    const repo = tempDir();
    writeFileSync(join(repo, 'index.ts'), 'export const one = 1;\n');
    // Each install in a directory of its own: a process imports a module once per URL (a new
    // process would load the upgraded files from the same path), and the key never holds the path.
    const install = (version: string, marker: string): string => {
      const dir = tempDir();
      writePlugin(dir, version, marker);
      return dir;
    };

    expect(await markers(install('1.0.0', 'marker one'), cacheDir, repo)).toEqual(['marker one']);
    // The same code again, installed elsewhere: the cached summary is read (its finding is the cached one).
    expect(await markers(install('1.0.0', 'marker one'), cacheDir, repo)).toEqual(['marker one']);
    // The same version rebuilt with other code (a development build, a patched install).
    expect(await markers(install('1.0.0', 'marker two'), cacheDir, repo)).toEqual(['marker two']);
    // Only the version changes: another identity as well.
    expect(await markers(install('1.0.1', 'marker two'), cacheDir, repo)).toEqual(['marker two']);
  });

  it('names the package, its version and a hash of the code under the entry directory', async () => {
    const plugin = tempDir();
    writePlugin(plugin, '2.3.4', 'm');
    mkdirSync(join(plugin, 'dist', 'node_modules'), { recursive: true });
    writeFileSync(join(plugin, 'dist', 'node_modules', 'ignored.js'), 'export {};\n');
    const before = await pluginCodeIdentity(join(plugin, 'dist', 'index.js'));
    expect(before).toMatch(/^marker-plugin@2\.3\.4#[0-9a-f]{16}$/);

    // A second file of the plugin's code, in another process (the identity is read once per process and entry).
    const other = tempDir();
    writePlugin(other, '2.3.4', 'm');
    writeFileSync(join(other, 'dist', 'helper.js'), 'export const helper = 1;\n');
    const withHelper = await pluginCodeIdentity(join(other, 'dist', 'index.js'));
    expect(withHelper).not.toBe(before);
    expect(withHelper.split('#')[0]).toBe('marker-plugin@2.3.4');
  });
});
