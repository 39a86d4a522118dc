// The eight health categories: display metadata and the mapping from issue categories.
import type { HealthCategoryKey, IssueCategory } from './types.js';

export interface HealthCategoryMeta {
  key: HealthCategoryKey;
  name: string;
  icon: string;
  color: string;
  /** The issue category whose findings feed this health category. */
  issueCategory: IssueCategory;
}

export const HEALTH_CATEGORIES: readonly HealthCategoryMeta[] = [
  { key: 'security', name: 'Security', icon: 'shield', color: '#dc2626', issueCategory: 'security' },
  { key: 'runtime_risks', name: 'Runtime Risks', icon: 'alert-triangle', color: '#ea580c', issueCategory: 'runtime' },
  { key: 'test_coverage', name: 'Test Coverage', icon: 'check-circle', color: '#16a34a', issueCategory: 'testing' },
  { key: 'code_smell', name: 'Code Smells', icon: 'code', color: '#ca8a04', issueCategory: 'code_smell' },
  { key: 'duplication', name: 'Duplication', icon: 'copy', color: '#9333ea', issueCategory: 'duplication' },
  { key: 'dead_code', name: 'Dead Code', icon: 'trash', color: '#64748b', issueCategory: 'dead_code' },
  { key: 'consistency', name: 'Codebase Consistency', icon: 'layers', color: '#2563eb', issueCategory: 'consistency' },
  { key: 'compliance', name: 'Compliance', icon: 'file-check', color: '#0d9488', issueCategory: 'compliance' },
];

const byIssueCategory = new Map(HEALTH_CATEGORIES.map((c) => [c.issueCategory, c.key]));

export function healthKeyOf(category: IssueCategory): HealthCategoryKey {
  const key = byIssueCategory.get(category);
  if (!key) throw new TypeError(`unknown issue category: ${category}`);
  return key;
}
