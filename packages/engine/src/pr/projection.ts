// Health impact and projection of a PR. Findings of the changed files and their graph neighbours
// are compared between base and head (by fingerprint, then — for renamed files, renamed and moved
// symbols — by rule, symbol and snippet, so a move is not reported as one issue fixed and one
// added); a metric issue on both sides is worsened, improved or unchanged (issue-change.ts). The projected result is the base's findings with those of the PR's scope replaced by
// head's, scored with the engine's scoring model on head's sizes and measurements.
import type { HealthProjection, HealthImpact } from './result.js';
import type { ScoringMetrics, ScoringModel, ScoreResult } from '../contracts/scoring.js';
import { healthKeyOf } from '../domain/categories.js';
import { HEALTH_CATEGORY_KEYS, type Finding, type HealthCategoryKey, type MetricSpec } from '../domain/types.js';
import type { AssessmentResult } from '../pipeline/types.js';
import { issueFingerprint, legacyIssueFingerprint, normaliseAnchorText } from '../report/issue-id.js';
import { changeKeyOf, metricChange, type IssueChangeOf } from './issue-change.js';
import { scoringMetricsOf } from '../scoring/scoring-inputs.js';

/** The base side of a PR analysis: a stored assessment at the merge base, or a fresh analysis of it. */
export interface PrBaseline {
  commitSha: string;
  /**
   * `fingerprint`, when given, is the stored issue's identity (issues stored before identity v2 keep
   * no enclosing symbol to recompute it from); `legacyFingerprint` is set on issues stored before
   * identity v2, whose fingerprint is the former one (head findings are then matched by theirs).
   */
  findings: ReadonlyArray<Finding & { fingerprint?: string; legacyFingerprint?: string }>;
  metrics: ScoringMetrics;
  /** Set when the baseline is a stored health assessment: its issues are the PR issues' baseline. */
  assessmentId?: string;
}

export { scoringMetricsOf };

export const baselineOfResult = (result: AssessmentResult, commitSha: string): PrBaseline => ({
  commitSha,
  findings: result.findings,
  metrics: scoringMetricsOf(result.metrics),
});

export interface FindingScope {
  /** Head paths of changed files (analysed at head). */
  changed: ReadonlySet<string>;
  /** Head paths of unchanged graph neighbours whose head findings are trustworthy. */
  neighbours: ReadonlySet<string>;
  /** Head path -> base path of renamed and copied files. */
  renamedFrom: ReadonlyMap<string, string>;
  /** Base paths of deleted files. */
  deleted: ReadonlySet<string>;
  /** Symbol renames (`old` -> `new` qualified names) per head path. */
  symbolRenames: ReadonlyArray<{ file: string; from: string; to: string }>;
}

export interface FindingComparison {
  /** Head findings of the scope with no counterpart at base: new issues. */
  added: Finding[];
  fixed: Finding[];
  /** Head findings of the scope that already existed at base (possibly moved), whatever their values. */
  kept: Finding[];
  /** Kept metric issues whose measured values got worse (complexity 43 -> 71): they weigh like new ones. */
  worsened: Finding[];
  /** Kept metric issues whose measured values got better. */
  improved: Finding[];
  /** What the PR's run stores: every head finding of its changed files, plus the neighbours' new and worsened ones. */
  prFindings: Finding[];
  /** issueFingerprint of the findings the PR introduced (`is_new`). */
  newFingerprints: Set<string>;
  /**
   * How each of `prFindings` changed (new, worsened, improved, unchanged) and its former value, by
   * changeKeyOf(issueFingerprint, occurrence among `prFindings` of that fingerprint).
   */
  changes: Map<string, IssueChangeOf>;
  /** The same by finding, for every head finding of the scope. */
  changeOf: Map<Finding, IssueChangeOf>;
  /** Base paths whose findings the head scope replaces. */
  baseScope: Set<string>;
}

const escape = (name: string) => name.replace(/[$.*+?^()[\]{}|\\]/g, '\\$&');

