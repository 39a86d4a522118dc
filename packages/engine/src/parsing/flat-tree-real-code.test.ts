// FlatTree against the tree-sitter binding on real code: every 25th TypeScript file of effect 3.22.4
// (many parse errors when unrepaired) and of rxjs 7.8.2, node by node. About a minute: it runs in the
// corpus project (vitest.config.ts), with the peer agreements; flat-tree.test.ts checks snippets in unit.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { differences } from './fixtures/flat-tree-differences.js';
import { parseSource } from './parser.js';
import { obtainEffect, obtainRxjs } from '../../../../test/helpers/corpora.js';

describe('FlatTree on real code', () => {
  it('answers like the binding on real code (effect, with many parse errors unrepaired, and rxjs)', (context) => {
    const effect = obtainEffect();
    const rxjs = obtainRxjs();
    if (effect.error !== undefined || rxjs.error !== undefined) return context.skip(`corpora unavailable: ${effect.error ?? rxjs.error}`);
    const sample = (dir: string, every: number) =>
      readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))
        .sort()
        .filter((_, i) => i % every === 0)
        .map((p) => join(dir, p));
    const files = [...sample(join(effect.root, 'src'), 25), ...sample(join(rxjs.root, 'src'), 25)];
    expect(files.length).toBeGreaterThan(20);
    let withErrors = 0;
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      // As the engine reads it (repaired trees record the original text) and as the grammar left it.
      expect(differences(source, 'typescript'), file).toEqual([]);
      if (!parseSource(source, 'typescript', { repair: false }).rootNode.hasError) continue;
      withErrors++;
      expect(differences(source, 'typescript', false), file).toEqual([]);
    }
    expect(withErrors).toBeGreaterThan(3);
  }, 120_000);
});
