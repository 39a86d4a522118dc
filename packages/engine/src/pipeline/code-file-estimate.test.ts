// The pre-inventory estimate that decides whether workers start early.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasCodeFiles } from './code-file-estimate.js';

const root = mkdtempSync(join(tmpdir(), 'codehealth-estimate-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function files(dir: string, names: string[]): void {
  mkdirSync(join(root, dir), { recursive: true });
  for (const name of names) writeFileSync(join(root, dir, name), '');
}

describe('hasCodeFiles', () => {
  it('counts code files in nested directories, not in node_modules or hidden ones', async () => {
    files('src/a/b', ['x.ts', 'y.tsx', 'z.mjs', 'README.md', 'data.json']);
    files('lib', ['w.cjs', 'v.js']);
    files('node_modules/dep', ['1.js', '2.js', '3.js', '4.js', '5.js']);
    files('.cache', ['1.ts', '2.ts', '3.ts', '4.ts', '5.ts']);
    expect(await hasCodeFiles(root, 5)).toBe(true);
    expect(await hasCodeFiles(root, 6)).toBe(false);
  });

  it('stops after a bounded number of directories, and says no for a missing root', async () => {
    files('deep/1/2/3/4', ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'e.ts', 'f.ts']);
    expect(await hasCodeFiles(root, 8)).toBe(true);
    expect(await hasCodeFiles(root, 8, 3)).toBe(false);
    expect(await hasCodeFiles(join(root, 'missing'), 1)).toBe(false);
  });
});
