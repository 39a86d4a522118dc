// What duplication/duplicated-code finds on a real code base, rxjs 7.8.2's `src` (fetched once with
// `npm pack`, skipped when the registry cannot be reached). Every finding below was checked by
// hand against the sources; a change to this list is a change in behaviour to review. Token counts
// are jscpd's for the same clones.
import { createEngine, type AssessmentResult } from '@codehealth/engine';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { obtainRxjs } from '../../../../../test/helpers/corpora.js';
import { duplication } from '../index.js';

const EXPECTED = [
  // flush(): AsapScheduler copies AnimationFrameScheduler's loop over actions, line for line.
  'internal/scheduler/AsapScheduler.ts:19-38 info 121 tokens, from internal/scheduler/AnimationFrameScheduler.ts:24-43',
  // parseMarblesAsSubscriptions repeats parseMarbles's switch over marble characters twice.
  'internal/testing/TestScheduler.ts:356-375 info 71 tokens, from internal/testing/TestScheduler.ts:241-260',
  'internal/testing/TestScheduler.ts:385-418 info 156 tokens, from internal/testing/TestScheduler.ts:272-305',
  // The same operator preamble (signature, `operate`, the state variables).
  'internal/operators/debounce.ts:66-71 info 59 tokens, from internal/operators/audit.ts:53-57',
  'internal/operators/last.ts:80-87 info 92 tokens, from internal/operators/first.ts:82-89',
  'internal/operators/mergeMapTo.ts:63-68 info 63 tokens, from internal/operators/mergeMap.ts:82-88',
  // Two operators declared with the same overloads: split in two by the function's name. The overload
  // lists themselves (switchMap.ts:17-85, switchMapTo.ts:13-59) are TypeScript's idiom and left out.
  'internal/operators/switchMap.ts:85-89 info 67 tokens, from internal/operators/concatMap.ts:78-82',
  'internal/operators/switchMapTo.ts:59-63 info 62 tokens, from internal/operators/concatMapTo.ts:74-78',
  'internal/scheduler/AsapAction.ts:12-22 info 58 tokens, from internal/scheduler/AnimationFrameAction.ts:12-22',
  'internal/scheduler/AsapAction.ts:25-36 info 60 tokens, from internal/scheduler/AnimationFrameAction.ts:25-36',
  'internal/testing/HotObservable.ts:11-20 info 53 tokens, from internal/testing/ColdObservable.ts:11-20',
  // run(): the fake setInterval and setTimeout register their handler the same way.
  'internal/testing/TestScheduler.ts:615-623 info 57 tokens, from internal/testing/TestScheduler.ts:593-601',
];

describe('duplication/duplicated-code on rxjs 7.8.2', () => {
  let result: AssessmentResult | undefined;
  beforeAll(async () => {
    const rxjs = obtainRxjs();
    if (rxjs.error !== undefined) return console.warn(`SKIPPED: ${rxjs.error}`);
    const engine = await createEngine({ plugins: [{ name: 'test', analyzers: [duplication] }], cacheDir: false, workers: 0 });
    result = await engine.analyze(join(rxjs.root, 'src'));
  });

  it('finds exactly the reviewed clones, with their sizes and originals', (context) => {
    if (!result) return context.skip();
    const found = result.findings.map(
      (f) =>
        `${f.filePath}:${f.anchor.lineStart}-${f.anchor.lineEnd} ${f.severity} ${f.data?.tokens} tokens, from ${f.data?.originalPath}:${f.data?.originalLineStart}-${f.data?.originalLineEnd}`,
    );
    expect([...found].sort()).toEqual([...EXPECTED].sort());
    expect(result.findings.every((f) => f.anchor.validated && f.data?.cloneType === 'type-1' && f.confidence === 90)).toBe(true);
  });

  it('names the enclosing symbol where there is one', (context) => {
    if (!result) return context.skip();
    const symbols = Object.fromEntries(result.findings.map((f) => [`${f.filePath}:${f.anchor.lineStart}`, f.symbol]));
    expect(symbols['internal/testing/TestScheduler.ts:385']).toBe('TestScheduler.parseMarbles');
    expect(symbols['internal/scheduler/AsapAction.ts:25']).toBe('AsapAction.recycleAsyncId');
    expect(symbols['internal/testing/TestScheduler.ts:615']).toBe('setTimeout');
  });

  it('publishes the duplication index over the code lines of the compared files', (context) => {
    if (!result) return context.skip();
    expect(result.metrics.duplicatedLines).toBe(244);
    expect(result.metrics.duplicationIndex).toBe(3);
    expect(result.metrics.analyzerMetrics).toMatchObject({ 'duplication.clones': 12, 'duplication.cloneClasses': 12 });
  });
});
