// Dismiss rules of a project: list, create (applied at once to the existing issues and to every
// later run) and delete (what the rule suppressed comes back unless another rule still hides it).
// Matching is `compileDismissRule` in issue-records.ts.
import { randomUUID } from 'node:crypto';
import type { CreateDismissRuleInput, DismissRule } from '../api/issues.js';
import type { Database } from '../store/database.js';
import type { ProjectAccess } from './access.js';
import type { Actor } from './actor.js';
import { NotFoundError } from './errors.js';
import { applyDismissRules, lockProjectIssues } from './issue-records.js';
import { iso } from './time.js';

interface RuleRow extends Record<string, unknown> {
  id: string;
  source_type: DismissRule['source_type'];
  rule_pattern: string;
  secondary_pattern: string | null;
  scope: DismissRule['scope'];
  file_path: string;
  action: DismissRule['action'];
  reason: string;
  match_count: number;
  created_at: Date;
}

const COLUMNS = 'id, source_type, rule_pattern, secondary_pattern, scope, file_path, action, reason, match_count, created_at';

const wire = (row: RuleRow): DismissRule => ({ ...row, created_at: iso(row.created_at) });

export class DismissRuleService {
  constructor(
    private readonly db: Database,
    private readonly access: ProjectAccess,
  ) {}

  /** Newest first. */
  async list(actor: Actor, projectId: string): Promise<DismissRule[]> {
    await this.access.require(actor, projectId);
    const rows = await this.db.query<RuleRow>(`SELECT ${COLUMNS} FROM dismiss_rules WHERE project_id = $1 ORDER BY created_at DESC, id DESC`, [projectId]);
    return rows.map(wire);
  }

  async create(actor: Actor, projectId: string, input: CreateDismissRuleInput): Promise<DismissRule> {
    await this.access.require(actor, projectId);
    return this.db.transaction(async (tx) => {
      await lockProjectIssues(tx, projectId);
      const [row] = await tx.query<RuleRow>(
        `INSERT INTO dismiss_rules (id, project_id, source_type, rule_pattern, secondary_pattern, scope, file_path, action, reason, created_by_user_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
        [
          randomUUID(),
          projectId,
          input.source_type ?? null,
          input.rule_pattern,
          input.secondary_pattern ?? null,
          input.scope,
          input.scope === 'file' ? (input.file_path ?? '') : '',
          input.action,
          input.reason,
          actor.userId,
        ],
      );
      // The new rule is the newest, so it can only change issues that are active now.
      await applyDismissRules(tx, projectId, { activeOnly: true });
      return wire(row!);
    });
  }

  async delete(actor: Actor, projectId: string, ruleId: string): Promise<void> {
    await this.access.require(actor, projectId);
    await this.db.transaction(async (tx) => {
      await lockProjectIssues(tx, projectId);
      const deleted = await tx.query('DELETE FROM dismiss_rules WHERE project_id = $1 AND id = $2 RETURNING id', [projectId, ruleId]);
      if (deleted.length === 0) throw new NotFoundError('dismiss rule');
      await applyDismissRules(tx, projectId, { dismissedByRuleId: ruleId });
    });
  }
}
