// The deterministic PR classifier: intent from conventional-commit title prefixes, branch names,
// commit subjects, title keywords, the paths changed and the diff's content (new exports,
// renames/moves), each rule adding weighted evidence; risk signals and a summary from the same
// facts. The rules and weights are documented in pr/README.md ("Classification").
import type { PrClassification } from './result.js';
import { changeFacts, type ChangeCategory, type ChangeFacts } from './change-facts.js';
import type { PullRequestChange } from './diff.js';
import { riskSignals } from './risk-signals.js';
import type { PullRequestInfo } from './types.js';

export const INTENTS = ['feature', 'bugfix', 'refactor', 'test', 'docs', 'dependency', 'config', 'performance', 'security', 'chore'] as const;
export type Intent = (typeof INTENTS)[number];
/** Tie-break order: the more specific (and more consequential) intent wins a tie. */
const PRIORITY: readonly Intent[] = ['security', 'bugfix', 'feature', 'performance', 'refactor', 'dependency', 'test', 'docs', 'config', 'chore'];

/** Conventional-commit types and common synonyms. */
const PREFIXES: Record<string, Intent> = {
  feat: 'feature',
  feature: 'feature',
  add: 'feature',
  fix: 'bugfix',
  bugfix: 'bugfix',
  hotfix: 'bugfix',
  revert: 'bugfix',
  refactor: 'refactor',
  style: 'refactor',
  test: 'test',
  tests: 'test',
  docs: 'docs',
  doc: 'docs',
  perf: 'performance',
  deps: 'dependency',
  dep: 'dependency',
  security: 'security',
  sec: 'security',
  chore: 'chore',
  build: 'chore',
  ci: 'config',
  config: 'config',
};
/** Branch prefixes (`feature/x`, `fix-123-y`); bot branches of dependency updaters. */
const BRANCH = /^(feature|feat|fix|bugfix|hotfix|refactor|docs|doc|test|tests|perf|chore|deps|security|ci|config)[/_-]/i;
const DEPENDENCY_BOTS = /^(dependabot|renovate|greenkeeper|snyk-upgrade|depfu)[/_-]/i;
const KEYWORDS: Array<[Intent, RegExp]> = [
  ['security', /\b(security|vulnerab\w*|cve-\d+|xss|csrf|injection|sanitiz\w*|exploit)\b/i],
  ['bugfix', /\b(fix(es|ed)?|bug|crash(es)?|regression|broken|error|fail(s|ing|ure)?|incorrect|wrong)\b/i],
  ['performance', /\b(perf(ormance)?|faster|speed\s?up|optimi[sz]\w*|latency|memory usage|slow)\b/i],
  ['dependency', /\b(bump|upgrade|downgrade|dependenc(y|ies)|deps)\b/i],
  ['refactor', /\b(refactor\w*|rename[sd]?|move[sd]?|extract(s|ed)?|restructur\w*|reorgani[sz]\w*|clean(\s?up)?|simplif\w*|tidy)\b/i],
  ['docs', /\b(docs?|documentation|readme|typos?|comments?)\b/i],
  ['test', /\b(tests?|specs?|coverage)\b/i],
  ['feature', /\b(add(s|ed)?|implement\w*|introduc\w*|support(s)?|new|allow(s)?|enable(s)?)\b/i],
];

export interface IntentScores {
  scores: Map<Intent, number>;
  evidence: Map<Intent, string[]>;
}

export interface DeterministicClassification {
  classification: PrClassification;
  facts: ChangeFacts;
  evidence: Map<Intent, string[]>;
}

const CONVENTIONAL = /^\s*(\w+)(?:\(([^)]*)\))?(!)?:\s*/;

/** The intent a conventional-commit subject names (`fix(parser)!: ...`), if any. */
export function prefixIntent(subject: string): { intent: Intent; prefix: string } | undefined {
  const match = CONVENTIONAL.exec(subject);
  if (!match) return undefined;
  const type = match[1]!.toLowerCase();
  const scope = (match[2] ?? '').toLowerCase();
  if (scope === 'deps' || scope === 'deps-dev') return { intent: 'dependency', prefix: match[0].trim() };
  if (scope === 'security') return { intent: 'security', prefix: match[0].trim() };
  const intent = PREFIXES[type];
  return intent ? { intent, prefix: match[0].trim() } : undefined;
}

