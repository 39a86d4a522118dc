// A RuleTester for analyzer rules (ESLint's idea, as strict as theirs): snippets in, exact findings
// out. Used by the built-in analyzers and by third-party plugin authors.
import { describe, expect, it } from 'vitest';
import type { Analyzer, FileRule } from '../contracts/analyzer.js';
import type { FileKind, FileRole, Finding } from '../domain/types.js';
import type { RepoFile } from '../snapshot/types.js';
import { analyzeFileSource } from '../pipeline/analyze-file.js';
import { parseRuleOptions, type RuleSet } from '../plugins/rule-set.js';
import { detectLanguage } from '../snapshot/languages.js';
import { createRoleClassifier } from '../snapshot/file-roles.js';
import { AnalyzerTesterError, assertFindingMatches, checkKeys, ruleOfKind, type ExpectedFindingFields } from './case-checks.js';

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

export interface ExpectedFinding extends ExpectedFindingFields {
  line: number;
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

export { AnalyzerTesterError };

function ruleOf(analyzer: Analyzer, ruleId: string): FileRule {
  return ruleOfKind(analyzer, ruleId, 'file', 'test it with RepositoryRuleTester');
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
  assertFindingMatches(actual, expected, `finding at line ${expected.line}`);
}
