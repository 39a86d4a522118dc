import { describe, expect, it } from 'vitest';
import type { Finding, Severity } from '../domain/types.js';
import { sarifSchemaErrors } from '../../../../test/helpers/validate-sarif.js';
import { issueFingerprint, legacyIssueFingerprint } from './issue-id.js';
import { fromSarif, pathToUriReference, ruleDisplayName, SARIF_FINGERPRINT_KEY, SARIF_LEGACY_FINGERPRINT_KEY, toSarif } from './sarif.js';
import type { SarifLog, SarifRun } from './sarif-types.js';
import { makeAssessmentResult, makeFinding, sampleFindings } from './fixtures/assessment-result.js';
import { TOOL_INFORMATION_URI, TOOL_VERSION } from './tool-info.js';

const roundTrip = (findings: Finding[]): Finding[] => fromSarif(JSON.parse(JSON.stringify(toSarif(makeAssessmentResult({ findings })))));

describe('toSarif', () => {
  const result = makeAssessmentResult();
  const log = toSarif(result);
  const run = log.runs[0];

  it('is valid against the official SARIF 2.1.0 schema', () => {
    expect(sarifSchemaErrors(log)).toEqual([]);
    expect(sarifSchemaErrors(toSarif(makeAssessmentResult({ findings: [] })))).toEqual([]);
    const noGit = makeAssessmentResult({ git: { ...result.git, available: false, headSha: undefined, branch: undefined } });
    expect(sarifSchemaErrors(toSarif(noGit))).toEqual([]);
    expect(sarifSchemaErrors({ version: '2.1.0', runs: [{ tool: {} }] })).not.toEqual([]);
    const badLevel = { ...run, results: [{ ...run.results?.[0], level: 'fatal' }] };
    expect(sarifSchemaErrors({ ...log, runs: [badLevel] }).join()).toMatch(/level/);
  });

  it('writes one run of the CodeHealth driver with the repository as SRCROOT', () => {
    expect(log).toMatchObject({ version: '2.1.0', $schema: 'https://json.schemastore.org/sarif-2.1.0.json' });
    expect(log.runs).toHaveLength(1);
    expect(run.tool.driver).toMatchObject({ name: 'CodeHealth', version: TOOL_VERSION, informationUri: TOOL_INFORMATION_URI });
    expect(run.originalUriBaseIds).toEqual({ SRCROOT: { uri: 'file:///tmp/shop/' } });
    expect(run.invocations).toEqual([{ executionSuccessful: true, startTimeUtc: result.startedAt, endTimeUtc: result.completedAt }]);
    expect(run.versionControlProvenance).toEqual([{ repositoryUri: 'file:///tmp/shop/', revisionId: result.git.headSha, branch: 'main' }]);
    expect(run.properties).toEqual({ overallScore: 78.4, overallGrade: 'C' });
  });

  it('declares each rule once, its level following its most severe finding', () => {
    expect(run.tool.driver.rules).toEqual([
      {
        id: 'security/no-eval',
        shortDescription: { text: 'No eval' },
        fullDescription: { text: 'eval runs arbitrary code.' },
        help: {
          text: 'eval runs arbitrary code.\n\nHow to fix: Parse the input instead.',
          markdown: 'eval runs arbitrary code.\n\n**How to fix:** Parse the input instead.',
        },
        defaultConfiguration: { level: 'error' },
        properties: {
          category: 'security',
          tags: ['security'],
          'security-severity': '9.5',
          analyzerName: 'security',
          suggestedAction: 'Parse the input instead.',
        },
      },
      {
        id: 'code-smell/cognitive-complexity',
        shortDescription: { text: 'Cognitive complexity' },
        fullDescription: { text: 'Complex functions are hard to read and to change safely.' },
        help: {
          text: 'Complex functions are hard to read and to change safely.\n\nHow to fix: Extract the nested branches into named helpers.',
          markdown: 'Complex functions are hard to read and to change safely.\n\n**How to fix:** Extract the nested branches into named helpers.',
        },
        defaultConfiguration: { level: 'error' },
        properties: {
          category: 'code_smell',
          tags: ['code_smell'],
          analyzerName: 'code-smell',
          suggestedAction: 'Extract the nested branches into named helpers.',
        },
      },
    ]);
    const rising = toSarif(makeAssessmentResult({ findings: [makeFinding({ severity: 'low' }), makeFinding({ severity: 'medium' })] }));
    expect(rising.runs[0].tool.driver.rules?.[0].defaultConfiguration).toEqual({ level: 'warning' });
  });

  it('writes each finding as a result with location, fingerprint and properties', () => {
    const [evalResult, complex] = run.results ?? [];
    expect(evalResult).toEqual({
      ruleId: 'security/no-eval',
      ruleIndex: 0,
      level: 'error',
      message: { text: 'Avoid `eval` of <user> input' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'packages/api/src/run%20script.ts', uriBaseId: 'SRCROOT' },
            region: { startLine: 3, endLine: 3, snippet: { text: 'eval(input)' } },
          },
        },
      ],
      partialFingerprints: {
        [SARIF_FINGERPRINT_KEY]: issueFingerprint(result.findings[0]),
        [SARIF_LEGACY_FINGERPRINT_KEY]: legacyIssueFingerprint(result.findings[0]),
      },
      properties: {
        severity: 'critical',
        category: 'security',
        confidence: 88,
        source: 'static_analyzer',
        analyzerName: 'security',
        fileGroup: 'packages/api',
        autoFixable: false,
        validated: true,
        description: 'Input reaches eval | unchecked.',
      },
    });
    expect(complex.ruleIndex).toBe(1);
    expect(complex.locations?.[0].logicalLocations).toEqual([{ name: 'checkout' }]);
    expect(complex.properties).toMatchObject({ data: { complexity: 23, threshold: 15 } });
    expect(complex.properties).not.toHaveProperty('whyItMatters');
  });

  it('maps severities to levels: critical/high error, medium warning, low/info note', () => {
    const severities: Severity[] = ['critical', 'high', 'medium', 'low', 'info'];
    const levels = toSarif(makeAssessmentResult({ findings: severities.map((severity) => makeFinding({ severity })) })).runs[0].results?.map((r) => r.level);
    expect(levels).toEqual(['error', 'error', 'warning', 'note', 'note']);
  });

  it('keeps regions valid for findings without lines or snippet', () => {
    const odd = makeFinding({ anchor: { lineStart: 0, lineEnd: 0, codeSnippet: '', validated: false } });
    const log2 = toSarif(makeAssessmentResult({ findings: [odd] }));
    expect(log2.runs[0].results?.[0].locations?.[0].physicalLocation?.region).toEqual({ startLine: 1, endLine: 1 });
    expect(sarifSchemaErrors(log2)).toEqual([]);
  });

  it('names rules and encodes paths', () => {
    expect(ruleDisplayName('dead-code/unused_export')).toBe('Unused export');
    expect(pathToUriReference('a b/c#1/d?.ts')).toBe('a%20b/c%231/d%3F.ts');
  });
});

