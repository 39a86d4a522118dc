// Calibration: grades of a panel of public code bases of different styles and sizes, plus one
// planted repository full of deliberate problems, to see whether grades separate well-kept code from
// neglected code. Nothing is tuned here; it only reports. `npm run calibrate` prints the table and
// writes the same as Markdown to docs/calibration.md.
// Panel: npm packages that ship their sources, pinned, unpacked into the OS temp dir; only their
// source folder (and package.json) is analysed, never their built output. Plus every git checkout
// in the directory named by CODEHEALTH_CALIBRATION_CHECKOUTS, when set.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEngine, HEALTH_CATEGORY_KEYS, FILE_ROLES } from '@codehealth/engine';
import { obtainNpmPackage } from '../helpers/corpora.js';
import { writePlantedRepository } from './planted-repository.mjs';

/**
 * [package, version, folder of its sources, style, root-level source entry files]. Versions pinned;
 * each folder checked to hold .ts/.js sources. Plain JavaScript packages keep their entry file at
 * the root (knex.js, index.js): it is source too, and without it every file of lib/ looks unused.
 */
const PANEL = [
  ['effect', '3.22.4', 'src', 'functional TS, very large'],
  ['@effect/platform', '0.97.2', 'src', 'functional TS'],
  ['rxjs', '7.8.2', 'src', 'reactive TS, classes + operators'],
  ['zod', '4.6.7', 'src', 'schema TS, heavy generics'],
  ['openai', '6.49.0', 'src', 'generated-style SDK'],
  ['@tanstack/query-core', '5.108.0', 'src', 'class-based TS'],
  ['@trpc/server', '11.25.2', 'src', 'type-level TS'],
  ['@trpc/client', '11.25.2', 'src', 'type-level TS'],
  ['@reduxjs/toolkit', '2.14.0', 'src', 'TS + tests in src'],
  ['redux', '5.0.1', 'src', 'small TS'],
  ['immer', '11.2.13', 'src', 'small TS'],
  ['mobx', '7.1.3', 'src', 'OO TS'],
  ['msw', '3.0.5', 'src', 'TS, node + browser'],
  ['type-fest', '5.10.0', 'source', 'declarations only (.d.ts)'],
  ['@temporalio/client', '1.24.0', 'src', 'SDK TS'],
  ['@temporalio/worker', '1.24.0', 'src', 'SDK TS, native bridge'],
  ['axios', '1.21.1', 'lib', 'plain JavaScript', ['index.js']],
  ['express', '5.3.0', 'lib', 'plain CommonJS JavaScript', ['index.js']],
  ['knex', '3.1.0', 'lib', 'large plain JavaScript', ['knex.js', 'knex.mjs']],
];
const SOURCE_FILE = /\.[mc]?[tj]sx?$/;
const CATEGORY_LABELS = {
  security: 'sec',
  runtime_risks: 'run',
  test_coverage: 'test',
  code_smell: 'smell',
  duplication: 'dup',
  dead_code: 'dead',
  consistency: 'cons',
  compliance: 'comp',
};
const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const stageRoot = join(tmpdir(), 'codehealth-calibration');

/** The package's source folder and package.json in a directory of their own, so that no built output is analysed. */
function stagePackage(name, version, folder, entryFiles = []) {
  const corpus = obtainNpmPackage(name, version, folder);
  if (corpus.error !== undefined) return { skip: corpus.error };
  const sourceDir = join(corpus.root, folder);
  const sources = readdirSync(sourceDir, { recursive: true, encoding: 'utf8' }).filter((p) => SOURCE_FILE.test(p));
  if (sources.length === 0) return { skip: `${name}@${version}: no .ts/.js sources in ${folder}/` };
  const dir = join(stageRoot, `${name.replace('/', '+')}-${version}`);
  if (!existsSync(join(dir, 'package.json'))) {
    rmSync(dir, { recursive: true, force: true });
    cpSync(sourceDir, join(dir, folder), { recursive: true });
    for (const file of entryFiles) cpSync(join(corpus.root, file), join(dir, file));
    cpSync(join(corpus.root, 'package.json'), join(dir, 'package.json'));
  }
  return { dir };
}

