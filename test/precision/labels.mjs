// Precision labels (issue 17): reading and validating test/precision/labels/<family>[.<part>].jsonl, and
// matching labels to the findings of a run. A label names a finding by repository, rule, file and
// either its symbol or a snippet of its first lines (the hint), so it survives lines moving.

const VERDICTS = ['tp', 'fp', 'debatable'];
/** Keys a label may carry; `title` and `endLine` come with the stubs of `--sample` and may stay. */
const KEYS = new Set(['repo', 'rule', 'file', 'line', 'endLine', 'symbol', 'hint', 'title', 'verdict', 'reason']);
/** Lines of source around a finding's own lines in which its hint may be found. */
export const HINT_SLACK = 2;

/**
 * The family a label file is for: its name (`security.jsonl`), or a family and a part after a dot
 * (`code-smell.type-safety.jsonl`), so that several people can label one family side by side.
 * @param {string} fileName
 */
export function familyOfLabelFile(fileName) {
  return fileName.replace(/\.jsonl$/, '').split('.')[0];
}

/**
 * @typedef {{ repo: string, rule: string, file: string, line: number, endLine?: number, symbol?: string,
 *   hint?: string, title?: string, verdict: 'tp' | 'fp' | 'debatable', reason: string, where: string }} Label
 * `where` is `<labels file>:<line>`, for messages.
 */

/**
 * Parses one labels file. Every bad line gives an error naming `<fileName>:<line>`; good lines are
 * returned whatever the others hold.
 * @param {string} text
 * @param {string} fileName shown in messages (e.g. `test/precision/labels/security.jsonl`)
 * @param {{ repos?: Set<string>, rules?: Set<string>, family?: string }} [known] panel repositories,
 *   rule ids, and the family the file is for (its name): a label outside them is an error
 * @returns {{ labels: Label[], errors: string[] }}
 */
export function parseLabels(text, fileName, known = {}) {
  const labels = [];
  const errors = [];
  const seen = new Map();
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (raw === '') continue;
    const where = `${fileName}:${i + 1}`;
    let value;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      errors.push(`${where}: not JSON (${String(error.message)})`);
      continue;
    }
    const problems = labelProblems(value, known);
    if (problems.length > 0) {
      errors.push(`${where}: ${problems.join('; ')}`);
      continue;
    }
    const key = [value.repo, value.rule, value.file, value.line, value.symbol ?? '', value.hint ?? '', value.title ?? ''].join('\u0000');
    if (seen.has(key)) {
      errors.push(`${where}: the same finding as ${seen.get(key)} (repo, rule, file, line, symbol, hint and title all equal)`);
      continue;
    }
    seen.set(key, where);
    labels.push({ ...value, where });
  }
  return { labels, errors };
}

/** What is wrong with one parsed label line (empty when nothing). */
function labelProblems(value, known) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return ['a label is a JSON object'];
  const problems = [];
  const unknown = Object.keys(value).filter((k) => !KEYS.has(k));
  if (unknown.includes('context')) problems.push('"context" is for reading only: drop it from the label (their code stays out of our repository)');
  const others = unknown.filter((k) => k !== 'context');
  if (others.length > 0)
    problems.push(`unknown key${others.length > 1 ? 's' : ''} ${others.map((k) => `"${k}"`).join(', ')} (allowed: ${[...KEYS].join(', ')})`);
  const text = (key) => typeof value[key] === 'string' && value[key].trim() !== '';
  if (!text('repo')) problems.push('"repo" (owner/name) is missing');
  else if (known.repos && !known.repos.has(value.repo)) problems.push(`repo "${value.repo}" is not in test/precision/panel.json`);
  if (!text('rule') || !/^[a-z0-9-]+\/[a-z0-9-]+$/.test(value.rule))
    problems.push(`"rule" must be a rule id like "security/no-eval" (got ${JSON.stringify(value.rule)})`);
  else {
    if (known.rules && !known.rules.has(value.rule)) problems.push(`rule "${value.rule}" is not a registered rule`);
    if (known.family && value.rule.split('/')[0] !== known.family)
      problems.push(`rule "${value.rule}" belongs in ${value.rule.split('/')[0]}.jsonl, not ${known.family}.jsonl`);
  }
  if (!text('file')) problems.push('"file" (path from the checkout root) is missing');
  else if (value.file.startsWith('/') || value.file.startsWith('./') || value.file.includes('\\'))
    problems.push(`"file" must be relative to the checkout root with / separators (got "${value.file}")`);
  if (!Number.isInteger(value.line) || value.line < 1) problems.push(`"line" must be a whole number ≥ 1 (got ${JSON.stringify(value.line)})`);
  if (value.endLine !== undefined && (!Number.isInteger(value.endLine) || value.endLine < (value.line ?? 1)))
    problems.push(`"endLine" must be a whole number ≥ line (got ${JSON.stringify(value.endLine)})`);
  for (const key of ['symbol', 'hint', 'title']) {
    if (value[key] !== undefined && !text(key)) problems.push(`"${key}" must be a non-empty string when present`);
  }
  if (value.symbol === undefined && value.hint === undefined)
    problems.push('a label needs a "symbol" or a "hint" (a short exact substring of the finding\'s first lines)');
  if (!VERDICTS.includes(value.verdict)) problems.push(`"verdict" must be tp, fp or debatable (got ${JSON.stringify(value.verdict)})`);
  if (!text('reason')) problems.push('"reason" (one line, written by reading the code) is missing');
  else if (value.reason.includes('\n')) problems.push('"reason" must be one line');
  return problems;
}

