// The precision report (issue 17): per rule its figures on the panel, the labels no longer reported,
// per repository its grade — as a console table and as docs/precision.md.
import { intervalText, percent, precisionOf } from './statistics.mjs';

/** The sample a rule should have across the panel where it fires that often. */
const SAMPLE_TARGET = 30;
const WORST_EXAMPLES = 5;

/**
 * One row per registered rule (within the filter): findings, verdict counts of its matched labels,
 * precision, interval, bar, status and its worst examples (fp, then debatable).
 */
export function summariseRules({ rules, keepRule, findings, matches }) {
  const rows = [];
  for (const [rule, { severity }] of [...rules].sort(([a], [b]) => a.localeCompare(b))) {
    if (!keepRule(rule)) continue;
    const own = findings.filter((f) => f.rule === rule);
    // Findings at `info` are notes that cost no points: their labels are shown apart and the bar
    // applies to the findings that grade (issue 17: a rule below its bar may be demoted to info).
    const counts = { tp: 0, fp: 0, debatable: 0 };
    const notes = { tp: 0, fp: 0, debatable: 0 };
    const worst = [];
    for (const [label, finding] of matches) {
      if (label.rule !== rule) continue;
      if (finding?.severity === 'info') notes[label.verdict]++;
      else counts[label.verdict]++;
      if (label.verdict !== 'tp') worst.push({ label, finding });
    }
    const graded = precisionOf(counts, severity);
    const noteCount = notes.tp + notes.fp + notes.debatable;
    rows.push({
      rule,
      severity,
      findings: own.length,
      infoFindings: own.filter((f) => f.severity === 'info').length,
      repos: new Set(own.map((f) => f.repo)).size,
      ...counts,
      notes,
      ...graded,
      ...(graded.status === 'unmeasured' && noteCount > 0 ? { status: 'notes' } : {}),
      // The bar is measured on grading findings: info notes are labelled apart.
      target: Math.min(SAMPLE_TARGET, own.filter((f) => f.severity !== 'info').length),
      roles: countBy(own, (f) => f.role ?? 'production'),
      worst: worstExamples(worst),
    });
  }
  return rows;
}

function countBy(items, keyOf) {
  const counts = {};
  for (const item of items) counts[keyOf(item)] = (counts[keyOf(item)] ?? 0) + 1;
  return counts;
}

/**
 * The fp and debatable labels of a rule grouped by verdict and reason (one class of mistake is often
 * labelled many times with one reason): fp first, then the largest groups; each with its places.
 */
function worstExamples(labelled) {
  const groups = new Map();
  for (const item of labelled) {
    const key = `${item.label.verdict}\u0000${item.label.reason}`;
    if (!groups.has(key)) groups.set(key, { verdict: item.label.verdict, reason: item.label.reason, places: [] });
    groups.get(key).places.push(where(item.label, item.finding));
  }
  const sorted = [...groups.values()].sort(
    (a, b) => (a.verdict === b.verdict ? 0 : a.verdict === 'fp' ? -1 : 1) || b.places.length - a.places.length || a.reason.localeCompare(b.reason),
  );
  for (const group of sorted) group.places.sort();
  return sorted.slice(0, WORST_EXAMPLES);
}

/** `places` as text: the first few, then how many more. */
function placesText(places, quote = (p) => p) {
  const shown = places.slice(0, 3).map(quote).join(', ');
  return places.length > 3 ? `${shown} and ${places.length - 3} more` : shown;
}

const STATUS = { pass: 'pass', fail: 'FAIL', unmeasured: 'not measured', notes: 'info only' };