interface Matched<T> {
  left: T[];
  right: T[];
  /** Pairs (left, right) of equal keys, in right's order. */
  pairs: Array<[T, T]>;
}

/** Pairs findings of two multisets by a key; returns the unmatched of each side. */
function matchBy<T>(left: T[], right: T[], keyOf: (item: T, side: 'left' | 'right') => string): Matched<T> {
  // Keys are hashes of snippets: each is computed once.
  const pool = new Map<string, T[]>();
  for (const item of left) {
    const key = keyOf(item, 'left');
    const same = pool.get(key);
    if (same) same.push(item);
    else pool.set(key, [item]);
  }
  const rightRest: T[] = [];
  const pairs: Array<[T, T]> = [];
  const taken = new Set<T>();
  for (const item of right) {
    const candidate = pool.get(keyOf(item, 'right'))?.shift();
    if (candidate === undefined) rightRest.push(item);
    else {
      taken.add(candidate);
      pairs.push([candidate, item]);
    }
  }
  return { left: left.filter((item) => !taken.has(item)), right: rightRest, pairs };
}

type BaseFinding = PrBaseline['findings'][number];

export function compareFindings(base: PrBaseline['findings'], head: readonly Finding[], scope: FindingScope): FindingComparison {
  const headScope = new Set([...scope.changed, ...scope.neighbours]);
  const baseScope = new Set<string>(scope.deleted);
  for (const path of headScope) baseScope.add(scope.renamedFrom.get(path) ?? path);
  const baseIn: BaseFinding[] = base.filter((f) => baseScope.has(f.filePath));
  const headIn = head.filter((f) => headScope.has(f.filePath));

  // Head findings are keyed as if they were at base: renamed files under their old path,
  // renamed symbols under their old name (also inside the snippet).
  const renamesIn = new Map<string, Array<{ from: string; to: string }>>();
  for (const r of scope.symbolRenames) renamesIn.set(r.file, [...(renamesIn.get(r.file) ?? []), r]);
  const asBase = (f: Finding) => {
    let symbol = f.symbol ?? '';
    let snippet = f.anchor.codeSnippet;
    for (const r of renamesIn.get(f.filePath) ?? []) {
      if (symbol === r.to || symbol.startsWith(`${r.to}.`)) symbol = r.from + symbol.slice(r.to.length);
      snippet = snippet.replace(new RegExp(`\\b${escape(r.to.split('.').pop()!)}\\b`, 'g'), r.from.split('.').pop()!);
    }
    return { ...f, filePath: scope.renamedFrom.get(f.filePath) ?? f.filePath, symbol, anchor: { ...f.anchor, codeSnippet: snippet } };
  };
  // A head finding's fingerprint as if at base, hashed once: in a file neither renamed nor with
  // renamed symbols it is the finding's own fingerprint too.
  const asBaseKeys = new Map<Finding, string>();
  const asBaseKey = (f: Finding) => {
    let key = asBaseKeys.get(f);
    if (key === undefined) asBaseKeys.set(f, (key = issueFingerprint(asBase(f))));
    return key;
  };
  const keptAsIs = (f: Finding) => !scope.renamedFrom.has(f.filePath) && !renamesIn.has(f.filePath);
  // Stored base issues carry no metric spec: a rule is a metric rule when head says so.
  const metricOf = new Map<string, MetricSpec>();
  for (const f of headIn) if (f.metric) metricOf.set(f.ruleId, f.metric);
  const exact = matchBy<BaseFinding>(baseIn, headIn, (f, side) =>
    side === 'left' ? (f.fingerprint ?? issueFingerprint({ ...f, metric: f.metric ?? metricOf.get(f.ruleId) })) : asBaseKey(f),
  );
  // Issues stored before identity v2 carry the former fingerprint only: matched by it.
  const legacy: Matched<BaseFinding> = exact.left.some((f) => f.legacyFingerprint !== undefined)
    ? matchBy<BaseFinding>(exact.left, exact.right, (f, side) =>
        side === 'left' ? (f.legacyFingerprint ?? '\0no legacy fingerprint') : legacyIssueFingerprint(asBase(f)),
      )
    : { left: exact.left, right: exact.right, pairs: [] };
  // A last pass across files: the same rule on the same code (a metric rule: the same symbol) elsewhere is a move.
  let unnamed = 0;
  const moved = matchBy(legacy.left, legacy.right, (f, side) => {
    const g = side === 'left' ? f : asBase(f);
    if (!(f.metric ?? metricOf.get(f.ruleId))) return `${g.ruleId}\0${normaliseAnchorText(g.anchor.codeSnippet)}`;
    return g.symbol ? `${g.ruleId}\0metric\0${g.symbol}` : `\0unnamed ${unnamed++}`;
  });
  // Last, within a file: a finding about the file itself — no symbol, the same rule and title
  // ('Unused file dead.ts') — is the same issue whatever its first lines, its anchor, became.
  const whole = matchBy(moved.left, moved.right, (f, side) => {
    const g = side === 'left' ? f : asBase(f);
    return g.symbol ? `\0symbol ${unnamed++}` : `${g.ruleId}\0${g.filePath}\0${g.title}`;
  });
  const added = whole.right;
  const fingerprints = new Map<Finding, string>();
  const fingerprintOf = (f: Finding) => {
    let known = fingerprints.get(f);
    if (known === undefined) fingerprints.set(f, (known = keptAsIs(f) ? asBaseKey(f) : issueFingerprint(f)));
    return known;
  };
  const changeOf = new Map<Finding, IssueChangeOf>(added.map((f) => [f, { change: 'new' }]));
  const worsened: Finding[] = [];
  const improved: Finding[] = [];
  for (const [was, now] of [...exact.pairs, ...legacy.pairs, ...moved.pairs, ...whole.pairs]) {
    const change = now.metric ? metricChange(now.metric, was, now) : { change: 'unchanged' as const };
    changeOf.set(now, change);
    if (change.change === 'worsened') worsened.push(now);
    else if (change.change === 'improved') improved.push(now);
  }
  const newFingerprints = new Set(added.map(fingerprintOf));
  // Neighbours' issues are the PR's when it made them (new) or made them worse.
  const prFindings = headIn.filter((f) => scope.changed.has(f.filePath) || changeOf.get(f)?.change === 'new' || changeOf.get(f)?.change === 'worsened');
  // Equal fingerprints (two long `describe callback`s of one file) are told apart by their order.
  const changes = new Map<string, IssueChangeOf>();
  const occurrences = new Map<string, number>();
  for (const f of prFindings) {
    const fingerprint = fingerprintOf(f);
    const occurrence = occurrences.get(fingerprint) ?? 0;
    occurrences.set(fingerprint, occurrence + 1);
    changes.set(changeKeyOf(fingerprint, occurrence), changeOf.get(f)!);
  }
  return {
    added,
    fixed: whole.left,
    kept: [...exact.pairs, ...legacy.pairs, ...moved.pairs, ...whole.pairs].map(([, now]) => now),
    worsened,
    improved,
    prFindings,
    newFingerprints,
    changes,
    changeOf,
    baseScope,
  };
}

