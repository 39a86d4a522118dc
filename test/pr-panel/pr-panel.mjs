// `npm run pr-panel` (issue 18): real merged PRs of public repositories (test/pr-panel/panel.json),
// each analysed by the engine's PR pipeline (the one the worker runs) against a full assessment of
// its merge base, and compared with the truth: the full assessments of merge base and head, their
// issues in the changed files matched by the engine's issue identity (truth.mjs). Prints per PR
// intent and readiness against the hand-checked expectation, the impact rating, the current score
// and delta against the full assessments', new / worsened / improved / fixed against the truth, and
// the analysis time; writes the same to docs/pr-panel.md.
//
//   CODEHEALTH_PANEL_CHECKOUTS=/work/checkouts npm run pr-panel [-- --pr <repo#number>]
//
// Checkouts are only read: each commit is checked out as a `--shared` clone in the OS temp dir.
// A PR whose checkout is missing or lacks its commits is skipped and named. Exit code 1 only on a crash.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createEngine, issueFingerprint } from '@codehealth/engine';
import { baselineOfResult, localCheckouts, PrAnalysisPipeline } from '@codehealth/service';
import { compareScores, compareWithTruth, computeTruth, SCORE_TOLERANCE, validatePanel } from './truth.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const CHECKOUTS_VARIABLE = 'CODEHEALTH_PANEL_CHECKOUTS';
const { values: args } = parseArgs({ options: { pr: { type: 'string' } } });

const panel = JSON.parse(readFileSync(join(here, 'panel.json'), 'utf8'));
const errors = validatePanel(panel);
if (errors.length > 0) {
  console.error(`test/pr-panel/panel.json is invalid:\n${errors.map((e) => `- ${e}`).join('\n')}`);
  process.exit(1);
}
const checkouts = process.env[CHECKOUTS_VARIABLE];
const skipped = [];
const rows = [];
if (!checkouts) skipped.push(`every PR: ${CHECKOUTS_VARIABLE} is not set (a directory holding one git checkout with history per panel "dir")`);
const engine = checkouts ? await createEngine({ cacheDir: false }) : undefined;
const git = (dir, ...argv) =>
  execFileSync('git', ['-C', dir, ...argv], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 256 * 1024 * 1024 }).trim();
const hasCommit = (dir, sha) => {
  try {
    git(dir, 'cat-file', '-e', `${sha}^{commit}`);
    return true;
  } catch {
    return false;
  }
};

for (const entry of panel.prs) {
  const id = `${entry.repo}#${entry.number}`;
  if (args.pr && args.pr !== id) continue;
  if (!checkouts) continue;
  const dir = join(checkouts, entry.dir);
  if (!existsSync(join(dir, '.git'))) {
    skipped.push(`${id}: no git checkout at ${dir}`);
    continue;
  }
  const missing = [entry.base, entry.head].filter((sha) => !hasCommit(dir, sha));
  if (missing.length > 0) {
    skipped.push(`${id}: ${dir} lacks ${missing.map((s) => s.slice(0, 12)).join(', ')}`);
    continue;
  }
  try {
    rows.push(await runPr(entry, dir));
  } catch (error) {
    rows.push({
      entry,
      error: String(error?.stack ?? error)
        .split('\n')
        .slice(0, 3)
        .join(' | '),
    });
    console.log(`${id}: CRASH ${rows.at(-1).error}`);
    process.exitCode = 1;
    continue;
  }
  console.log(line(rows.at(-1)));
}
await engine?.close();

const report = markdown();
console.log(`\n${report}`);
if (!args.pr && rows.length > 0) {
  writeFileSync(join(repoRoot, 'docs', 'pr-panel.md'), report);
  console.log('Wrote docs/pr-panel.md');
}