function ruleCells(row) {
  return [
    row.rule,
    row.severity,
    row.findings,
    row.repos,
    row.labelled,
    row.tp,
    row.fp,
    row.debatable,
    row.precision === null ? '—' : percent(row.precision),
    intervalText(row.interval),
    percent(row.bar),
    row.findings === 0 && row.labelled === 0 && notesOf(row) === 0
      ? 'no findings'
      : STATUS[row.status] + (row.labelled > 0 && row.labelled < row.target ? ` (sample ${row.labelled}/${row.target})` : ''),
    notesOf(row) === 0 ? '—' : `${row.infoFindings} (${row.notes.tp}/${notesOf(row)} tp)`,
  ];
}
const notesOf = (row) => (row.notes ? row.notes.tp + row.notes.fp + row.notes.debatable : 0);
const RULE_HEAD = [
  'rule',
  'severity',
  'findings',
  'repos',
  'labelled',
  'tp',
  'fp',
  'debatable',
  'precision',
  '95 % CI',
  'bar',
  'status',
  'info notes (labelled tp)',
];

function where(label, finding) {
  const dir = label.repo.split('/')[1];
  return `${dir}:${finding ? `${finding.file}:${finding.line}` : `${label.file}:${label.line}`}`;
}

function repoCells(r) {
  const grade = r.grade ? `${r.grade} ${r.overall}` : `no grade (${r.notGraded ?? 'no reason given'})`;
  return [
    r.entry.repo,
    r.entry.commit.slice(0, 12),
    styleOf(r.entry),
    grade,
    r.files,
    r.findings.length,
    r.labelled,
    r.stale,
    `${r.seconds.toFixed(1)} s${r.cached ? ' (cached)' : ''}`,
  ];
}
const REPO_HEAD = ['repository', 'commit', 'style', 'grade', 'files', 'findings', 'labels matched', 'no longer reported', 'time'];

function styleOf(entry) {
  const s = entry.style ?? {};
  return [s.kind, s.semicolons, s.modules, s.language].filter(Boolean).join(', ');
}

/** Labels grouped by rule and reason (one class fixed at once leaves many labels with one reason), by rule, largest first. */
function byRuleAndReason(labels) {
  const groups = new Map();
  for (const label of labels) {
    const key = `${label.rule}\u0000${label.reason}`;
    if (!groups.has(key)) groups.set(key, { rule: label.rule, reason: label.reason, labels: [] });
    groups.get(key).labels.push(label);
  }
  return [...groups.values()].sort((a, b) => a.rule.localeCompare(b.rule) || b.labels.length - a.labels.length || a.reason.localeCompare(b.reason));
}

function staleGroups(stale) {
  return [
    ['fp', 'false positives no longer reported (good news)'],
    ['tp', 'true positives no longer reported (a regression, or the code moved beyond the hint)'],
    ['debatable', 'debatable findings no longer reported'],
  ].map(([verdict, title]) => ({ title, labels: stale.filter((l) => l.verdict === verdict) }));
}

function totals(rows) {
  const measured = rows.filter((r) => r.labelled > 0);
  return {
    measured: measured.length,
    passing: measured.filter((r) => r.status === 'pass').length,
    failing: measured.filter((r) => r.status === 'fail').map((r) => r.rule),
    notesOnly: rows.filter((r) => r.status === 'notes').length,
    unmeasuredFiring: rows.filter((r) => r.labelled === 0 && r.findings > 0 && r.status !== 'notes').length,
    silent: rows.filter((r) => r.findings === 0 && r.labelled === 0).map((r) => r.rule),
  };
}

