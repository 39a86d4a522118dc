import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DiskRunStateStore, inventoryConfigKey, type RunState } from './run-state-store.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function state(commitSha: string): RunState {
  return { commitSha, configKey: inventoryConfigKey({}), files: [], contentHashes: {}, git: { recent: [], history: [] } as unknown as RunState['git'] };
}

describe('DiskRunStateStore', () => {
  it('reads back what it wrote, also from a new store over the same directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'codehealth-run-states-'));
    dirs.push(dir);
    await new DiskRunStateStore(dir).set({ ...state('a'.repeat(40)), contentHashes: { 'src/a.ts': 'h1' } });
    const again = await new DiskRunStateStore(dir).get('a'.repeat(40), inventoryConfigKey({}));
    expect(again?.contentHashes).toEqual({ 'src/a.ts': 'h1' });
    expect(await new DiskRunStateStore(dir).get('a'.repeat(40), inventoryConfigKey({ exclude: ['x'] }))).toBeUndefined();
  });

  it('treats a corrupt file as a miss and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'codehealth-run-states-'));
    dirs.push(dir);
    const lines: string[] = [];
    const store = new DiskRunStateStore(dir, (line) => lines.push(line));
    await store.set(state('b'.repeat(40)));
    writeFileSync(join(dir, 'run-states', `${'b'.repeat(40)}-${inventoryConfigKey({})}.json`), '{not json');
    expect(await new DiskRunStateStore(dir, (line) => lines.push(line)).get('b'.repeat(40), inventoryConfigKey({}))).toBeUndefined();
    expect(lines.join('\n')).toMatch(/is not JSON/);
  });

  it('keeps only the newest states past its limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'codehealth-run-states-'));
    dirs.push(dir);
    const store = new DiskRunStateStore(dir, () => undefined, 3);
    const shas = ['1', '2', '3', '4', '5'].map((c) => c.repeat(40));
    for (const [n, sha] of shas.entries()) {
      await store.set(state(sha));
      // Distinct write times, oldest first, whatever the file system's timestamp resolution.
      const file = join(dir, 'run-states', `${sha}-${inventoryConfigKey({})}.json`);
      utimesSync(file, 1_000 + n, 1_000 + n);
    }
    const kept = readdirSync(join(dir, 'run-states'))
      .map((name) => name.slice(0, 40))
      .sort();
    expect(kept).toEqual(shas.slice(2).sort());
  });
});
