// A run's issues written and removed in bounded batches. The embedded store (PGlite) runs every
// statement synchronously on the main thread and holds one lock for a whole transaction, so one
// statement of 150,000 rows froze the API (/healthz included) for a minute. Here each batch is a
// short transaction of its own, followed by a turn of the event loop; the caller keeps the rows
// invisible until it publishes the run (issues of an assessment are read only once it is completed).
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Database, Sql } from '../store/database.js';
import {
  adoptLegacyIdentities,
  applyDismissRules,
  INSERT_ISSUES,
  issueRowOf,
  type InsertedIssues,
  type IssueContext,
  type IssueContextType,
  type IssueInput,
} from './issue-records.js';

/** Rows per insert: about 20–40 ms of the embedded store's time each (docs/performance.md). */
export const DEFAULT_ISSUE_BATCH_SIZE = 250;
/** Rows per delete (deletes are cheaper than inserts). */
export const DEFAULT_DELETE_BATCH_SIZE = 1_000;

export interface BatchOptions {
  batchSize?: number;
  /** Runs first in every batch's transaction; throws to stop writing (e.g. the run was taken over). */
  guard?: (tx: Sql) => Promise<void>;
  /** Told after every batch how many rows are done (progress, tests). */
  onBatch?: (done: number) => void;
}

/**
 * Inserts the run's issues batch by batch: each batch in one transaction that also decides
 * `is_new` (against the baseline runs or the caller's verdict, as insertContextIssues) and applies
 * the project's dismiss rules to its rows. Same rows, ids and counts as insertContextIssues.
 */
export async function writeIssuesInBatches(
  db: Database,
  context: IssueContext,
  items: readonly IssueInput[],
  options: BatchOptions = {},
): Promise<InsertedIssues> {
  const size = Math.max(1, options.batchSize ?? DEFAULT_ISSUE_BATCH_SIZE);
  const verdict = context.newFingerprints ? new Set(context.newFingerprints) : undefined;
  const baseline = verdict ? [] : [...(context.baselineContextIds ?? [])];
  const occurrences = new Map<string, number>();
  let newCount = 0;
  let dismissed = 0;
  for (let start = 0; start < items.length; start += size) {
    const rows = items.slice(start, start + size).map((item) => issueRowOf(context.contextId, item, occurrences, undefined, context.changes));
    const counts = await db.transaction(async (tx) => {
      await options.guard?.(tx);
      const known = new Set<string>();
      if (baseline.length > 0) {
        // Rows recorded before identity v2 hold the former fingerprint: a row matches them by its legacy one.
        const found = await tx.query<{ fingerprint: string }>(
          'SELECT DISTINCT fingerprint FROM issues WHERE project_id = $1 AND context_id = ANY($2::uuid[]) AND fingerprint = ANY($3::text[])',
          [context.projectId, baseline, [...new Set(rows.flatMap((row) => [row.fingerprint, row.legacy_fingerprint]))]],
        );
        for (const row of found) known.add(row.fingerprint);
      }
      let fresh = 0;
      for (const row of rows) {
        row.is_new = row.change
          ? row.change === 'new'
          : verdict
            ? verdict.has(row.fingerprint)
            : baseline.length > 0 && !known.has(row.fingerprint) && !known.has(row.legacy_fingerprint);
        if (row.is_new) fresh++;
      }
      await tx.query(INSERT_ISSUES, [rows, context.projectId, context.contextType, context.contextId]);
      await adoptLegacyIdentities(tx, context.projectId, rows);
      const hidden = await applyDismissRules(tx, context.projectId, { ids: rows.map((row) => row.id), countMatches: true });
      return { fresh, hidden };
    });
    newCount += counts.fresh;
    dismissed += counts.hidden;
    options.onBatch?.(start + rows.length);
    await yieldToEventLoop();
  }
  return { inserted: items.length, newCount, dismissed };
}

/** Removes every issue of one run (an assessment unless told), a batch per transaction; returns how many were removed. */
export async function deleteContextIssues(
  db: Database,
  projectId: string,
  contextId: string,
  options: BatchOptions & { contextType?: IssueContextType } = {},
): Promise<number> {
  const size = Math.max(1, options.batchSize ?? DEFAULT_DELETE_BATCH_SIZE);
  let removed = 0;
  for (;;) {
    const count = await db.transaction(async (tx) => {
      await options.guard?.(tx);
      const [row] = await tx.query<{ n: number }>(
        `WITH gone AS (
           DELETE FROM issues WHERE id IN (
             SELECT id FROM issues WHERE project_id = $1 AND context_type = $4 AND context_id = $2 LIMIT $3) RETURNING 1)
         SELECT count(*)::int AS n FROM gone`,
        [projectId, contextId, size, options.contextType ?? 'health_assessment'],
      );
      return row?.n ?? 0;
    });
    removed += count;
    options.onBatch?.(removed);
    if (count < size) return removed;
    await yieldToEventLoop();
  }
}
