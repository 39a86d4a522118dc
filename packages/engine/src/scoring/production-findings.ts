// Which findings count in the grade: those in production code. Findings in tests, fixtures,
// benchmarks, examples, documentation sites, tooling, generated or vendored code are reported with
// their role and tallied per role, never in a score — with one exception: a finding of the testing
// category in test code (a test that asserts nothing) is about the safety net of production code,
// so it counts in test coverage.
import type { RoleFigures } from '../contracts/scoring.js';
import type { FileRole, Finding, HealthCategoryKey, Severity } from '../domain/types.js';
import { healthKeyOf } from '../domain/categories.js';

export const PRODUCTION_ROLE: FileRole = 'production';

/** A finding's role; a finding that does not say is production code. */
export function roleOf(finding: Finding): FileRole {
  return finding.role ?? PRODUCTION_ROLE;
}

export function countsInScore(finding: Finding): boolean {
  const role = roleOf(finding);
  return role === PRODUCTION_ROLE || (role === 'test' && finding.category === 'testing');
}

/** One rule's findings in one category. */
export interface RuleTally {
  analyzer: string;
  findings: number;
  points: number;
}

/** Per category, per rule id: findings and severity points. */
export function tallyByCategory(findings: readonly Finding[], points: Record<Severity, number>): Map<HealthCategoryKey, Map<string, RuleTally>> {
  const out = new Map<HealthCategoryKey, Map<string, RuleTally>>();
  for (const f of findings) {
    const key = healthKeyOf(f.category);
    let rules = out.get(key);
    if (!rules) out.set(key, (rules = new Map()));
    const tally = rules.get(f.ruleId) ?? { analyzer: f.analyzerName, findings: 0, points: 0 };
    tally.findings++;
    tally.points += points[f.severity];
    rules.set(f.ruleId, tally);
  }
  return out;
}

/** Findings outside the grade, by role, with the roles' lines of code when known. */
export function nonProductionFigures(
  findings: readonly Finding[],
  points: Record<Severity, number>,
  linesByRole: Readonly<Record<string, number>> = {},
): Partial<Record<string, RoleFigures>> {
  const out: Partial<Record<string, RoleFigures>> = {};
  for (const [role, lines] of Object.entries(linesByRole)) if (role !== PRODUCTION_ROLE) out[role] = { findings: 0, points: 0, linesOfCode: lines };
  for (const f of findings) {
    if (countsInScore(f)) continue;
    const figures = (out[roleOf(f)] ??= { findings: 0, points: 0 });
    figures.findings++;
    figures.points += points[f.severity];
  }
  return out;
}
