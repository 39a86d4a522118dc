// `@codehealth/engine/testing`: the harness for analyzer-plugin authors.
export { AnalyzerTester, AnalyzerTesterError, runRule } from './analyzer-tester.js';
export type { ExpectedFinding, InvalidCase, RuleTests, ValidCase } from './analyzer-tester.js';
export { RepositoryRuleTester, runRepositoryRule } from './repository-rule-tester.js';
export type {
  ExpectedRepositoryFinding,
  HistoryCommit,
  RepositoryCase,
  RepositoryInvalidCase,
  RepositoryRuleRun,
  RepositoryRuleTests,
} from './repository-rule-tester.js';
