// `npm run precision` (issue 17): analyses the panel of public repositories (test/precision/panel.json)
// at their pinned commits, matches the findings with the labels committed in
// test/precision/labels/*.jsonl, and prints per rule its precision on the labelled sample with a
// Wilson 95 % interval against its bar (90 %, 95 % for high and critical rules), the worst examples,
// the labels no longer reported, and per repository its grade. Writes the same to docs/precision.md.
//
//   CODEHEALTH_PANEL_CHECKOUTS=/work/checkouts npm run precision
//   node test/precision/precision.mjs --sample [--rule <id or family>] [--repo <dir>]   label stubs
//     (in $TMPDIR/codehealth-precision/pending-<family>[-<rule>][-<repo>].jsonl)
//   node test/precision/precision.mjs --write-readmes                                   README lines
//
// Repositories are analysed in process with the default configuration and as untrusted code (no
// repository plugin or code config is loaded). Findings are cached per commit and engine build in
// the OS temp dir, so repeated runs on an unchanged build analyse nothing.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createEngine } from '@codehealth/engine';
import { familyOfLabelFile, matchLabels, parseLabels } from './labels.mjs';
import { markdownReport, consoleReport, summariseRules } from './report.mjs';
import { precisionLine, withPrecisionLine } from './readmes.mjs';
import { labelStub, pickSample } from './sampling.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..');
const workDir = join(tmpdir(), 'codehealth-precision');
const CHECKOUTS_VARIABLE = 'CODEHEALTH_PANEL_CHECKOUTS';

