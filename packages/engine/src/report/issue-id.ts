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

/** Normalised characters of an anchor that take part in its identity (the start of what the rule points at). */
export const ANCHOR_IDENTITY_CHARS = 120;

/**
 * The anchor's text as identity sees it: comments, whitespace, semicolons, parentheses and
 * trailing commas dropped, quotes made alike, so that a formatter's rewrap (prettier: line
 * breaks, quote style, arrow parentheses, trailing commas) or a comment leaves it unchanged. Cut
 * to its first ANCHOR_IDENTITY_CHARS characters: a snippet is itself cut at 12 lines, and a
 * rewrap moves that cut; the start of the anchor survives both.
 */
export function normaliseAnchorText(snippet: string, limit = ANCHOR_IDENTITY_CHARS): string {
  let out = '';
  const n = snippet.length;
  for (let i = 0; i < n && out.length < limit; i++) {
    const c = snippet.charCodeAt(i);
    if (c === QUOTE || c === DOUBLE_QUOTE || c === BACKTICK) {
      // A string keeps its inside as written (its spaces are content), its quotes become one kind.
      let j = i + 1;
      while (j < n && snippet.charCodeAt(j) !== c) j += snippet.charCodeAt(j) === BACKSLASH ? 2 : 1;
      out += `'${snippet.slice(i + 1, Math.min(j, n))}'`;
      i = j;
    } else if (c === SLASH && snippet.charCodeAt(i + 1) === SLASH) {
      const end = snippet.indexOf('\n', i);
      i = end < 0 ? n : end;
    } else if (c === SLASH && snippet.charCodeAt(i + 1) === STAR) {
      const end = snippet.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 1;
    } else if (c === COMMA) {
      let j = i + 1;
      while (j < n && isSpace(snippet.charCodeAt(j))) j++;
      if (!CLOSERS.has(snippet.charCodeAt(j))) out += ',';
    } else if (!isSpace(c) && c !== SEMICOLON && c !== OPEN_PAREN && c !== CLOSE_PAREN) out += snippet[i];
  }
  return out.length > limit ? out.slice(0, limit) : out;
}

const [QUOTE, DOUBLE_QUOTE, BACKTICK, BACKSLASH, SLASH, STAR, COMMA, SEMICOLON, OPEN_PAREN, CLOSE_PAREN] = [...'\'"`\\/*,;()'].map((ch) => ch.charCodeAt(0));
const CLOSERS = new Set([...')]}>'].map((ch) => ch.charCodeAt(0)));
const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13) || c === 160 || c === 0xfeff || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029;

/**
 * A short hash of a code range with comments and formatting left out (normaliseAnchorText, uncut):
 * equal for a function before and after a formatter rewrapped it.
 */
export function codeShape(text: string): string {
  return createHash('sha256').update(normaliseAnchorText(text, Number.POSITIVE_INFINITY)).digest('hex').slice(0, 16);
}

type FingerprintFields = Pick<Finding, 'ruleId' | 'filePath' | 'symbol' | 'anchor'> & Partial<Pick<Finding, 'metric'>>;

/**
 * An issue's identity, sha256 (hex) of rule id, file path, qualified enclosing symbol and what the
 * rule is about: for a metric rule (`Finding.metric`: long function, complexity …) the symbol
 * itself — its measured value is not part of it, a change of it is a worsened or improved issue —
 * else the anchor's own normalised text (normaliseAnchorText). Line numbers, formatting and edits
 * elsewhere in the symbol leave it unchanged.
 */
export function issueFingerprint(finding: FingerprintFields): string {
  const subject = finding.metric ? '\0metric' : normaliseAnchorText(finding.anchor.codeSnippet);
  const parts = ['v2', finding.ruleId, finding.filePath, finding.symbol ?? '', subject];
  return createHash('sha256').update(parts.join('\0')).digest('hex');
}

/**
 * The fingerprint issues carried before identity v2 (rule, file, symbol and the whole snippet
 * normalised line by line): stored issues of older runs, and the dismissals and restorations
 * pinned to them, are matched through it (migration 0008 keeps it as `legacy_fingerprint`).
 */
export function legacyIssueFingerprint(finding: Pick<Finding, 'ruleId' | 'filePath' | 'symbol' | 'anchor'>): string {
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