/**
 * @typedef {{ repo: string, rule: string, file: string, line: number, endLine: number, symbol?: string, title?: string }} PanelFinding
 */

/**
 * How strongly `label` names `finding`: 0 not at all; 1 by symbol or by hint; 2 by both. Symbols
 * decide only when both have one; a symbol that differs excludes the finding unless the hint is
 * there. The hint is looked for in the finding's lines widened by HINT_SLACK on each side.
 * @param {Label} label
 * @param {PanelFinding} finding
 * @param {(file: string) => string[] | undefined} linesOf the file's lines (index 0 = line 1)
 */
export function matchStrength(label, finding, linesOf) {
  if (label.repo !== finding.repo || label.rule !== finding.rule || label.file !== finding.file) return 0;
  const bothSymbols = label.symbol !== undefined && finding.symbol !== undefined;
  const symbolAgrees = bothSymbols && label.symbol === finding.symbol;
  let hintFound = false;
  if (label.hint !== undefined) {
    const lines = linesOf(finding.file);
    if (lines) {
      const from = Math.max(0, finding.line - 1 - HINT_SLACK);
      const to = Math.min(lines.length, finding.endLine + HINT_SLACK);
      hintFound = lines.slice(from, to).join('\n').includes(label.hint);
    }
  }
  if (bothSymbols && !symbolAgrees && !hintFound) return 0;
  return (symbolAgrees ? 1 : 0) + (hintFound ? 1 : 0);
}

/**
 * Pairs labels with findings: each label with at most one finding and each finding with at most one
 * label. Pairs are taken strongest first (symbol and hint over one of them), then those whose titles
 * are equal (two findings on one line, e.g. two magic numbers), then nearest first (the label's line
 * to the finding's first line), then in label order — so a label goes to the nearest of its equally
 * good findings, and a finding to its nearest label.
 * @param {Label[]} labels
 * @param {PanelFinding[]} findings
 * @param {(repo: string, file: string) => string[] | undefined} linesOf
 * @returns {{ matches: Map<Label, PanelFinding>, labelOf: Map<PanelFinding, Label>, stale: Label[] }}
 */
export function matchLabels(labels, findings, linesOf) {
  const byKey = new Map();
  for (const finding of findings) {
    const key = `${finding.repo}\u0000${finding.rule}\u0000${finding.file}`;
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(finding);
  }
  const pairs = [];
  labels.forEach((label, order) => {
    const candidates = byKey.get(`${label.repo}\u0000${label.rule}\u0000${label.file}`) ?? [];
    for (const finding of candidates) {
      const strength = matchStrength(label, finding, (file) => linesOf(finding.repo, file));
      if (strength > 0)
        pairs.push({
          label,
          finding,
          strength,
          sameTitle: label.title !== undefined && label.title === finding.title ? 1 : 0,
          distance: Math.abs(finding.line - label.line),
          order,
        });
    }
  });
  pairs.sort((a, b) => b.strength - a.strength || b.sameTitle - a.sameTitle || a.distance - b.distance || a.order - b.order || a.finding.line - b.finding.line);
  const matches = new Map();
  const labelOf = new Map();
  for (const { label, finding } of pairs) {
    if (matches.has(label) || labelOf.has(finding)) continue;
    matches.set(label, finding);
    labelOf.set(finding, label);
  }
  return { matches, labelOf, stale: labels.filter((label) => !matches.has(label)) };
}
