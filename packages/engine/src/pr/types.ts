// Shared vocabulary of the pull-request pipeline: the diff between a PR's merge base and head,
// as the diff reader produces it and as classification, projection, zones, scope drift,
// conflicts and stacking consume it.

export type ChangeStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'type_changed';

export interface DiffHunk {
  /** 1-based line ranges as in the unified diff header `@@ -oldStart,oldLines +newStart,newLines @@`. */
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  /** Changes only comments or whitespace (cosmetic-hunks.ts): it touches no symbol's behaviour. */
  cosmetic?: boolean;
}

export interface ChangedSymbol {
  /** Qualified name as the engine names symbols (`Class.method`, `functionName`). */
  name: string;
  kind: string;
  /** Whether the symbol is exported from its module (a public API change). */
  exported: boolean;
  /** Which side of the diff it was found on. */
  side: 'base' | 'head';
  lineStart: number;
  lineEnd: number;
  /**
   * What the PR did to it: `added` (no symbol of that kind and qualified name on the other side),
   * `removed` (gone at head), `modified` (on both sides). Set by the diff reader.
   */
  change?: 'added' | 'removed' | 'modified';
  /**
   * Set on an exported symbol the hunks do not touch but whose behaviour changes because it uses a
   * touched private helper of its module (reached-symbols.ts): the helper's name.
   */
  reachedThrough?: string;
}

export interface ChangedFile {
  path: string;
  /** For renames and copies. */
  oldPath?: string;
  status: ChangeStatus;
  additions: number;
  deletions: number;
  binary: boolean;
  /** Generated or vendored per the engine's file classification: set aside from analysis. */
  generated: boolean;
  /** The engine's file kind at head (source, test, config, docs, ...). */
  kind: string;
  hunks: DiffHunk[];
  /** Symbols whose line range intersects a hunk (tree-sitter, both sides). */
  symbols: ChangedSymbol[];
}

export interface PullRequestDiff {
  baseSha: string;
  headSha: string;
  mergeBaseSha: string;
  files: ChangedFile[];
  /** Commits in merge-base..head, oldest first. */
  commits: Array<{ sha: string; subject: string }>;
}

/** A PR as the pipeline sees it (from the pull_requests table / code host). */
export interface PullRequestInfo {
  number: number;
  title: string;
  body: string;
  baseBranch: string;
  headBranch: string;
  baseSha: string;
  headSha: string;
  author: string;
}