/** Plain-text tables for the console. */
export function consoleReport({ ruleRows, repoRows, stale, skipped, labelErrors, labelsTotal }) {
  const out = [];
  const shown = ruleRows.filter((r) => r.findings > 0 || r.labelled > 0);
  out.push(...textTable(RULE_HEAD, shown.map(ruleCells)));
  const t = totals(ruleRows);
  out.push(
    '',
    `${labelsTotal} labels; ${t.measured} rules measured, ${t.passing} at or above their bar${t.failing.length ? `, below: ${t.failing.join(', ')}` : ''}; ${t.unmeasuredFiring} rules fire but have no labels; ${t.notesOnly} rules report info notes only (labelled apart from the bar).`,
  );
  if (t.silent.length) out.push(`No findings on the panel: ${t.silent.join(', ')}.`);
  const examples = ruleRows.filter((r) => r.worst.length > 0);
  if (examples.length) {
    out.push('', 'Worst examples:');
    for (const row of examples) {
      out.push(`  ${row.rule}`);
      for (const group of row.worst) out.push(`    ${group.verdict} ×${group.places.length} ${placesText(group.places)} — ${group.reason}`);
    }
  }
  for (const group of staleGroups(stale)) {
    if (group.labels.length === 0) continue;
    out.push('', `No longer reported — ${group.title}:`);
    for (const g of byRuleAndReason(group.labels))
      out.push(`  ${g.rule} ×${g.labels.length} ${placesText(g.labels.map((l) => `${where(l)} (${l.where})`))} — ${g.reason}`);
  }
  out.push('', ...textTable(REPO_HEAD, repoRows.map(repoCells)));
  if (skipped.length) out.push('', 'Skipped:', ...skipped.map((s) => `  - ${s}`));
  if (labelErrors.length) out.push('', `${labelErrors.length} label line(s) refused (see above); they were left out.`);
  return out.join('\n');
}

