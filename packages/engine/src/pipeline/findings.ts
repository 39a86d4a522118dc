// Turning a rule's report into a complete Finding: anchor, snippet, severity, docs and confidence,
// and, once a run's findings are collected, the role of the file each is in.
import type { ReportDescriptor, RuleMeta } from '../contracts/analyzer.js';
import type { Anchor, Finding, Severity } from '../domain/types.js';
import type { RepoFile } from '../snapshot/types.js';
import { roleOfFile } from '../snapshot/file-roles.js';
import { codeShape } from '../report/issue-id.js';

/** Snippets are for display next to an issue; long ranges are cut, the line range stays exact. */
const MAX_SNIPPET_LINES = 12;
const MAX_SNIPPET_CHARS = 1200;

/** Splits once per file; rules reporting many findings reuse it. */
export function splitLines(source: string): string[] {
  return source.split(/\r\n|\n|\r/);
}

/** What a snippet needs of a file's lines: their number and a range of them. */
export type LineTable = Pick<readonly string[], 'length' | 'slice'>;

/**
 * The lines of `splitLines(source)`, cut only when a snippet asks for them: a file's findings read
 * a few of its lines, and splitting every line of every file with a finding was the largest
 * garbage of the per-file pass. Text with a `\r` is split as before.
 */
export function lineTableOf(source: string, lineStarts?: Int32Array): LineTable {
  return source.includes('\r') ? splitLines(source) : new NewlineLines(source, lineStarts);
}

/** Lines of a text whose only line terminator is `\n`. */
class NewlineLines implements LineTable {
  readonly length: number;
  private readonly starts: Int32Array;

  /** `lineStarts`, when the caller has them (a tree's rows), must be where each line of `source` starts. */
  constructor(
    private readonly source: string,
    lineStarts?: Int32Array,
  ) {
    if (lineStarts) {
      this.starts = lineStarts;
      this.length = lineStarts.length;
      return;
    }
    let count = 1;
    for (let at = source.indexOf('\n'); at >= 0; at = source.indexOf('\n', at + 1)) count++;
    this.length = count;
    this.starts = new Int32Array(count);
    let line = 1;
    for (let at = source.indexOf('\n'); at >= 0; at = source.indexOf('\n', at + 1)) this.starts[line++] = at + 1;
  }

  /** Array.prototype.slice over the lines. */
  slice(start?: number, end?: number): string[] {
    const from = relativeIndex(start, 0, this.length);
    const to = relativeIndex(end, this.length, this.length);
    const out: string[] = [];
    for (let line = from; line < to; line++) {
      out.push(this.source.slice(this.starts[line], line + 1 < this.length ? this.starts[line + 1] - 1 : this.source.length));
    }
    return out;
  }
}

/** A slice bound as Array.prototype.slice reads it. */
function relativeIndex(value: number | undefined, fallback: number, length: number): number {
  if (value === undefined) return fallback;
  const integer = Number.isNaN(value) ? 0 : Math.trunc(value);
  return integer < 0 ? Math.max(length + integer, 0) : Math.min(integer, length);
}

/** The anchor of a line range; `validated` says the range exists in the file the snippet came from. */
export function anchorFor(lines: LineTable, lineStart: number, lineEnd: number): Anchor {
  const start = Math.max(1, Math.floor(lineStart));
  const end = Math.max(start, Math.floor(lineEnd));
  const validated = start <= lines.length && end <= lines.length;
  let snippet = lines.slice(start - 1, Math.min(end, start - 1 + MAX_SNIPPET_LINES)).join('\n');
  if (snippet.length > MAX_SNIPPET_CHARS) snippet = `${snippet.slice(0, MAX_SNIPPET_CHARS)}…`;
  return { lineStart: start, lineEnd: end, codeSnippet: snippet, validated };
}

/** Dashboards group files by package: `packages/<name>` style roots keep two segments. */
export function fileGroupOf(path: string): string {
  const parts = path.split('/');
  if (parts.length <= 1) return '.';
  if (['packages', 'apps', 'libs', 'services', 'modules', 'plugins'].includes(parts[0]) && parts.length > 2) {
    return `${parts[0]}/${parts[1]}`;
  }
  return parts[0];
}

