// Invitations: a project member invites an email address; the user with that address accepts
// with their own key and becomes a member with the invited role (spec sections 2-5).
// Decisions where the spec is silent:
// - inviting as `owner` needs the owner role (otherwise a member could grant what only an owner
//   may grant through PATCH member role);
// - a new invitation to an address with a pending one supersedes it (the old one becomes
//   `revoked`), so a wrong role or an expiring invitation is fixed by inviting again;
// - expiry is checked against the database clock; an expired invitation answers 409 and is
//   marked `expired`.
import { randomUUID } from 'node:crypto';
import type { AcceptedInvitation, CreateInvitationInput, Invitation, InvitationStatus } from '../api/members.js';
import type { Database } from '../store/database.js';
import type { ProjectRole } from './access.js';
import type { Actor } from './actor.js';
import { ConflictError, ForbiddenError, NotFoundError } from './errors.js';
import { lockProjectFor } from './members.js';
import { iso } from './time.js';

interface InvitationRow extends Record<string, unknown> {
  id: string;
  project_id: string;
  email: string;
  role: ProjectRole;
  invited_by_user_id: string;
  status: InvitationStatus;
  expires_at: Date;
  created_at: Date;
}

const COLUMNS = 'id, project_id, email, role, invited_by_user_id, status, expires_at, created_at';

function wire(row: InvitationRow): Invitation {
  return {
    id: row.id,
    project_id: row.project_id,
    email: row.email,
    role: row.role,
    invited_by_user_id: row.invited_by_user_id,
    status: row.status,
    expires_at: iso(row.expires_at),
    created_at: iso(row.created_at),
  };
}

/** Why an invitation can no longer be accepted (409 messages). */
const REFUSED: Record<Exclude<InvitationStatus, 'pending'>, string> = {
  accepted: 'invitation already accepted',
  expired: 'invitation expired',
  revoked: 'invitation was superseded by a newer invitation to the same address',
};

type AcceptOutcome = { accepted: AcceptedInvitation } | { refused: string };

export class InvitationService {
  constructor(
    private readonly db: Database,
    private readonly ttlDays: number,
  ) {
    if (!(ttlDays > 0)) throw new RangeError(`invitationTtlDays must be a positive number of days, got ${ttlDays}`);
  }

  async create(actor: Actor, projectId: string, input: CreateInvitationInput): Promise<Invitation> {
    const email = input.email.trim();
    const role = input.role ?? 'member';
    const row = await this.db.transaction(async (tx) => {
      const callerRole = await lockProjectFor(tx, actor, projectId, 'member');
      if (role === 'owner' && callerRole !== 'owner') throw new ForbiddenError();
      const members = await tx.query(
        `SELECT 1 FROM project_members m JOIN users u ON u.id = m.user_id
          WHERE m.project_id = $1 AND lower(u.email) = lower($2)`,
        [projectId, email],
      );
      if (members.length > 0) throw new ConflictError(`${email} is already a member of this project`);
      await tx.query(
        `UPDATE invitations SET status = CASE WHEN expires_at <= now() THEN 'expired' ELSE 'revoked' END
          WHERE project_id = $1 AND lower(email) = lower($2) AND status = 'pending'`,
        [projectId, email],
      );
      const [inserted] = await tx.query<InvitationRow>(
        `INSERT INTO invitations (id, project_id, email, role, invited_by_user_id, status, expires_at)
         VALUES ($1, $2, $3, $4, $5, 'pending', now() + make_interval(secs => $6::double precision))
         RETURNING ${COLUMNS}`,
        [randomUUID(), projectId, email, role, actor.userId, this.ttlDays * 86_400],
      );
      return inserted!;
    });
    return wire(row);
  }

  /**
   * Only the invited user may accept: the caller's email must equal the invited address
   * (case-insensitively), else 403 — checked before anything about the invitation's state is
   * revealed. Accepting never lowers a role the caller already holds.
   */
  async accept(actor: Actor, invitationId: string): Promise<AcceptedInvitation> {
    const outcome = await this.db.transaction<AcceptOutcome>(async (tx) => {
      // Lock order is project row, then invitation row — the same as `create` — so the two never deadlock.
      const [found] = await tx.query<{ project_id: string }>('SELECT project_id FROM invitations WHERE id = $1', [invitationId]);
      if (!found) throw new NotFoundError('invitation');
      await tx.query('SELECT id FROM projects WHERE id = $1 FOR NO KEY UPDATE', [found.project_id]);
      const [invitation] = await tx.query<InvitationRow & { email_matches: boolean; past_expiry: boolean }>(
        `SELECT ${COLUMNS}, lower(email) = lower($2) AS email_matches, expires_at <= now() AS past_expiry
           FROM invitations WHERE id = $1 FOR UPDATE`,
        [invitationId, actor.email],
      );
      if (!invitation) throw new NotFoundError('invitation');
      if (!invitation.email_matches) throw new ForbiddenError();
      if (invitation.status !== 'pending') return { refused: REFUSED[invitation.status] };
      if (invitation.past_expiry) {
        // Recorded (the transaction commits) before the refusal is reported.
        await tx.query("UPDATE invitations SET status = 'expired' WHERE id = $1", [invitationId]);
        return { refused: REFUSED.expired };
      }
      const [member] = await tx.query<{ role: ProjectRole }>(
        `INSERT INTO project_members (id, project_id, user_id, role) VALUES ($1, $2, $3, $4)
         ON CONFLICT (project_id, user_id) DO UPDATE
           SET role = CASE WHEN project_members.role = 'owner' THEN 'owner' ELSE EXCLUDED.role END
         RETURNING role`,
        [randomUUID(), invitation.project_id, actor.userId, invitation.role],
      );
      await tx.query("UPDATE invitations SET status = 'accepted', accepted_by_user_id = $2, accepted_at = now() WHERE id = $1", [invitationId, actor.userId]);
      return { accepted: { status: 'accepted', project_id: invitation.project_id, role: member!.role } };
    });
    if ('refused' in outcome) throw new ConflictError(outcome.refused);
    return outcome.accepted;
  }
}
