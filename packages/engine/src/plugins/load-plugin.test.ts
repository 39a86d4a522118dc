import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPlugin } from './load-plugin.js';

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'codehealth-plugin-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const pluginSource = "export default { name: 'p', analyzers: [{ id: 'a', rules: [] }] };\n";

describe('loadPlugin', () => {
  it('loads a package from node_modules through its exports map, and a relative path', async () => {
    const dir = dirWith({
      'node_modules/my-plugin/package.json': JSON.stringify({ name: 'my-plugin', type: 'module', exports: { '.': { import: './lib/index.js' } } }),
      'node_modules/my-plugin/lib/index.js': pluginSource,
      'local/plugin.mjs': pluginSource,
    });
    const loaded = await loadPlugin('my-plugin', dir);
    expect(loaded.plugin.name).toBe('p');
    expect(loaded.url).toMatch(/my-plugin\/lib\/index\.js$/);
    expect((await loadPlugin('./local/plugin.mjs', dir)).plugin.analyzers[0].id).toBe('a');
  });

  it("resolves the engine's own packages next to the engine first when asked (default plugins), else the directory's first", async () => {
    // A different copy of @codehealth/analyzers in the current directory's node_modules.
    const dir = dirWith({
      'node_modules/@codehealth/analyzers/package.json': JSON.stringify({ name: '@codehealth/analyzers', type: 'module', main: './index.js' }),
      'node_modules/@codehealth/analyzers/index.js': "export default { name: 'stale-copy', analyzers: [] };\n",
    });
    expect((await loadPlugin('@codehealth/analyzers', dir)).plugin.name).toBe('stale-copy');
    const own = await loadPlugin('@codehealth/analyzers', dir, { engineFirst: true });
    expect(own.plugin.name).not.toBe('stale-copy');
    expect(own.plugin.analyzers.length).toBeGreaterThan(5);
    expect(own.url).not.toContain(dir);
  });

  it('under a runner of the TypeScript sources, loads a plugin from its `source` export, and gives workers the built entry only when there is one', async () => {
    const manifest = JSON.stringify({ name: 'ts-plugin', type: 'module', exports: { '.': { source: './src/index.ts', default: './dist/index.js' } } });
    const unbuilt = dirWith({
      'node_modules/ts-plugin/package.json': manifest,
      'node_modules/ts-plugin/src/index.ts': "const name: string = 'from-source';\nexport default { name, analyzers: [] };\n",
    });
    const loaded = await loadPlugin('ts-plugin', unbuilt);
    expect(loaded.plugin.name).toBe('from-source');
    // No build: a worker thread (plain JavaScript) could not load it, so the pass stays in process.
    expect(loaded.url).toBeUndefined();
    const built = dirWith({
      'node_modules/ts-plugin/package.json': manifest,
      'node_modules/ts-plugin/src/index.ts': "export default { name: 'from-source', analyzers: [] };\n",
      'node_modules/ts-plugin/dist/index.js': "export default { name: 'stale-build', analyzers: [] };\n",
    });
    const both = await loadPlugin('ts-plugin', built);
    expect(both.plugin.name).toBe('from-source');
    expect(both.url).toMatch(/ts-plugin\/dist\/index\.js$/);
  });

  it('loads the default plugin from the sources under test, the very module this test imports', async () => {
    const own = await loadPlugin('@codehealth/analyzers', tmpdir(), { engineFirst: true });
    const { default: sources } = await import('@codehealth/analyzers');
    expect(own.plugin).toBe(sources);
  });

  it('refuses a missing package, a malformed manifest and a module that is not a plugin', async () => {
    const dir = dirWith({
      'node_modules/broken/package.json': '{ "name": ',
      'not-a-plugin.mjs': 'export const x = 1;\n',
    });
    await expect(loadPlugin('nope-plugin', dir)).rejects.toMatchObject({ name: 'PluginLoadError', message: expect.stringContaining('is not installed') });
    await expect(loadPlugin('broken', dir)).rejects.toMatchObject({
      name: 'PluginLoadError',
      message: expect.stringContaining('cannot read the package.json'),
    });
    await expect(loadPlugin('./not-a-plugin.mjs', dir)).rejects.toMatchObject({
      name: 'PluginLoadError',
      message: expect.stringContaining('does not export a plugin'),
    });
  });
});
