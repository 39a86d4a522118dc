// Retention of assessments' issue lists: a project keeps the full issue list of its latest N
// completed assessments; an older one keeps its record (scores, severity counts, metrics, drift
// alerts, its place in trends) and loses its issue rows. Enforced after each recorded assessment:
// the runs are marked pruned first — from then on they read as having no issues — and their rows
// are removed in batches. Issues that failed runs left behind (an interrupted recording) go too.
import type { Database } from '../store/database.js';
import { deleteContextIssues, type BatchOptions } from './issue-batches.js';

/** Completed assessments per project whose issue list is kept when the host sets nothing else. */
export const DEFAULT_ISSUE_RETENTION_RUNS = 10;

export interface PrunedIssues {
  /** Assessments whose issue list was removed by this pass. */
  assessments: number;
  issues: number;
}

/** The latest runs, in the order the issue list's default scope reads them (services/issues.ts). */
const KEPT_RUNS = `SELECT id FROM health_assessments WHERE project_id = $1 AND status = 'completed'
  ORDER BY completed_at DESC NULLS LAST, created_at DESC, id DESC LIMIT $2`;

/**
 * Removes the issues of the project's completed assessments older than the latest `keepRuns`, and
 * of its failed ones. `keepRuns` 0 keeps every run's issues (failed runs are still cleaned).
 */
export async function pruneAssessmentIssues(db: Database, projectId: string, keepRuns: number, options: BatchOptions = {}): Promise<PrunedIssues> {
  const keepAll = !(keepRuns > 0) || !Number.isFinite(keepRuns);
  // One statement marks the runs, so a reader never sees part of a run's list.
  const marked = await db.query<{ id: string; status: string }>(
    `UPDATE health_assessments SET issues_pruned_at = now()
      WHERE project_id = $1 AND issues_pruned_at IS NULL
        AND (status = 'failed' OR (status = 'completed' AND NOT $3::bool AND id NOT IN (${KEPT_RUNS})))
      RETURNING id, status`,
    [projectId, keepAll ? 0 : Math.floor(keepRuns), keepAll],
  );
  let issues = 0;
  for (const run of marked) issues += await deleteContextIssues(db, projectId, run.id, options);
  // PGlite runs no autovacuum (single-user Postgres): without this the freed space is never reused.
  if (issues > 0 && db.kind === 'pglite') await db.exec('VACUUM issues');
  return { assessments: marked.filter((run) => run.status === 'completed').length, issues };
}

/**
 * Upkeep of the embedded store after a run was written, which PGlite (Postgres in single-user
 * mode: no autovacuum, no checkpointer) never does on its own; Postgres (self-hosted) does both.
 * - Planner statistics of `issues`: without them the next run's baseline lookups scan a whole
 *   earlier run per batch (~150 ms each instead of ~3 ms at 150,000 issues). A small sample keeps
 *   this short (~50 ms).
 * - A checkpoint: the WAL is recycled only at one, so without it the data directory grew by the
 *   whole WAL of every run (593 MB after three large runs); after it, at most `max_wal_size` is kept
 *   (store/pglite-database.ts).
 */
export async function maintainEmbeddedStore(db: Database): Promise<void> {
  if (db.kind !== 'pglite') return;
  await db.transaction(async (tx) => {
    await tx.query('SET LOCAL default_statistics_target = 10');
    await tx.query('ANALYZE issues');
  });
  await db.exec('CHECKPOINT');
}
