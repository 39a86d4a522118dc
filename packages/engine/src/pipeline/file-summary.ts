// The compact per-file result of the parse-and-walk pass. Summaries cross threads and are cached
// by content hash; trees never leave the pass that made them.
import type { Finding, FileKind, FileRole, Language } from '../domain/types.js';
import type { ModuleFacts } from '../graph/types.js';

export interface LineCounts {
  total: number;
  code: number;
  comment: number;
  blank: number;
}

export interface ParseStats {
  /** Number of ERROR or MISSING nodes (of the repaired tree when a repair was kept): 0 means the file parsed cleanly. */
  errorNodes: number;
  /** Bytes covered by ERROR nodes. */
  errorBytes: number;
  /** 0-1: share of the file's bytes outside ERROR nodes. */
  cleanRatio: number;
  parseMs: number;
  /** 1-based line of the first ERROR or MISSING node, when there is one. */
  firstErrorLine?: number;
  /** Repairs of the grammar's known gaps the kept tree was parsed with (parsing/parse-repair.ts), when any. */
  repairs?: number;
}

export interface FunctionSummary {
  name: string;
  lineStart: number;
  lineEnd: number;
  params: number;
  loc: number;
}

export interface FileSummary {
  path: string;
  contentHash: string;
  language: Language;
  kind: FileKind;
  /** The file's role (its `RepoFile.role`; part of the summary's cache key, as rules may read it). */
  role?: FileRole;
  lines: LineCounts;
  parse: ParseStats;
  module: ModuleFacts;
  functions: FunctionSummary[];
  /** Findings of file rules. */
  findings: Finding[];
  /** Collector results by collector id. */
  facts: Record<string, unknown>;
  /** Set when the file was inventoried but could not be analysed. */
  skipped?: string;
  /** True when the summary came from the cache (no parse this run). */
  cached?: boolean;
}
