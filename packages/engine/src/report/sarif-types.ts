// The subset of SARIF 2.1.0 that we write and read. Declared here rather than taken from
// `@types/sarif` so that the engine's published declarations need no extra package.

export type SarifLevel = 'none' | 'note' | 'warning' | 'error';

export type PropertyBag = Record<string, unknown>;

export interface SarifMessage {
  text?: string;
  markdown?: string;
  id?: string;
}

export interface SarifArtifactLocation {
  uri?: string;
  uriBaseId?: string;
  index?: number;
}

export interface SarifRegion {
  startLine?: number;
  endLine?: number;
  startColumn?: number;
  endColumn?: number;
  snippet?: { text?: string };
}

export interface SarifLocation {
  physicalLocation?: { artifactLocation?: SarifArtifactLocation; region?: SarifRegion };
  logicalLocations?: Array<{ name?: string; fullyQualifiedName?: string; kind?: string }>;
}

export interface SarifReportingDescriptor {
  id: string;
  name?: string;
  shortDescription?: SarifMessage;
  fullDescription?: SarifMessage;
  help?: SarifMessage;
  helpUri?: string;
  defaultConfiguration?: { level?: SarifLevel; enabled?: boolean; rank?: number };
  properties?: PropertyBag;
}

export interface SarifResult {
  ruleId?: string;
  ruleIndex?: number;
  rule?: { id?: string; index?: number };
  kind?: 'pass' | 'open' | 'informational' | 'notApplicable' | 'review' | 'fail';
  level?: SarifLevel;
  message: SarifMessage;
  locations?: SarifLocation[];
  partialFingerprints?: Record<string, string>;
  /** Against a baseline run: `new` for what a change adds (code-scanning shows just those). */
  baselineState?: 'new' | 'unchanged' | 'updated' | 'absent';
  fingerprints?: Record<string, string>;
  rank?: number;
  suppressions?: Array<{ kind: string; status?: 'accepted' | 'underReview' | 'rejected' }>;
  fixes?: unknown[];
  properties?: PropertyBag;
}

export interface SarifToolComponent {
  name: string;
  version?: string;
  semanticVersion?: string;
  informationUri?: string;
  rules?: SarifReportingDescriptor[];
}

export interface SarifRun {
  tool: { driver: SarifToolComponent; extensions?: SarifToolComponent[] };
  originalUriBaseIds?: Record<string, { uri?: string; uriBaseId?: string }>;
  artifacts?: Array<{ location?: SarifArtifactLocation }>;
  invocations?: Array<{ executionSuccessful: boolean; startTimeUtc?: string; endTimeUtc?: string }>;
  versionControlProvenance?: Array<{ repositoryUri: string; revisionId?: string; branch?: string }>;
  results?: SarifResult[];
  columnKind?: 'utf16CodeUnits' | 'unicodeCodePoints';
  properties?: PropertyBag;
}

export interface SarifLog {
  $schema?: string;
  version: '2.1.0';
  runs: SarifRun[];
}