export const IMPACT_THRESHOLDS = { critical: -5, major: -2, minor: -0.5, improves: 0.5 } as const;

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * The worse of the score's movement and the worst issue the PR adds: a new critical security
 * issue is a critical regression, any other new critical a major one, a new high a minor one.
 */
export function impactRating(delta: number, added: readonly Finding[], fixed: readonly Finding[]): HealthImpact['impact_rating'] {
  const levels = ['none', 'minor_regression', 'major_regression', 'critical_regression'] as const;
  let level = delta <= IMPACT_THRESHOLDS.critical ? 3 : delta <= IMPACT_THRESHOLDS.major ? 2 : delta <= IMPACT_THRESHOLDS.minor ? 1 : 0;
  if (added.some((f) => f.severity === 'critical' && f.category === 'security')) level = 3;
  else if (added.some((f) => f.severity === 'critical')) level = Math.max(level, 2);
  else if (added.some((f) => f.severity === 'high')) level = Math.max(level, 1);
  if (level > 0) return levels[level] as HealthImpact['impact_rating'];
  return delta >= IMPACT_THRESHOLDS.improves || (delta >= 0 && fixed.length > added.length) ? 'improves' : 'neutral';
}

export interface ProjectionInput {
  scoring: ScoringModel;
  baseline: PrBaseline;
  head: { findings: readonly Finding[]; metrics: ScoringMetrics };
  comparison: FindingComparison;
  headScope: ReadonlySet<string>;
  /** Categories some enabled analyzer covers (as at head). */
  assessed: ReadonlySet<HealthCategoryKey>;
}

