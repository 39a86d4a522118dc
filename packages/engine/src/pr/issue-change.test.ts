import { describe, expect, it } from 'vitest';
import type { Anchor } from '../domain/types.js';
import { metricChange } from './issue-change.js';

const anchor = (shape?: string): Anchor => ({ lineStart: 1, lineEnd: 90, codeSnippet: 'function f() {', validated: true, ...(shape ? { shape } : {}) });
const side = (data: Record<string, number>, shape?: string) => ({ data, anchor: anchor(shape) });

describe('metricChange', () => {
  it('reads the headline value: up is worse, down is better, equal is unchanged', () => {
    const spec = { values: ['complexity'] };
    expect(metricChange(spec, side({ complexity: 43 }), side({ complexity: 71 }))).toEqual({ change: 'worsened', previousValue: 43 });
    expect(metricChange(spec, side({ complexity: 43 }), side({ complexity: 30 }))).toEqual({ change: 'improved', previousValue: 43 });
    expect(metricChange(spec, side({ complexity: 22 }), side({ complexity: 22 }))).toEqual({ change: 'unchanged', previousValue: 22 });
  });

  it('follows the direction of a measure where lower is worse (coverage)', () => {
    const spec = { values: ['coveragePct'], worseWhen: 'lower' as const };
    expect(metricChange(spec, side({ coveragePct: 60 }), side({ coveragePct: 40 })).change).toBe('worsened');
    expect(metricChange(spec, side({ coveragePct: 40 }), side({ coveragePct: 60 })).change).toBe('improved');
  });

  it('with several measures, any that got worse makes the issue worse (fewer methods but more lines)', () => {
    const spec = { values: ['lines', 'methods'] };
    expect(metricChange(spec, side({ lines: 400, methods: 30 }), side({ lines: 420, methods: 25 })).change).toBe('worsened');
    expect(metricChange(spec, side({ lines: 400, methods: 30 }), side({ lines: 400, methods: 25 })).change).toBe('improved');
  });

  it('a value unknown on one side (stored before values were kept) is unchanged, without a previous value', () => {
    expect(metricChange({ values: ['lines'] }, { anchor: anchor() }, side({ lines: 95 }))).toEqual({ change: 'unchanged' });
  });

  it('code of the same shape (re-formatted) is unchanged whatever its line count, when the measure is of the anchored code', () => {
    const spec = { values: ['lines'], ofAnchor: true };
    expect(metricChange(spec, side({ lines: 94 }, 'abc'), side({ lines: 98 }, 'abc'))).toEqual({ change: 'unchanged', previousValue: 94 });
    expect(metricChange(spec, side({ lines: 94 }, 'abc'), side({ lines: 98 }, 'abd')).change).toBe('worsened');
    expect(metricChange({ values: ['lines'] }, side({ lines: 94 }, 'abc'), side({ lines: 98 }, 'abc')).change).toBe('worsened');
  });
});
