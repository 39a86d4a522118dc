// large-class on real code: rxjs 7.8.2 (one class past 500 lines) and this repository (none).
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createEngine, defineAnalyzer, type Finding } from '@codehealth/engine';
import { obtainRxjs } from '../../../../../test/helpers/corpora.js';
import { codeSmell } from '../index.js';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');

async function findings(root: string): Promise<Finding[]> {
  const analyzer = defineAnalyzer({ ...codeSmell, rules: codeSmell.rules.filter((rule) => rule.meta.id === 'large-class') });
  const engine = await createEngine({ plugins: [{ name: 'test', analyzers: [analyzer] }], cacheDir: false, workers: 0 });
  return (await engine.analyze(root)).findings;
}

describe('large-class on real code', () => {
  it('finds TestScheduler in rxjs 7.8.2: 505 lines of code in a class of 12 methods', async (context) => {
    const corpus = obtainRxjs();
    if (corpus.error !== undefined) {
      console.warn(`SKIPPED: ${corpus.error}`);
      return context.skip();
    }
    expect((await findings(corpus.root)).map((f) => [f.filePath, f.anchor.lineStart, f.title, f.data])).toEqual([
      [
        'src/internal/testing/TestScheduler.ts',
        39,
        'Class TestScheduler has 505 lines of code (max 500)',
        { methods: 12, lines: 505, maxMethods: 20, maxLines: 500 },
      ],
    ]);
  });

  it('finds no class that large in this repository but the tree-sitter adapters', async () => {
    const found = (await findings(resolve(repositoryRoot, 'packages'))).map((f) => `${f.filePath}: ${f.title}`);
    // The flat tree's views mirror tree-sitter's SyntaxNode and TreeCursor interfaces member for
    // member: the size the rule's documentation names as imposed from outside.
    const adapters = found.filter((f) => /^engine\/src\/parsing\/flat-(node\.ts: Class FlatNode|cursor\.ts: Class FlatCursor) has \d+ methods/.test(f));
    expect(adapters).toHaveLength(2);
    expect(found.filter((f) => !adapters.includes(f))).toEqual([]);
  });
});
