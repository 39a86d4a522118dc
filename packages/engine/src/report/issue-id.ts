// Stable identifiers for hosts without a database (the CLI): issue fingerprints and UUIDs derived
// from names, so that the same finding gets the same id on every run and in every format.
import { createHash } from 'node:crypto';
import type { Finding } from '../domain/types.js';
import type { AssessmentResult } from '../pipeline/types.js';

/**
 * Collapses whitespace and drops blank lines, so that re-indenting or reformatting the code around
 * a finding does not change its identity.
 */
export function normaliseSnippet(snippet: string): string {
  return snippet
    .split(/\r?\n/)
    .map((line) => line.trim().replace(/\s+/g, ' '))
    .filter((line) => line.length > 0)
    .join('\n');
}

/**
 * sha256 (hex) of rule id, file path, enclosing symbol and normalised snippet. Line numbers are left
 * out on purpose: a finding keeps its fingerprint when code above it is added or removed.
 */
export function issueFingerprint(finding: Pick<Finding, 'ruleId' | 'filePath' | 'symbol' | 'anchor'>): string {
  const parts = [finding.ruleId, finding.filePath, finding.symbol ?? '', normaliseSnippet(finding.anchor.codeSnippet)];
  return createHash('sha256').update(parts.join('\0')).digest('hex');
}

/**
 * Formats the first 128 bits of a hex digest as an RFC 9562 UUID with the version nibble 5 and the
 * RFC variant. Strictly a sha256-based name UUID is "version 8"; we keep the v5 layout that every
 * UUID validator and database column accepts.
 */
export function uuidFromDigest(hex: string): string {
  if (!/^[0-9a-f]{32,}$/i.test(hex)) throw new TypeError('uuidFromDigest needs at least 32 hex digits');
  const h = hex.slice(0, 32).toLowerCase();
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A UUID derived from a name; equal names give equal UUIDs. */
export function uuidFromName(name: string): string {
  return uuidFromDigest(createHash('sha256').update(name).digest('hex'));
}

/** The issue id for a fingerprint; `occurrence` > 0 separates findings with equal fingerprints. */
export function issueIdOf(fingerprint: string, occurrence = 0): string {
  return occurrence === 0 ? uuidFromDigest(fingerprint) : uuidFromName(`${fingerprint}#${occurrence}`);
}

export interface AssessmentIds {
  projectId: string;
  repositoryId: string;
  /** The id of this run: the assessment's `id` and every issue's `context_id`. */
  assessmentId: string;
}

/**
 * Ids for a run without a server. Project and repository ids are derived from the absolute root path
 * (different prefixes, so they are never confused with one another); the assessment id from the root
 * and the start time, so each run gets a new id while re-rendering one result is reproducible.
 */
export function deriveAssessmentIds(result: Pick<AssessmentResult, 'root' | 'startedAt'>): AssessmentIds {
  return {
    projectId: uuidFromName(`codehealth:project:${result.root}`),
    repositoryId: uuidFromName(`codehealth:repository:${result.root}`),
    assessmentId: uuidFromName(`codehealth:assessment:${result.root}:${result.startedAt}`),
  };
}
