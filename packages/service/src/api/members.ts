// Wire schemas of project members and invitations (spec section 2, "Project member" and
// "Invitation"; section 4, "Projects").
import { z } from 'zod';
import { ProjectRoleSchema, Timestamp, Uuid } from './common.js';

export const ProjectMemberSchema = z
  .object({
    id: Uuid,
    project_id: Uuid,
    user_id: Uuid,
    role: ProjectRoleSchema,
    created_at: Timestamp,
  })
  .meta({ id: 'ProjectMember' });
export type ProjectMember = z.infer<typeof ProjectMemberSchema>;

/** `pending` on creation; `accepted` once used; `expired` when refused after `expires_at`; `revoked` when superseded. */
export const InvitationStatusSchema = z.enum(['pending', 'accepted', 'expired', 'revoked']);
export type InvitationStatus = z.infer<typeof InvitationStatusSchema>;

export const InvitationSchema = z
  .object({
    id: Uuid,
    project_id: Uuid,
    email: z.string().meta({ description: 'invited address' }),
    role: ProjectRoleSchema,
    invited_by_user_id: Uuid,
    status: InvitationStatusSchema,
    expires_at: Timestamp,
    created_at: Timestamp,
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof InvitationSchema>;

export const CreateInvitationBody = z
  .object({
    email: z.email({ error: 'email must be a valid email address' }).max(320),
    role: ProjectRoleSchema.default('member').meta({ description: '`owner` or `member`, default `member`' }),
  })
  .strict()
  .meta({ id: 'CreateInvitationRequest' });
export type CreateInvitationInput = z.infer<typeof CreateInvitationBody>;

export const UpdateMemberRoleBody = z.object({ role: ProjectRoleSchema }).strict().meta({ id: 'UpdateMemberRoleRequest' });
export type UpdateMemberRoleInput = z.infer<typeof UpdateMemberRoleBody>;

export const UpdatedMemberSchema = z.object({ status: z.literal('updated') }).meta({ id: 'MemberRoleUpdated' });
export type UpdatedMember = z.infer<typeof UpdatedMemberSchema>;

export const AcceptedInvitationSchema = z
  .object({
    status: z.literal('accepted'),
    project_id: Uuid,
    role: ProjectRoleSchema.meta({ description: "the caller's role in the project after accepting" }),
  })
  .meta({ id: 'AcceptedInvitation' });
export type AcceptedInvitation = z.infer<typeof AcceptedInvitationSchema>;
