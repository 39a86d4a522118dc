// Architecture overview and conventions of a project: the read side for the REST API, the user's
// decisions on conventions, and the write side the onboarding and review workflows call
// (saveOverview, saveDetectedConventions).
import { randomUUID } from 'node:crypto';
import {
  ArchitectureOverviewContentSchema,
  type ArchitectureOverview,
  type ArchitectureOverviewContent,
  type Convention,
  type ConventionStatus,
  type UpdateConventionInput,
} from '../api/architecture.js';
import type { ConventionPattern } from '@codehealth/engine';
import type { WorkflowStarter } from '../ports/workflow-starter.js';
import type { Database, Sql } from '../store/database.js';
import type { ProjectAccess } from './access.js';
import type { Actor } from './actor.js';
import { ConflictError, NotFoundError, UnavailableError } from './errors.js';
import { iso } from './time.js';

const NO_OVERVIEW = 'no architecture overview yet; link a repository or trigger a review';

/** What each convention the built-in analyzers publish is about. */
const CONVENTION_SUBJECTS: Record<string, string> = {
  'function-naming': 'Naming style of functions',
  'method-naming': 'Naming style of methods',
  'class-naming': 'Naming style of classes',
  'type-naming': 'Naming style of types and interfaces',
  'constant-naming': 'Naming style of module-level constants',
  'file-naming': 'Naming style of source file names',
  'jsx-file-naming': 'Naming style of JSX and TSX file names',
  'async-style': 'async/await or .then() chains in asynchronous code',
  'promise-error-handling': 'How promise rejections are handled',
  'error-class': 'What is thrown as an error',
  'module-system': 'Module system of source files',
  'import-extension': 'File extensions in relative imports',
  'local-import-binding': 'Named or default imports of local modules',
};

interface ConventionRow extends Record<string, unknown> {
  id: string;
  project_id: string;
  name: string;
  description: string;
  dominant_value: string;
  consistency: number;
  total_count: number;
  deviation_count: number;
  status: ConventionStatus;
  examples: Array<{ value: string; count: number }>;
  detected_at: Date;
  updated_at: Date;
}

const CONVENTION_COLUMNS =
  'id, project_id, name, description, dominant_value, consistency, total_count, deviation_count, status, examples, detected_at, updated_at';

function wireConvention(row: ConventionRow): Convention {
  return { ...row, consistency: Number(row.consistency), detected_at: iso(row.detected_at), updated_at: iso(row.updated_at) };
}

/** Counts per value; a pattern without a breakdown contributes its dominant value only. */
function valuesOf(pattern: ConventionPattern): Map<string, number> {
  if (pattern.values && Object.keys(pattern.values).length > 0) return new Map(Object.entries(pattern.values));
  return new Map([[pattern.dominantValue, Math.max(0, pattern.totalCount - pattern.deviationCount)]]);
}

/**
 * One pattern per name: patterns of the same name (one per repository of a project) are merged by
 * adding their counts per value; the dominant value and consistency are recomputed.
 */
export function mergeConventionPatterns(patterns: readonly ConventionPattern[]): Array<ConventionPattern & { values: Record<string, number> }> {
  const byName = new Map<string, { total: number; values: Map<string, number> }>();
  for (const pattern of patterns) {
    const entry = byName.get(pattern.name) ?? { total: 0, values: new Map<string, number>() };
    entry.total += pattern.totalCount;
    for (const [value, count] of valuesOf(pattern)) entry.values.set(value, (entry.values.get(value) ?? 0) + count);
    byName.set(pattern.name, entry);
  }
  return [...byName].map(([name, { total, values }]) => {
    const sorted = [...values].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const [dominantValue, dominant] = sorted[0] ?? ['', 0];
    return {
      name,
      dominantValue,
      totalCount: total,
      deviationCount: Math.max(0, total - dominant),
      consistency: total === 0 ? 100 : Math.round((1000 * dominant) / total) / 10,
      values: Object.fromEntries(sorted),
    };
  });
}

export class ArchitectureService {
  constructor(
    private readonly db: Database,
    private readonly access: ProjectAccess,
    private readonly workflows: WorkflowStarter,
  ) {}

  async getOverview(actor: Actor, projectId: string): Promise<ArchitectureOverview> {
    await this.access.require(actor, projectId);
    const [row] = await this.db.query<{ overview: ArchitectureOverviewContent; generated_at: Date }>(
      'SELECT overview, generated_at FROM architecture_overviews WHERE project_id = $1',
      [projectId],
    );
    if (!row) throw Object.assign(new NotFoundError('architecture overview'), { message: NO_OVERVIEW });
    return { project_id: projectId, generated_at: iso(row.generated_at), ...row.overview };
  }

