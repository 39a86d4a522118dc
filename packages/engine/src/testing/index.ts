// `@codehealth/engine/testing`: the harness for analyzer-plugin authors.
export { AnalyzerTester, AnalyzerTesterError, runRule } from './analyzer-tester.js';
export type { ExpectedFinding, InvalidCase, RuleTests, ValidCase } from './analyzer-tester.js';