describe('fromSarif', () => {
  it('round-trips our own export exactly (confidence is written as an integer)', () => {
    const integral = sampleFindings().map((f) => ({ ...f, confidence: Math.round(f.confidence) }));
    const varied = makeFinding({
      whyItMatters: 'Specific reason.',
      suggestedAction: 'Specific fix.',
      anchor: { lineStart: 70, lineEnd: 71, codeSnippet: 'x', validated: false },
    });
    expect(roundTrip([...integral, varied])).toEqual([...integral, varied]);
    expect(roundTrip(sampleFindings())[0].confidence).toBe(88);
  });

  it("reads another tool's log with documented fallbacks", () => {
    const run: SarifRun = {
      tool: {
        driver: {
          name: 'CodeQL',
          rules: [
            {
              id: 'js/sql-injection',
              shortDescription: { text: 'SQL injection' },
              fullDescription: { text: 'Building SQL from user input.' },
              help: { text: 'Use parameters.' },
              properties: { tags: ['security', 'external/cwe/cwe-089'], precision: 'high' },
            },
            { id: 'js/unused-local-variable', defaultConfiguration: { level: 'note' }, properties: { tags: ['maintainability'] } },
          ],
        },
      },
      originalUriBaseIds: { SRCROOT: { uri: 'file:///work/app/' } },
      artifacts: [{ location: { uri: 'lib/db.js', uriBaseId: 'SRCROOT' } }],
      results: [
        {
          ruleId: 'js/sql-injection',
          ruleIndex: 0,
          level: 'error',
          message: { text: 'Query built from user input.' },
          locations: [
            {
              physicalLocation: { artifactLocation: { uri: 'file:///work/app/src/api/users.js' }, region: { startLine: 7, snippet: { text: 'db.query(q)' } } },
            },
          ],
        },
        {
          ruleId: 'js/unused-local-variable',
          message: { text: 'Unused variable x.' },
          locations: [{ physicalLocation: { artifactLocation: { index: 0 }, region: { startLine: 2, endLine: 3 } } }],
          fixes: [{}],
        },
        { ruleId: 'js/unused-local-variable', kind: 'pass', message: { text: 'ok' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'a.js' } } }] },
        {
          ruleId: 'js/unused-local-variable',
          message: { text: 'suppressed' },
          suppressions: [{ kind: 'inSource' }],
          locations: [{ physicalLocation: { artifactLocation: { uri: 'a.js' } } }],
        },
        { ruleId: 'js/unused-local-variable', message: { text: 'no file' } },
      ],
    };
    const log: SarifLog = { version: '2.1.0', runs: [run] };
    expect(fromSarif(log)).toEqual([
      {
        source: 'static_analyzer',
        severity: 'high',
        category: 'security',
        filePath: 'src/api/users.js',
        fileGroup: 'src',
        anchor: { lineStart: 7, lineEnd: 7, codeSnippet: 'db.query(q)', validated: false },
        title: 'Query built from user input.',
        description: 'Query built from user input.',
        whyItMatters: 'Building SQL from user input.',
        suggestedAction: 'Use parameters.',
        ruleId: 'codeql/js-sql-injection',
        analyzerName: 'codeql',
        confidence: 85,
        autoFixable: false,
      },
      {
        source: 'static_analyzer',
        severity: 'low',
        category: 'code_smell',
        filePath: 'lib/db.js',
        fileGroup: 'lib',
        anchor: { lineStart: 2, lineEnd: 3, codeSnippet: '', validated: false },
        title: 'Unused variable x.',
        description: 'Unused variable x.',
        whyItMatters: '',
        suggestedAction: '',
        ruleId: 'codeql/js-unused-local-variable',
        analyzerName: 'codeql',
        confidence: 90,
        autoFixable: true,
      },
    ]);
  });

  it('refuses input that is not a SARIF log', () => {
    expect(() => fromSarif({ version: '2.1.0' })).toThrow(/not a SARIF log/);
    expect(() => fromSarif(null)).toThrow(TypeError);
  });
});
