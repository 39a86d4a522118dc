// Project members: listing, role changes and removal under the last-owner rule (spec sections 3-5).
// Every change runs in one transaction that first locks the project row, so membership changes of
// one project happen one at a time: two owners demoting each other cannot both see "another owner
// remains" and leave the project without one.
import type { ProjectMember, UpdatedMember, UpdateMemberRoleInput } from '../api/members.js';
import type { Database, Sql } from '../store/database.js';
import { ProjectAccess, type AccessLevel, type ProjectRole } from './access.js';
import type { Actor } from './actor.js';
import { ConflictError, ForbiddenError, NotFoundError } from './errors.js';
import { iso } from './time.js';

interface MemberRow extends Record<string, unknown> {
  id: string;
  project_id: string;
  user_id: string;
  role: ProjectRole;
  created_at: Date;
}

/**
 * Inside a transaction: locks the project row (NotFoundError when it does not exist) and checks
 * the actor's role on the same connection, so the check and the change see the same state.
 * `FOR NO KEY UPDATE` serialises membership changes without blocking rows that merely reference
 * the project (repositories, jobs, ...).
 */
export async function lockProjectFor(tx: Sql, actor: Actor, projectId: string, level: AccessLevel): Promise<ProjectRole> {
  const rows = await tx.query('SELECT id FROM projects WHERE id = $1 FOR NO KEY UPDATE', [projectId]);
  if (rows.length === 0) throw new NotFoundError('project');
  return new ProjectAccess(tx).require(actor, projectId, level);
}

async function memberOf(tx: Sql, projectId: string, userId: string): Promise<MemberRow> {
  const [row] = await tx.query<MemberRow>('SELECT id, project_id, user_id, role, created_at FROM project_members WHERE project_id = $1 AND user_id = $2', [
    projectId,
    userId,
  ]);
  if (!row) throw new NotFoundError('member');
  return row;
}

async function ownerCount(tx: Sql, projectId: string): Promise<number> {
  const [row] = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM project_members WHERE project_id = $1 AND role = 'owner'", [projectId]);
  return row?.n ?? 0;
}

function wire(row: MemberRow): ProjectMember {
  return {
    id: row.id,
    project_id: row.project_id,
    user_id: row.user_id,
    role: row.role,
    created_at: iso(row.created_at),
  };
}

export class MemberService {
  constructor(
    private readonly db: Database,
    private readonly access: ProjectAccess,
  ) {}

  /** Every member of the project, oldest membership first. */
  async list(actor: Actor, projectId: string): Promise<ProjectMember[]> {
    await this.access.require(actor, projectId);
    const rows = await this.db.query<MemberRow>(
      'SELECT id, project_id, user_id, role, created_at FROM project_members WHERE project_id = $1 ORDER BY created_at, id',
      [projectId],
    );
    return rows.map(wire);
  }

  /** Owners only. Setting the current role again is a no-op success; demoting the last owner is a conflict. */
  async updateRole(actor: Actor, projectId: string, userId: string, input: UpdateMemberRoleInput): Promise<UpdatedMember> {
    await this.db.transaction(async (tx) => {
      await lockProjectFor(tx, actor, projectId, 'owner');
      const target = await memberOf(tx, projectId, userId);
      if (target.role === input.role) return;
      if (target.role === 'owner' && (await ownerCount(tx, projectId)) <= 1) {
        throw new ConflictError('cannot demote the last owner of the project; make another member an owner first');
      }
      await tx.query('UPDATE project_members SET role = $3 WHERE project_id = $1 AND user_id = $2', [projectId, userId, input.role]);
    });
    return { status: 'updated' };
  }

  /**
   * Owners may remove anyone; a plain member may remove only themselves (leave the project).
   * Removing the last owner — including an owner leaving alone — is a conflict.
   */
  async remove(actor: Actor, projectId: string, userId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const role = await lockProjectFor(tx, actor, projectId, 'member');
      if (role !== 'owner' && userId !== actor.userId) throw new ForbiddenError();
      const target = await memberOf(tx, projectId, userId);
      if (target.role === 'owner' && (await ownerCount(tx, projectId)) <= 1) {
        throw new ConflictError('cannot remove the last owner of the project; make another member an owner first');
      }
      await tx.query('DELETE FROM project_members WHERE project_id = $1 AND user_id = $2', [projectId, userId]);
    });
  }
}
