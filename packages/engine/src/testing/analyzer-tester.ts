// A RuleTester for analyzer rules (ESLint's idea, as strict as theirs): snippets in, exact findings
// out. Used by the built-in analyzers and by third-party plugin authors.
import { describe, expect, it } from 'vitest';
import type { Analyzer, FileRule } from '../contracts/analyzer.js';
import type { FileKind, FileRole, Finding, Severity } from '../domain/types.js';
import type { RepoFile } from '../snapshot/types.js';
import { analyzeFileSource } from '../pipeline/analyze-file.js';
import { parseRuleOptions, type RuleSet } from '../plugins/rule-set.js';
import { detectLanguage } from '../snapshot/languages.js';
import { createRoleClassifier } from '../snapshot/file-roles.js';

export interface ValidCase {
  code: string;
  /** Rule options, validated by the rule's schema. */
  options?: Record<string, unknown>;
  /** Path inside a virtual repository; decides the language. Default `src/example.ts`. */
  filename?: string;
  /** File kind; default `source`, or `test` for test-looking names. */
  kind?: FileKind;
  /** File role; default the role the file's path gives it (`bench/a.ts`: `benchmark`; snapshot/file-roles.ts). */
  role?: FileRole;
  name?: string;
}

export interface ExpectedFinding {
  line: number;
  endLine?: number;
  title?: string;
  titleIncludes?: string;
  severity?: Severity;
  symbol?: string;
  data?: Record<string, number | string | boolean>;
}

export interface InvalidCase extends ValidCase {
  findings: ExpectedFinding[];
}

export interface RuleTests {
  valid: Array<string | ValidCase>;
  invalid: InvalidCase[];
}

const VALID_KEYS = new Set(['code', 'options', 'filename', 'kind', 'role', 'name']);
const INVALID_KEYS = new Set([...VALID_KEYS, 'findings']);
const EXPECTED_KEYS = new Set(['line', 'endLine', 'title', 'titleIncludes', 'severity', 'symbol', 'data']);

export class AnalyzerTesterError extends Error {
  override name = 'AnalyzerTesterError';
}

function checkKeys(obj: object, allowed: Set<string>, where: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key)) throw new AnalyzerTesterError(`${where}: unknown key "${key}"`);
  }
}

function ruleOf(analyzer: Analyzer, ruleId: string): FileRule {
  const rule = analyzer.rules.find((r) => r.meta.id === ruleId);
  if (!rule) throw new AnalyzerTesterError(`analyzer "${analyzer.id}" has no rule "${ruleId}"`);
  if (rule.kind !== 'file') throw new AnalyzerTesterError(`rule "${ruleId}" is a repository rule; test it on a mini-repository`);
  return rule;
}

/** Runs one file rule over one snippet and returns its findings (no test framework needed). */
export function runRule(analyzer: Analyzer, ruleId: string, testCase: ValidCase): Finding[] {
  const rule = ruleOf(analyzer, ruleId);
  const qualifiedId = `${analyzer.id}/${ruleId}`;
  const options = parseRuleOptions(rule, qualifiedId, testCase.options);
  const path = testCase.filename ?? 'src/example.ts';
  const kind = testCase.kind ?? (/\.(test|spec)\.[cm]?[jt]sx?$/.test(path) ? 'test' : 'source');
  const file: RepoFile = {
    path,
    language: detectLanguage(path),
    kind,
    role: testCase.role ?? createRoleClassifier()({ path, kind }),
    sizeBytes: Buffer.byteLength(testCase.code),
  };
  const ruleSet: RuleSet = {
    analyzers: [analyzer],
    fileRules: [{ analyzerId: analyzer.id, qualifiedId, options, rule }],
    repositoryRules: [],
    collectors: [],
    fingerprint: 'tester',
  };
  return analyzeFileSource(file, testCase.code, ruleSet).findings;
}

