// SARIF 2.1.0 export for code-scanning services and IDEs, and (re-exported) the import of SARIF logs
// written by other tools. Fields SARIF has no slot for travel in property bags; see sarif-import.ts.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Finding, Severity } from '../domain/types.js';
import type { AssessmentResult } from '../pipeline/types.js';
import { issueFingerprint, legacyIssueFingerprint } from './issue-id.js';
import type { SarifLevel, SarifLog, SarifReportingDescriptor, SarifResult, SarifRun } from './sarif-types.js';
import { TOOL_INFORMATION_URI, TOOL_NAME, TOOL_VERSION } from './tool-info.js';
import { round1 } from './wire.js';

export { fromSarif } from './sarif-import.js';
export type { SarifLog } from './sarif-types.js';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
/** Our key in `partialFingerprints`; versioned so that a change of the recipe cannot mismatch old logs. */
export const SARIF_FINGERPRINT_KEY = 'codehealth/v2';
/** The recipe before issue identity v2 (legacyIssueFingerprint), kept beside it so results of older logs still match. */
export const SARIF_LEGACY_FINGERPRINT_KEY = 'codehealth/v1';
export const SARIF_SRCROOT = 'SRCROOT';

export const SARIF_LEVEL_OF: Readonly<Record<Severity, SarifLevel>> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
};

const LEVEL_RANK: Record<SarifLevel, number> = { none: 0, note: 1, warning: 2, error: 3 };

/** GitHub code scanning ranks security alerts by this CVSS-like number (a string, 0.0-10.0). */
const SECURITY_SEVERITY: Record<Severity, string> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '3.0',
  info: '0.0',
};

/** `cognitive-complexity` of `code-smell/cognitive-complexity` → `Cognitive complexity`. */
export function ruleDisplayName(ruleId: string): string {
  const words = (ruleId.split('/').pop() ?? ruleId).replace(/[-_]+/g, ' ').trim();
  return words.length === 0 ? ruleId : words[0].toUpperCase() + words.slice(1);
}

/** Percent-encodes each segment so that `#`, `?`, `:` or spaces in a path cannot change the URI's meaning. */
export function pathToUriReference(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function helpOf(finding: Finding): { text: string; markdown: string } {
  return {
    text: `${finding.whyItMatters}\n\nHow to fix: ${finding.suggestedAction}`,
    markdown: `${finding.whyItMatters}\n\n**How to fix:** ${finding.suggestedAction}`,
  };
}

function ruleOf(finding: Finding): SarifReportingDescriptor {
  const properties: Record<string, unknown> = { category: finding.category, tags: [finding.category] };
  if (finding.category === 'security') properties['security-severity'] = SECURITY_SEVERITY[finding.severity];
  return {
    id: finding.ruleId,
    shortDescription: { text: ruleDisplayName(finding.ruleId) },
    fullDescription: { text: finding.whyItMatters },
    help: helpOf(finding),
    defaultConfiguration: { level: SARIF_LEVEL_OF[finding.severity] },
    properties: { ...properties, analyzerName: finding.analyzerName, suggestedAction: finding.suggestedAction },
  };
}

/** A rule's default level and security severity follow its most severe finding. */
function raiseRule(rule: SarifReportingDescriptor, finding: Finding): void {
  const level = SARIF_LEVEL_OF[finding.severity];
  const current = rule.defaultConfiguration?.level ?? 'none';
  if (LEVEL_RANK[level] <= LEVEL_RANK[current]) return;
  rule.defaultConfiguration = { level };
  if (rule.properties && 'security-severity' in rule.properties) {
    rule.properties['security-severity'] = SECURITY_SEVERITY[finding.severity];
  }
}

function resultOf(finding: Finding, ruleIndex: number, rule: SarifReportingDescriptor): SarifResult {
  const startLine = Math.max(1, finding.anchor.lineStart);
  const endLine = Math.max(startLine, finding.anchor.lineEnd);
  const snippet = finding.anchor.codeSnippet.length > 0 ? { snippet: { text: finding.anchor.codeSnippet } } : {};
  const properties: Record<string, unknown> = {
    severity: finding.severity,
    category: finding.category,
    confidence: Math.min(100, Math.max(0, Math.round(finding.confidence))),
    source: finding.source,
    analyzerName: finding.analyzerName,
    fileGroup: finding.fileGroup,
    autoFixable: finding.autoFixable,
    validated: finding.anchor.validated,
    description: finding.description,
  };
  // Rule-level texts are shared; a finding only carries its own when it differs.
  if (finding.whyItMatters !== rule.fullDescription?.text) properties.whyItMatters = finding.whyItMatters;
  if (finding.suggestedAction !== rule.properties?.suggestedAction) properties.suggestedAction = finding.suggestedAction;
  if (finding.data) properties.data = { ...finding.data };
  return {
    ruleId: finding.ruleId,
    ruleIndex,
    level: SARIF_LEVEL_OF[finding.severity],
    message: { text: finding.title },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: pathToUriReference(finding.filePath), uriBaseId: SARIF_SRCROOT },
          region: { startLine, endLine, ...snippet },
        },
        ...(finding.symbol ? { logicalLocations: [{ name: finding.symbol }] } : {}),
      },
    ],
    partialFingerprints: { [SARIF_FINGERPRINT_KEY]: issueFingerprint(finding), [SARIF_LEGACY_FINGERPRINT_KEY]: legacyIssueFingerprint(finding) },
    properties,
  };
}

