// Project access: who may read or change a project. Memberships are the only source; an API key
// reaches exactly the projects of its user, with the same role.
import type { Sql } from '../store/database.js';
import type { Actor } from './actor.js';
import { ForbiddenError, NotFoundError } from './errors.js';

export type ProjectRole = 'owner' | 'member';
/** What a route needs: any member, or an owner. */
export type AccessLevel = 'member' | 'owner';

export class ProjectAccess {
  constructor(private readonly db: Sql) {}

  /** The actor's role in the project; NotFoundError when the project does not exist, ForbiddenError when not a member. */
  async require(actor: Actor, projectId: string, level: AccessLevel = 'member'): Promise<ProjectRole> {
    const rows = await this.db.query<{ role: ProjectRole | null }>(
      `SELECT m.role FROM projects p
         LEFT JOIN project_members m ON m.project_id = p.id AND m.user_id = $2
        WHERE p.id = $1`,
      [projectId, actor.userId],
    );
    if (rows.length === 0) throw new NotFoundError('project');
    const role = rows[0]!.role;
    if (!role) throw new ForbiddenError();
    if (level === 'owner' && role !== 'owner') throw new ForbiddenError();
    return role;
  }
}
