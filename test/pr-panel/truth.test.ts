// The pure parts of `npm run pr-panel`: panel validation and the truth of a PR from two assessments.
import { describe, expect, it } from 'vitest';
import { issueFingerprint } from '@codehealth/engine';
// @ts-expect-error plain ESM module without types
import { compareScores, compareWithTruth, computeTruth, validatePanel } from './truth.mjs';

const finding = (filePath: string, symbol: string, snippet: string, extra: Record<string, unknown> = {}) => ({
  ruleId: 'complexity/cognitive-complexity',
  filePath,
  symbol,
  anchor: { codeSnippet: snippet, startLine: 3 },
  ...extra,
});
const metric = { values: ['complexity'], worseWhen: 'higher' };

describe('computeTruth', () => {
  it('pairs issues by identity in the changed files: new, fixed, worsened, improved, unchanged', () => {
    const base = [
      finding('src/a.ts', 'f', 'eval(x)'),
      finding('src/a.ts', 'g', '', { metric, data: { complexity: 20 } }),
      finding('src/a.ts', 'h', '', { metric, data: { complexity: 30 } }),
      finding('src/a.ts', 'gone', 'eval(y)'),
      finding('src/untouched.ts', 'old', 'eval(z)'),
    ];
    const head = [
      finding('src/a.ts', 'f', 'eval(x)'),
      finding('src/a.ts', 'g', '', { metric, data: { complexity: 25 } }),
      finding('src/a.ts', 'h', '', { metric, data: { complexity: 12 } }),
      finding('src/a.ts', 'fresh', 'eval(w)'),
      finding('src/untouched.ts', 'other', 'eval(v)'),
    ];
    const truth = computeTruth({ baseFindings: base, headFindings: head, changed: new Map([['src/a.ts', 'src/a.ts']]), fingerprint: issueFingerprint });
    expect(truth.new.map((i: { key: string }) => i.key)).toEqual([issueFingerprint(head[3] as never)]);
    expect(truth.fixed).toHaveLength(1);
    expect(truth.worsened).toHaveLength(1);
    expect(truth.improved).toHaveLength(1);
    expect(truth.unchanged).toBe(1);
  });

  it('follows a renamed file: its issues are neither new nor fixed', () => {
    const truth = computeTruth({
      baseFindings: [finding('src/old.ts', 'f', 'eval(x)')],
      headFindings: [finding('src/new.ts', 'f', 'eval(x)')],
      changed: new Map([['src/new.ts', 'src/old.ts']]),
      fingerprint: issueFingerprint,
    });
    expect(truth).toMatchObject({ new: [], fixed: [], unchanged: 1 });
  });

  it('compares reported with truth and names the mismatches', () => {
    const truth = { new: [{ key: 'a' }, { key: 'b' }], worsened: [], improved: [], fixed: [] };
    const c = compareWithTruth(truth, { new: [{ key: 'b' }, { key: 'c' }], worsened: [], improved: [], fixed: [] });
    expect(c.new).toMatchObject({ truth: 2, reported: 2, agrees: false, missed: [{ key: 'a' }], extra: [{ key: 'c' }] });
    expect(c.fixed.agrees).toBe(true);
  });
});

describe('validatePanel', () => {
  const sha = (c: string) => c.repeat(40);
  const pr = {
    repo: 'immerjs/immer',
    dir: 'immer',
    number: 1,
    base: sha('a'),
    head: sha('b'),
    title: 'fix: x',
    expected: { intent: 'bugfix', readiness: 'ready', reason: 'one line' },
    why: 'what the full diff does',
  };
  it('accepts a valid panel and the committed one', async () => {
    expect(validatePanel({ prs: [pr] })).toEqual([]);
    const { readFileSync } = await import('node:fs');
    const panel = JSON.parse(readFileSync(new URL('./panel.json', import.meta.url), 'utf8'));
    expect(validatePanel(panel)).toEqual([]);
    expect(panel.prs.length).toBeGreaterThanOrEqual(10);
  });
  it('refuses short commits, unknown intents, a missing reason and duplicates', () => {
    const errors = validatePanel({ prs: [{ ...pr, head: 'abc', expected: { intent: 'cleanup', readiness: 'ready', reason: '' } }, pr, pr] });
    expect(errors.join('\n')).toMatch(/"head" must be a full 40-hex commit/);
    expect(errors.join('\n')).toMatch(/expected.intent must be one of/);
    expect(errors.join('\n')).toMatch(/expected.reason/);
    expect(errors.join('\n')).toMatch(/duplicate PR immerjs\/immer#1/);
  });
  it('refuses an entry without its why, or with an empty note', () => {
    const { why: _why, ...withoutWhy } = pr;
    expect(validatePanel({ prs: [withoutWhy] })).toEqual(['prs[0] (immerjs/immer#1): "why" (what the full diff does, hence the expectation) is required']);
    expect(validatePanel({ prs: [{ ...pr, note: ' ' }] })).toEqual(['prs[0] (immerjs/immer#1): "note", when present, is a sentence']);
    expect(validatePanel({ prs: [{ ...pr, note: 'expectation corrected after reading the diff' }] })).toEqual([]);
  });
});

describe('compareScores', () => {
  it('agrees when the current score is the base assessment and the delta is within 0.1 of the head assessment', () => {
    expect(compareScores({ base: 81.24, head: 81.31, current: 81.24, delta: 0.1 })).toEqual({
      truthDelta: 0.1,
      currentEqualsBase: true,
      deltaError: 0.03,
      agrees: true,
    });
  });
  it('disagrees on a current score unlike the base (phantom issues) or a projection off by more than 0.1', () => {
    expect(compareScores({ base: 80, head: 80, current: 79.5, delta: 0 })).toMatchObject({ currentEqualsBase: false, agrees: false });
    expect(compareScores({ base: 80, head: 79.5, current: 80, delta: 0 })).toMatchObject({ truthDelta: -0.5, deltaError: 0.5, agrees: false });
    expect(compareScores({ base: null, head: 70, current: 0, delta: 0 })).toMatchObject({ truthDelta: null, agrees: false });
  });
});