/** What a SARIF log says besides its findings: where they are, when the run was, and the run's own facts. */
export interface SarifRunFacts {
  root: string;
  startedAt: string;
  completedAt: string;
  properties: Record<string, unknown>;
  headSha?: string | null;
  branch?: string | null;
  /** Set on each result, one state or one per finding: a review's log holds only what the change adds (`new`, or `updated` for an issue it made worse). */
  baselineState?: SarifResult['baselineState'] | ((finding: Finding) => SarifResult['baselineState']);
}

/** One SARIF run of `findings`: a rule per rule id at its most severe finding's level, a result per finding. */
export function sarifLogOf(findings: readonly Finding[], facts: SarifRunFacts): SarifLog {
  const rules: SarifReportingDescriptor[] = [];
  const ruleIndex = new Map<string, number>();
  const results = findings.map((finding) => {
    let index = ruleIndex.get(finding.ruleId);
    if (index === undefined) {
      index = rules.push(ruleOf(finding)) - 1;
      ruleIndex.set(finding.ruleId, index);
    } else {
      raiseRule(rules[index], finding);
    }
    const result = resultOf(finding, index, rules[index]);
    const baselineState = typeof facts.baselineState === 'function' ? facts.baselineState(finding) : facts.baselineState;
    return baselineState ? { ...result, baselineState } : result;
  });

  // A base URI must end with a slash, or relative references would replace its last segment.
  const srcRoot = pathToFileURL(resolve(facts.root) + '/').href;
  const run: SarifRun = {
    tool: {
      driver: {
        name: TOOL_NAME,
        version: TOOL_VERSION,
        semanticVersion: TOOL_VERSION,
        informationUri: TOOL_INFORMATION_URI,
        rules,
      },
    },
    originalUriBaseIds: { [SARIF_SRCROOT]: { uri: srcRoot } },
    invocations: [{ executionSuccessful: true, startTimeUtc: facts.startedAt, endTimeUtc: facts.completedAt }],
    results,
    properties: facts.properties,
  };
  if (facts.headSha) {
    run.versionControlProvenance = [{ repositoryUri: srcRoot, revisionId: facts.headSha, ...(facts.branch ? { branch: facts.branch } : {}) }];
  }
  return { $schema: SARIF_SCHEMA_URI, version: '2.1.0', runs: [run] };
}

export function toSarif(result: AssessmentResult): SarifLog {
  return sarifLogOf(result.findings, {
    root: result.root,
    startedAt: result.startedAt,
    completedAt: result.completedAt,
    // Property bags are free-form: no grade is said as null and why.
    properties:
      result.scores.overall === null
        ? { overallScore: null, overallGrade: null, notGradedReason: result.scores.notGradedReason ?? null }
        : { overallScore: round1(result.scores.overall), overallGrade: result.scores.grade },
    headSha: result.git.available ? result.git.headSha : null,
    branch: result.git.branch,
  });
}