async function runPr(entry, dir) {
  const work = localCheckouts(dir);
  const mergeBase = git(dir, 'merge-base', entry.base, entry.head);
  const base = await work.checkout(mergeBase);
  const head = await work.checkout(entry.head);
  try {
    const baseResult = await engine.analyze(base.path, { allowCodeConfig: false });
    const headResult = await engine.analyze(head.path, { allowCodeConfig: false });
    const pr = {
      number: entry.number,
      title: entry.title,
      body: '',
      baseBranch: 'main',
      headBranch: `pr-${entry.number}`,
      baseSha: entry.base,
      headSha: entry.head,
      author: 'panel',
    };
    const started = performance.now();
    const out = await new PrAnalysisPipeline({ engine }).run({
      headDir: head.path,
      checkouts: work,
      pr,
      baseAssessment: baselineOfResult(baseResult, mergeBase),
    });
    const ms = performance.now() - started;
    // The changed files as the analysis read them: head path -> base path (undefined when added).
    const changed = new Map();
    const deleted = new Set();
    for (const f of out.diff.files) {
      if (f.status === 'deleted') deleted.add(f.oldPath ?? f.path);
      else changed.set(f.path, f.status === 'added' ? undefined : (f.oldPath ?? f.path));
    }
    const truth = computeTruth({ baseFindings: baseResult.findings, headFindings: headResult.findings, changed, deleted, fingerprint: issueFingerprint });
    const reported = reportedChanges(out, changed, deleted);
    const r = out.result;
    return {
      entry,
      ms,
      stages: out.timingsMs,
      files: out.diff.files.length,
      intent: r.classification.primary_intent,
      readiness: r.merge_readiness.status,
      readinessReasons: r.merge_readiness.reasons ?? [],
      rating: r.health_impact.impact_rating,
      delta: r.health_impact.overall_delta,
      comparison: compareWithTruth(truth, reported),
      scores: {
        base: baseResult.scores.overall,
        head: headResult.scores.overall,
        current: r.health_projection.current_overall,
        delta: r.health_impact.overall_delta,
        ...compareScores({
          base: baseResult.scores.overall,
          head: headResult.scores.overall,
          current: r.health_projection.current_overall,
          delta: r.health_impact.overall_delta,
        }),
      },
    };
  } finally {
    await base.dispose();
    await head.dispose();
  }
}

/** What the analysis reported for the changed files, keyed like the truth (identity as if at base). */
function reportedChanges(out, changed, deleted) {
  const seen = new Map();
  const kinds = { new: [], worsened: [], improved: [], fixed: [] };
  for (const f of out.findings) {
    const fp = issueFingerprint(f);
    const occurrence = seen.get(fp) ?? 0;
    seen.set(fp, occurrence + 1);
    if (!changed.has(f.filePath)) continue;
    const change = out.issueChanges[occurrence === 0 ? fp : `${fp}#${occurrence}`]?.change ?? (out.newFingerprints.has(fp) ? 'new' : 'unchanged');
    if (!(change in kinds)) continue;
    const from = changed.get(f.filePath);
    kinds[change].push({
      ruleId: f.ruleId,
      filePath: f.filePath,
      line: f.anchor?.startLine,
      key: issueFingerprint(from && from !== f.filePath ? { ...f, filePath: from } : f),
    });
  }
  const basePaths = new Set([...deleted, ...[...changed.values()].filter(Boolean)]);
  for (const f of out.fixedFindings)
    if (basePaths.has(f.filePath)) kinds.fixed.push({ ruleId: f.ruleId, filePath: f.filePath, line: f.anchor?.startLine, key: issueFingerprint(f) });
  return kinds;
}

function mark(ok) {
  return ok ? 'ok' : 'MISMATCH';
}
function kindCell(c) {
  return `${c.reported}/${c.truth}${c.agrees ? '' : ` (missed ${c.missed.length}, extra ${c.extra.length})`}`;
}
/** `0.81 s (headAnalysis 0.41, diff 0.22)`: the analysis time and its two longest stages. */
function timeCell(row) {
  const longest = Object.entries(row.stages ?? {})
    .sort(([, a], [, b]) => b - a)
    .slice(0, 2)
    .map(([stage, ms]) => `${stage} ${(ms / 1000).toFixed(2)}`);
  return `${(row.ms / 1000).toFixed(2)} s${longest.length ? ` (${longest.join(', ')})` : ''}`;
}
/** `81.2 (81.2) Δ 0.1 (0.1)`: the PR's current score and delta, the full assessments' in brackets. */
function scoreCell(s) {
  const fmt = (n) => (n === null || n === undefined ? 'n/a' : (Math.round(n * 10) / 10).toString());
  return `${fmt(s.current)} (${fmt(s.base)}) Δ ${fmt(s.delta)} (${fmt(s.truthDelta)})${s.agrees ? '' : ' ✗'}`;
}
function line(row) {
  const { entry, comparison: c } = row;
  return (
    `${entry.repo}#${entry.number}: intent ${row.intent} (expected ${entry.expected.intent}: ${mark(row.intent === entry.expected.intent)}), ` +
    `readiness ${row.readiness} (expected ${entry.expected.readiness}: ${mark(row.readiness === entry.expected.readiness)}), impact ${row.rating} ${row.delta}, ` +
    `score ${scoreCell(row.scores)}, new ${kindCell(c.new)}, worsened ${kindCell(c.worsened)}, improved ${kindCell(c.improved)}, fixed ${kindCell(c.fixed)}, ${timeCell(row)}`
  );
}