function textTable(head, rows) {
  const widths = head.map((h, i) => Math.max(String(h).length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => (typeof c === 'number' ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
}

function markdownTable(head, rows, numeric) {
  const escape = (c) => String(c).replaceAll('|', '\\|');
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (numeric.includes(i) ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(escape).join(' | ')} |`),
  ];
}

/** docs/precision.md. */
export function markdownReport({
  panel,
  engineVersion,
  engineCommit,
  engineDirty,
  ruleRows,
  repoRows,
  stale,
  skipped,
  labelErrors,
  labelsTotal,
  date,
  seconds,
}) {
  const t = totals(ruleRows);
  const shown = ruleRows.filter((r) => r.findings > 0 || r.labelled > 0);
  const examples = ruleRows.filter((r) => r.worst.length > 0);
  const md = [
    '# Finding precision on a panel of real repositories',
    '',
    'How often a reviewer agrees with a finding (issue 17). `npm run precision` analyses the panel of',
    'public repositories in `test/precision/panel.json` at their pinned commits — default configuration,',
    'as untrusted code — and matches the findings with the labels in `test/precision/labels/*.jsonl`,',
    'each written by reading the code: `tp` (a reviewer agrees), `fp` (wrong) or `debatable`.',
    'Precision = tp / (tp + fp + debatable): a debatable finding is not one a reviewer agrees with.',
    'The interval is a Wilson 95 % score interval. The bar is 90 %, 95 % for rules whose default',
    'severity is high or critical. A label matches a finding of the same repository, rule and file',
    "whose symbol equals the label's (when both have one) or whose lines, two either side, contain the",
    "label's hint; symbol and hint together beat one of them, then an equal title (two findings on one line),",
    'then the nearest line wins; one label per finding.',
    '',
    `Run ${date}, engine ${engineVersion}${engineCommit ? ` (commit ${engineCommit.slice(0, 12)}${engineDirty ? ' plus uncommitted changes in packages/' : ''})` : ''}, panel of ${panel.date}: ${repoRows.length} of ${panel.repositories.length} repositories analysed, ${labelsTotal} labels; ${Math.round(seconds)} s on a shared 2-core machine${repoRows.some((r) => r.cached) ? ' (findings of this build cached from an earlier run where it says so)' : ''}.`,
    '',
    '## How to reproduce',
    '',
    '1. Check out each panel repository at its commit into one directory, named as its `dir`:',
    '   `git clone https://github.com/<repo> $DIR/<dir> && git -C $DIR/<dir> checkout <commit>` (table below).',
    '2. `CODEHEALTH_PANEL_CHECKOUTS=$DIR npm run precision` (builds, analyses, prints, writes this file);',
    "   add `-- --write-readmes` to put each rule's figure into its README.",
    '3. To label: `node test/precision/precision.mjs --sample [--rule <id or family>] [--repo <dir>]` writes',
    '   stubs for the next unlabelled findings (up to 8 per rule per repository, in the order of a hash of',
    '   repository, file and line, never chosen by looking) to `$TMPDIR/codehealth-precision/pending-<family>.jsonl`',
    '   (the file of a narrower run names its rule and repository too);',
    '   fill in `verdict` and `reason` by reading the code, drop `context` (keep `title`: it tells apart two findings on one',
    '   line), append to `test/precision/labels/<family>.jsonl` (or `<family>.<part>.jsonl`).',
    '   A checkout that is absent or at another commit is skipped and named; a bad label line is named by file:line.',
    '',
    `## Rules (${t.measured} measured, ${t.passing} at or above their bar)`,
    '',
    ...(t.failing.length ? [`Below their bar: ${t.failing.map((r) => `\`${r}\``).join(', ')}.`, ''] : []),
    ...markdownTable(RULE_HEAD, shown.map(ruleCells), [2, 3, 4, 5, 6, 7, 8, 10]),
    '',
    `${t.unmeasuredFiring} rules fire on the panel but have no labels yet; ${t.notesOnly} report info notes only, labelled apart from the bar.${t.silent.length ? ` No findings on the panel: ${t.silent.map((r) => `\`${r}\``).join(', ')}.` : ''}`,
    '',
  ];
  if (examples.length) {
    md.push(
      '## Worst examples',
      '',
      "False positives first, then debatable findings, grouped by the labeller's reason (largest groups first, at most five per rule).",
      '',
    );
    for (const row of examples) {
      md.push(`- \`${row.rule}\``);
      for (const group of row.worst) md.push(`  - ${group.verdict} ×${group.places.length} ${placesText(group.places, (p) => `\`${p}\``)} — ${group.reason}`);
    }
    md.push('');
  }
  const roles = ['production', 'test', 'fixture', 'benchmark', 'example', 'docs', 'tooling', 'generated', 'vendored'].filter((role) =>
    shown.some((r) => r.roles[role]),
  );
  md.push(
    '## Findings by file role',
    '',
    "Where each rule's findings on the panel fall, by the role the engine gives the file.",
    '',
    ...markdownTable(
      ['rule', ...roles],
      shown.filter((r) => r.findings > 0).map((r) => [r.rule, ...roles.map((role) => r.roles[role] ?? 0)]),
      roles.map((_, i) => i + 1),
    ),
    '',
  );
  md.push('## No longer reported', '', 'Labels that match no finding of this run (their repository was analysed).', '');
  const groups = staleGroups(stale).filter((g) => g.labels.length > 0);
  if (groups.length === 0) md.push('None.', '');
  for (const group of groups) {
    md.push(`### ${group.labels.length} ${group.title}`, '');
    for (const g of byRuleAndReason(group.labels))
      md.push(`- \`${g.rule}\` ×${g.labels.length} ${placesText(g.labels.map((l) => `\`${where(l)}\` (${l.where})`))} — ${g.reason}`);
    md.push('');
  }
  md.push('## Repositories', '', ...markdownTable(REPO_HEAD, repoRows.map(repoCells), [4, 5, 6, 7, 8]), '');
  md.push('## Panel', '', ...panel.repositories.map((r) => `- ${r.repo}@${r.commit} (\`${r.dir}\`): ${styleOf(r)}${r.note ? `; ${r.note}` : ''}`), '');
  if (skipped.length) md.push('## Skipped', '', ...skipped.map((s) => `- ${s}`), '');
  if (labelErrors.length) md.push('## Refused label lines', '', ...labelErrors.map((e) => `- ${e}`), '');
  return md.join('\n');
}
