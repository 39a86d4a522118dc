// Accuracy on real code: rxjs 7.8.2 (fetched once with `npm pack`, skipped when offline), through the
// real engine. Every finding on rxjs was read by hand; the list below is what the analyzer must keep
// finding, and nothing else.
// Bounds on this repository's own code are npm run self-check's (test/self-check/own-findings.test.ts).
import { describe, expect, it } from 'vitest';
import { createEngine, type AssessmentResult } from '@codehealth/engine';
import { obtainRxjs } from '../../../../test/helpers/corpora.js';
import { useAnalyzedCorpus } from '../shared/fixtures/mini-repo.js';
import { runtime } from './index.js';

const line = (f: AssessmentResult['findings'][number]) => `${f.ruleId} ${f.severity}/${f.confidence} ${f.filePath}:${f.anchor.lineStart} ${f.title}`;

async function analyze(root: string): Promise<AssessmentResult> {
  const engine = await createEngine({ plugins: [{ name: 'test', analyzers: [runtime] }], cacheDir: false, workers: 0 });
  return engine.analyze(root);
}

describe('runtime on rxjs 7.8.2', () => {
  const corpus = useAnalyzedCorpus(obtainRxjs, analyze);

  it('reports exactly the finding a reader confirms', (ctx) => {
    const result = corpus.result(ctx);
    // Checked by hand:
    // - getXHRResponse.ts parses IE's responseText with no try; its own doc comment says it "*could* throw".
    // No longer reported by default (floating-promise's anyThen option brings them back; `.then` on a
    // receiver the rule does not know as a promise source mostly never rejected on the panel):
    // scheduleAsyncIterable.ts's `iterator.next().then(...)` (an async iterator that rejects gives an
    // unhandled rejection) and Immediate.ts's `resolved.then(() => ... cb())` (rxjs relies on the
    // unhandled rejection to report a callback's exception). Nor AnimationFrameScheduler/AsapScheduler.flush's `actions.shift()!` (an
    // invariant of the callers; collection lookups are off by default), WebSocketSubject's default `deserializer: (e) => JSON.parse(e.data)` (its
    // only caller in the file wraps it in try/catch), zip's `buffer.shift()!` (under
    // `buffers.every((buffer) => buffer.length)`), bufferTime's `shift()!` (under
    // `while (bufferRecords?.length)`), AsyncScheduler's `while ((action = actions.shift()!))`,
    // popNumber's `args.pop()!` (in a ternary testing `last(args)`) and windowCount's `shift()!`
    // (the function tests `windows.length`).
    expect(result.findings.map(line)).toEqual([
      'runtime/unguarded-json-parse high/90 src/internal/ajax/getXHRResponse.ts:21 JSON.parse(ieXHR.responseText) of network input without try/catch in getXHRResponse',
    ]);
    expect(result.findings.every((f) => f.anchor.validated && f.symbol !== undefined)).toBe(true);
  });

  it('publishes the promise metrics', (ctx) => {
    const result = corpus.result(ctx);
    expect(result.metrics.analyzerMetrics).toMatchObject({ 'runtime.asyncFunctions': 1, 'runtime.floatingPromises': 0 });
  });
});
