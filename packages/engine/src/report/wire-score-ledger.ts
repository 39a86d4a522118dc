// The score ledger on the wire (snake_case), an extension of the spec's Health assessment: what each
// category cost of the overall score, what each rule or measurement cost of its category, what each
// score rests on, and the findings of other roles that no score counts. Costs add up exactly to
// 100 − the score they explain (in tenths), here as in the scoring model.
import type { ScoreResult } from '../contracts/scoring.js';
import { HEALTH_CATEGORY_KEYS, type HealthCategoryKey } from '../domain/types.js';

export type WireScoreEvidence =
  | { kind: 'findings'; analyzers: string[] }
  | { kind: 'structural-coverage' | 'coverage-report' | 'duplication-index' | 'convention-consistency'; value: number };

export interface WireCategoryLedgerEntry {
  kind: 'rule' | 'measurement';
  id: string;
  findings: number | null;
  points: number | null;
  value: number | null;
  cost: number;
}

export interface WireCategoryLedger {
  assessed: boolean;
  not_assessed_reason: string | null;
  evidence: WireScoreEvidence[];
  /** Sums to 100 − the category's score. */
  ledger: WireCategoryLedgerEntry[];
}

export interface WireOverallLedgerEntry {
  category: HealthCategoryKey;
  share: number;
  score: number;
  cost: number;
}

export interface WireRoleFigures {
  findings: number;
  points: number;
  lines_of_code: number | null;
}

export interface WireScoreLedger {
  scoring_model: string;
  /** Sums to 100 − overall_score; empty without a grade. */
  overall: WireOverallLedgerEntry[];
  categories: Record<HealthCategoryKey, WireCategoryLedger>;
  /** Findings outside production code by role: reported, not in any score. */
  non_production: Record<string, WireRoleFigures>;
}

export function toWireScoreLedger(scores: ScoreResult, scoringModel: string): WireScoreLedger {
  const categories = Object.fromEntries(
    HEALTH_CATEGORY_KEYS.map((key) => {
      const c = scores.categories[key];
      const detail: WireCategoryLedger = {
        assessed: c.assessed,
        not_assessed_reason: c.assessed ? null : (c.notAssessedReason ?? 'not assessed'),
        evidence: (c.evidence ?? []).map((e) => (e.kind === 'findings' ? { kind: e.kind, analyzers: [...e.analyzers] } : { kind: e.kind, value: e.value })),
        ledger: (c.ledger ?? []).map((e) => ({
          kind: e.kind,
          id: e.id,
          findings: e.findings ?? null,
          points: e.points ?? null,
          value: e.value ?? null,
          cost: e.cost,
        })),
      };
      return [key, detail];
    }),
  ) as Record<HealthCategoryKey, WireCategoryLedger>;
  const nonProduction: Record<string, WireRoleFigures> = {};
  for (const [role, figures] of Object.entries(scores.nonProduction ?? {})) {
    if (figures) nonProduction[role] = { findings: figures.findings, points: figures.points, lines_of_code: figures.linesOfCode ?? null };
  }
  return {
    scoring_model: scoringModel,
    overall: (scores.ledger ?? []).map((e) => ({ category: e.category, share: e.share, score: e.score, cost: e.cost })),
    categories,
    non_production: nonProduction,
  };
}
