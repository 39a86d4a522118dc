// ESLint's rule: no rule without a README with the fixed headings, a test file and a registry entry.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import plugin from './index.js';

const src = dirname(fileURLToPath(import.meta.url));
const HEADINGS = ['## What it finds', '## Why it matters', '## How to fix', '## Options', '## When not to use it'];
/** Folders inside an analyzer's folder that hold shared code, not a rule. */
const NOT_RULES = new Set(['shared', 'fixtures']);

describe('every built-in rule is documented, tested and registered', () => {
  it('every analyzer folder is a registered analyzer', () => {
    const folders = readdirSync(src, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !NOT_RULES.has(entry.name))
      .map((entry) => entry.name)
      .sort();
    expect(folders).toEqual(plugin.analyzers.map((a) => a.id).sort());
  });

  for (const analyzer of plugin.analyzers) {
    const folder = join(src, analyzer.id);
    const registered = analyzer.rules.map((rule) => rule.meta.id).sort();

    it(`${analyzer.id}: rule folders and registered rules are the same set`, () => {
      const folders = readdirSync(folder, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && !NOT_RULES.has(entry.name))
        .map((entry) => entry.name)
        .sort();
      expect(folders).toEqual(registered);
    });

    for (const id of registered) {
      it(`${analyzer.id}/${id} has rule.ts, rule.test.ts and a README with exactly the fixed headings`, () => {
        expect(existsSync(join(folder, id, 'rule.ts'))).toBe(true);
        expect(existsSync(join(folder, id, 'rule.test.ts'))).toBe(true);
        const readme = readFileSync(join(folder, id, 'README.md'), 'utf8');
        const headings = readme.split('\n').filter((line) => /^#{1,6} /.test(line));
        expect(headings).toEqual(HEADINGS);
        for (const heading of HEADINGS) {
          const body = readme.split(heading)[1].split('\n## ')[0].trim();
          expect(body.length, `${id}: "${heading}" is empty`).toBeGreaterThan(40);
        }
      });
    }
  }
});
