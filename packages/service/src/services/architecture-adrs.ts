// Architecture decision records (ADRs) of a project, numbered 1, 2, 3, ... per project. Status
// moves follow the usual ADR life cycle; `superseded` always names the ADR that replaces it.
import { randomUUID } from 'node:crypto';
import type { Adr, AdrList, AdrStatus, CreateAdrInput, UpdateAdrInput } from '../api/architecture.js';
import type { Database, Sql } from '../store/database.js';
import type { ProjectAccess } from './access.js';
import type { Actor } from './actor.js';
import { ConflictError, InvalidInputError, NotFoundError } from './errors.js';
import { iso } from './time.js';

/**
 * Allowed status moves (staying in the same status is always allowed): a proposal is accepted or
 * rejected; a rejected proposal may be proposed again; an accepted decision is deprecated or
 * superseded; a deprecated one may be superseded or accepted again; superseded is final.
 */
export const ADR_TRANSITIONS: Record<AdrStatus, readonly AdrStatus[]> = {
  proposed: ['accepted', 'rejected'],
  accepted: ['deprecated', 'superseded'],
  rejected: ['proposed'],
  deprecated: ['accepted', 'superseded'],
  superseded: [],
};

/** Statuses of an ADR that may replace another. */
const REPLACEMENT_STATUSES: readonly AdrStatus[] = ['proposed', 'accepted'];

interface AdrRow extends Record<string, unknown> {
  id: string;
  project_id: string;
  number: number;
  title: string;
  status: AdrStatus;
  context: string;
  decision: string;
  consequences: string;
  superseded_by: string | null;
  created_by_user_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, project_id, number, title, status, context, decision, consequences, superseded_by, created_by_user_id, created_at, updated_at';

const wire = (row: AdrRow): Adr => ({ ...row, created_at: iso(row.created_at), updated_at: iso(row.updated_at) });

export class AdrService {
  constructor(
    private readonly db: Database,
    private readonly access: ProjectAccess,
  ) {}

  async list(actor: Actor, projectId: string, query: { status?: AdrStatus; limit: number; offset: number }): Promise<AdrList> {
    await this.access.require(actor, projectId);
    const status = query.status ?? null;
    const rows = await this.db.query<AdrRow>(
      `SELECT ${COLUMNS} FROM adrs WHERE project_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY number LIMIT $3 OFFSET $4`,
      [projectId, status, query.limit, query.offset],
    );
    const [total] = await this.db.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM adrs WHERE project_id = $1 AND ($2::text IS NULL OR status = $2)',
      [projectId, status],
    );
    return { items: rows.map(wire), total_count: total!.count, limit: query.limit, offset: query.offset };
  }

  async get(actor: Actor, projectId: string, adrId: string): Promise<Adr> {
    await this.access.require(actor, projectId);
    return wire(await this.find(this.db, projectId, adrId));
  }

  /**
   * Creates an ADR with the next number of its project. The project row is locked for the
   * transaction, so concurrent creations get consecutive numbers instead of a duplicate.
   */
  async create(actor: Actor, projectId: string, input: CreateAdrInput): Promise<Adr> {
    await this.access.require(actor, projectId);
    const status = input.status ?? 'proposed';
    const row = await this.db.transaction(async (tx) => {
      // NO KEY UPDATE: serialises ADR creations without waiting for transactions that merely reference the project.
      await tx.query('SELECT id FROM projects WHERE id = $1 FOR NO KEY UPDATE', [projectId]);
      const supersededBy = await this.checkSupersession(tx, projectId, null, status, input.superseded_by ?? null);
      const [created] = await tx.query<AdrRow>(
        `INSERT INTO adrs (id, project_id, number, title, status, context, decision, consequences, superseded_by, created_by_user_id)
         SELECT $1, $2, COALESCE(max(number), 0) + 1, $3, $4, $5, $6, $7, $8, $9 FROM adrs WHERE project_id = $2
         RETURNING ${COLUMNS}`,
        [randomUUID(), projectId, input.title, status, input.context ?? '', input.decision ?? '', input.consequences ?? '', supersededBy, actor.userId],
      );
      return created!;
    });
    return wire(row);
  }

  /** Changes the provided fields; status moves are checked against ADR_TRANSITIONS (409 otherwise). */
  async update(actor: Actor, projectId: string, adrId: string, input: UpdateAdrInput): Promise<Adr> {
    await this.access.require(actor, projectId);
    const row = await this.db.transaction(async (tx) => {
      const current = await this.find(tx, projectId, adrId, true);
      const status = input.status ?? current.status;
      if (status !== current.status && !ADR_TRANSITIONS[current.status].includes(status)) {
        const allowed = ADR_TRANSITIONS[current.status];
        throw new ConflictError(
          `an ADR cannot move from ${current.status} to ${status}` +
            (allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : ` (${current.status} is final)`),
        );
      }
      const requested = input.superseded_by === undefined ? (status === 'superseded' ? current.superseded_by : null) : input.superseded_by;
      const supersededBy = await this.checkSupersession(tx, projectId, adrId, status, requested);
      const [updated] = await tx.query<AdrRow>(
        `UPDATE adrs SET title = COALESCE($3, title), context = COALESCE($4, context), decision = COALESCE($5, decision),
                consequences = COALESCE($6, consequences), status = $7, superseded_by = $8, updated_at = now()
          WHERE project_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
        [projectId, adrId, input.title ?? null, input.context ?? null, input.decision ?? null, input.consequences ?? null, status, supersededBy],
      );
      return updated!;
    });
    return wire(row);
  }

  private async find(sql: Sql, projectId: string, adrId: string, lock = false): Promise<AdrRow> {
    const [row] = await sql.query<AdrRow>(`SELECT ${COLUMNS} FROM adrs WHERE project_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`, [projectId, adrId]);
    if (!row) throw new NotFoundError('ADR');
    return row;
  }

  /**
   * `superseded` needs `superseded_by`: another ADR of the same project that is proposed or
   * accepted (so chains of replacements never loop); any other status takes none (400 otherwise).
   */
  private async checkSupersession(tx: Sql, projectId: string, adrId: string | null, status: AdrStatus, supersededBy: string | null): Promise<string | null> {
    if (status !== 'superseded') {
      if (supersededBy !== null) throw new InvalidInputError('superseded_by is allowed only with status superseded');
      return null;
    }
    if (supersededBy === null) throw new InvalidInputError('status superseded requires superseded_by: the id of the ADR that replaces this one');
    if (supersededBy === adrId) throw new InvalidInputError('an ADR cannot supersede itself');
    const [target] = await tx.query<{ status: AdrStatus }>('SELECT status FROM adrs WHERE project_id = $1 AND id = $2', [projectId, supersededBy]);
    if (!target) throw new InvalidInputError('superseded_by must be the id of an ADR of the same project');
    if (!REPLACEMENT_STATUSES.includes(target.status)) {
      throw new InvalidInputError(`superseded_by must name a proposed or accepted ADR; that one is ${target.status}`);
    }
    return supersededBy;
  }
}
