import { describe, expect, it } from 'vitest';
import { HEALTH_CATEGORY_KEYS } from '@codehealth/engine';
import { gradingOfRow } from './assessment-grading.js';

const scored = Object.fromEntries(HEALTH_CATEGORY_KEYS.map((key) => [`${key}_score`, 80]));

describe('gradingOfRow', () => {
  it('reads a completed record with every score as graded, also one written before the extension existed', () => {
    expect(gradingOfRow({ status: 'completed', overall_score: 81.2, ...scored })).toEqual({ graded: true, not_graded_reason: null, not_assessed: {} });
  });

  it('names the NULL score columns of a completed record with their stored reasons', () => {
    const reason = 'no enabled analyzer covers it';
    const row = { status: 'completed', overall_score: 75, ...scored, compliance_score: null, security_score: null, not_assessed: { compliance: reason } };
    expect(gradingOfRow(row)).toEqual({ graded: true, not_graded_reason: null, not_assessed: { security: 'not assessed', compliance: reason } });
  });

  it('reads a NULL overall as no grade, with the stored reason', () => {
    const reason = 'no TypeScript or JavaScript files: 3 Python files are not analysed';
    const nulls = Object.fromEntries(HEALTH_CATEGORY_KEYS.map((key) => [`${key}_score`, null]));
    const grading = gradingOfRow({
      status: 'completed',
      overall_score: null,
      ...nulls,
      not_graded_reason: reason,
      not_assessed: Object.fromEntries(HEALTH_CATEGORY_KEYS.map((k) => [k, reason])),
    });
    expect(grading.graded).toBe(false);
    expect(grading.not_graded_reason).toBe(reason);
    expect(Object.values(grading.not_assessed)).toEqual(Array(8).fill(reason));
  });

  it('marks every score of an unfinished run as a placeholder', () => {
    for (const [status, reason] of [
      ['pending', 'the assessment has not started'],
      ['running', 'the assessment is running'],
      ['failed', 'the assessment failed'],
    ] as const) {
      const grading = gradingOfRow({ status, overall_score: null });
      expect(grading).toMatchObject({ graded: false, not_graded_reason: reason });
      expect(Object.keys(grading.not_assessed)).toEqual([...HEALTH_CATEGORY_KEYS]);
    }
  });
});