/** The precision panel's repositories (test/precision/panel.json) checked out in `parent` at their pinned commits. */
function panelCheckouts(parent) {
  const panel = JSON.parse(readFileSync(join(repoRoot, 'test', 'precision', 'panel.json'), 'utf8'));
  const entries = [];
  const skipped = [];
  for (const { repo, commit, dir: name, style } of panel.repositories) {
    const dir = join(parent, name);
    if (!existsSync(join(dir, '.git'))) {
      skipped.push(`${repo}@${commit.slice(0, 9)}: no checkout at ${dir}`);
      continue;
    }
    let head = '';
    try {
      head = execFileSync('git', ['-C', dir, 'rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      // Reported below as a checkout at another commit.
    }
    if (head !== commit) {
      skipped.push(`${repo}@${commit.slice(0, 9)}: the checkout is at ${head.slice(0, 9) || 'no commit'}, the panel pins ${commit.slice(0, 9)}`);
      continue;
    }
    const words = style ? [style.kind, style.language, style.modules, style.semicolons].filter(Boolean).join(', ') : 'git checkout';
    entries.push({ label: `${repo}@${commit.slice(0, 9)}`, dir, style: `git checkout with tests and history; ${words}`, source: 'git' });
  }
  return { entries, skipped };
}

/** Git checkouts (directories with a .git) directly inside `parent`. */
function checkoutsIn(parent) {
  const entries = [];
  const skipped = [];
  if (!existsSync(parent)) return { entries, skipped: [`CODEHEALTH_CALIBRATION_CHECKOUTS=${parent}: no such directory`] };
  for (const name of readdirSync(parent).sort()) {
    const dir = join(parent, name);
    if (!existsSync(join(dir, '.git'))) {
      skipped.push(`${name}: not a git checkout`);
      continue;
    }
    let head = 'unknown';
    try {
      head = execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      // A checkout without commits still gets analysed; its version stays unknown.
    }
    entries.push({ label: `${name}@${head}`, dir, style: 'git checkout', source: 'git' });
  }
  return { entries, skipped };
}

const dash = (value) => (value === null || value === undefined ? '—' : String(value));

function rowOf(label, style, result, ms) {
  const { metrics, scores } = result;
  const categories = Object.fromEntries(HEALTH_CATEGORY_KEYS.map((k) => [k, scores.categories[k]?.assessed ? scores.categories[k].score : null]));
  const roles = metrics.roles
    ? FILE_ROLES.filter((r) => metrics.roles[r].files > 0)
        .map((r) => `${r} ${metrics.roles[r].linesOfCode}`)
        .join(', ')
    : 'not classified';
  return {
    label,
    style,
    files: metrics.files.analysed,
    loc: metrics.totalLinesOfCode,
    parse: `${metrics.parse.filesWithErrors}/${metrics.parse.files}`,
    parseErrors: metrics.parse.filesWithErrors,
    parsed: metrics.parse.files,
    grade: scores.grade,
    overall: scores.overall,
    notGraded: scores.notGradedReason,
    categories,
    roles,
    seconds: ms / 1000,
    ledger: topLedger(scores),
    noTestsSeen: (scores.categories.test_coverage?.ledger ?? []).some((l) => l.id === 'structural-coverage' && l.value === 0),
  };
}

/** The overall ledger's costliest categories, each with its costliest lines. */
function topLedger(scores) {
  const lines = [];
  const overall = [...(scores.ledger ?? [])].sort((a, b) => b.cost - a.cost).slice(0, 3);
  for (const entry of overall) {
    const category = scores.categories[entry.category];
    const inner = [...(category.ledger ?? [])]
      .sort((a, b) => b.cost - a.cost)
      .slice(0, 3)
      .map((l) => (l.kind === 'rule' ? `${l.id} ×${l.findings} −${l.cost}` : `${l.id} = ${l.value} −${l.cost}`));
    lines.push(`${entry.category} ${entry.score} (−${entry.cost} overall): ${inner.join('; ') || 'no ledger lines'}`);
  }
  return lines;
}

function gradeCell(row) {
  return row.grade ? `${row.grade} ${row.overall}` : `no grade (${row.notGraded ?? 'no reason given'})`;
}

function tableLines(rows) {
  const head = ['repository', 'files', 'prod LOC', 'parse errors', 'grade', ...HEALTH_CATEGORY_KEYS.map((k) => CATEGORY_LABELS[k]), 'LOC by role'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i === 0 || i === 4 || i === head.length - 1 ? '---' : '---:')).join('|')}|`];
  for (const r of rows) {
    const cells = [r.label, r.files, r.loc, r.parse, gradeCell(r), ...HEALTH_CATEGORY_KEYS.map((k) => dash(r.categories[k])), r.roles];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return lines;
}

function summaryLines(rows, planted) {
  const distribution = {};
  for (const r of rows) distribution[r.grade ?? 'none'] = (distribution[r.grade ?? 'none'] ?? 0) + 1;
  const parsed = rows.reduce((n, r) => n + r.parsed, 0);
  const parseErrors = rows.reduce((n, r) => n + r.parseErrors, 0);
  const lines = [
    `Grade distribution: ${['A', 'B', 'C', 'D', 'F', 'none']
      .filter((g) => distribution[g])
      .map((g) => `${g} ${distribution[g]}`)
      .join(', ')}.`,
    `Parse health over the panel: ${parsed - parseErrors}/${parsed} files clean (${parsed ? ((100 * (parsed - parseErrors)) / parsed).toFixed(2) : '100.00'} %).`,
  ];
  for (const [source, what] of [
    ['git', 'git checkouts (with their tests and history)'],
    ['npm', 'npm packages (sources only, no tests)'],
  ]) {
    const libraries = rows.filter((r) => r.source === source);
    if (libraries.length === 0) continue;
    const low = libraries.filter((r) => r.grade === 'D' || r.grade === 'F');
    lines.push(
      low.length === 0
        ? `Every library of the ${what} is above D: yes (${libraries.length}).`
        : `Every library of the ${what} is above D: no — ${low.map((r) => `${r.label} (${r.grade})`).join(', ')}.`,
    );
  }
  lines.push(planted ? `Planted repository below A: ${planted.grade !== 'A' ? 'yes' : 'no'} (${gradeCell(planted)}).` : 'Planted repository: not analysed.');
  return lines;
}

const started = new Date();
const engineVersion = JSON.parse(readFileSync(join(repoRoot, 'packages/engine/package.json'), 'utf8')).version;
mkdirSync(stageRoot, { recursive: true });
const entries = [];
const skipped = [];
for (const [name, version, folder, style, entryFiles = []] of PANEL) {
  const staged = stagePackage(name, version, folder, entryFiles);
  if (staged.skip) skipped.push(staged.skip);
  else entries.push({ label: `${name}@${version}`, dir: staged.dir, style: `${style} (${[`${folder}/`, ...entryFiles].join(', ')})`, source: 'npm' });
}
if (process.env.CODEHEALTH_PANEL_CHECKOUTS) {
  const found = panelCheckouts(process.env.CODEHEALTH_PANEL_CHECKOUTS);
  entries.push(...found.entries);
  skipped.push(...found.skipped);
}
if (process.env.CODEHEALTH_CALIBRATION_CHECKOUTS) {
  const found = checkoutsIn(process.env.CODEHEALTH_CALIBRATION_CHECKOUTS);
  entries.push(...found.entries);
  skipped.push(...found.skipped);
}
if (!process.env.CODEHEALTH_PANEL_CHECKOUTS && !process.env.CODEHEALTH_CALIBRATION_CHECKOUTS) {
  skipped.push(
    "git checkouts: set CODEHEALTH_PANEL_CHECKOUTS to the directory of the precision panel's checkouts (test/precision/panel.json), or CODEHEALTH_CALIBRATION_CHECKOUTS to any directory of checkouts",
  );
}
const plantedDir = join(stageRoot, 'planted');
rmSync(plantedDir, { recursive: true, force: true });
writePlantedRepository(plantedDir);
const plantedEntry = { label: 'planted@generated', dir: plantedDir, style: 'deliberately neglected TS', source: 'planted' };
entries.push(plantedEntry);

const engine = await createEngine({ cacheDir: false });
const rows = [];
let plantedRow;
for (const entry of entries) {
  const t0 = performance.now();
  try {
    const result = await engine.analyze(entry.dir, { allowCodeConfig: false });
    const row = { ...rowOf(entry.label, entry.style, result, performance.now() - t0), source: entry.source };
    rows.push(row);
    if (entry === plantedEntry) plantedRow = row;
    console.error(`analysed ${entry.label} in ${row.seconds.toFixed(1)} s: ${gradeCell(row)}`);
  } catch (error) {
    skipped.push(`${entry.label}: analysis failed: ${String(error?.message ?? error).split('\n')[0]}`);
  }
}
await engine.close();

const gitRows = rows.filter((r) => r.source === 'git');
const otherRows = rows.filter((r) => r.source !== 'git');
const table = [
  ...(gitRows.length > 0 ? ['### Git checkouts (tests and history included)', '', ...tableLines(gitRows), ''] : []),
  '### npm packages (source folder only) and the planted repository',
  '',
  ...tableLines(otherRows),
];
const summary = summaryLines(rows, plantedRow);
console.log(table.join('\n'));
console.log('');
console.log(summary.join('\n'));
if (skipped.length > 0) console.log(`\nSkipped:\n${skipped.map((s) => `- ${s}`).join('\n')}`);

const flagged = rows.filter((r) => (r !== plantedRow && (r.grade === 'D' || r.grade === 'F')) || (r === plantedRow && r.grade === 'A'));
const seconds = (Date.now() - started.getTime()) / 1000;
const markdown = [
  '# Calibration',
  '',
  `Grades of ${rows.length - (plantedRow ? 1 : 0)} public code bases and one planted repository, as the engine gives them with its`,
  'default configuration and no threshold tuned for any of them. Git checkouts are the precision',
  "panel's repositories (test/precision/panel.json) at their pinned commits, with their tests and",
  'history: the calibration proper. Packages are pinned npm tarballs; only their source folder and',
  'package.json are analysed (no built output, and so usually no tests: a package tarball rarely',
  'ships them, which weighs on test coverage). The planted repository is',
  'generated by `test/calibration/planted-repository.mjs`: eval of input, hard-coded secrets, empty',
  'catches, deeply nested functions, duplicated blocks, unused exports, no tests.',
  '',
  `Run ${started.toISOString().slice(0, 10)}, engine ${engineVersion}, \`CODEHEALTH_PANEL_CHECKOUTS=<dir> npm run calibrate\` (${Math.round(seconds)} s on a loaded 2-core machine).`,
  `Categories: ${HEALTH_CATEGORY_KEYS.map((k) => `${CATEGORY_LABELS[k]} = ${k}`).join(', ')}; — not assessed.`,
  'Parse errors: files with ERROR or MISSING nodes after repairs / files parsed. Prod LOC: production lines of code.',
  '',
  ...table,
  '',
  '## Summary',
  '',
  ...summary.map((s) => `- ${s}`),
  '',
  '## Panel',
  '',
  ...rows.map((r) => `- ${r.label}: ${r.style}; ${r.seconds.toFixed(1)} s`),
  ...(skipped.length > 0 ? ['', '## Skipped', '', ...skipped.map((s) => `- ${s}`)] : []),
  '',
  '## Notes',
  '',
  ...(flagged.length === 0
    ? ['No grade contradicts the expectation (panel libraries above D, planted repository below A).']
    : flagged.flatMap((r) => [`- **${r.label}: ${gradeCell(r)}**. Costliest categories and their top ledger lines:`, ...r.ledger.map((l) => `  - ${l}`)])),
  '',
  `- ${rows.filter((r) => r.noTestsSeen).length} of ${rows.length} rows have no tests the engine can see (structural coverage 0, which costs half of`,
  '  test_coverage): npm tarballs rarely ship tests, so that category says little about the libraries here.',
  '',
  'Top ledger lines of every row (category score, its cost to the overall, then its costliest lines):',
  '',
  ...rows.flatMap((r) => [`- ${r.label} (${gradeCell(r)})`, ...r.ledger.map((l) => `  - ${l}`)]),
  '',
];
writeFileSync(join(repoRoot, 'docs', 'calibration.md'), markdown.join('\n'));
console.log('\nWrote docs/calibration.md');
