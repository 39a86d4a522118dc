import { describe, expect, it } from 'vitest';
import { tally, type Observation } from './tally.js';

const at = (line: number, ...values: string[]): Observation => ({ path: 'src/a.ts', line, subject: `n${line}`, values });

describe('tally', () => {
  it('finds the dominant value among unambiguous occurrences and lists the others as deviations', () => {
    const result = tally('function-naming', [at(1, 'camelCase'), at(2, 'camelCase'), at(3, 'snake_case'), at(4, 'camelCase')]);
    expect(result?.pattern).toEqual({
      name: 'function-naming',
      consistency: 75,
      dominantValue: 'camelCase',
      totalCount: 4,
      deviationCount: 1,
      values: { camelCase: 3, snake_case: 1 },
    });
    expect(result?.deviations.map((d) => d.line)).toEqual([3]);
    expect(result?.judged).toBe(4);
  });

  it('counts an ambiguous occurrence under the dominant value when it fits, never as a deviation', () => {
    const result = tally('p', [at(1, 'camelCase'), at(2, 'camelCase', 'snake_case'), at(3, 'camelCase', 'snake_case')]);
    expect(result?.pattern).toMatchObject({ consistency: 100, totalCount: 3, deviationCount: 0, values: { camelCase: 3 } });
    expect(result?.judged).toBe(1);
  });

  it('counts an ambiguous occurrence that does not fit the dominant value under its first value', () => {
    const result = tally('p', [at(1, 'camelCase'), at(2, 'UPPER_SNAKE', 'PascalCase')]);
    expect(result?.pattern.values).toEqual({ camelCase: 1, UPPER_SNAKE: 1 });
    expect(result?.deviations.map((d) => d.line)).toEqual([2]);
  });

  it('says nothing when no occurrence is unambiguous, and skips occurrences without a value', () => {
    expect(tally('p', [at(1, 'camelCase', 'snake_case')])).toBeUndefined();
    expect(tally('p', [at(1), at(2, 'ESM')])?.pattern.totalCount).toBe(1);
  });

  it('breaks ties by name so reruns agree', () => {
    expect(tally('p', [at(1, 'snake_case'), at(2, 'camelCase')])?.pattern.dominantValue).toBe('camelCase');
  });
});
