// magic-numbers on real code: rxjs 7.8.2, whose few numbers in calculations each say what they are.
import { describe, expect, it } from 'vitest';
import { createEngine, defineAnalyzer } from '@codehealth/engine';
import { obtainRxjs } from '../../../../../test/helpers/corpora.js';
import { codeSmell } from '../index.js';

describe('magic-numbers on rxjs 7.8.2', () => {
  it('reports no HTTP status bound, time-unit conversion or commented state', async (context) => {
    const corpus = obtainRxjs();
    if (corpus.error !== undefined) {
      console.warn(`SKIPPED: ${corpus.error}`);
      return context.skip();
    }
    const analyzer = defineAnalyzer({ ...codeSmell, rules: codeSmell.rules.filter((rule) => rule.meta.id === 'magic-numbers') });
    const engine = await createEngine({ plugins: [{ name: 'test', analyzers: [analyzer] }], cacheDir: false, workers: 0 });
    const { findings } = await engine.analyze(corpus.root);
    // All four numbers of rxjs say what they are: `status < 400` is an HTTP status compared with a
    // status, `duration * 1000 * 60` converts to minutes (time units), and `xhr.readyState !== 4
    // /*XHR done*/` is named by its comment. Before these classes were known, the four were reported.
    expect(findings.map((f) => [`${f.filePath}:${f.anchor.lineStart}`, f.title])).toEqual([]);
  });
});
