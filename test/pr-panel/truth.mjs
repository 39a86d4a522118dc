// The pure parts of `npm run pr-panel` (issue 18): the panel file's validation, the truth of a PR
// (new / worsened / improved / fixed issues) computed from the full assessments of base and head,
// and its comparison with what the PR analysis reported. No I/O here: pr-panel.test.ts tests it.

export const INTENTS = ['feature', 'bugfix', 'refactor', 'test', 'docs', 'dependency', 'config', 'performance', 'security', 'chore'];
export const READINESS = ['ready', 'needs_review', 'blocked'];
const SHA = /^[0-9a-f]{40}$/;

/** Problems of a parsed panel file (empty when it is valid). */
export function validatePanel(panel) {
  const errors = [];
  if (!panel || typeof panel !== 'object' || !Array.isArray(panel.prs)) return ['the panel must be an object with a "prs" array'];
  const seen = new Set();
  panel.prs.forEach((pr, i) => {
    const at = `prs[${i}]${pr && pr.repo ? ` (${pr.repo}#${pr.number})` : ''}`;
    if (!pr || typeof pr !== 'object') return errors.push(`${at}: not an object`);
    if (typeof pr.repo !== 'string' || !/^[\w.-]+\/[\w.-]+$/.test(pr.repo)) errors.push(`${at}: "repo" must be owner/name`);
    if (typeof pr.dir !== 'string' || pr.dir === '' || pr.dir.includes('/')) errors.push(`${at}: "dir" must be a directory name`);
    if (!Number.isInteger(pr.number) || pr.number <= 0) errors.push(`${at}: "number" must be a positive integer`);
    for (const key of ['base', 'head']) if (typeof pr[key] !== 'string' || !SHA.test(pr[key])) errors.push(`${at}: "${key}" must be a full 40-hex commit`);
    if (pr.base && pr.base === pr.head) errors.push(`${at}: base and head are the same commit`);
    if (typeof pr.title !== 'string' || pr.title.trim() === '') errors.push(`${at}: "title" is required`);
    const e = pr.expected;
    if (!e || typeof e !== 'object') errors.push(`${at}: "expected" is required`);
    else {
      if (!INTENTS.includes(e.intent)) errors.push(`${at}: expected.intent must be one of ${INTENTS.join(', ')}`);
      if (!READINESS.includes(e.readiness)) errors.push(`${at}: expected.readiness must be one of ${READINESS.join(', ')}`);
      if (typeof e.reason !== 'string' || e.reason.trim() === '') errors.push(`${at}: expected.reason (one line, from reading the diff) is required`);
    }
    if (typeof pr.why !== 'string' || pr.why.trim() === '') errors.push(`${at}: "why" (what the full diff does, hence the expectation) is required`);
    if (pr.note !== undefined && (typeof pr.note !== 'string' || pr.note.trim() === '')) errors.push(`${at}: "note", when present, is a sentence`);
    const key = `${pr.repo}#${pr.number}`;
    if (seen.has(key)) errors.push(`${at}: duplicate PR ${key}`);
    seen.add(key);
  });
  return errors;
}

const numberOf = (data, key) => (typeof data?.[key] === 'number' && Number.isFinite(data[key]) ? data[key] : undefined);

/** worsened / improved / unchanged of a metric issue found on both sides, by its measured values. */
export function metricMove(spec, base, head) {
  const sign = spec.worseWhen === 'lower' ? -1 : 1;
  let worse = false;
  let better = false;
  for (const key of spec.values ?? []) {
    const before = numberOf(base.data, key);
    const after = numberOf(head.data, key);
    if (before === undefined || after === undefined || before === after) continue;
    if ((after - before) * sign > 0) worse = true;
    else better = true;
  }
  return worse ? 'worsened' : better ? 'improved' : 'unchanged';
}

/**
 * The truth of a PR from two full assessments, restricted to the changed files: `changed` maps
 * each changed file's head path to its base path (the same path unless renamed; undefined for an
 * added file), `deleted` holds deleted base paths. An issue is identified by `fingerprint` (the
 * engine's issueFingerprint) computed as if at base (a renamed file's head issues under the old
 * path); equal identities pair in order. Returns the items of each kind as {ruleId, filePath, line, key}.
 */
export function computeTruth({ baseFindings, headFindings, changed, deleted = new Set(), fingerprint }) {
  const basePaths = new Set(deleted);
  for (const from of changed.values()) if (from) basePaths.add(from);
  const pool = new Map();
  for (const f of baseFindings) {
    if (!basePaths.has(f.filePath)) continue;
    const key = fingerprint(f);
    pool.set(key, [...(pool.get(key) ?? []), f]);
  }
  const truth = { new: [], worsened: [], improved: [], fixed: [], unchanged: 0 };
  const item = (f, key) => ({ ruleId: f.ruleId, filePath: f.filePath, line: f.anchor?.startLine ?? f.line, key });
  for (const f of headFindings) {
    if (!changed.has(f.filePath)) continue;
    const from = changed.get(f.filePath);
    const key = fingerprint(from && from !== f.filePath ? { ...f, filePath: from } : f);
    const base = pool.get(key)?.shift();
    if (!base) truth.new.push(item(f, key));
    else if (f.metric) {
      const move = metricMove(f.metric, base, f);
      if (move === 'unchanged') truth.unchanged++;
      else truth[move].push(item(f, key));
    } else truth.unchanged++;
  }
  for (const [key, rest] of pool) for (const f of rest) truth.fixed.push(item(f, key));
  return truth;
}

/** Truth against reported, per kind: counts and the identities only one side has. */
export function compareWithTruth(truth, reported) {
  const out = {};
  for (const kind of ['new', 'worsened', 'improved', 'fixed']) {
    const left = [...truth[kind]];
    const missed = [];
    const rest = [...reported[kind]];
    for (const t of left) {
      const i = rest.findIndex((r) => r.key === t.key);
      if (i === -1) missed.push(t);
      else rest.splice(i, 1);
    }
    out[kind] = { truth: truth[kind].length, reported: reported[kind].length, missed, extra: rest, agrees: missed.length === 0 && rest.length === 0 };
  }
  return out;
}

/** Projection error the panel accepts: the issue's "matched a full re-assessment within 0.1". */
export const SCORE_TOLERANCE = 0.1;

/**
 * The PR's scores against the full assessments: its current score must be the base assessment's
 * (like for like, issue 18 §2) and its projected delta within SCORE_TOLERANCE of the head
 * assessment's movement. `base`/`head` are the full assessments' overall scores (null: not graded).
 */
export function compareScores({ base, head, current, delta }) {
  if (base === null || head === null || base === undefined || head === undefined)
    return { truthDelta: null, currentEqualsBase: false, deltaError: null, agrees: false };
  const truthDelta = Math.round((head - base) * 10) / 10;
  const currentEqualsBase = Math.abs(current - base) < 0.05;
  const deltaError = Math.round(Math.abs(delta - (head - base)) * 100) / 100;
  return { truthDelta, currentEqualsBase, deltaError, agrees: currentEqualsBase && deltaError <= SCORE_TOLERANCE };
}
