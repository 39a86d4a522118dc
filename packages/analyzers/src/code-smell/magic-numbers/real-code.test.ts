// magic-numbers on real code: rxjs 7.8.2, where it finds 4 numbers, each checked by hand.
import { describe, expect, it } from 'vitest';
import { createEngine, defineAnalyzer } from '@codehealth/engine';
import { obtainRxjs } from '../../../../../test/helpers/corpora.js';
import { codeSmell } from '../index.js';

describe('magic-numbers on rxjs 7.8.2', () => {
  it('finds an HTTP status bound, an XMLHttpRequest state and a minutes conversion', async (context) => {
    const corpus = obtainRxjs();
    if (corpus.error !== undefined) {
      console.warn(`SKIPPED: ${corpus.error}`);
      return context.skip();
    }
    const analyzer = defineAnalyzer({ ...codeSmell, rules: codeSmell.rules.filter((rule) => rule.meta.id === 'magic-numbers') });
    const engine = await createEngine({ plugins: [{ name: 'test', analyzers: [analyzer] }], cacheDir: false, workers: 0 });
    const { findings } = await engine.analyze(corpus.root);
    expect(findings.map((f) => [`${f.filePath}:${f.anchor.lineStart}`, f.title, f.symbol])).toEqual([
      ['src/internal/ajax/ajax.ts:481', 'Magic number 400 in `status < 400`', 'fromAjax > (anonymous) > addEventListener callback'],
      ['src/internal/ajax/ajax.ts:537', 'Magic number 4 in `xhr.readyState !== 4`', 'fromAjax > (anonymous) > (anonymous)'],
      ['src/internal/testing/TestScheduler.ts:295', 'Magic number 60 in `duration * 1000 * 60`', 'TestScheduler.parseMarblesAsSubscriptions'],
      ['src/internal/testing/TestScheduler.ts:408', 'Magic number 60 in `duration * 1000 * 60`', 'TestScheduler.parseMarbles'],
    ]);
    // `duration * 1000` (seconds to milliseconds) on the same lines is a scale factor, left alone.
    expect(findings.every((f) => f.severity === 'low' && f.confidence === 60)).toBe(true);
  });
});
