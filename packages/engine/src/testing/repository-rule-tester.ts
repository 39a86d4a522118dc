// A tester for repository rules (the cross-file pass), as strict as AnalyzerTester: in-memory files,
// optionally a real git history, run through the real engine; exact findings and metrics out.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, isAbsolute } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Analyzer, RepositoryRule } from '../contracts/analyzer.js';
import { WELL_KNOWN_METRICS } from '../contracts/analyzer.js';
import type { CodeHealthConfig } from '../config/schema.js';
import type { Finding } from '../domain/types.js';
import type { AssessmentResult } from '../pipeline/types.js';
import { createEngine } from '../di/create-engine.js';
import { runGitCommand } from '../git-process/git-helper.js';
import { failureDetail, succeeded } from '../git-process/spawn-git.js';
import { parseRuleOptions } from '../plugins/rule-set.js';
import type { ExpectedFinding } from './analyzer-tester.js';
import { AnalyzerTesterError, assertFindingMatches, checkKeys, ruleOfKind } from './case-checks.js';

/** One commit of a case's history: file texts by path (`null` deletes the file). */
export interface HistoryCommit {
  files: Record<string, string | null>;
  message?: string;
  /** ISO 8601 author and committer date; default: one day after the previous commit. */
  date?: string;
  /** `Name <email>`; default `Test <test@example.com>`. */
  author?: string;
}

export interface RepositoryCase {
  /** The analysed tree, path → text: exactly these files (a last commit on top of `history`). */
  files: Record<string, string>;
  /** Commits before the analysed tree, oldest first; without it the files are no git repository. */
  history?: HistoryCommit[];
  /** Rule options, validated by the rule's schema. */
  options?: Record<string, unknown>;
  /** Repository settings (`tests`, `generated`, `exclude`, …); its `rules` and `analyzers` are the tester's. */
  config?: Omit<CodeHealthConfig, 'rules' | 'analyzers' | 'plugins'>;
  /** Metrics the rule publishes, by the name it publishes them under (exact for the analyzer's own). */
  metrics?: Record<string, number | null>;
  name?: string;
}

export interface ExpectedRepositoryFinding extends ExpectedFinding {
  path: string;
}

export interface RepositoryInvalidCase extends RepositoryCase {
  findings: ExpectedRepositoryFinding[];
}

export interface RepositoryRuleTests {
  valid: RepositoryCase[];
  invalid: RepositoryInvalidCase[];
}

export interface RepositoryRuleRun {
  /** The rule's findings, ordered by path and line. */
  findings: Finding[];
  /** Metrics the analyzer published (its own names, without the `<analyzer>.` prefix). */
  metrics: Record<string, number>;
  /** The well-known metrics of the assessment (`structuralCoveragePct`, …), whoever computed them. */
  wellKnown: Record<string, number | null | undefined>;
  result: AssessmentResult;
}

const CASE_KEYS = new Set(['files', 'history', 'options', 'config', 'metrics', 'name']);
const INVALID_KEYS = new Set([...CASE_KEYS, 'findings']);
const COMMIT_KEYS = new Set(['files', 'message', 'date', 'author']);
const EXPECTED_KEYS = new Set(['path', 'line', 'endLine', 'title', 'titleIncludes', 'severity', 'symbol', 'data']);
const WELL_KNOWN = new Set<string>(WELL_KNOWN_METRICS);

function ruleOf(analyzer: Analyzer, ruleId: string): RepositoryRule {
  return ruleOfKind(analyzer, ruleId, 'repository', 'test it with AnalyzerTester');
}

function checkPath(path: string, where: string): void {
  if (path === '' || isAbsolute(path) || normalize(path).startsWith('..') || path.includes('\\') || path.split('/').includes('.git')) {
    throw new AnalyzerTesterError(`${where}: "${path}" is not a relative path inside the repository`);
  }
}

function checkCase(c: RepositoryCase, allowed: Set<string>, where: string): void {
  checkKeys(c, allowed, where);
  if (!c.files || typeof c.files !== 'object') throw new AnalyzerTesterError(`${where}: "files" is required`);
  for (const path of Object.keys(c.files)) checkPath(path, where);
  (c.history ?? []).forEach((commit, i) => {
    checkKeys(commit, COMMIT_KEYS, `${where} commit ${i + 1}`);
    for (const path of Object.keys(commit.files ?? {})) checkPath(path, `${where} commit ${i + 1}`);
    if (commit.date !== undefined && Number.isNaN(Date.parse(commit.date))) {
      throw new AnalyzerTesterError(`${where} commit ${i + 1}: date "${commit.date}" is not an ISO 8601 date`);
    }
  });
}