function describeCase(c: ValidCase, index: number): string {
  const first = c.code.trim().split('\n')[0].slice(0, 60);
  return c.name ?? `#${index + 1}: ${first}`;
}

export class AnalyzerTester {
  constructor(private readonly analyzer: Analyzer) {}

  /** Registers one vitest test per case. Malformed test declarations throw at once. */
  run(ruleId: string, tests: RuleTests): void {
    ruleOf(this.analyzer, ruleId);
    checkKeys(tests, new Set(['valid', 'invalid']), `${ruleId}`);
    if (tests.invalid.length === 0) throw new AnalyzerTesterError(`${ruleId}: at least one invalid case is required`);
    const valid = tests.valid.map((c) => (typeof c === 'string' ? { code: c } : c));
    const seen = new Set<string>();
    const dedupe = (c: ValidCase, kind: string) => {
      const key = JSON.stringify([c.code, c.options ?? null, c.filename ?? null, c.kind ?? null, c.role ?? null]);
      if (seen.has(key)) throw new AnalyzerTesterError(`${ruleId}: duplicate ${kind} case: ${describeCase(c, 0)}`);
      seen.add(key);
    };
    valid.forEach((c, i) => {
      checkKeys(c, VALID_KEYS, `${ruleId} valid case ${i + 1}`);
      dedupe(c, 'valid');
    });
    tests.invalid.forEach((c, i) => {
      checkKeys(c, INVALID_KEYS, `${ruleId} invalid case ${i + 1}`);
      if (!Array.isArray(c.findings) || c.findings.length === 0) {
        throw new AnalyzerTesterError(`${ruleId} invalid case ${i + 1}: an invalid case must expect at least one finding`);
      }
      c.findings.forEach((f, j) => checkKeys(f, EXPECTED_KEYS, `${ruleId} invalid case ${i + 1} finding ${j + 1}`));
      dedupe(c, 'invalid');
    });

    describe(`${this.analyzer.id}/${ruleId}`, () => {
      describe('valid', () => {
        valid.forEach((c, i) =>
          it(describeCase(c, i), () => {
            const findings = runRule(this.analyzer, ruleId, c);
            expect(findings.map((f) => `${f.anchor.lineStart}: ${f.title}`)).toEqual([]);
          }),
        );
      });
      describe('invalid', () => {
        tests.invalid.forEach((c, i) =>
          it(describeCase(c, i), () => {
            const findings = runRule(this.analyzer, ruleId, c).sort((a, b) => a.anchor.lineStart - b.anchor.lineStart);
            expect(
              findings.map((f) => f.anchor.lineStart),
              'finding lines',
            ).toEqual(c.findings.map((f) => f.line));
            c.findings.forEach((expected, j) => assertFinding(findings[j], expected));
          }),
        );
      });
    });
  }
}

function assertFinding(actual: Finding, expected: ExpectedFinding): void {
  const where = `finding at line ${expected.line}`;
  expect(actual.title.length, `${where}: title must not be empty`).toBeGreaterThan(0);
  expect(actual.description.length, `${where}: description must not be empty`).toBeGreaterThan(0);
  expect(actual.anchor.validated, `${where}: anchor must be inside the file`).toBe(true);
  if (expected.endLine !== undefined) expect(actual.anchor.lineEnd, `${where}: endLine`).toBe(expected.endLine);
  if (expected.title !== undefined) expect(actual.title, `${where}: title`).toBe(expected.title);
  if (expected.titleIncludes !== undefined) expect(actual.title, `${where}: title`).toContain(expected.titleIncludes);
  if (expected.severity !== undefined) expect(actual.severity, `${where}: severity`).toBe(expected.severity);
  if (expected.symbol !== undefined) expect(actual.symbol, `${where}: symbol`).toBe(expected.symbol);
  if (expected.data !== undefined) expect(actual.data, `${where}: data`).toMatchObject(expected.data);
}
