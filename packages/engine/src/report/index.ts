// Report formats of an assessment: the spec's wire objects, JSON, SARIF (both ways), text, Markdown.

// wire objects and ids
export { toWireIssue, toWireIssues, toWireAssessment, round1, NIL_UUID } from './wire.js';
export type {
  WireIssue,
  WireIssueExtra,
  WireAssessment,
  WireAssessmentExtra,
  WireContextType,
  WireTriggerType,
  WireAssessmentStatus,
} from './wire.js';
export { toWireMetrics } from './wire-metrics.js';
export type { WireMetrics, WireCategoryDetail } from './wire-metrics.js';
export { issueFingerprint, normaliseSnippet, uuidFromName, uuidFromDigest, issueIdOf, deriveAssessmentIds } from './issue-id.js';
export type { AssessmentIds } from './issue-id.js';

// formats
export { toJsonReport } from './json.js';
export type { JsonReport } from './json.js';
export { toSarif, fromSarif, SARIF_FINGERPRINT_KEY, SARIF_LEVEL_OF, SARIF_SCHEMA_URI } from './sarif.js';
export type { SarifLog } from './sarif.js';
export { renderText } from './text.js';
export type { TextReportOptions } from './text.js';
export { renderMarkdown } from './markdown.js';
export type { MarkdownReportOptions } from './markdown.js';

// tool identity
export { TOOL_NAME, TOOL_VERSION, TOOL_INFORMATION_URI } from './tool-info.js';
