// What the engine knows about a repository before any parsing: its files and its git history.
import type { FileKind, FileRole, Language } from '../domain/types.js';

export interface RepoFile {
  /** POSIX path relative to the repository root. */
  path: string;
  language: Language;
  kind: FileKind;
  /**
   * What the file is for (production, test, benchmark, example, ...): set by the snapshot for every
   * file it lists. A file described elsewhere without one is read as `roleOfFile` reads it.
   */
  role?: FileRole;
  sizeBytes: number;
  /** Why a file is present but not analysed (binary, too large, unreadable). */
  skipReason?: string;
}

export interface FileChurn {
  linesAdded30d: number;
  linesDeleted30d: number;
  linesAdded90d: number;
  linesDeleted90d: number;
  commits30d: number;
  commits90d: number;
  commitsTotal: number;
  authors: string[];
  lastModified?: string;
}

export interface GitFacts {
  /** False when the directory is not a git work tree; every other field is then empty. */
  available: boolean;
  headSha?: string;
  /** Committer date of the head commit (ms since the epoch). */
  headTime?: number;
  /**
   * The time windows (churn of the last 30/90 days) and ages are measured back from (ms): the head
   * commit's date unless the caller gave another, so the same commit gets the same facts any day.
   */
  referenceTime?: number;
  branch?: string;
  /** True in a shallow clone: history stops at the clone's boundary, so totals are lower bounds. */
  shallow?: boolean;
  /**
   * Why the history could not be read when the head commit could (a damaged or partial clone whose
   * older objects are missing): churn, ages and commit counts are then empty, the rest of the run stands.
   */
  historyError?: string;
  /** Per file, keyed by repository-relative path. */
  files: Map<string, FileChurn>;
  totals: {
    linesAdded30d: number;
    linesDeleted30d: number;
    linesAdded90d: number;
    linesDeleted90d: number;
    commits30d: number;
    commits90d: number;
    authors30d: number;
    authors90d: number;
  };
}

export interface RepoSnapshot {
  /** Absolute path of the repository root. */
  root: string;
  files: RepoFile[];
  /** Contents are read lazily and at most once per run. */
  readFile(path: string): Promise<string>;
  git(): Promise<GitFacts>;
}
