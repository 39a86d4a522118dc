// Reads the grading extension of a stored assessment (docs/rest-api.md, "Not assessed, no grade,
// score ledger"): which of the spec's score fields are placeholders and why. A NULL score column of
// a completed record is a category not assessed, a NULL overall no grade; records written before
// the extension existed have every column and are read as fully graded.
import { HEALTH_CATEGORY_KEYS, type HealthCategoryKey } from '@codehealth/engine';

/** The columns the extension reads, in the form `SELECT` lists want. */
export const GRADING_COLUMNS = "metrics->'scoring'->'not_assessed' AS not_assessed, metrics->'scoring'->>'not_graded_reason' AS not_graded_reason";

/** The stored ledger, for GET of one assessment. */
export const LEDGER_COLUMN = "metrics->'scoring'->'ledger' AS score_ledger";

export interface GradingRow extends Record<string, unknown> {
  status: string;
  overall_score: number | null;
  not_assessed?: Partial<Record<HealthCategoryKey, string>> | null;
  not_graded_reason?: string | null;
}

export interface Grading {
  graded: boolean;
  not_graded_reason: string | null;
  not_assessed: Partial<Record<HealthCategoryKey, string>>;
}

const UNFINISHED: Record<string, string> = {
  pending: 'the assessment has not started',
  running: 'the assessment is running',
  failed: 'the assessment failed',
};

export function gradingOfRow(row: GradingRow): Grading {
  const unfinished = UNFINISHED[row.status];
  if (unfinished !== undefined) {
    return { graded: false, not_graded_reason: unfinished, not_assessed: Object.fromEntries(HEALTH_CATEGORY_KEYS.map((key) => [key, unfinished])) };
  }
  const not_assessed: Partial<Record<HealthCategoryKey, string>> = {};
  for (const key of HEALTH_CATEGORY_KEYS) {
    if (row[`${key}_score`] === null) not_assessed[key] = row.not_assessed?.[key] ?? 'not assessed';
  }
  const graded = row.overall_score !== null;
  return { graded, not_graded_reason: graded ? null : (row.not_graded_reason ?? 'nothing could be assessed'), not_assessed };
}
