// Words for what a score rests on and where its points went, shared by the text and Markdown
// reports: evidence, ledger lines, roles. The numbers come from the scoring model's ledger as they are.
import type { CategoryLedgerEntry, ScoreEvidence } from '../contracts/scoring.js';

const MEASUREMENT_NAMES: Record<string, string> = {
  'structural-coverage': 'structural coverage',
  'coverage-report': 'coverage report',
  'duplication-index': 'duplication index',
  'convention-consistency': 'convention consistency',
};

const ROLE_NAMES: Record<string, string> = {
  test: 'tests',
  fixture: 'test fixtures',
  benchmark: 'benchmarks',
  example: 'examples',
  docs: 'documentation sites',
  tooling: 'scripts and tooling',
  generated: 'generated code',
  vendored: 'vendored code',
};

const percent = (value: number) => `${value.toFixed(1)}%`;

/** "findings of code-smell, sarif-import", "structural coverage 40.0%". */
export function evidenceText(evidence: ScoreEvidence): string {
  if (evidence.kind === 'findings') return evidence.analyzers.length > 0 ? `findings of ${evidence.analyzers.join(', ')}` : 'findings';
  return `${MEASUREMENT_NAMES[evidence.kind] ?? evidence.kind} ${percent(evidence.value)}`;
}

/** What a ledger line stands for: "code-smell/long-function (3 findings)", "structural coverage 40.0%". */
export function ledgerEntryText(entry: CategoryLedgerEntry): string {
  if (entry.kind === 'measurement') return `${MEASUREMENT_NAMES[entry.id] ?? entry.id}${entry.value === undefined ? '' : ` ${percent(entry.value)}`}`;
  const n = entry.findings ?? 0;
  return `${entry.id} (${n} finding${n === 1 ? '' : 's'})`;
}

export function roleName(role: string): string {
  return ROLE_NAMES[role] ?? role;
}

/** A cost as the reports print it: "-12.3". */
export function costText(cost: number): string {
  return `-${cost.toFixed(1)}`;
}