const { values: args } = parseArgs({
  options: {
    sample: { type: 'boolean', default: false },
    rule: { type: 'string' },
    repo: { type: 'string' },
    'write-readmes': { type: 'boolean', default: false },
    'no-cache': { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(
    readFileSync(fileURLToPath(import.meta.url), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('//'))
      .map((l) => l.slice(3))
      .join('\n'),
  );
  process.exit(0);
}

const panel = JSON.parse(readFileSync(join(here, 'panel.json'), 'utf8'));
const engineVersion = JSON.parse(readFileSync(join(repoRoot, 'packages/engine/package.json'), 'utf8')).version;
const engine = await createEngine({ cacheDir: false });
/** Registered rules: id → default severity and README path. */
const rules = new Map();
for (const analyzer of engine.analyzers) {
  for (const rule of analyzer.rules) {
    const readme = join(repoRoot, 'packages/analyzers/src', analyzer.id, rule.meta.id, 'README.md');
    rules.set(`${analyzer.id}/${rule.meta.id}`, { severity: rule.meta.severity, readme: existsSync(readme) ? readme : undefined });
  }
}

// Labels first: a broken line is reported whatever else happens.
const { labels, errors: labelErrors } = readLabels();
for (const error of labelErrors) console.error(`label error: ${error}`);

const ruleFilter = args.rule;
const keepRule = (id) => !ruleFilter || id === ruleFilter || id.startsWith(`${ruleFilter}/`);
if (ruleFilter && ![...rules.keys()].some(keepRule)) fail(`--rule ${ruleFilter}: no registered rule has this id or family`);
if (args.repo && !panel.repositories.some((r) => r.dir === args.repo || r.repo === args.repo)) {
  fail(`--repo ${args.repo}: not in test/precision/panel.json (dirs: ${panel.repositories.map((r) => r.dir).join(', ')})`);
}
const partial = Boolean(ruleFilter || args.repo);

const startedAt = performance.now();
const skipped = [];
const analysed = [];
const checkouts = process.env[CHECKOUTS_VARIABLE];
if (!checkouts) {
  skipped.push(
    `every repository: ${CHECKOUTS_VARIABLE} is not set. Set it to a directory holding one git checkout per panel repository, ` +
      `named as its "dir" in test/precision/panel.json and at its pinned commit, e.g. ` +
      `\`git clone https://github.com/immerjs/immer <dir>/immer && git -C <dir>/immer checkout 061c2425e1c9\`, then ` +
      `\`${CHECKOUTS_VARIABLE}=<dir> npm run precision\`.`,
  );
}
const buildStamp = engineBuildStamp();
for (const entry of panel.repositories) {
  if (args.repo && entry.dir !== args.repo && entry.repo !== args.repo) continue;
  if (!checkouts) continue;
  const dir = join(checkouts, entry.dir);
  const reason = checkoutProblem(dir, entry.commit);
  if (reason) {
    skipped.push(`${entry.repo} (${entry.dir}): ${reason}`);
    continue;
  }
  try {
    analysed.push({ entry, dir, ...(await analyseCheckout(entry, dir)) });
  } catch (error) {
    skipped.push(`${entry.repo} (${entry.dir}): analysis failed: ${String(error?.message ?? error).split('\n')[0]}`);
  }
}
await engine.close();

const findings = analysed.flatMap((a) => a.findings).filter((f) => keepRule(f.rule));
const analysedRepos = new Set(analysed.map((a) => a.entry.repo));
// Labels of repositories not analysed in this run are neither matched nor stale: they were not checked.
const checkedLabels = labels.filter((l) => analysedRepos.has(l.repo) && keepRule(l.rule));
const fileLines = new Map();
const dirOf = new Map(analysed.map((a) => [a.entry.repo, a.dir]));
const linesOf = (repo, file) => {
  const key = `${repo}\u0000${file}`;
  if (!fileLines.has(key)) {
    try {
      fileLines.set(key, readFileSync(join(dirOf.get(repo), file), 'utf8').split(/\r?\n/));
    } catch {
      fileLines.set(key, undefined);
    }
  }
  return fileLines.get(key);
};
const { matches, labelOf, stale } = matchLabels(checkedLabels, findings, linesOf);

if (args.sample) {
  writeSample();
} else if (analysed.length === 0) {
  console.log(`No repository analysed, so nothing measured (docs/precision.md left as it is).\n${skipped.map((s) => `- ${s}`).join('\n')}`);
  process.exit(1);
} else {
  const ruleRows = summariseRules({ rules, keepRule, findings, labelOf, matches, stale });
  const repoRows = analysed.map((a) => ({
    ...a,
    labelled: [...matches.values()].filter((f) => f.repo === a.entry.repo).length,
    stale: stale.filter((l) => l.repo === a.entry.repo).length,
  }));
  const context = {
    panel,
    engineVersion,
    engineCommit: gitHead(repoRoot),
    engineDirty: engineDirty(),
    ruleRows,
    repoRows,
    stale,
    skipped,
    labelErrors,
    labelsTotal: labels.length,
    date: new Date().toISOString().slice(0, 10),
    partial,
    seconds: (performance.now() - startedAt) / 1000,
  };
  console.log(consoleReport(context));
  if (partial) console.log(`\nA partial run (--rule/--repo): docs/precision.md and READMEs left as they are.`);
  else {
    writeFileSync(join(repoRoot, 'docs', 'precision.md'), markdownReport(context));
    console.log('\nWrote docs/precision.md');
    if (args['write-readmes']) writeReadmes(ruleRows);
  }
}
process.exitCode = labelErrors.length > 0 ? 1 : 0;

/** Every labels file, parsed and validated against the panel and the registered rules. */
function readLabels() {
  const dir = join(here, 'labels');
  const all = { labels: [], errors: [] };
  if (!existsSync(dir)) return all;
  const repos = new Set(panel.repositories.map((r) => r.repo));
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl'))
    .sort()) {
    const family = familyOfLabelFile(name);
    const parsed = parseLabels(readFileSync(join(dir, name), 'utf8'), `test/precision/labels/${name}`, { repos, rules: new Set(rules.keys()), family });
    all.labels.push(...parsed.labels);
    all.errors.push(...parsed.errors);
  }
  return all;
}

/** Why a checkout cannot be used (absent, not git, another commit), or undefined. */
function checkoutProblem(dir, commit) {
  if (!existsSync(dir)) return `no checkout at ${dir}`;
  const head = existsSync(join(dir, '.git')) ? gitHead(dir) : undefined;
  if (!head) return `${dir} is not a git checkout`;
  if (head !== commit) return `HEAD is ${head.slice(0, 12)}, the panel pins ${commit.slice(0, 12)} (git -C ${dir} checkout ${commit})`;
  return undefined;
}

function gitHead(dir) {
  try {
    return execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** Whether packages/ has uncommitted changes (then the built engine is not exactly its commit). */
function engineDirty() {
  try {
    return (
      execFileSync('git', ['-C', repoRoot, 'status', '--porcelain', '--', 'packages'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== ''
    );
  } catch {
    return false;
  }
}

/** A fingerprint of the built engine and analyzers (their dist files' sizes and times): findings cached under another build are not reused. */
function engineBuildStamp() {
  const hash = createHash('sha1');
  for (const pkg of ['engine', 'analyzers']) {
    const dist = join(repoRoot, 'packages', pkg, 'dist');
    if (!existsSync(dist)) continue;
    for (const file of readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.js'))
      .sort()) {
      const stat = statSync(join(dist, file));
      hash.update(`${pkg}/${file}:${stat.size}:${stat.mtimeMs}\n`);
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** The checkout's findings and figures, from the cache when this build has analysed this commit before. */
async function analyseCheckout(entry, dir) {
  const cacheFile = join(workDir, 'findings', `${entry.dir}-${entry.commit.slice(0, 12)}-${buildStamp}.json`);
  if (!args['no-cache'] && existsSync(cacheFile)) {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8'));
    console.error(`${entry.repo}: cached findings of this build (${cached.findings.length})`);
    return { ...cached, cached: true };
  }
  const started = performance.now();
  const result = await engine.analyze(dir, { allowCodeConfig: false, config: {} });
  const seconds = (performance.now() - started) / 1000;
  const record = {
    findings: result.findings.map((f) => ({
      repo: entry.repo,
      rule: f.ruleId,
      file: f.filePath,
      line: f.anchor.lineStart,
      endLine: f.anchor.lineEnd,
      ...(f.symbol !== undefined ? { symbol: f.symbol } : {}),
      title: f.title,
      severity: f.severity,
      ...(f.role ? { role: f.role } : {}),
    })),
    grade: result.scores.grade,
    overall: result.scores.overall,
    notGraded: result.scores.notGradedReason,
    files: result.metrics.files.analysed,
    seconds,
  };
  console.error(`${entry.repo}: analysed in ${seconds.toFixed(1)} s, ${record.findings.length} findings`);
  mkdirSync(dirname(cacheFile), { recursive: true });
  writeFileSync(`${cacheFile}.${process.pid}`, JSON.stringify(record));
  renameSync(`${cacheFile}.${process.pid}`, cacheFile);
  // Findings of this commit under older builds will not be read again.
  const prefix = `${entry.dir}-${entry.commit.slice(0, 12)}-`;
  for (const old of readdirSync(dirname(cacheFile)).filter((n) => n.startsWith(prefix) && n.endsWith('.json') && join(dirname(cacheFile), n) !== cacheFile)) {
    rmSync(join(dirname(cacheFile), old), { force: true });
  }
  return { ...record, cached: false };
}

/** `--sample`: stubs for the next findings to label, by family in the OS temp dir. */
function writeSample() {
  const picked = pickSample(findings, (f) => labelOf.has(f));
  const byFamily = new Map();
  for (const finding of picked) {
    const family = finding.rule.split('/')[0];
    if (!byFamily.has(family)) byFamily.set(family, []);
    byFamily.get(family).push(labelStub(finding, linesOf(finding.repo, finding.file)));
  }
  mkdirSync(workDir, { recursive: true });
  for (const [family, stubs] of [...byFamily].sort()) {
    const target = pendingFile(family);
    writeFileSync(`${target}.${process.pid}`, stubs.map((s) => JSON.stringify(s)).join('\n') + '\n');
    renameSync(`${target}.${process.pid}`, target);
    if (ruleFilter) for (const stub of stubs) console.log(JSON.stringify(stub));
  }
  const counts = new Map();
  for (const f of picked) counts.set(f.rule, (counts.get(f.rule) ?? 0) + 1);
  console.error(`\n${picked.length} findings to label (up to 8 per rule per repository, minus those labelled):`);
  for (const [rule, n] of [...counts].sort()) console.error(`  ${rule}: ${n}`);
  for (const family of [...byFamily.keys()].sort()) console.error(`wrote ${pendingFile(family)}`);
  for (const s of skipped) console.error(`skipped: ${s}`);
  console.error(
    '\nFill in "verdict" (tp, fp or debatable) and "reason" by reading the code, check the "hint" is an exact piece of the\n' +
      'finding\'s first lines, drop "context" (keep "title": it tells apart two findings on one line), and append the lines to\n' +
      'test/precision/labels/<family>.jsonl (or <family>.<part>.jsonl to label beside others). The labels are checked by npx vitest run test/precision/precision.test.ts.',
  );
}

/**
 * Where the stubs of a family go: pending-<family>.jsonl, with the --rule and --repo filters in the
 * name, so that a narrower run never overwrites the family's whole sample someone may be reading.
 */
function pendingFile(family) {
  const rule = ruleFilter && ruleFilter !== family ? `-${ruleFilter.split('/')[1]}` : '';
  const repo = args.repo ? `-${args.repo.replace('/', '+')}` : '';
  return join(workDir, `pending-${family}${rule}${repo}.jsonl`);
}

/** `--write-readmes`: each rule's measured precision into its README. */
function writeReadmes(ruleRows) {
  let written = 0;
  const edited = uncommittedFiles(join(repoRoot, 'packages/analyzers/src'));
  const leftAlone = [];
  for (const row of ruleRows) {
    const readme = rules.get(row.rule)?.readme;
    if (!readme) continue;
    // Someone's edit in progress is theirs to finish: its README gets the line on a later run.
    if (edited.has(readme)) {
      leftAlone.push(row.rule);
      continue;
    }
    const before = readFileSync(readme, 'utf8');
    const after = withPrecisionLine(before, precisionLine(row, panel.date));
    if (after !== before) {
      writeFileSync(readme, after);
      written++;
    }
  }
  console.log(`Updated the precision line of ${written} README${written === 1 ? '' : 's'}.`);
  if (leftAlone.length) console.log(`Left alone (uncommitted changes in the README): ${leftAlone.join(', ')}.`);
}

/** Absolute paths of the files under `dir` that differ from the last commit (none outside git). */
function uncommittedFiles(dir) {
  try {
    const top = execFileSync('git', ['-C', dir, 'rev-parse', '--show-toplevel'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const status = execFileSync('git', ['-C', dir, 'status', '--porcelain', '--no-renames', '--untracked-files=all', '--', '.'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return new Set(
      status
        .split('\n')
        .filter(Boolean)
        .map((line) => join(top, line.slice(3))),
    );
  } catch {
    return new Set();
  }
}

function fail(message) {
  console.error(message);
  process.exit(2);
}