export function scoreIntents(pr: Pick<PullRequestInfo, 'title' | 'headBranch'>, change: PullRequestChange, facts: ChangeFacts): IntentScores {
  const scores = new Map<Intent, number>(INTENTS.map((i) => [i, 0]));
  const evidence = new Map<Intent, string[]>(INTENTS.map((i) => [i, []]));
  const add = (intent: Intent, weight: number, reason: string) => {
    if (weight <= 0) return;
    scores.set(intent, scores.get(intent)! + weight);
    evidence.get(intent)!.push(reason);
  };

  const title = prefixIntent(pr.title);
  if (title) add(title.intent, 6, `title prefix '${title.prefix}'`);
  const rest = title ? pr.title.slice(CONVENTIONAL.exec(pr.title)![0].length) : pr.title;
  for (const [intent, pattern] of KEYWORDS) {
    const word = pattern.exec(rest)?.[0];
    if (word) add(intent, 2, `'${word}' in the title`);
  }
  const branch = pr.headBranch.replace(/^refs\/heads\//, '');
  if (DEPENDENCY_BOTS.test(branch)) add('dependency', 4, `dependency-bot branch '${branch}'`);
  else {
    const match = BRANCH.exec(branch);
    const intent = match ? PREFIXES[match[1]!.toLowerCase()] : undefined;
    if (intent) add(intent, 3, `branch '${branch}'`);
  }
  const commits = change.diff.commits;
  const commitIntents = commits.map((c) => prefixIntent(c.subject)?.intent).filter((i): i is Intent => i !== undefined);
  for (const intent of new Set(commitIntents)) {
    const share = commitIntents.filter((i) => i === intent).length / commits.length;
    add(intent, Math.round(2 * share * 10) / 10, `${commitIntents.filter((i) => i === intent).length} of ${commits.length} commit(s) typed '${intent}'`);
  }

  // Paths: a PR that touches only one kind of file says what it is.
  const reviewable = facts.reviewable;
  const share = (category: ChangeCategory) =>
    reviewable.length === 0 ? 0 : reviewable.filter((f) => facts.categoriesOf.get(f.path)?.includes(category)).length / reviewable.length;
  const only = (category: ChangeCategory) => reviewable.length > 0 && share(category) === 1;
  if (facts.release) add('chore', 9, 'a release: package versions bumped with changelogs only');
  else if (only('docs')) add('docs', 8, 'only documentation files changed');
  else if (share('docs') > 0) add('docs', Math.round(3 * share('docs') * 10) / 10, 'documentation files changed');
  if (only('tests')) add('test', 8, 'only test files changed');
  else if (share('tests') > 0 && share('source') === 0) add('test', 4, 'test files changed without source files');
  const dependencyFiles = facts.reviewable.filter((f) => facts.categoriesOf.get(f.path)?.includes('dependencies'));
  const depsOnly = facts.categories.every((c) => c === 'dependencies' || c === 'generated') && facts.dependencyChanges.length + dependencyFiles.length > 0;
  if (depsOnly) add('dependency', 8, 'only dependency manifests or lock files changed');
  else if (facts.dependencyChanges.length > 0) add('dependency', 2, `${facts.dependencyChanges.length} dependency change(s)`);
  if (reviewable.length > 0 && reviewable.every((f) => (['config', 'ci'] as const).some((c) => facts.categoriesOf.get(f.path)?.includes(c))))
    add('config', 6, 'only configuration or CI files changed');

  // Content.
  const newExports = facts.exports.added.filter((ref) => !facts.renames.some((r) => r.to.file === ref.file && r.to.name === ref.name));
  if (newExports.length > 0) add('feature', newExports.length >= 3 ? 4 : 3, `${newExports.length} new exported symbol(s)`);
  const newSources = reviewable.filter((f) => f.status === 'added' && f.kind === 'source');
  if (newSources.length > 0 && newExports.length === 0) add('feature', 1, `${newSources.length} new source file(s)`);
  if (facts.structuralOnly) add('refactor', 5, 'only renames, moves and import updates');
  else if (facts.renames.length > 0 && newExports.length === 0) add('refactor', 3, `${facts.renames.length} symbol rename(s) or move(s)`);
  const source = reviewable.filter((f) => f.kind === 'source');
  const sourceAdded = source.reduce((n, f) => n + f.additions, 0);
  const sourceDeleted = source.reduce((n, f) => n + f.deletions, 0);
  if (source.length > 0 && newExports.length === 0 && !facts.structuralOnly) {
    if (sourceDeleted > sourceAdded) add('refactor', 1, 'more source lines removed than added');
    else if (sourceAdded + sourceDeleted <= 30 && share('tests') > 0) add('bugfix', 1, 'a small source change with tests');
  }
  if (facts.securityFiles.length > 0) add('security', 1, `security-sensitive code changed (${facts.securityFiles.length} file(s))`);
  return { scores, evidence };
}

/** Primary = highest score (PRIORITY breaks ties); secondary = others scoring at least max(2, 40% of it). */
export function pickIntents(scores: Map<Intent, number>): { primary: Intent; secondary: Intent[] } {
  const ranked = [...PRIORITY].sort((a, b) => scores.get(b)! - scores.get(a)! || PRIORITY.indexOf(a) - PRIORITY.indexOf(b));
  const top = scores.get(ranked[0]!)!;
  if (top <= 0) return { primary: 'chore', secondary: [] };
  const floor = Math.max(2, top * 0.4);
  return {
    primary: ranked[0]!,
    secondary: ranked
      .slice(1)
      .filter((i) => scores.get(i)! >= floor)
      .slice(0, 3),
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const list = (names: readonly string[], max = 3) => names.slice(0, max).join(', ') + (names.length > max ? ` and ${names.length - max} more` : '');

/** What a structural-only change does, in words: formatting, a reorder, or renames and moves. */
function structuralWords(facts: ChangeFacts): string {
  if (facts.renames.length > 0 || facts.reviewable.some((f) => f.status === 'renamed')) return 'only renames or moves files';
  const code = facts.reviewable.filter((f) => f.kind === 'source' || f.kind === 'test');
  if (code.every((f) => f.hunks.every((h) => h.cosmetic))) return 'only changes formatting or comments';
  return 'only reorders lines';
}

/** Two sentences of facts: size and kinds of change, then what it does to the public surface. */
export function describeChange(facts: ChangeFacts, primary: Intent): string {
  const counts = facts.categories.map((c) => `${[...facts.categoriesOf.values()].filter((cs) => cs.includes(c)).length} ${c}`);
  const files = facts.categoriesOf.size;
  const first = `${primary[0]!.toUpperCase()}${primary.slice(1)} change to ${plural(files, 'file')} (+${facts.additions}/-${facts.deletions}${counts.length ? `: ${counts.join(', ')}` : ''}).`;
  const parts: string[] = [];
  const newExports = facts.exports.added.filter((ref) => !facts.renames.some((r) => r.to.file === ref.file && r.to.name === ref.name));
  if (newExports.length) parts.push(`adds export${newExports.length === 1 ? '' : 's'} ${list(newExports.map((r) => r.name))}`);
  const renamed = facts.renames.map((r) => (r.move ? `${r.from.name} moved to ${r.to.file}` : `${r.from.name} renamed to ${r.to.name}`));
  if (renamed.length) parts.push(list(renamed, 2));
  const removed = facts.exports.removed.filter((ref) => !facts.renames.some((r) => r.from.file === ref.file && r.from.name === ref.name));
  if (removed.length) parts.push(`removes export${removed.length === 1 ? '' : 's'} ${list(removed.map((r) => r.name))}`);
  if (facts.dependencyChanges.length)
    parts.push(`changes dependencies ${list(facts.dependencyChanges.map((d) => `${d.name}${d.to ? `@${d.to}` : ' (removed)'}`))}`);
  if (parts.length === 0 && facts.structuralOnly) parts.push(structuralWords(facts));
  return parts.length ? `${first} It ${parts.join('; ')}.` : first;
}

/** The deterministic classification of a PR's change. */
export function classifyDeterministic(
  pr: Pick<PullRequestInfo, 'title' | 'headBranch'>,
  change: PullRequestChange,
  facts = changeFacts(change),
): DeterministicClassification {
  const { scores, evidence } = scoreIntents(pr, change, facts);
  const { primary, secondary } = pickIntents(scores);
  const why = evidence.get(primary)!;
  const basis = why.length ? `Classified by rules from ${list(why, 3)}.` : 'Classified by rules: no rule matched, so chore.';
  return {
    classification: {
      primary_intent: primary,
      secondary_intents: secondary,
      change_categories: [...facts.categories],
      risk_signals: riskSignals(change, facts),
      summary: `${describeChange(facts, primary)} ${basis}`,
    },
    facts,
    evidence,
  };
}