function writeFiles(root: string, files: Record<string, string | null>): void {
  for (const [path, text] of Object.entries(files)) {
    const target = join(root, path);
    if (text === null) rmSync(target, { force: true });
    else {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    }
  }
}

/** Runs git in the case's repository through the engine's hardened runner; a failure stops the case with git's message. */
async function git(root: string, args: readonly string[], set?: Record<string, string>): Promise<string> {
  const result = await runGitCommand({ cwd: root, args, environment: { repository: root, ...(set ? { set } : {}) } });
  if (!succeeded(result)) throw new Error(`git ${args[0]} failed in the case's repository: ${failureDetail(result)}`);
  return result.stdout.toString('utf8');
}

/** Writes the case into `root`: its history as real commits, then the analysed tree as the last one. */
async function materialize(root: string, c: RepositoryCase): Promise<void> {
  if (!c.history) {
    writeFiles(root, c.files);
    return;
  }
  let when = Date.parse('2026-01-01T12:00:00Z') - (c.history.length + 1) * 86_400_000;
  const commit = async (message: string, date: string | undefined, author = 'Test <test@example.com>') => {
    when = date === undefined ? when + 86_400_000 : Date.parse(date);
    const [, name = 'Test', email = 'test@example.com'] = /^(.*?)\s*<(.*)>$/.exec(author) ?? [];
    const stamp = new Date(when).toISOString();
    const identity = {
      GIT_AUTHOR_NAME: name,
      GIT_AUTHOR_EMAIL: email,
      GIT_COMMITTER_NAME: name,
      GIT_COMMITTER_EMAIL: email,
      GIT_AUTHOR_DATE: stamp,
      GIT_COMMITTER_DATE: stamp,
    };
    await git(root, ['add', '-A'], identity);
    await git(root, ['commit', '-q', '--allow-empty', '--no-verify', '-m', message], identity);
  };
  await git(root, ['init', '-q', '-b', 'main']);
  await git(root, ['config', 'commit.gpgsign', 'false']);
  for (const [i, step] of c.history.entries()) {
    writeFiles(root, step.files);
    await commit(step.message ?? `commit ${i + 1}`, step.date, step.author);
  }
  const tracked = (await git(root, ['ls-files', '-z'])).split('\0').filter(Boolean);
  for (const path of tracked) if (!(path in c.files)) rmSync(join(root, path), { force: true });
  writeFiles(root, c.files);
  await commit('analysed tree', undefined);
}

