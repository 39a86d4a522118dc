// Accuracy on real code: rxjs 7.8.2 (fetched once with `npm pack`, skipped when offline). Every finding
// on rxjs was read by hand. Bounds on this repository's own code are npm run self-check's (test/self-check/own-findings.test.ts).
import { describe, expect, it } from 'vitest';
import type { AssessmentResult } from '@codehealth/engine';
import { obtainRxjs } from '../../../../test/helpers/corpora.js';
import { analyzeWith, useAnalyzedCorpus } from '../shared/fixtures/mini-repo.js';
import { compliance } from './index.js';

const byRule = (result: AssessmentResult) => {
  const counts: Record<string, number> = {};
  for (const f of result.findings) counts[f.ruleId] = (counts[f.ruleId] ?? 0) + 1;
  return counts;
};

describe('compliance on rxjs 7.8.2', () => {
  const corpus = useAnalyzedCorpus(obtainRxjs, (root) => analyzeWith(compliance, root));

  it('finds its 18 debt markers (a grep for the words finds the same 18 lines), all of unknown age in the npm tarball', (ctx) => {
    const result = corpus.result(ctx);
    const markers = result.findings.filter((f) => f.ruleId === 'compliance/debt-marker');
    expect(markers).toHaveLength(18);
    expect(markers.filter((f) => f.title.startsWith('HACK'))).toHaveLength(4);
    expect(markers.every((f) => f.severity === 'info' && f.description.endsWith('Its age is unknown (no git history).'))).toBe(true);
    expect(markers.find((f) => f.filePath === 'src/internal/scheduler/AsyncAction.ts' && f.anchor.lineStart === 124)).toMatchObject({
      title: 'TODO in AsyncAction.ts: Clean this up when we refactor schedulers mid-version-8 o...',
      symbol: 'AsyncAction._execute',
    });
  });

  it('accepts its Apache-2.0 LICENSE.txt and reports nothing of tslib, which is not installed', (ctx) => {
    const result = corpus.result(ctx);
    expect(byRule(result)).toEqual({ 'compliance/debt-marker': 18 });
    expect(result.metrics.analyzerMetrics['compliance.dependenciesNotInstalled']).toBe(1);
  });
});