/** Masks each secret in the snippet, keeping its first 4 characters so a reader can recognise it. */
export function redactAnchor(anchor: Anchor, secrets: readonly string[] | undefined): Anchor {
  if (!secrets?.length) return anchor;
  let snippet = anchor.codeSnippet;
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    const shown = secret.length > 8 ? secret.slice(0, 4) : '';
    snippet = snippet.split(secret).join(`${shown}${'*'.repeat(Math.min(12, secret.length - shown.length))}`);
    // A secret spanning lines (a PEM block) appears line by line in the snippet.
    for (const part of secret.split('\n')) if (part.length >= 16) snippet = snippet.split(part).join(`${part.slice(0, 4)}${'*'.repeat(12)}`);
  }
  return { ...anchor, codeSnippet: snippet };
}

export interface FindingOrigin {
  analyzerId: string;
  meta: RuleMeta<unknown>;
  /** Severity from the repository config; wins over the rule's choice. */
  severityOverride?: Severity;
}

export function lineRangeOf(descriptor: ReportDescriptor): { lineStart: number; lineEnd: number } {
  if ('node' in descriptor) {
    const { startPosition, endPosition } = descriptor.node;
    const lineStart = startPosition.row + 1;
    // A node ending at column 0 ends on the previous line's newline.
    const lineEnd = endPosition.column === 0 && endPosition.row > startPosition.row ? endPosition.row : endPosition.row + 1;
    return { lineStart, lineEnd };
  }
  return { lineStart: descriptor.lineStart, lineEnd: descriptor.lineEnd ?? descriptor.lineStart };
}

export function buildFinding(origin: FindingOrigin, filePath: string, lines: LineTable, descriptor: ReportDescriptor): Finding {
  const { meta } = origin;
  const range = lineRangeOf(descriptor);
  const finding: Finding = {
    source: meta.source ?? 'static_analyzer',
    severity: origin.severityOverride ?? descriptor.severity ?? meta.severity,
    category: meta.category,
    filePath,
    fileGroup: fileGroupOf(filePath),
    anchor: redactAnchor(anchorFor(lines, range.lineStart, range.lineEnd), descriptor.redact),
    title: descriptor.title,
    description: descriptor.description,
    whyItMatters: descriptor.whyItMatters ?? meta.docs.whyItMatters,
    suggestedAction: descriptor.suggestedAction ?? meta.docs.suggestedAction,
    ruleId: `${origin.analyzerId}/${meta.id}`,
    analyzerName: origin.analyzerId,
    confidence: Math.round(Math.min(100, Math.max(0, descriptor.confidence ?? meta.confidence ?? 90))),
    autoFixable: meta.autoFixable ?? false,
  };
  if (descriptor.symbol) finding.symbol = descriptor.symbol;
  if (descriptor.data) finding.data = descriptor.data;
  if (meta.metric) finding.metric = meta.metric;
  if (meta.metric?.ofAnchor && finding.anchor.validated) {
    finding.anchor.shape = codeShape(lines.slice(finding.anchor.lineStart - 1, finding.anchor.lineEnd).join('\n'));
  }
  return finding;
}

/**
 * Sets each finding's `role` to its file's, in place of the array (the findings themselves are
 * copied: summaries' findings are shared with the summary cache). Findings are built per file and
 * cached by content; a file's role comes from the whole repository (its manifests, the config), so
 * it is given here, where a run publishes them. A file outside the inventory is production code.
 */
export function assignFindingRoles(findings: Finding[], files: readonly RepoFile[]): void {
  const roles = new Map(files.map((file) => [file.path, roleOfFile(file)]));
  for (let i = 0; i < findings.length; i++) {
    const role = roles.get(findings[i].filePath) ?? 'production';
    if (findings[i].role !== role) findings[i] = { ...findings[i], role };
  }
}