/** Runs one repository rule of `analyzer` (alone, with the analyzer's collectors) over a case; no test framework needed. */
export async function runRepositoryRule(analyzer: Analyzer, ruleId: string, testCase: RepositoryCase): Promise<RepositoryRuleRun> {
  const rule = ruleOf(analyzer, ruleId);
  const qualifiedId = `${analyzer.id}/${ruleId}`;
  parseRuleOptions(rule, qualifiedId, testCase.options);
  const root = mkdtempSync(join(tmpdir(), 'codehealth-rule-tester-'));
  try {
    await materialize(root, testCase);
    const alone: Analyzer = { ...analyzer, rules: [rule] };
    const engine = await createEngine({ plugins: [{ name: 'repository-rule-tester', analyzers: [alone] }], cacheDir: false, workers: 0 });
    const config: CodeHealthConfig = {
      ...testCase.config,
      rules: { [qualifiedId]: testCase.options ? { options: testCase.options } : true },
    };
    const result = await engine.analyze(root, { config });
    const findings = result.findings
      .filter((f) => f.ruleId === qualifiedId)
      .sort((a, b) => (a.filePath < b.filePath ? -1 : a.filePath > b.filePath ? 1 : a.anchor.lineStart - b.anchor.lineStart));
    const metrics: Record<string, number> = {};
    const prefix = `${analyzer.id}.`;
    for (const [name, value] of Object.entries(result.metrics.analyzerMetrics)) {
      if (name.startsWith(prefix)) metrics[name.slice(prefix.length)] = value;
    }
    const all = result.metrics as unknown as Record<string, number | null | undefined>;
    const wellKnown = Object.fromEntries(WELL_KNOWN_METRICS.map((name) => [name, all[name]]));
    return { findings, metrics, wellKnown, result };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function describeCase(c: RepositoryCase, index: number): string {
  return c.name ?? `#${index + 1}: ${Object.keys(c.files).slice(0, 3).join(', ') || '(no files)'}${c.history ? `, ${c.history.length} commits` : ''}`;
}

function assertMetrics(run: RepositoryRuleRun, expected: Record<string, number | null>): void {
  const own: Record<string, number | null> = {};
  for (const [name, value] of Object.entries(expected)) {
    if (WELL_KNOWN.has(name)) expect(run.wellKnown[name] ?? null, `metric ${name}`).toEqual(value);
    else own[name] = value;
  }
  // The analyzer's own metrics are compared as a whole: one published and not expected fails. A null
  // is not kept by the engine, so expecting null means "not published".
  const expectedOwn = Object.fromEntries(Object.entries(own).filter(([, v]) => v !== null));
  expect(run.metrics, 'metrics the analyzer published').toEqual(expectedOwn);
}

function assertFinding(actual: Finding, expected: ExpectedRepositoryFinding): void {
  assertFindingMatches(actual, expected, `finding at ${expected.path}:${expected.line}`);
}

export class RepositoryRuleTester {
  constructor(private readonly analyzer: Analyzer) {}

  /** Registers one vitest test per case. Malformed test declarations throw at once. */
  run(ruleId: string, tests: RepositoryRuleTests): void {
    const rule = ruleOf(this.analyzer, ruleId);
    checkKeys(tests, new Set(['valid', 'invalid']), ruleId);
    if (!Array.isArray(tests.valid) || !Array.isArray(tests.invalid)) throw new AnalyzerTesterError(`${ruleId}: "valid" and "invalid" must be arrays`);
    if (tests.invalid.length === 0) throw new AnalyzerTesterError(`${ruleId}: at least one invalid case is required`);
    const seen = new Set<string>();
    const declare = (c: RepositoryCase, allowed: Set<string>, where: string) => {
      checkCase(c, allowed, where);
      // Options the schema refuses are a mistake in the test, reported before anything runs.
      parseRuleOptions(rule, `${this.analyzer.id}/${ruleId}`, c.options);
      const key = JSON.stringify([c.files, c.history ?? null, c.options ?? null, c.config ?? null]);
      if (seen.has(key)) throw new AnalyzerTesterError(`${where}: duplicate case`);
      seen.add(key);
    };
    tests.valid.forEach((c, i) => declare(c, CASE_KEYS, `${ruleId} valid case ${i + 1}`));
    tests.invalid.forEach((c, i) => {
      const where = `${ruleId} invalid case ${i + 1}`;
      declare(c, INVALID_KEYS, where);
      if (!Array.isArray(c.findings) || c.findings.length === 0) {
        throw new AnalyzerTesterError(`${where}: an invalid case must expect at least one finding`);
      }
      c.findings.forEach((f, j) => {
        checkKeys(f, EXPECTED_KEYS, `${where} finding ${j + 1}`);
        if (typeof f.path !== 'string' || typeof f.line !== 'number')
          throw new AnalyzerTesterError(`${where} finding ${j + 1}: "path" and "line" are required`);
        if (!(f.path in c.files)) throw new AnalyzerTesterError(`${where} finding ${j + 1}: "${f.path}" is not one of the case's files`);
      });
    });

    describe(`${this.analyzer.id}/${ruleId}`, () => {
      describe('valid', () => {
        tests.valid.forEach((c, i) =>
          it(describeCase(c, i), async () => {
            const run = await runRepositoryRule(this.analyzer, ruleId, c);
            expect(run.findings.map((f) => `${f.filePath}:${f.anchor.lineStart}: ${f.title}`)).toEqual([]);
            if (c.metrics) assertMetrics(run, c.metrics);
          }),
        );
      });
      describe('invalid', () => {
        tests.invalid.forEach((c, i) =>
          it(describeCase(c, i), async () => {
            const run = await runRepositoryRule(this.analyzer, ruleId, c);
            const expected = [...c.findings].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
            expect(
              run.findings.map((f) => `${f.filePath}:${f.anchor.lineStart}`),
              'finding places',
            ).toEqual(expected.map((f) => `${f.path}:${f.line}`));
            expected.forEach((e, j) => assertFinding(run.findings[j], e));
            if (c.metrics) assertMetrics(run, c.metrics);
          }),
        );
      });
    });
  }
}