function markdown() {
  const ok = rows.filter((r) => !r.error);
  const agree = (f) => ok.filter(f).length;
  const out = [
    '# PR panel (issue 18)',
    '',
    `Generated by \`npm run pr-panel\` on ${new Date().toISOString().slice(0, 10)} at engine commit ${gitHead()}, load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores at the end (times are wall clock: compare them at similar load). Each PR of test/pr-panel/panel.json is analysed by the PR pipeline against a full assessment of its merge base; the truth is the full assessments of merge base and head, issues of the changed files matched by issueFingerprint. Counts are reported/truth.`,
    '',
    '| PR | files | intent (expected) | readiness (expected) | impact | score (full) Δ (full) | new | worsened | improved | fixed | time (longest stages) |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) =>
      r.error
        ? `| ${r.entry.repo}#${r.entry.number} | crash: ${r.error.replace(/\|/g, '/')} ||||||||||`
        : `| ${r.entry.repo}#${r.entry.number} | ${r.files} | ${r.intent} (${r.entry.expected.intent})${r.intent === r.entry.expected.intent ? '' : ' ✗'} | ${r.readiness} (${r.entry.expected.readiness})${r.readiness === r.entry.expected.readiness ? '' : ' ✗'} | ${r.rating} ${r.delta} | ${scoreCell(r.scores)} | ${kindCell(r.comparison.new)} | ${kindCell(r.comparison.worsened)} | ${kindCell(r.comparison.improved)} | ${kindCell(r.comparison.fixed)} | ${timeCell(r)} |`,
    ),
    '',
    `Agreement: intent ${agree((r) => r.intent === r.entry.expected.intent)}/${ok.length}, readiness ${agree((r) => r.readiness === r.entry.expected.readiness)}/${ok.length}, ` +
      `issues (new, worsened, improved, fixed all equal to the truth) ${agree((r) => Object.values(r.comparison).every((c) => c.agrees))}/${ok.length}, ` +
      `scores (current = the base assessment's, delta within ${SCORE_TOLERANCE} of the head assessment's) ${agree((r) => r.scores.agrees)}/${ok.length}; crashes ${rows.length - ok.length}.`,
    '',
  ];
  const details = ok.flatMap((r) => {
    const lines = [];
    for (const [kind, c] of Object.entries(r.comparison)) {
      for (const m of c.missed) lines.push(`- ${r.entry.repo}#${r.entry.number} ${kind} missed: ${m.ruleId} ${m.filePath}:${m.line}`);
      for (const m of c.extra) lines.push(`- ${r.entry.repo}#${r.entry.number} ${kind} extra: ${m.ruleId} ${m.filePath}:${m.line}`);
    }
    if (!r.scores.agrees)
      lines.push(
        `- ${r.entry.repo}#${r.entry.number} score: current ${r.scores.current} (base assessment ${r.scores.base}), delta ${r.scores.delta} (head assessment ${r.scores.head}, Δ ${r.scores.truthDelta})`,
      );
    if (r.intent !== r.entry.expected.intent)
      lines.push(`- ${r.entry.repo}#${r.entry.number} intent ${r.intent} (expected ${r.entry.expected.intent}: ${r.entry.expected.reason})`);
    if (r.readiness !== r.entry.expected.readiness)
      lines.push(
        `- ${r.entry.repo}#${r.entry.number} readiness ${r.readiness}: ${r.readinessReasons.join('; ')} (expected ${r.entry.expected.readiness}: ${r.entry.expected.reason})`,
      );
    return lines;
  });
  if (details.length > 0) out.push('## Disagreements', '', ...details.slice(0, 80), '');
  if (skipped.length > 0) out.push('## Skipped', '', ...skipped.map((s) => `- ${s}`), '');
  return out.join('\n');
}

function gitHead() {
  try {
    return git(repoRoot, 'rev-parse', '--short=12', 'HEAD');
  } catch {
    return 'unknown';
  }
}
