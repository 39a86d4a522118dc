// The score ledger of a project whose assessment combines several repositories: scores there are
// weighted averages of the repositories' scores, so each ledger line is the same weighted average of
// the repositories' lines, settled again in tenths so that it adds up exactly to the combined score.
import { HEALTH_CATEGORY_KEYS, type HealthCategoryKey } from '@codehealth/engine';
import { settleLedger } from '@codehealth/engine/internal';
import type { WireCategoryLedger, WireCategoryLedgerEntry, WireOverallLedgerEntry, WireScoreEvidence, WireScoreLedger } from '@codehealth/engine/internal';

export interface LedgerPart {
  ledger: WireScoreLedger;
  /** The repository's weight in the project's averages. */
  weight: number;
  /** Whether the repository has a grade (only those enter the overall average). */
  graded: boolean;
}

/** Normalised weights of the parts that count; equal weights when those all weigh 0 (as the averages do). */
function normalised(parts: readonly LedgerPart[], counts: (part: LedgerPart) => boolean): Array<[LedgerPart, number]> {
  const kept = parts.filter(counts);
  const total = kept.reduce((sum, p) => sum + p.weight, 0);
  return kept.map((p) => [p, total === 0 ? 1 / kept.length : p.weight / total]);
}

function combineEvidence(parts: ReadonlyArray<[LedgerPart, number]>, key: HealthCategoryKey): WireScoreEvidence[] {
  const analyzers = new Set<string>();
  let findings = false;
  const values = new Map<string, { sum: number; weight: number }>();
  for (const [part, w] of parts) {
    for (const e of part.ledger.categories[key].evidence) {
      if (e.kind === 'findings') {
        findings = true;
        for (const a of e.analyzers) analyzers.add(a);
      } else {
        const v = values.get(e.kind) ?? { sum: 0, weight: 0 };
        values.set(e.kind, { sum: v.sum + e.value * w, weight: v.weight + w });
      }
    }
  }
  const measured = [...values].map(([kind, v]) => ({ kind, value: Math.round((v.sum / v.weight) * 10) / 10 }) as WireScoreEvidence);
  return [...(findings ? [{ kind: 'findings' as const, analyzers: [...analyzers].sort() }] : []), ...measured];
}

function combineCategory(parts: readonly LedgerPart[], key: HealthCategoryKey, score: number | null, reason: string): WireCategoryLedger {
  const counted = normalised(parts, (p) => p.ledger.categories[key].assessed);
  if (score === null || counted.length === 0) return { assessed: false, not_assessed_reason: reason, evidence: [], ledger: [] };
  const byId = new Map<string, WireCategoryLedgerEntry & { raw: number; sum: number }>();
  for (const [part, w] of counted) {
    for (const e of part.ledger.categories[key].ledger) {
      const id = `${e.kind}:${e.id}`;
      const line = byId.get(id) ?? { ...e, findings: e.findings === null ? null : 0, points: e.points === null ? null : 0, value: null, raw: 0, sum: 0 };
      line.raw += e.cost * w;
      if (e.findings !== null) line.findings = (line.findings ?? 0) + e.findings;
      if (e.points !== null) line.points = (line.points ?? 0) + e.points;
      if (e.value !== null) line.value = (line.value ?? 0) + e.value * w;
      line.sum += e.value === null ? 0 : w;
      byId.set(id, line);
    }
  }
  const raw = [...byId.values()].map(({ sum, ...line }) => ({ ...line, value: line.value === null ? null : Math.round((line.value / sum) * 10) / 10 }));
  return {
    assessed: true,
    not_assessed_reason: null,
    evidence: combineEvidence(counted, key),
    ledger: settleLedger<WireCategoryLedgerEntry>(raw, score, (e) => `${e.kind}:${e.id}`),
  };
}

/**
 * `scores`: the combined record's category scores (null: not assessed) and overall (null: no grade);
 * `reasons`: why a combined category is not assessed.
 */
export function combineScoreLedgers(
  parts: readonly LedgerPart[],
  scores: { overall: number | null; categories: Record<HealthCategoryKey, number | null> },
  reasons: Partial<Record<HealthCategoryKey, string>>,
): WireScoreLedger {
  const categories = Object.fromEntries(
    HEALTH_CATEGORY_KEYS.map((key) => [key, combineCategory(parts, key, scores.categories[key], reasons[key] ?? 'not assessed')]),
  ) as Record<HealthCategoryKey, WireCategoryLedger>;
  let overall: WireOverallLedgerEntry[] = [];
  const graded = normalised(parts, (p) => p.graded);
  if (scores.overall !== null && graded.length > 0) {
    const byCategory = new Map<HealthCategoryKey, { raw: number; share: number }>();
    for (const [part, w] of graded) {
      for (const e of part.ledger.overall) {
        const line = byCategory.get(e.category) ?? { raw: 0, share: 0 };
        byCategory.set(e.category, { raw: line.raw + e.cost * w, share: line.share + e.share * w });
      }
    }
    const raw = [...byCategory].map(([category, line]) => ({
      category,
      share: Math.round(line.share * 1000) / 1000,
      score: scores.categories[category] ?? 0,
      raw: line.raw,
    }));
    overall = settleLedger<WireOverallLedgerEntry>(raw, scores.overall, (e) => e.category);
  }
  const nonProduction: WireScoreLedger['non_production'] = {};
  for (const { ledger } of parts) {
    for (const [role, figures] of Object.entries(ledger.non_production)) {
      const sum = (nonProduction[role] ??= { findings: 0, points: 0, lines_of_code: null });
      sum.findings += figures.findings;
      sum.points += figures.points;
      if (figures.lines_of_code !== null) sum.lines_of_code = (sum.lines_of_code ?? 0) + figures.lines_of_code;
    }
  }
  const models = [...new Set(parts.map((p) => p.ledger.scoring_model))];
  return { scoring_model: models.join(', '), overall, categories, non_production: nonProduction };
}
