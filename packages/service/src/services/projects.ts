// Projects: the top-level unit. The creator becomes the owner; a caller sees only projects it
// is a member of, each with its own role.
import { randomUUID } from 'node:crypto';
import type { CreateProjectInput, Project, UpdateProjectInput } from '../api/projects.js';
import type { Database } from '../store/database.js';
import { sqlState, UNIQUE_VIOLATION } from '../store/database.js';
import type { ProjectAccess, ProjectRole } from './access.js';
import type { Actor } from './actor.js';
import { ConflictError } from './errors.js';
import { iso } from './time.js';

interface ProjectRow extends Record<string, unknown> {
  id: string;
  name: string;
  key: string;
  description: string;
  settings: Record<string, unknown>;
  role: ProjectRole;
  created_at: Date;
  updated_at: Date;
}

const SELECT = `SELECT p.id, p.name, p.key, p.description, p.settings, m.role, p.created_at, p.updated_at
                  FROM projects p JOIN project_members m ON m.project_id = p.id AND m.user_id = $1`;

function wire(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    key: row.key,
    description: row.description,
    settings: row.settings,
    user_role: row.role,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export class ProjectService {
  constructor(
    private readonly db: Database,
    private readonly access: ProjectAccess,
  ) {}

  async list(actor: Actor): Promise<Project[]> {
    const rows = await this.db.query<ProjectRow>(`${SELECT} ORDER BY p.created_at, p.id`, [actor.userId]);
    return rows.map(wire);
  }

  async get(actor: Actor, projectId: string): Promise<Project> {
    await this.access.require(actor, projectId);
    const [row] = await this.db.query<ProjectRow>(`${SELECT} WHERE p.id = $2`, [actor.userId, projectId]);
    return wire(row!);
  }

  async create(actor: Actor, input: CreateProjectInput): Promise<Project> {
    const id = randomUUID();
    try {
      await this.db.transaction(async (tx) => {
        await tx.query('INSERT INTO projects (id, name, key, description) VALUES ($1, $2, $3, $4)', [id, input.name, input.key, input.description ?? '']);
        await tx.query("INSERT INTO project_members (id, project_id, user_id, role) VALUES ($1, $2, $3, 'owner')", [randomUUID(), id, actor.userId]);
      });
    } catch (error) {
      if (sqlState(error) === UNIQUE_VIOLATION) throw new ConflictError(`a project with key '${input.key}' already exists`);
      throw error;
    }
    return this.get(actor, id);
  }

  async update(actor: Actor, projectId: string, input: UpdateProjectInput): Promise<Project> {
    await this.access.require(actor, projectId);
    await this.db.query(
      `UPDATE projects SET name = COALESCE($2, name), description = COALESCE($3, description),
              settings = COALESCE($4, settings), updated_at = now()
        WHERE id = $1`,
      [projectId, input.name ?? null, input.description ?? null, input.settings ?? null],
    );
    return this.get(actor, projectId);
  }

  async delete(actor: Actor, projectId: string): Promise<void> {
    await this.access.require(actor, projectId, 'owner');
    await this.db.query('DELETE FROM projects WHERE id = $1', [projectId]);
  }
}
