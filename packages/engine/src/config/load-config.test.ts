import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config.js';

async function repoWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'codehealth-config-'));
  for (const [name, content] of Object.entries(files)) await writeFile(join(dir, name), content);
  return dir;
}

describe('loadConfig', () => {
  it('returns an empty config when the repository has none', async () => {
    expect(await loadConfig(await repoWith({}), { allowCode: true })).toEqual({ config: {} });
  });

  it('reads and validates JSON', async () => {
    const dir = await repoWith({
      'codehealth.config.json': JSON.stringify({ exclude: ['scripts/**'], rules: { 'code-smell/long-function': 'off' }, thresholds: { failUnder: 'B' } }),
    });
    const { config, path } = await loadConfig(dir, { allowCode: false });
    expect(path).toBe(join(dir, 'codehealth.config.json'));
    expect(config.exclude).toEqual(['scripts/**']);
    expect(config.rules?.['code-smell/long-function']).toBe('off');
    expect(config.thresholds?.failUnder).toBe('B');
  });

  it('loads a TypeScript config when code configs are allowed', async () => {
    const dir = await repoWith({
      'codehealth.config.ts': "const limit: number = 70;\nexport default { thresholds: { failUnder: limit }, exclude: ['gen/**'] };\n",
    });
    const { config } = await loadConfig(dir, { allowCode: true });
    expect(config.thresholds?.failUnder).toBe(70);
    expect(config.exclude).toEqual(['gen/**']);
  });

  it('refuses code configs on hosts that read JSON only', async () => {
    const dir = await repoWith({ 'codehealth.config.js': 'export default {};' });
    await expect(loadConfig(dir, { allowCode: false })).rejects.toThrow(/is code and this host only reads codehealth.config.json/);
  });

  it('names every invalid key', async () => {
    const dir = await repoWith({
      'codehealth.config.json': JSON.stringify({ exlude: ['x'], thresholds: { failUnder: 'Z' }, rules: { nope: 'off' } }),
    });
    const error = await loadConfig(dir, { allowCode: false }).catch((e: Error) => e);
    expect(error).toMatchObject({ name: 'ConfigError', expose: true });
    expect((error as Error).message).toMatch(/exlude/);
    expect((error as Error).message).toMatch(/thresholds\.failUnder/);
    expect((error as Error).message).toMatch(/<analyzer>\/<rule>/);
  });

  it('caps maxFileBytes at 16 MiB', async () => {
    const at = await repoWith({ 'codehealth.config.json': JSON.stringify({ maxFileBytes: 16 * 1024 * 1024 }) });
    expect((await loadConfig(at, { allowCode: false })).config.maxFileBytes).toBe(16 * 1024 * 1024);
    const over = await repoWith({ 'codehealth.config.json': JSON.stringify({ maxFileBytes: 16 * 1024 * 1024 + 1 }) });
    const error = await loadConfig(over, { allowCode: false }).catch((e: Error) => e);
    expect(error).toMatchObject({ name: 'ConfigError', expose: true });
    expect((error as Error).message).toMatch(/maxFileBytes is at most 16777216 \(16 MiB\)/);
  });

  it('never reads a config that is a link leading outside the repository, nor quotes what it points at', async () => {
    const outside = await repoWith({ 'secret.json': '{"exclude": ["OUTSIDE-SECRET-41d"]}', passwd: 'root:x:0:0:OUTSIDE-SECRET-41d:/root:/bin/bash\n' });
    for (const target of [join(outside, 'secret.json'), join(outside, 'passwd'), '/proc/self/environ', '/etc/passwd']) {
      const dir = await repoWith({});
      await symlink(target, join(dir, 'codehealth.config.json'));
      const error = (await loadConfig(dir, { allowCode: false }).catch((e: Error) => e)) as Error;
      expect(error).toMatchObject({
        name: 'ConfigError',
        message: 'config codehealth.config.json: reached through a symbolic link that leads outside the repository; not read',
      });
    }
    const code = await repoWith({});
    await writeFile(join(outside, 'evil.ts'), 'export default { exclude: ["x"] };\n');
    await symlink(join(outside, 'evil.ts'), join(code, 'codehealth.config.ts'));
    await expect(loadConfig(code, { allowCode: true })).rejects.toThrow(/codehealth.config.ts: reached through a symbolic link that leads outside/);
  });

  it('follows a link to a config inside the repository, and refuses one that is not a regular file', async () => {
    const dir = await repoWith({});
    await mkdir(join(dir, 'config'));
    await writeFile(join(dir, 'config', 'codehealth.json'), JSON.stringify({ exclude: ['gen/**'] }));
    await symlink('config/codehealth.json', join(dir, 'codehealth.config.json'));
    expect((await loadConfig(dir, { allowCode: false })).config.exclude).toEqual(['gen/**']);
    const fifo = await repoWith({});
    execFileSync('mkfifo', [join(fifo, 'codehealth.config.json')]);
    await expect(loadConfig(fifo, { allowCode: false })).rejects.toThrow('config codehealth.config.json: not a regular file; not read');
  });

  it('says where malformed JSON is wrong without quoting it', async () => {
    const dir = await repoWith({ 'codehealth.config.json': 'root:x:0:0:root:/root:/bin/bash\n' });
    const error = (await loadConfig(dir, { allowCode: false }).catch((e: Error) => e)) as Error;
    expect(error.message).toBe('invalid config codehealth.config.json: not valid JSON: unexpected character at line 1, column 1');
    const truncated = await repoWith({ 'codehealth.config.json': '{\n  "plugins": [' });
    await expect(loadConfig(truncated, { allowCode: false })).rejects.toThrow(
      'invalid config codehealth.config.json: not valid JSON: unexpected end of input at line 2, column 15',
    );
  });

  it('reports malformed JSON and several config files as config errors', async () => {
    await expect(loadConfig(await repoWith({ 'codehealth.config.json': '{ "plugins": [' }), { allowCode: false })).rejects.toThrow(
      /invalid config codehealth.config.json/,
    );
    await expect(
      loadConfig(await repoWith({ 'codehealth.config.json': '{}', 'codehealth.config.ts': 'export default {}' }), { allowCode: true }),
    ).rejects.toThrow(/more than one config file/);
  });
});