export interface Projection {
  healthImpact: HealthImpact;
  healthProjection: HealthProjection;
  current: ScoreResult;
  projected: ScoreResult;
}

export function projectHealth(input: ProjectionInput): Projection {
  const { scoring, baseline, comparison } = input;
  const current = scoring.score(baseline.findings, baseline.metrics, input.assessed);
  const projectedFindings = [
    ...baseline.findings.filter((f) => !comparison.baseScope.has(f.filePath)),
    ...input.head.findings.filter((f) => input.headScope.has(f.filePath)),
  ];
  const projected = scoring.score(projectedFindings, input.head.metrics, input.assessed);
  const inPr = new Map<HealthCategoryKey, number>();
  for (const f of comparison.prFindings) inPr.set(healthKeyOf(f.category), (inPr.get(healthKeyOf(f.category)) ?? 0) + 1);
  // Only categories scored on both sides move; a side without a grade (no production code to
  // grade) shows the spec's numbers as 0 and grade F, with no movement.
  const category_deltas = HEALTH_CATEGORY_KEYS.filter((key) => current.categories[key].score !== null && projected.categories[key].score !== null).map(
    (key) => ({
      category: key,
      current_score: current.categories[key].score!,
      projected_score: projected.categories[key].score!,
      delta: round1(projected.categories[key].score! - current.categories[key].score!),
      issues_in_pr: inPr.get(key) ?? 0,
    }),
  );
  const graded = current.overall !== null && projected.overall !== null;
  const overall_delta = graded ? round1(projected.overall! - current.overall!) : 0;
  // A worsened issue weighs like a new one; an improved one like a fix when judging "improves".
  const impact_rating = impactRating(overall_delta, [...comparison.added, ...comparison.worsened], [...comparison.fixed, ...comparison.improved]);
  const counts = { issues_added: comparison.added.length + comparison.worsened.length, issues_fixed: comparison.fixed.length };
  return {
    healthImpact: { overall_delta, ...counts, impact_rating, ...issueBreakdown(comparison) },
    healthProjection: {
      current_overall: current.overall ?? 0,
      projected_overall: projected.overall ?? 0,
      overall_delta,
      current_grade: current.grade ?? 'F',
      projected_grade: projected.grade ?? 'F',
      category_deltas,
      ...counts,
      impact_rating,
    },
    current,
    projected,
  };
}

/**
 * The PR's issues told apart (a documented extension of health_impact): what the change introduced
 * (new, worsened: `issues_added`) and what was already there in the changed files (unchanged or
 * improved), so a large PR's old issues seen again are not read as its own.
 */
export function issueBreakdown(comparison: Pick<FindingComparison, 'added' | 'worsened' | 'prFindings' | 'changeOf'>) {
  let preExisting = 0;
  let improved = 0;
  for (const finding of comparison.prFindings) {
    const change = comparison.changeOf.get(finding)?.change;
    if (change === 'unchanged' || change === 'improved') preExisting++;
    if (change === 'improved') improved++;
  }
  return { issues_new: comparison.added.length, issues_worsened: comparison.worsened.length, issues_pre_existing: preExisting, issues_improved: improved };
}
