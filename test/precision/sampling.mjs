// The labelling sample of issue 17: which unlabelled findings to label next, chosen without looking
// at them (ordered by a hash of repository, file and line), and the stubs labellers fill in.
import { createHash } from 'node:crypto';

/** Findings labelled per rule per repository, at most. */
export const SAMPLE_PER_RULE_AND_REPO = 8;
/** The longest hint a stub proposes. */
const HINT_LENGTH = 60;

/** The order key of a finding: a hash of repository, file and line, then title and symbol for findings on one line. */
export function sampleKey(finding) {
  const hash = createHash('sha1').update(`${finding.repo}\n${finding.file}\n${finding.line}`).digest('hex');
  return `${hash}\u0000${finding.title ?? ''}\u0000${finding.symbol ?? ''}`;
}

/**
 * The findings to label next: for each repository and rule, the first unlabelled findings in
 * sampleKey order, as many as that pair lacks of `perPair` labelled ones.
 * @template {{ repo: string, rule: string, file: string, line: number, title?: string, symbol?: string }} F
 * @param {F[]} findings
 * @param {(finding: F) => boolean} isLabelled
 * @returns {F[]} grouped by rule, then repository, in sample order
 */
export function pickSample(findings, isLabelled, perPair = SAMPLE_PER_RULE_AND_REPO) {
  const groups = new Map();
  for (const finding of findings) {
    const key = `${finding.rule}\u0000${finding.repo}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(finding);
  }
  const picked = [];
  for (const key of [...groups.keys()].sort()) {
    const group = groups.get(key);
    const room = perPair - group.filter(isLabelled).length;
    if (room <= 0) continue;
    const open = group.filter((f) => !isLabelled(f)).map((f) => ({ f, key: sampleKey(f) }));
    open.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    picked.push(...open.slice(0, room).map(({ f }) => f));
  }
  return picked;
}

/**
 * A label stub for one finding: the label's fields with `verdict` and `reason` empty, a proposed hint
 * (the trimmed text of the finding's first non-blank line, cut short) and `context`, 3-6 numbered
 * source lines from the line before the finding (fewer only in a shorter file), to read and then drop.
 * @param {{ repo: string, rule: string, file: string, line: number, endLine: number, symbol?: string, title?: string }} finding
 * @param {string[] | undefined} lines the file's lines (index 0 = line 1)
 */
export function labelStub(finding, lines) {
  const stub = { repo: finding.repo, rule: finding.rule, file: finding.file, line: finding.line, endLine: finding.endLine };
  if (finding.symbol !== undefined) stub.symbol = finding.symbol;
  const hint = lines ? hintAt(lines, finding.line, finding.endLine) : undefined;
  if (hint !== undefined) stub.hint = hint;
  stub.title = finding.title;
  stub.verdict = '';
  stub.reason = '';
  if (lines) {
    const to = Math.min(lines.length, Math.max(finding.line + 1, Math.min(finding.endLine + 1, finding.line + 4)));
    const from = Math.max(1, Math.min(finding.line - 1, to - 2));
    stub.context = [];
    for (let n = from; n <= to; n++) stub.context.push(`${String(n).padStart(5)}| ${lines[n - 1].slice(0, 160)}`);
  }
  return stub;
}

/** The first non-blank line of the finding (or just below it), trimmed and cut at HINT_LENGTH characters. */
function hintAt(lines, line, endLine) {
  for (let n = line; n <= Math.min(lines.length, Math.max(endLine, line + 2)); n++) {
    const text = lines[n - 1]?.trim();
    if (text) return text.length > HINT_LENGTH ? text.slice(0, HINT_LENGTH).trimEnd() : text;
  }
  return undefined;
}