  /** Stores the project's overview (replacing the previous one); `tx` joins the caller's transaction. */
  async saveOverview(projectId: string, overview: ArchitectureOverviewContent, tx: Sql = this.db): Promise<void> {
    const checked = ArchitectureOverviewContentSchema.parse(overview);
    await tx.query(
      `INSERT INTO architecture_overviews (project_id, overview, generated_at) VALUES ($1, $2, now())
       ON CONFLICT (project_id) DO UPDATE SET overview = EXCLUDED.overview, generated_at = now()`,
      [projectId, checked],
    );
  }

  async listConventions(actor: Actor, projectId: string, filter: { status?: ConventionStatus } = {}): Promise<Convention[]> {
    await this.access.require(actor, projectId);
    const rows = await this.db.query<ConventionRow>(
      `SELECT ${CONVENTION_COLUMNS} FROM conventions WHERE project_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY name`,
      [projectId, filter.status ?? null],
    );
    return rows.map(wireConvention);
  }

  async updateConvention(actor: Actor, projectId: string, conventionId: string, input: UpdateConventionInput): Promise<Convention> {
    await this.access.require(actor, projectId);
    const [row] = await this.db.query<ConventionRow>(
      `UPDATE conventions SET status = $3, updated_at = now() WHERE project_id = $1 AND id = $2 RETURNING ${CONVENTION_COLUMNS}`,
      [projectId, conventionId, input.status],
    );
    if (!row) throw new NotFoundError('convention');
    return wireConvention(row);
  }

  /** Queues a convention detection over the project's linked repositories. */
  async detectConventions(actor: Actor, projectId: string): Promise<{ status: 'queued'; workflow_id: string }> {
    await this.access.require(actor, projectId);
    await requireLinkedRepository(this.db, projectId, 'detecting conventions');
    try {
      const { workflowId } = await this.workflows.start({ kind: 'convention-detection', projectId });
      return { status: 'queued', workflow_id: workflowId };
    } catch {
      throw new UnavailableError('the workflow engine is unavailable; try again later');
    }
  }

  /**
   * Stores detected conventions in one transaction: upserted by name (a user's `accepted` or
   * `rejected` status is kept, the measurements are replaced); conventions no longer detected are
   * removed unless a user decided on them. Returns the number of conventions stored.
   */
  async saveDetectedConventions(projectId: string, patterns: readonly ConventionPattern[]): Promise<number> {
    const merged = mergeConventionPatterns(patterns);
    await this.db.transaction(async (tx) => {
      for (const pattern of merged) {
        const examples = Object.entries(pattern.values).map(([value, count]) => ({ value, count }));
        const subject = CONVENTION_SUBJECTS[pattern.name] ?? `Convention "${pattern.name}"`;
        const description = `${subject}: ${pattern.dominantValue} in ${pattern.consistency}% of ${pattern.totalCount} occurrences.`;
        await tx.query(
          `INSERT INTO conventions (id, project_id, name, description, dominant_value, consistency, total_count, deviation_count, examples)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
           ON CONFLICT (project_id, name) DO UPDATE SET description = EXCLUDED.description, dominant_value = EXCLUDED.dominant_value,
             consistency = EXCLUDED.consistency, total_count = EXCLUDED.total_count, deviation_count = EXCLUDED.deviation_count,
             examples = EXCLUDED.examples, detected_at = now(), updated_at = now()`,
          [
            randomUUID(),
            projectId,
            pattern.name,
            description,
            pattern.dominantValue,
            pattern.consistency,
            pattern.totalCount,
            pattern.deviationCount,
            examples,
          ],
        );
      }
      await tx.query("DELETE FROM conventions WHERE project_id = $1 AND status = 'detected' AND NOT (name = ANY($2::text[]))", [
        projectId,
        merged.map((pattern) => pattern.name),
      ]);
    });
    return merged.length;
  }
}

/** Long work needs code: a project without a linked repository gets a 409 that says what to do. */
export async function requireLinkedRepository(db: Sql, projectId: string, what: string): Promise<void> {
  const [row] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM project_repositories WHERE project_id = $1', [projectId]);
  if (!row || row.count === 0) throw new ConflictError(`link a repository to the project before ${what}`);
}
