// large-class on real code: rxjs 7.8.2 (one class past 500 lines). Bounds on this repository's own code are npm run self-check's (test/self-check/own-findings.test.ts).
import { describe, expect, it } from 'vitest';
import { createEngine, defineAnalyzer, type Finding } from '@codehealth/engine';
import { obtainRxjs } from '../../../../../test/helpers/corpora.js';
import { codeSmell } from '../index.js';

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
});
